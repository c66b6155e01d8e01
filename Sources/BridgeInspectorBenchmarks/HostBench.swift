import BridgeCore
import Foundation
import InspectorAgent
import InspectorClient
import ThreadSupport

/// How the host is set up for one throughput run.
enum HostSetup: String, CaseIterable {
    /// The host alone: no observer, no delegate.
    case noAgent = "no agent"
    /// The inspector agent with one client that reads and decodes everything.
    case following = "agent + following client"
    /// The inspector agent with one client that did the handshake and never reads.
    case stalled = "agent + stalled client"
    /// No agent; a delegate prints every message to a file (what developers do today).
    case printLogging = "print-logging delegate"
    /// No agent, but a thread that only computes keeps the other core busy: a control that
    /// shows what any concurrent work costs the host's thread on this machine (shared caches,
    /// and virtual CPUs that may share a physical core), agent or not.
    case busyNeighbour = "no agent, other core busy (control)"
}

/// A thread that spins on arithmetic (no memory traffic, no locks) until stopped.
final class BusyNeighbour: @unchecked Sendable {
    private let stopRequested = Locked(false)
    private let finished = Locked(false)
    private(set) var sink: UInt64 = 0

    func start() {
        DedicatedThread.start(name: "bench-busy-neighbour", stackSize: 1 << 20) { [self] in
            var x: UInt64 = 1
            while !stopRequested.current {
                for _ in 0..<200_000 { x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 }
            }
            sink = x
            finished.withLock { $0 = true }
        }
    }

    func stop() {
        stopRequested.withLock { $0 = true }
        while !finished.current { usleep(100) }
    }
}

/// The outcome of one throughput run.
struct HostRun {
    var setup: HostSetup
    /// Messages per second through `host.receive`, until every response was delivered.
    var messagesPerSecond: Double
    /// Seconds until the host had processed everything.
    var hostSeconds: Double
    /// For a following client: seconds from the start until it held everything.
    var clientSeconds: Double?
    /// For a following client: gap markers it got (it fell behind and resynchronised).
    var clientGaps = 0
    /// For an agent: `heldBytes` at the end of the run.
    var heldBytes: Int?
    /// CPU time of the host's thread inside `host.receive`, per message.
    var receiveCPUMicrosPerMessage: Double = 0
    /// CPU time of the whole process per message while the host worked (all threads).
    var processCPUMicrosPerMessage: Double = 0
    /// For a following client: its thread's CPU time per message.
    var clientCPUMicrosPerMessage: Double?
    /// For a following client: the most event bytes the agent had queued for it (what the gap
    /// rule counts against `AgentLimits.maxQueuedBytesPerClient`), over the run.
    var clientBacklogMaxBytes: Int?
    /// For a following client: its thread's user and system time, voluntary context switches
    /// (wake-ups after waiting for input) and minor page faults, from ready to done.
    var clientResources: ThreadResourceUsage?
    /// For an agent: its thread's usage while the host worked and the client caught up (nil
    /// where `/proc` cannot be read).
    var agentThread: OtherThreadUsage?
}

/// Feeds the host the same messages in each setup and times it.
@MainActor
struct HostBench {
    let scratch: ScratchDirectory
    let limits: AgentLimits
    private static let runCounter = Locked(0)
    /// The name the agent gives its thread (`AgentLoop`).
    private static let agentThreadName = "bridge-inspector.agent"

