import BridgeCore
import Foundation
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
    /// A client's work per traffic line: `AgentFrame.decode` and `LiveState.apply`.
    case clientDecode = "client-decode"
    /// The TUI's work per traffic line: `AgentFrame.decode` and `InspectorModel.handle(.frame)`.
    case tuiIngest = "tui-ingest"

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
            var lines: [Data] = []
            var maker = TUIBench.IngestLines(templates: try TUIBench.Templates())
            try maker.append(upTo: 2 * base, to: &lines)
            var model = InspectorModel(size: TUIBench.size, socketPath: "/tmp/bench.sock", now: TUIBench.startTime)
            model.handle(.frame(try TUIBench.snapshotFrame()))
            for line in lines.prefix(feed) { model.handle(.frame(try AgentFrame.decode(line))) }
            guard model.live.log.count == min(feed, lines.count) else {
                throw BenchError("the TUI holds \(model.live.log.count) of \(feed) messages")
            }
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
