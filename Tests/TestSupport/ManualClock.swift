import ThreadSupport

/// A clock that only moves when a test says so: the code under test sleeps on it as on any
/// clock, and the test moves time on with ``advance(by:)``. A time limit of minutes is then
/// crossed at once, and a test whose subject is not a time limit can never race one, however
/// busy the machine is. (Modelled on pointfreeco/swift-clocks' `TestClock`.)
///
/// ```swift
/// let clock = ManualClock()
/// host.clock = clock                                         // anything taking `any Clock<Duration>`
/// host.receive(text: request)                                // starts a 30 s hold
/// #expect(await clock.waitForSleepers(count: 1))             // the hold's timer is asleep
/// clock.advance(by: .seconds(30))                            // wakes it
/// #expect(await eventually { host.heldMessages.isEmpty })    // what the woken task does
/// ```
///
/// A sleeper is resumed inside ``advance(by:)``; it runs when its executor next gets to it, so a
/// test waits for what it does (`eventually`), never for a fixed time. A cancelled sleeper
/// throws `CancellationError` at once, whatever the time.
public final class ManualClock: Clock, Sendable {
    public typealias Duration = Swift.Duration

    /// A point on a ``ManualClock``: the time since the clock's zero.
    public struct Instant: InstantProtocol, CustomStringConvertible {
        /// How far this instant is from the clock's zero.
        public var offset: Duration

        /// The instant `offset` after the clock's zero.
        public init(offset: Duration = .zero) {
            self.offset = offset
        }

        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        public var description: String { "zero + \(offset)" }
    }

    private struct Sleeper {
        var id: UInt64
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Instant
        var sleepers: [Sleeper] = []
        var nextId: UInt64 = 0
        /// Sleeps that have an id but are not yet suspended (or resumed).
        var starting: Set<UInt64> = []
        /// Sleeps cancelled while starting: they throw instead of suspending.
        var cancelledWhileStarting: Set<UInt64> = []
    }

    private let state: Locked<State>

    /// A clock at `now` (its zero by default) that moves only with ``advance(by:)``.
    public init(now: Instant = Instant()) {
        state = Locked(State(now: now))
    }

    /// The clock's time: where the last ``advance(by:)`` left it.
    public var now: Instant { state.withLock { $0.now } }

    /// Any duration can be slept: the clock has no resolution of its own.
    public var minimumResolution: Duration { .zero }

    /// How many sleeps are suspended now, waiting for the clock to reach their deadline.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// The earliest deadline of a suspended sleep, if there is one.
    public var nextDeadline: Instant? { state.withLock { $0.sleepers.map(\.deadline).min() } }

    /// Suspends until the clock reaches `deadline` (at once when it already has), or throws
    /// `CancellationError` as soon as the calling task is cancelled. `tolerance` is ignored.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state in
            state.nextId += 1
            state.starting.insert(state.nextId)
            return state.nextId
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    state.starting.remove(id)
                    if state.cancelledWhileStarting.remove(id) != nil { return .failure(CancellationError()) }
                    if deadline <= state.now { return .success(()) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let sleeper: Sleeper? = state.withLock { state in
                if let index = state.sleepers.firstIndex(where: { $0.id == id }) {
                    return state.sleepers.remove(at: index)
                }
                if state.starting.contains(id) { state.cancelledWhileStarting.insert(id) }
                return nil
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock on by `duration` and resumes, earliest deadline first, every sleep whose
    /// deadline it reached. A negative duration is taken as zero: the clock never goes back.
    public func advance(by duration: Duration) {
        advance(to: now.advanced(by: max(duration, .zero)))
    }

    /// Moves the clock to `instant` (if it is later than ``now``) and resumes, earliest deadline
    /// first, every sleep whose deadline it reached.
    public func advance(to instant: Instant) {
        let due: [Sleeper] = state.withLock { state in
            guard instant > state.now else { return [] }
            state.now = instant
            let due = state.sleepers.filter { $0.deadline <= instant }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= instant }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Waits (in real time, at most `timeout`) until at least `count` sleeps are suspended on
    /// this clock, and returns whether they were. It only synchronises a test with tasks that
    /// are on their way to sleep (a timer just started); it never moves the clock. The bound is
    /// long on purpose: a sleeper's task may wait behind every other test for the two threads of
    /// Swift's pool on a loaded machine (60 s was seen to pass), and a wait that succeeds ends at once.
    public func waitForSleepers(
        count: Int, timeout: Swift.Duration = .seconds(600), isolation: isolated (any Actor)? = #isolation
    ) async -> Bool {
        await waitUntil(timeout: timeout, every: .milliseconds(1)) { sleeperCount >= count }
    }
}
