import BridgeCore
import Foundation
import GBGBridgeInspector
import InspectorAgent
import ThreadSupport

/// How the inspector sees the host in an adapter-cost run.
enum InspectionSetup: String, CaseIterable {
    /// `host.startInspector(...)`: BridgeCore's own change stream.
    case native
    /// `GBGBridgeInspector.start(api: host, ...)` with a ``PageTapTransport`` reporting what the
    /// host sends: the host seen only through GBGBridge's public API, as an app embedding GBGBridge.
    case publicAPI = "public API"
}

/// The kinds of message whose cost to the app's main thread is measured.
enum AdapterMessageKind: String, CaseIterable {
    /// A request no handler takes: it lands in `pendingRequests`.
    case pendingRequest = "received request -> pending"
    /// An event from the journey.
    case receivedEvent = "received event"
    /// The app answering a pending request (`respond(to:status:data:error:)`).
    case sentResponse = "sent response"
    /// The app sending an event (`send(event:data:)`).
    case sentEvent = "sent event"

    /// The key used in the JSON report.
    var key: String {
        switch self {
        case .pendingRequest: return "pending_request"
        case .receivedEvent: return "received_event"
        case .sentResponse: return "sent_response"
        case .sentEvent: return "sent_event"
        }
    }
}

/// What one kind of message cost the main thread in one run.
struct MessageCost {
    /// Wall time of the app's call (`receive`, `respond`, `send`) on the main thread, per message.
    var p50Nanoseconds: Double
    var p99Nanoseconds: Double
    /// Main-thread CPU time per message inside the call (not the main-actor work it queued:
    /// for a received message the adapter queues one more ``PublicAPIHost/refresh()``, whose
    /// cost is the poll figure).
    var cpuNanoseconds: Double
}

/// The cost of one poll of the public properties (``PublicAPIHost/refresh()``) when nothing changed.
struct PollCost {
    var pending: Int
    var received: Int
    var p50Nanoseconds: Double
    var p99Nanoseconds: Double
    var meanNanoseconds: Double
    /// The share of the main thread polling takes at the adapter's poll interval.
    var mainThreadPercent: Double
}

/// The app's main-thread cost per message for the native agent and for the GBGBridge public-API
/// adapter, side by side: the same host, the same messages, one following client attached.
@MainActor
struct AdapterBench {
    let scratch: ScratchDirectory
    let limits: AgentLimits
    /// Requests held pending at once before the app answers them (below the host's warning threshold).
    static let pendingBatch = 40
    private static let runCounter = Locked(0)

    /// One run of `count` messages of each kind through a fresh host inspected by `setup`.
    func run(_ setup: InspectionSetup, count: Int) async throws -> [AdapterMessageKind: MessageCost] {
        let served = try await ServedHost(setup, socketPath: scratch.file("adapter\(Self.nextRun()).sock"), limits: limits)
        defer { served.stop() }
        let host = served.host
        var timings: [AdapterMessageKind: [UInt64]] = [:]
        var cpu: [AdapterMessageKind: UInt64] = [:]

        /// Times each call (wall clock) and the batch (the thread's CPU clock).
        func measure(_ kind: AdapterMessageKind, _ indices: Range<Int>, _ call: (Int) -> Void) async {
            let cpuStart = threadCPUNanoseconds()
            for index in indices {
                let start = monotonicNanoseconds()
                call(index)
                timings[kind, default: []].append(monotonicNanoseconds() &- start)
            }
            let cpuEnd = threadCPUNanoseconds()
            cpu[kind, default: 0] += cpuEnd >= cpuStart ? cpuEnd - cpuStart : 0
            // Let the work the calls queued on the main actor run (not measured: after a
            // suspension the main actor may resume on another thread, whose CPU clock differs).
            for _ in 0..<4 { await Task.yield() }
        }

        var base = 0
        while base < count {
            let batch = base..<min(count, base + Self.pendingBatch)
            let ids = batch.map { "p-\($0)" }
            await measure(.pendingRequest, batch) { host.receive(Self.pendingRequest(id: "p-\($0)", index: $0)) }
            guard host.pendingRequests.count == ids.count else {
                throw BenchError("\(setup.rawValue): \(host.pendingRequests.count) requests pending, expected \(ids.count)")
            }
            await measure(.receivedEvent, batch) { host.receive(Data(Workload.message($0 * Workload.requestEvery, prefix: "e").utf8)) }
            await measure(.sentResponse, batch) { host.respond(to: ids[$0 - batch.lowerBound], status: .success, data: Self.responseData) }
            await measure(.sentEvent, batch) { host.send(event: "bench.progress", data: ["step": .number(Double($0 % 7)), "ok": .bool(true)]) }
            base = batch.upperBound
        }
        guard host.pendingRequests.isEmpty, served.transport.deliveries >= 2 * count else {
            throw BenchError("\(setup.rawValue): the host delivered \(served.transport.deliveries) of \(2 * count) messages")
        }
        if let adapter = served.adapter, adapter.sentReports < 2 * count {
            throw BenchError("the page tap reported \(adapter.sentReports) of \(2 * count) sent messages")
        }
        var costs: [AdapterMessageKind: MessageCost] = [:]
        for kind in AdapterMessageKind.allCases {
            let sorted = (timings[kind] ?? []).sorted()
            costs[kind] = MessageCost(
                p50Nanoseconds: percentile(sorted, 0.5), p99Nanoseconds: percentile(sorted, 0.99),
                cpuNanoseconds: Double(cpu[kind] ?? 0) / Double(max(1, sorted.count)))
        }
        return costs
    }

