import BridgeCore
import Foundation
import GBGBridgeInspector
import InspectorAgent
import InspectorClient
import InspectorProtocol
import InspectorTUI

/// A per-message path whose instructions `--instructions` counts, and the fixed workload that
/// runs it under callgrind (the hidden `--instructions-workload PATH --instructions-feed COUNT`).
///
/// Every workload makes the inputs for twice the base count (`--instruction-messages`) whatever
/// it feeds, so that making them costs the same in the run of N and the run of 2N and cancels
/// in the difference; and it never polls (a polling loop's instructions grow with the time it
/// waits): where it waits for another thread, it blocks on a semaphore.
///
/// A workload never suspends either: its whole work is synchronous on the main thread, which
/// callgrind counts as thread 1. (Once an async `main` suspends, the main thread parks in
/// libdispatch's `sigsuspend` on a read-only signal mask, which valgrind 3.19 writes to and
/// dies of; and main-actor work would then run on another thread.) On Linux the workload's
/// handler answers inside `receive` (`Task.immediate`), so nothing is left for the main actor.
enum InstructionPath: String, CaseIterable {
    /// The host alone: `host.receive` of each message on the host's thread, the handler's
    /// answer and its delivery to the journey.
    case hostReceive = "host-receive"
    /// The same with the agent started and a client following everything; the agent's and the
    /// client's threads are counted from this run too.
    case hostReceiveWithAgent = "host-receive-agent"
    /// The same with a second client that attaches, subscribes and then never reads: what a
    /// stalled client costs the host's thread and the agent's (its queue fills, then its gap
    /// grows). Paced on the following client as before.
    case hostReceiveWithAgentStalled = "host-receive-agent-stalled"
    /// A client's work per traffic line: `AgentFrame.decode(bytes:)` (the framer's line, as the client's connection decodes it) and
    /// `LiveState.apply`.
    case clientDecode = "client-decode"
    /// The TUI's work per traffic line: `AgentFrame.decode(bytes:)` and `InspectorModel.handle(.frame)`.
    case tuiIngest = "tui-ingest"
    /// The GBGBridge adapter's paths (``AdapterKind``): the app's main thread per message of one
    /// kind, with the native agent and through GBGBridge's public API.
    case adapterNativeRequestAnswered = "adapter-native-request-answered"
    case adapterPublicRequestAnswered = "adapter-public-request-answered"
    case adapterNativeReceivedEvent = "adapter-native-received-event"
    case adapterPublicReceivedEvent = "adapter-public-received-event"
    case adapterNativeSentEvent = "adapter-native-sent-event"
    case adapterPublicSentEvent = "adapter-public-sent-event"

    /// Messages fed between two `bench.done` markers in the host's workloads: the host waits
    /// for the following client to hold each marker before it goes on, so that the agent
    /// takes the messages in batches of the same size in every run.
    static let pace = 64

    /// Runs the workload: makes the inputs for `2 × base` messages, then feeds `feed` of them.
    @MainActor
    func run(base: Int, feed: Int, scratch: ScratchDirectory) throws {
        switch self {
        case .hostReceive:
            try Self.feedHost(base: base, feed: feed, follower: nil)
        case .hostReceiveWithAgent:
            try Self.feedHost(base: base, feed: feed, follower: scratch.file("i.sock"))
        case .hostReceiveWithAgentStalled:
            try Self.feedHost(base: base, feed: feed, follower: scratch.file("i.sock"), stalled: true)
        case .clientDecode:
            let lines = try TUIBench.trafficLines(templates: try TUIBench.Templates(), from: 1, count: 2 * base)
            var state = LiveState()
            try TUIBench.decodeAndApply(lines.prefix(feed), to: &state)
            guard state.log.count == min(feed, lines.count) else {
                throw BenchError("the client's state holds \(state.log.count) of \(feed) messages")
            }
        case .tuiIngest:
            var lines: [[UInt8]] = []
            var maker = TUIBench.IngestLines(templates: try TUIBench.Templates())
            try maker.append(upTo: 2 * base, to: &lines)
            var model = InspectorModel(size: TUIBench.size, socketPath: "/tmp/bench.sock", now: TUIBench.startTime)
            model.handle(.frame(try TUIBench.snapshotFrame()))
            for line in lines.prefix(feed) { model.handle(.frame(try AgentFrame.decode(bytes: line))) }
            guard model.live.log.count == min(feed, lines.count) else {
                throw BenchError("the TUI holds \(model.live.log.count) of \(feed) messages")
            }
        case .adapterNativeRequestAnswered, .adapterPublicRequestAnswered, .adapterNativeReceivedEvent, .adapterPublicReceivedEvent,
            .adapterNativeSentEvent, .adapterPublicSentEvent:
            guard let (kind, setup) = adapterCase else { throw BenchError("\(rawValue) is not an adapter path") }
            try Self.feedAdapter(kind, through: setup, base: base, feed: feed, socketPath: scratch.file("i.sock"))
        }
    }

