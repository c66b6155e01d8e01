import Foundation
import InspectorClient
import InspectorProtocol
import ThreadSupport

/// An inspector client on its own thread that reads and decodes every frame the agent sends,
/// as the interactive inspector does, and notes when chosen messages arrive.
///
/// `track` maps a correlation id to a slot in ``arrivals`` (or `nil` for messages not tracked);
/// the arrival time is taken right after the frame carrying the message was decoded.
final class FollowingClient: @unchecked Sendable {
    struct Status {
        var ready = false
        var finished = false
        var error: String?
        var frames = 0
        var events = 0
        var gaps = 0
        var snapshots = 0
        /// When the `bench.done` event (or a snapshot holding it) arrived.
        var doneAt: UInt64?
        var doneMarkers = 0
        /// The client thread's CPU time when it became ready and when the last `done` arrived.
        var cpuAtReady: UInt64 = 0
        var cpuAtDone: UInt64 = 0
        /// The client thread's user and system time and context switches at the same two moments.
        var resourcesAtReady = ThreadResourceUsage()
        var resourcesAtDone = ThreadResourceUsage()
    }

    /// The action of the event the host sends after a run; the client has everything when it holds it.
    static let doneAction = "bench.done"

    let status = Locked(Status())
    /// Signalled once when the client is ready and once for each `done` marker, for a waiter that
    /// must block instead of polling (the instruction counts: a polling loop's cost depends on time).
    let signals = DispatchSemaphore(value: 0)
    let arrivals: Locked<[UInt64]>
    /// The client thread's CPU time and minor page faults so far.
    struct ThreadUsage {
        var cpuNanoseconds: UInt64
        var minorPageFaults: Int

        static var current: ThreadUsage {
            ThreadUsage(cpuNanoseconds: threadCPUNanoseconds(), minorPageFaults: threadMinorPageFaults())
        }
    }

    /// With `notesThreadUsage`, the thread's usage when it became ready and when each tracked
    /// message arrived (what each large message cost the client); otherwise left empty, so that
    /// the other figures do not pay for reading it.
    let usageAtReady = Locked<ThreadUsage?>(nil)
    let usageAtArrival: Locked<[ThreadUsage?]>
    private let notesThreadUsage: Bool
    private let stopRequested = Locked(false)
    private let track: @Sendable (String) -> Int?

    init(trackedCount: Int = 0, notesThreadUsage: Bool = false, track: @escaping @Sendable (String) -> Int? = { _ in nil }) {
        self.arrivals = Locked([UInt64](repeating: 0, count: trackedCount))
        self.usageAtArrival = Locked([ThreadUsage?](repeating: nil, count: notesThreadUsage ? trackedCount : 0))
        self.notesThreadUsage = notesThreadUsage
        self.track = track
    }

    /// Connects from a new thread and reads until ``stop()`` or until the agent closes.
    func start(socketPath: String) {
        DedicatedThread.start(name: "bench-following-client", stackSize: 1 << 20) { [self] in run(socketPath: socketPath) }
    }

    func stop() {
        stopRequested.withLock { $0 = true }
    }

    /// Waits for the `done` marker number `count` (counting from 1).
    @MainActor
    func waitForDone(count: Int, timeout: Double) async -> Bool {
        await waitUntil(timeout: timeout) { status.current.doneMarkers >= count || status.current.finished }
    }

    private func run(socketPath: String) {
        defer { status.withLock { $0.finished = true } }
        let session: InspectorSession
        do {
            session = try InspectorSession(socketPath: socketPath, subscribe: true, clientName: "bench-following")
        } catch {
            status.withLock { $0.error = "\(error)" }
            return
        }
        defer { session.close() }
        while !stopRequested.current {
            let frame: AgentFrame?
            do {
                frame = try session.nextFrame(timeout: 0.2)
            } catch {
                if !stopRequested.current { status.withLock { $0.error = "\(error)" } }
                return
            }
            guard let frame else { continue }
            let now = monotonicNanoseconds()
            switch frame {
            case .snapshot(_, let state):
                var done = 0
                for traffic in state.messages {
                    if traffic.message.payload.action == Self.doneAction { done += 1 }
                    record(traffic.message.correlationId, at: now)
                }
                let cpu = threadCPUNanoseconds()
                let resources = ThreadResourceUsage.current
                if notesThreadUsage, usageAtReady.current == nil { usageAtReady.withLock { $0 = .current } }
                let (becameReady, newMarkers) = status.withLock { status -> (Bool, Int) in
                    status.frames += 1
                    status.snapshots += 1
                    let becameReady = !status.ready
                    if becameReady {
                        status.cpuAtReady = cpu
                        status.resourcesAtReady = resources
                    }
                    status.ready = true
                    let newMarkers = max(0, done - status.doneMarkers)
                    if done > status.doneMarkers {
                        status.doneMarkers = done
                        status.doneAt = now
                        status.cpuAtDone = cpu
                        status.resourcesAtDone = resources
                    }
                    return (becameReady, newMarkers)
                }
                for _ in 0..<(newMarkers + (becameReady ? 1 : 0)) { signals.signal() }
            case .event(_, let event):
                var isDone = false
                if case .traffic(let traffic) = event {
                    isDone = traffic.message.payload.action == Self.doneAction
                    record(traffic.message.correlationId, at: now)
                }
                let cpu = isDone ? threadCPUNanoseconds() : 0
                let resources = isDone ? ThreadResourceUsage.current : ThreadResourceUsage()
                status.withLock {
                    $0.frames += 1
                    $0.events += 1
                    if isDone {
                        $0.doneMarkers += 1
                        $0.doneAt = now
                        $0.cpuAtDone = cpu
                        $0.resourcesAtDone = resources
                    }
                }
                if isDone { signals.signal() }
            case .gap:
                status.withLock {
                    $0.frames += 1
                    $0.gaps += 1
                }
            case .hello, .reply:
                status.withLock { $0.frames += 1 }
            }
        }
    }

    private func record(_ correlationId: String, at time: UInt64) {
        guard let slot = track(correlationId) else { return }
        arrivals.withLock { times in
            if times.indices.contains(slot), times[slot] == 0 { times[slot] = time }
        }
        guard notesThreadUsage else { return }
        let usage = ThreadUsage.current
        usageAtArrival.withLock { usages in
            if usages.indices.contains(slot), usages[slot] == nil { usages[slot] = usage }
        }
    }
}