    /// `calls` polls (``PublicAPIHost/refresh()``) of a host holding `pending` pending requests and
    /// `received` received messages, with one following client attached, when nothing changes.
    func pollCost(calls: Int, pending: Int, received: Int) async throws -> PollCost {
        let served = try await ServedHost(.publicAPI, socketPath: scratch.file("poll\(Self.nextRun()).sock"), limits: limits)
        defer { served.stop() }
        guard let adapter = served.adapter else { throw BenchError("no adapter") }
        let host = served.host
        host.pendingRequestWarningThreshold = max(host.pendingRequestWarningThreshold, pending + 1)
        for index in 0..<max(0, received - pending) {
            host.receive(Data(Workload.message(index * Workload.requestEvery, prefix: "e").utf8))
        }
        for index in 0..<pending { host.receive(Self.pendingRequest(id: "p-\(index)", index: index)) }
        for _ in 0..<4 { await Task.yield() }
        guard host.pendingRequests.count == pending, host.receivedMessages.count == received else {
            throw BenchError("the poll state is \(host.pendingRequests.count) pending, \(host.receivedMessages.count) received")
        }
        var timings: [UInt64] = []
        timings.reserveCapacity(calls)
        for index in 0..<calls {
            let start = monotonicNanoseconds()
            adapter.refresh()
            timings.append(monotonicNanoseconds() &- start)
            if index & 255 == 255 { await Task.yield() }
        }
        let sorted = timings.sorted()
        let mean = Double(sorted.reduce(0, +)) / Double(max(1, sorted.count))
        let interval = adapter.pollInterval.components
        let intervalNanoseconds = Double(interval.seconds) * 1e9 + Double(interval.attoseconds) / 1e9
        return PollCost(
            pending: pending, received: received, p50Nanoseconds: percentile(sorted, 0.5), p99Nanoseconds: percentile(sorted, 0.99),
            meanNanoseconds: mean, mainThreadPercent: mean / intervalNanoseconds * 100)
    }

    private static func nextRun() -> Int {
        runCounter.withLock { value -> Int in
            value += 1
            return value
        }
    }

    /// A request for an action nobody handles, of the workload's size.
    static func pendingRequest(id: String, index: Int) -> Data {
        Data((#"{"version":"1.0","correlationId":"\#(id)","type":"request","timestamp":\#(1_732_240_000_000 + index),"#
            + #""payload":{"action":"nfc.read","data":{"documentType":"passport","reason":"journey-start","#
            + #""sessionId":"b7e4c2a0-5d1f-4e3a-9c8b-2f6a1d0e9b47","attempt":\#(index % 3 + 1)}}}"#).utf8)
    }

    static let responseData: [String: JSONValue] = ["uid": .string("04A2B3C4"), "documentNumber": .string("123456789"), "ok": .bool(true)]
}

/// A bench host with a journey attached and an inspector serving it by one path, with one
/// following client attached (so the agent does all its work).
@MainActor
private final class ServedHost {
    let host = BridgeHost(hostVersion: "1.0.0")
    let transport = DiscardingTransport()
    private(set) var adapter: PublicAPIHost<BridgeHost>?
    private var agent: InspectorAgent?
    private var inspector: GBGBridgeInspector<BridgeHost>?
    private var tap: PageTapTransport?
    private let client = FollowingClient()

    init(_ setup: InspectionSetup, socketPath: String, limits: AgentLimits) async throws {
        host.attach(transport)
        switch setup {
        case .native:
            agent = try host.startInspector(name: "bench", socketPath: socketPath, limits: limits)
        case .publicAPI:
            let inspector = try GBGBridgeInspector.start(api: host, hostVersion: "1.0.0", name: "bench", socketPath: socketPath, limits: limits)
            let adapter = inspector.adapter
            // The page script's stand-in: the host holds transports weakly, so it is kept here.
            let tap = PageTapTransport(wrapping: transport) { [weak adapter] json in adapter?.reportSent(json: json) }
            host.attach(tap)
            adapter.reportPageLoaded()
            self.inspector = inspector
            self.adapter = adapter
            self.tap = tap
        }
        client.start(socketPath: socketPath)
        let client = client
        guard await waitUntil(timeout: 10, { client.status.current.ready || client.status.current.finished }), client.status.current.ready else {
            stop()
            throw BenchError("the following client did not attach: \(client.status.current.error ?? "timed out")")
        }
    }

    func stop() {
        client.stop()
        inspector?.stop()
        agent?.stop()
    }
}

/// The value at `fraction` (0...1) of sorted samples (0 when there are none).
func percentile(_ sorted: [UInt64], _ fraction: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let index = min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))
    return Double(sorted[index])
}