    /// One run of `messages` through a fresh host in `setup`.
    func run(_ setup: HostSetup, messages: [Data]) async throws -> HostRun {
        let run = Self.runCounter.withLock { value -> Int in
            value += 1
            return value
        }
        let transport = DiscardingTransport()
        let host = makeBenchHost(transport: transport)
        let expectedResponses = Workload.requestCount(messages.count)

        var agent: InspectorAgent?
        var follower: FollowingClient?
        var stalled: InspectorSession?
        var printer: PrintLoggingDelegate?
        var neighbour: BusyNeighbour?
        var drainStop: Locked<Bool>?
        let socketPath = scratch.file("h\(run).sock")
        var agentThreadsBefore: Set<Int>?
        defer {
            agent?.stop()
            follower?.stop()
            stalled?.close()
            printer?.close()
            neighbour?.stop()
            drainStop?.withLock { $0 = true }
            try? FileManager.default.removeItem(atPath: scratch.file("print-\(run).log"))
        }

        switch setup {
        case .noAgent:
            break
        case .following:
            agentThreadsBefore = OtherThreadUsage.threadIds(named: Self.agentThreadName)
            agent = try host.startInspector(name: "bench", socketPath: socketPath, limits: limits)
            let client = FollowingClient()
            follower = client
            client.start(socketPath: socketPath)
            guard await waitUntil(timeout: 10, { client.status.current.ready || client.status.current.finished }),
                client.status.current.ready
            else {
                throw BenchError("the following client did not attach: \(client.status.current.error ?? "timed out")")
            }
        case .stalled:
            agent = try host.startInspector(name: "bench", socketPath: socketPath, limits: limits)
            stalled = try InspectorSession(socketPath: socketPath, subscribe: true, clientName: "bench-stalled")
            // Let the agent take the client's hello and queue its snapshot.
            try? await Task.sleep(for: .milliseconds(50))
        case .printLogging:
            let delegate = try PrintLoggingDelegate(path: scratch.file("print-\(run).log"))
            printer = delegate
            host.delegate = delegate
        case .busyNeighbour:
            let mode = ProcessInfo.processInfo.environment["XMODE"] ?? "busy"
            if mode == "busy" {
                let busy = BusyNeighbour()
                neighbour = busy
                busy.start()
            } else if mode == "null" {
                host.addObserver { _ in }
            } else {
                let queue = Locked<[BridgeChange]>([])
                host.addObserver { change in queue.withLock { $0.append(change) } }
                let stop = Locked(false)
                DedicatedThread.start(name: "bench-drain", stackSize: 1 << 20) {
                    while !stop.current {
                        let items = queue.withLock { q -> [BridgeChange] in let t = q; q = []; return t }
                        _ = items.count
                        usleep(200)
                    }
                }
                drainStop = stop
            }
        }

        // The agent's thread is the one it started (it has named itself by the time the client
        // attached: the handshake runs on it); older ones may still be ending.
        let newAgentThreads = agentThreadsBefore.map { OtherThreadUsage.threadIds(named: Self.agentThreadName).subtracting($0) }
        let agentThreadId = newAgentThreads.flatMap { $0.count == 1 ? $0.first : nil }
        let agentStart = agentThreadId.flatMap { OtherThreadUsage.of(threadId: $0) }
        let start = monotonicNanoseconds()
        let cpuStart = processCPUNanoseconds()
        let receiveCPU = try await feed(host, messages)
        guard await waitUntil(timeout: 120, { transport.responses >= expectedResponses }) else {
            throw BenchError("the host sent \(transport.responses) of \(expectedResponses) responses")
        }
        let hostEnd = monotonicNanoseconds()
        let cpuEnd = processCPUNanoseconds()
        var result = HostRun(
            setup: setup, messagesPerSecond: Double(messages.count) / seconds(from: start, to: hostEnd),
            hostSeconds: seconds(from: start, to: hostEnd))
        result.processCPUMicrosPerMessage = Double(cpuEnd - cpuStart) / 1000 / Double(messages.count)
        result.receiveCPUMicrosPerMessage = Double(receiveCPU) / 1000 / Double(messages.count)

        if let follower {
            host.send(event: FollowingClient.doneAction)
            guard await follower.waitForDone(count: 1, timeout: 600), let doneAt = follower.status.current.doneAt else {
                throw BenchError("the following client did not receive everything: \(follower.status.current.error ?? "timed out")")
            }
            result.clientSeconds = seconds(from: start, to: doneAt)
            result.clientGaps = follower.status.current.gaps
            let status = follower.status.current
            result.clientCPUMicrosPerMessage = Double(status.cpuAtDone &- status.cpuAtReady) / 1000 / Double(messages.count)
            result.clientResources = status.resourcesAtDone.since(status.resourcesAtReady)
        }
        if let agentStart, let agentThreadId, let agentEnd = OtherThreadUsage.of(threadId: agentThreadId) {
            result.agentThread = agentEnd.since(agentStart)
        }
        if let agent {
            result.heldBytes = agent.heldBytes
            if follower != nil {
                // Final once the agent has stopped (its last pass publishes it).
                agent.stop()
                result.clientBacklogMaxBytes = agent.eventBacklogHighWater
            }
        }
        return result
    }