    /// Feeds `feed` of the workload's messages to a host, a ``pace`` at a time, each batch
    /// followed by a `bench.done` event; with `follower` (a socket path), the agent is started
    /// there and a ``FollowingClient`` must hold each marker before the next batch; with
    /// `stalled`, a client that never reads is attached first.
    @MainActor
    private static func feedHost(base: Int, feed: Int, follower socketPath: String?, stalled: Bool = false) throws {
        let messages = Workload.messages(2 * base)
        let transport = DiscardingTransport()
        let host = makeBenchHost(transport: transport)
        var agent: InspectorAgent?
        var follower: FollowingClient?
        var stalledClient: InspectorSession?
        defer {
            agent?.stop()
            follower?.stop()
            stalledClient?.close()
        }
        if let socketPath {
            var limits = AgentLimits()
            limits.stalledClientSeconds = 3600
            agent = try host.startInspector(name: "bench", socketPath: socketPath, limits: limits)
            if stalled {
                // Subscribed once its snapshot arrives (the agent sends it when it takes the
                // client's hello): from then on every event is queued for it, and it reads no more.
                let session = try InspectorSession(socketPath: socketPath, subscribe: true, clientName: "bench-stalled", timeout: 600)
                stalledClient = session
                guard case .snapshot = try session.nextFrame(timeout: 600) else {
                    throw BenchError("the stalled client got no snapshot")
                }
            }
            let client = FollowingClient()
            follower = client
            client.start(socketPath: socketPath)
            try Self.block(on: client, "to attach")
        }
        var markers = 0
        for (index, message) in messages.prefix(feed).enumerated() {
            host.receive(message)
            if index % pace == pace - 1 || index == feed - 1 {
                host.send(event: FollowingClient.doneAction)
                markers += 1
                if let follower { try Self.block(on: follower, "to hold marker \(markers)") }
            }
        }
        let expected = Workload.requestCount(min(feed, messages.count))
        guard transport.responses == expected else {
            throw BenchError("the host answered \(transport.responses) of \(expected) requests inside receive: the workload would leave work to the main actor")
        }
        if let follower {
            // It held the last marker, so it holds everything.
            guard follower.status.current.gaps == 0 else {
                throw BenchError("the following client fell behind (\(follower.status.current.gaps) gaps): the counts would be of a different path")
            }
        }
    }

    /// Blocks the calling thread until `client` signals (it became ready or holds another
    /// marker), or fails after ten minutes (valgrind runs everything some 50 times slower).
    private static func block(on client: FollowingClient, _ what: String) throws {
        guard client.signals.wait(timeout: .now() + 600) == .success else {
            throw BenchError("the following client did not manage \(what): \(client.status.current.error ?? "timed out")")
        }
    }
}

/// The GBGBridge adapter's paths (issue 30): what each kind of message costs the app's main
/// thread with the native agent (`host.startInspector`) and with the public-API adapter
/// (`GBGBridgeInspector.start(api:)` and a ``PageTapTransport`` standing in for the page script),
/// as `--adapter-only` times them, counted instead. A following client is attached in both, so
/// the agent does all its work; the host waits for it to hold a marker after each batch, as the
/// host's workloads do.
extension InstructionPath {
    /// The kinds of message the adapter's paths feed, one kind per path.
    enum AdapterKind: String, CaseIterable {
        /// A request nobody handles lands in `pendingRequests`, and the app answers it
        /// (`respond(to:status:data:error:)`): counted as a pair, since answering is what empties
        /// `pendingRequests` again (both feeds must leave the host as they found it).
        case requestAnswered = "request_answered"
        /// An event from the journey.
        case receivedEvent = "received_event"
        /// The app sending an event (`send(event:data:)`).
        case sentEvent = "sent_event"

        /// In words, for the table.
        var label: String {
            switch self {
            case .requestAnswered: return "request pending, then answered"
            case .receivedEvent: return "received event"
            case .sentEvent: return "sent event"
            }
        }
    }

