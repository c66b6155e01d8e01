/// Time on a clock given as `any Clock<Duration>`, counted from when the timeline was made.
///
/// A type that takes its clock as an input (`BridgeHost.clock`, the simulated journey's and the
/// GBGBridge adapter's clock) cannot compare or store that clock's instants: their type is
/// hidden by the existential. A timeline opens the clock once and speaks in durations since its
/// start instead, so deadlines and latencies are plain `Duration`s:
///
/// ```swift
/// let timeline = ClockTimeline(clock)
/// let deadline = timeline.elapsed + .seconds(30)
/// try await timeline.sleep(untilElapsed: deadline)
/// let waited = timeline.elapsed
/// ```
package struct ClockTimeline: Sendable {
    private let readElapsed: @Sendable () -> Duration
    private let sleepUntil: @Sendable (Duration) async throws -> Void

    /// A timeline on `clock`, starting now.
    package init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let start = clock.now
        readElapsed = { start.duration(to: clock.now) }
        sleepUntil = { try await clock.sleep(until: start.advanced(by: $0), tolerance: nil) }
    }

    /// How long the clock has run since the timeline started.
    package var elapsed: Duration { readElapsed() }

    /// Sleeps on the clock until `elapsed` reaches `deadline` (returns at once if it has);
    /// throws `CancellationError` when the task is cancelled.
    package func sleep(untilElapsed deadline: Duration) async throws {
        try await sleepUntil(deadline)
    }

    /// `duration` in whole milliseconds, rounded down (as the journey log writes latencies).
    package static func milliseconds(_ duration: Duration) -> Int {
        let components = duration.components
        let (millis, overflow) = components.seconds.multipliedReportingOverflow(by: 1000)
        let (total, overflowAgain) = millis.addingReportingOverflow(components.attoseconds / 1_000_000_000_000_000)
        guard !overflow, !overflowAgain else { return components.seconds < 0 ? Int.min : Int.max }
        return Int(clamping: total)
    }
}
