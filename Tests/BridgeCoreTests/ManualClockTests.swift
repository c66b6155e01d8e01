import TestSupport
import Testing
import ThreadSupport

/// TestSupport's `ManualClock`: time moves only when the test says so, sleepers wake when it
/// reaches their deadline (and not before), and a cancelled sleeper throws at once.
@Suite("ManualClock")
struct ManualClockTests {
    /// A sleep on `clock` for `duration`, in a task of its own, that records `name` when it ends
    /// (with "cancelled" when it threw `CancellationError`).
    static func sleeper(
        _ name: String, on clock: any Clock<Duration>, for duration: Duration, into log: Locked<[String]>
    ) -> Task<Void, Never> {
        Task {
            do {
                try await clock.sleep(for: duration)
                log.withLock { $0.append(name) }
            } catch is CancellationError {
                log.withLock { $0.append("\(name) cancelled") }
            } catch {
                log.withLock { $0.append("\(name) \(error)") }
            }
        }
    }

    @Test("now starts at zero and moves only with advance, never back")
    func nowMoves() {
        let clock = ManualClock()
        #expect(clock.now == ManualClock.Instant())
        clock.advance(by: .seconds(3))
        #expect(clock.now == ManualClock.Instant(offset: .seconds(3)))
        clock.advance(by: .seconds(-10))
        #expect(clock.now.offset == .seconds(3))
        clock.advance(to: ManualClock.Instant(offset: .seconds(1)))
        #expect(clock.now.offset == .seconds(3))
        clock.advance(to: ManualClock.Instant(offset: .milliseconds(3_500)))
        #expect(clock.now.offset == .milliseconds(3_500))
        #expect(clock.minimumResolution == .zero)
    }

    @Test("a sleeper wakes when the clock reaches its deadline, not before; each at its own deadline")
    func wakesAtItsDeadline() async {
        let clock = ManualClock()
        let log = Locked<[String]>([])
        let short = Self.sleeper("short", on: clock, for: .seconds(1), into: log)
        let long = Self.sleeper("long", on: clock, for: .seconds(2), into: log)
        #expect(await clock.waitForSleepers(count: 2))
        #expect(clock.nextDeadline == ManualClock.Instant(offset: .seconds(1)))

        clock.advance(by: .milliseconds(999))
        #expect(clock.sleeperCount == 2, "no deadline reached yet")
        clock.advance(by: .milliseconds(1))
        #expect(clock.sleeperCount == 1)
        await short.value
        #expect(log.current == ["short"])
        #expect(clock.nextDeadline == ManualClock.Instant(offset: .seconds(2)))

        clock.advance(by: .seconds(5))
        await long.value
        #expect(log.current == ["short", "long"])
        #expect(clock.sleeperCount == 0)
        #expect(clock.nextDeadline == nil)
    }

    @Test("a sleep until an instant the clock has reached returns at once, without suspending")
    func pastDeadline() async throws {
        let clock = ManualClock()
        clock.advance(by: .seconds(10))
        try await clock.sleep(until: ManualClock.Instant(offset: .seconds(4)))
        try await clock.sleep(until: clock.now)
        try await clock.sleep(for: .zero)
        #expect(clock.sleeperCount == 0)
    }

    @Test("a cancelled sleeper throws CancellationError at once, whatever the time, and is no longer counted")
    func cancellation() async {
        let clock = ManualClock()
        let log = Locked<[String]>([])
        let task = Self.sleeper("hour", on: clock, for: .seconds(3600), into: log)
        #expect(await clock.waitForSleepers(count: 1))
        task.cancel()
        await task.value
        #expect(log.current == ["hour cancelled"])
        #expect(clock.sleeperCount == 0)
        // Advancing past its deadline afterwards changes nothing.
        clock.advance(by: .seconds(7200))
        #expect(log.current == ["hour cancelled"])
    }

    @Test("a task cancelled before it sleeps throws without suspending")
    func cancelledBeforeSleeping() async {
        let clock = ManualClock()
        let log = Locked<[String]>([])
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            do {
                try await clock.sleep(for: .seconds(1))
                log.withLock { $0.append("slept") }
            } catch {
                log.withLock { $0.append(error is CancellationError ? "cancelled" : "\(error)") }
            }
        }
        await task.value
        #expect(log.current == ["cancelled"])
        #expect(clock.sleeperCount == 0)
    }

    @Test("waitForSleepers says false when nobody sleeps within its bound")
    func waitForSleepersBound() async {
        let clock = ManualClock()
        #expect(await clock.waitForSleepers(count: 1, timeout: .milliseconds(20)) == false)
        #expect(await clock.waitForSleepers(count: 0, timeout: .milliseconds(20)))
    }

    @Test("many sleepers with the same deadline all wake on one advance")
    func manySleepers() async {
        let clock = ManualClock()
        let log = Locked<[String]>([])
        let tasks = (0..<50).map { Self.sleeper("s\($0)", on: clock, for: .milliseconds(10), into: log) }
        #expect(await clock.waitForSleepers(count: 50))
        clock.advance(by: .milliseconds(10))
        for task in tasks { await task.value }
        #expect(Set(log.current) == Set((0..<50).map { "s\($0)" }))
        #expect(clock.sleeperCount == 0)
    }
}