    /// Hands the host every message, as the journey would post them, letting queued main-actor
    /// work (handler responses) run every 64 messages.
    ///
    /// Returns the CPU time the host's thread spent inside `receive` (decoding, routing, the
    /// observers and delegate it calls), in nanoseconds: unlike wall time, it does not grow
    /// when other processes take the cores, so it shows the host's own cost per message.
    @discardableResult
    func feed(_ host: BridgeHost, _ messages: [Data]) async throws -> UInt64 {
        var cpu: UInt64 = 0
        var batchStart = threadCPUNanoseconds()
        for (index, message) in messages.enumerated() {
            host.receive(message)
            if index & 63 == 63 {
                // Measured per batch on the thread that ran it (the main actor may move threads).
                cpu += threadCPUNanoseconds() &- batchStart
                await Task.yield()
                batchStart = threadCPUNanoseconds()
            }
        }
        return cpu + (threadCPUNanoseconds() &- batchStart)
    }
}

/// The agent's memory for a client that never reads, over a long run.
struct StalledMemory {
    var messages: Int
    /// `agent.heldBytes` at the end.
    var heldBytes: Int
    /// The largest `heldBytes` seen while the run went on.
    var maxHeldBytes: Int
    /// The process's resident-memory growth over the run (after `malloc_trim`) (agent, host and everything else).
    var heapGrowthBytes: Int
    /// Whether the stalled client was still connected at the end.
    var stillConnected: Bool
    var messagesPerSecond: Double
}

extension HostBench {
    /// Sends `count` messages (made as they go, so that only the agent holds them) with a
    /// stalled client attached, sampling the agent's held bytes as it goes.
    func stalledMemory(count: Int) async throws -> StalledMemory {
        let transport = DiscardingTransport()
        let host = makeBenchHost(transport: transport)
        let heapBefore = MemoryUsage.settledResidentBytes()
        let socketPath = scratch.file("long.sock")
        let agent = try host.startInspector(name: "bench", socketPath: socketPath, limits: limits)
        defer { agent.stop() }
        let session = try InspectorSession(socketPath: socketPath, subscribe: true, clientName: "bench-stalled")
        defer { session.close() }
        try? await Task.sleep(for: .milliseconds(50))

        var maxHeld = 0
        let start = monotonicNanoseconds()
        for index in 0..<count {
            host.receive(Data(Workload.message(index, prefix: "long").utf8))
            if index & 63 == 63 { await Task.yield() }
            if index % 5000 == 0 { maxHeld = max(maxHeld, agent.heldBytes) }
        }
        let expected = Workload.requestCount(count)
        _ = await waitUntil(timeout: 120) { transport.responses >= expected }
        let end = monotonicNanoseconds()
        // Let the agent take in what is still queued, until its figure stops moving.
        var held = agent.heldBytes
        for _ in 0..<50 {
            try? await Task.sleep(for: .milliseconds(100))
            let now = agent.heldBytes
            if now == held { break }
            held = now
        }
        maxHeld = max(maxHeld, held)
        let heapAfter = MemoryUsage.settledResidentBytes()
        return StalledMemory(
            messages: count, heldBytes: held, maxHeldBytes: maxHeld, heapGrowthBytes: heapAfter - heapBefore,
            stillConnected: agent.clientCount == 1, messagesPerSecond: Double(count) / seconds(from: start, to: end))
    }
}