/// The adapter figures of a whole benchmark run: alternated runs of both setups, medians, and
/// the public-API/native ratio of each round (paired, as the host-throughput ratios are).
struct AdapterFigures {
    var messagesPerRun: Int
    var runs: Int
    /// Median over runs, per setup and kind.
    var costs: [InspectionSetup: [AdapterMessageKind: MessageCost]] = [:]
    /// Median over rounds of public-API CPU / native CPU, per kind.
    var cpuRatio: [AdapterMessageKind: Double] = [:]
    var poll: PollCost

    /// Measures: `runs` rounds (the setups alternate), after one warm-up run of each.
    @MainActor
    static func measure(_ bench: AdapterBench, messages: Int, runs: Int, pollCalls: Int) async throws -> AdapterFigures {
        for setup in InspectionSetup.allCases { _ = try await bench.run(setup, count: min(messages, 400)) }
        var all: [InspectionSetup: [[AdapterMessageKind: MessageCost]]] = [:]
        for round in 0..<runs {
            let order = round % 2 == 0 ? InspectionSetup.allCases : InspectionSetup.allCases.reversed()
            for setup in order {
                BridgeInspectorBench.progress("adapter cost run \(round + 1)/\(runs): \(setup.rawValue)")
                all[setup, default: []].append(try await bench.run(setup, count: messages))
            }
        }
        BridgeInspectorBench.progress("adapter poll: \(pollCalls) calls of refresh() with 50 pending, 200 received")
        let poll = try await bench.pollCost(calls: pollCalls, pending: 50, received: 200)
        var figures = AdapterFigures(messagesPerRun: messages, runs: runs, poll: poll)
        for setup in InspectionSetup.allCases {
            for kind in AdapterMessageKind.allCases {
                let samples = all[setup, default: []].compactMap { $0[kind] }
                figures.costs[setup, default: [:]][kind] = MessageCost(
                    p50Nanoseconds: median(samples.map(\.p50Nanoseconds)), p99Nanoseconds: median(samples.map(\.p99Nanoseconds)),
                    cpuNanoseconds: median(samples.map(\.cpuNanoseconds)))
            }
        }
        for kind in AdapterMessageKind.allCases {
            let top = all[.publicAPI, default: []].compactMap { $0[kind]?.cpuNanoseconds }
            let bottom = all[.native, default: []].compactMap { $0[kind]?.cpuNanoseconds }
            figures.cpuRatio[kind] = median(zip(top, bottom).map { $1 > 0 ? $0 / $1 : 0 })
        }
        return figures
    }

    func add(to report: inout Report) {
        for kind in AdapterMessageKind.allCases {
            for (setup, name) in [(InspectionSetup.native, "native"), (.publicAPI, "public_api")] {
                guard let cost = costs[setup]?[kind] else { continue }
                report.set("adapter_\(kind.key)_ns_cpu_\(name)", cost.cpuNanoseconds)
                report.set("adapter_\(kind.key)_ns_p50_\(name)", cost.p50Nanoseconds)
                report.set("adapter_\(kind.key)_ns_p99_\(name)", cost.p99Nanoseconds)
            }
            report.set("adapter_\(kind.key)_cpu_ratio_public_api_over_native", cpuRatio[kind] ?? 0)
        }
        report.set("adapter_poll_ns_p50", poll.p50Nanoseconds)
        report.set("adapter_poll_ns_p99", poll.p99Nanoseconds)
        report.set("adapter_poll_ns_mean", poll.meanNanoseconds)
        report.set("adapter_poll_main_thread_percent", poll.mainThreadPercent)
        report.set("adapter_messages_per_run", messagesPerRun)
        report.set("adapter_runs", runs)
    }

    func add(to table: inout Table) {
        func micro(_ nanoseconds: Double?) -> String { Format.fixed((nanoseconds ?? 0) / 1000, 2) }
        table.title("App main thread per message: native agent vs GBGBridge public-API adapter      µs")
        table.text("  (\(Format.count(Double(messagesPerRun))) messages of each kind per run, \(runs) alternated runs per setup, median; one following client)")
        for kind in AdapterMessageKind.allCases {
            let native = costs[.native]?[kind]
            let adapter = costs[.publicAPI]?[kind]
            table.row("\(kind.rawValue), CPU: native", micro(native?.cpuNanoseconds),
                "call p50 \(micro(native?.p50Nanoseconds)), p99 \(micro(native?.p99Nanoseconds))")
            table.row("\(kind.rawValue), CPU: public API", micro(adapter?.cpuNanoseconds),
                "call p50 \(micro(adapter?.p50Nanoseconds)), p99 \(micro(adapter?.p99Nanoseconds)); ratio public-api/native \(Format.fixed(cpuRatio[kind] ?? 0, 2))")
        }
        table.row("one poll, refresh(): \(poll.pending) pending, \(poll.received) received, p50", micro(poll.p50Nanoseconds),
            "p99 \(micro(poll.p99Nanoseconds)); native has no poll")
        table.row("  polling every 100 ms: share of the main thread", Format.fixed(poll.mainThreadPercent, 3) + " %")
    }
}