    /// The adapter path of `kind` through `setup`.
    static func adapter(_ kind: AdapterKind, _ setup: InspectionSetup) -> InstructionPath {
        switch (kind, setup) {
        case (.requestAnswered, .native): return .adapterNativeRequestAnswered
        case (.requestAnswered, .publicAPI): return .adapterPublicRequestAnswered
        case (.receivedEvent, .native): return .adapterNativeReceivedEvent
        case (.receivedEvent, .publicAPI): return .adapterPublicReceivedEvent
        case (.sentEvent, .native): return .adapterNativeSentEvent
        case (.sentEvent, .publicAPI): return .adapterPublicSentEvent
        }
    }

    /// The kind and setup of an adapter path; nil for the others.
    var adapterCase: (kind: AdapterKind, setup: InspectionSetup)? {
        for kind in AdapterKind.allCases {
            for setup in InspectionSetup.allCases where Self.adapter(kind, setup) == self { return (kind, setup) }
        }
        return nil
    }

    /// Feeds `feed` messages of `kind` to a host inspected through `setup`, in batches of
    /// ``AdapterBench/pendingBatch`` (as `--adapter-only` does: below the host's warning
    /// threshold for pending requests), each followed by a `bench.done` event that the following
    /// client must hold before the next batch. Nothing suspends, so the main-actor work the
    /// adapter queues (one more comparison after received messages, its polling) does not run:
    /// what is counted is the app's calls, as `--adapter-only` times them.
    @MainActor
    static func feedAdapter(_ kind: AdapterKind, through setup: InspectionSetup, base: Int, feed: Int, socketPath: String) throws {
        let requests = (0..<(2 * base)).map { AdapterBench.pendingRequest(id: "p-\($0)", index: $0) }
        let events = (0..<(2 * base)).map { Data(Workload.message($0 * Workload.requestEvery, prefix: "e").utf8) }
        let host = BridgeHost(hostVersion: "1.0.0")
        let transport = DiscardingTransport()
        host.attach(transport)
        var limits = AgentLimits()
        limits.stalledClientSeconds = 3600
        var agent: InspectorAgent?
        var inspector: GBGBridgeInspector<BridgeHost>?
        var tap: PageTapTransport?
        let follower = FollowingClient()
        defer {
            follower.stop()
            inspector?.stop()
            agent?.stop()
        }
        switch setup {
        case .native:
            agent = try host.startInspector(name: "bench", socketPath: socketPath, limits: limits)
        case .publicAPI:
            let started = try GBGBridgeInspector.start(api: host, hostVersion: "1.0.0", name: "bench", socketPath: socketPath, limits: limits)
            let adapter = started.adapter
            // The page script's stand-in: the host holds transports weakly, so it is kept here.
            let pageTap = PageTapTransport(wrapping: transport) { [weak adapter] json in adapter?.reportSent(json: json) }
            host.attach(pageTap)
            adapter.reportPageLoaded()
            inspector = started
            tap = pageTap
        }
        follower.start(socketPath: socketPath)
        try block(on: follower, "to attach")
        var markers = 0
        var base = 0
        while base < feed {
            let batch = base..<min(feed, base + AdapterBench.pendingBatch)
            switch kind {
            case .requestAnswered:
                for index in batch { host.receive(requests[index]) }
                guard host.pendingRequests.count == batch.count else {
                    throw BenchError("\(host.pendingRequests.count) requests pending, expected \(batch.count)")
                }
                for index in batch { host.respond(to: "p-\(index)", status: .success, data: AdapterBench.responseData) }
            case .receivedEvent:
                for index in batch { host.receive(events[index]) }
            case .sentEvent:
                for index in batch { host.send(event: "bench.progress", data: ["step": .number(Double(index % 7)), "ok": .bool(true)]) }
            }
            host.send(event: FollowingClient.doneAction)
            markers += 1
            try block(on: follower, "to hold marker \(markers)")
            base = batch.upperBound
        }
        let sent = (kind == .receivedEvent ? 0 : feed) + markers
        guard host.pendingRequests.isEmpty, transport.deliveries == sent else {
            throw BenchError("the host delivered \(transport.deliveries) of \(sent) messages, \(host.pendingRequests.count) left pending")
        }
        if let adapter = inspector?.adapter, adapter.sentReports != sent || adapter.unreadReports != 0 {
            throw BenchError("the page tap reported \(adapter.sentReports) of \(sent) sent messages (\(adapter.unreadReports) unread)")
        }
        guard follower.status.current.gaps == 0 else {
            throw BenchError("the following client fell behind (\(follower.status.current.gaps) gaps): the counts would be of a different path")
        }
        withExtendedLifetime(tap) {}
    }
}
