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
        // Frames and events taken since they were last added to `status`: added whenever the
        // status is locked anyway (a snapshot, a gap, a `done` marker, the end), not under the
        // lock for every frame, which is the benchmark's bookkeeping and no work of a client's.
        var unpublished = (frames: 0, events: 0)
        func publish(into status: inout Status) {
            status.frames += unpublished.frames
            status.events += unpublished.events
            unpublished = (0, 0)
        }
        defer { status.withLock { publish(into: &$0) } }
        // The stop flag is read under its lock whenever no frame came in time and once every
        // `stopCheckInterval` frames, not for every frame (the benchmark's bookkeeping, no work
        // of a client's): a stop is seen at most that many frames, or one timeout, late.
        var framesToStopCheck = 0
        while true {
            if framesToStopCheck == 0 {
                if stopRequested.current { return }
                framesToStopCheck = Self.stopCheckInterval
            }
            framesToStopCheck -= 1
            // Bound where it is read, not declared first and set in a `do`: such a frame was
            // copied, and the copy dropped, on every frame.
            let next = Result { try session.nextFrame(timeout: 0.2) }
            guard case .success(let received) = next else {
                if case .failure(let error) = next, !stopRequested.current { status.withLock { $0.error = "\(error)" } }
                return
            }
            guard let frame = received else {
                framesToStopCheck = 0
                continue
            }
            unpublished.frames += 1
            switch frame {
            case .snapshot(_, let state):
                let now = monotonicNanoseconds()
                var done = 0
                for traffic in state.messages {
                    if traffic.message.payload.action == Self.doneAction { done += 1 }
                    if let slot = track(traffic.message.correlationId) { record(slot, at: now) }
                }
                let cpu = threadCPUNanoseconds()
                let resources = ThreadResourceUsage.current
                if notesThreadUsage, usageAtReady.current == nil { usageAtReady.withLock { $0 = .current } }
                let (becameReady, newMarkers) = status.withLock { status -> (Bool, Int) in
                    publish(into: &status)
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
                unpublished.events += 1
                guard case .traffic(let traffic) = event else { continue }
                // Read where the record stores them (`message` would copy the whole message out),
                // as the inspector's own state reads a row's.
                let isDone = traffic.messageAction == Self.doneAction
                // The clock is read only for a message whose arrival is noted.
                let slot = track(traffic.messageCorrelationId)
                guard isDone || slot != nil else { continue }
                let now = monotonicNanoseconds()
                if let slot { record(slot, at: now) }
                guard isDone else { continue }
                let cpu = threadCPUNanoseconds()
                let resources = ThreadResourceUsage.current
                status.withLock {
                    publish(into: &$0)
                    $0.doneMarkers += 1
                    $0.doneAt = now
                    $0.cpuAtDone = cpu
                    $0.resourcesAtDone = resources
                }
                signals.signal()
            case .gap:
                status.withLock {
                    publish(into: &$0)
                    $0.gaps += 1
                }
            case .hello, .reply:
                break
            }
        }
    }

    /// Frames read between two looks at the stop flag while frames keep coming.
    private static let stopCheckInterval = 64

    /// Notes that the tracked message of `slot` arrived at `time` (the first time only).
    private func record(_ slot: Int, at time: UInt64) {
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
