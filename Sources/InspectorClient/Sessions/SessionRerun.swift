import BridgeCore
import Foundation

/// Replaying a whole recorded session into a running host (`bridge-inspector rerun`): the
/// journey's side of a recording is sent again, in order, and what the host does is collected
/// for comparison with what it did when the recording was made.
///
/// Three parts, each usable alone:
///
/// - ``SessionRerunPlan`` reads a ``Recording/Contents`` and says what to send, step by step,
///   and what the host had sent before each step (pure: no host, no time).
/// - ``SessionRerunDriver`` sends the steps through a ``SessionRerunLink`` (the agent's
///   `inject`), pacing them on an injected clock: before a step it waits until the host has
///   answered what the recording shows answered before it (bounded), and with
///   ``Pacing/recorded`` also keeps the recorded gap.
/// - ``SessionRerunOutcome`` is what came of it: the recorded rows (`expected`), the host's rows
///   (`actual`), the mapping between the recorded and the new correlation ids, latencies and what
///   timed out; the seam a comparison of two sessions reads.
///
/// ```swift
/// let plan = try SessionRerunPlan(Recording.load(from: url), selection: .init(from: 12, to: 80))
/// let driver = SessionRerunDriver(plan: plan, settings: .init(pacing: .recorded))
/// let outcome = try await driver.run(link: link, initialFrames: [snapshot])
/// print(outcome.summary)   // "12 journey messages sent, 9 requests answered, 1 left pending, 0 timed out"
/// ```
public enum SessionRerun {
    /// How fast the steps are sent.
    public enum Pacing: String, Sendable, CaseIterable {
        /// As fast as the host answers: a step waits only for the answers the recording shows
        /// before it.
        case answers
        /// As recorded: also at least the recorded gap between one journey message and the next.
        case recorded
    }

    /// The correlation id a rerun gives a recorded message: `<original>-rerun-<suffix>`, where
    /// the suffix is the same for every message of one rerun (four random hex digits unless a
    /// test gives its own), so the log shows what each message reruns and a second rerun into the
    /// same host never reuses an id the first one left outstanding.
    public static func correlationId(for original: String, suffix: String) -> String {
        original + "-rerun-" + suffix
    }
}
