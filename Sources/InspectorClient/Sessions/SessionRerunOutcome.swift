import BridgeCore
import Foundation
import InspectorProtocol

/// What came of a rerun (``SessionRerunDriver/run(link:initialFrames:onEvent:)``): what the recording shows the
/// host did, what the host did now, and how the two are tied together. The seam a comparison of
/// sessions reads: it pairs ``expected`` with ``actual`` through ``steps`` (each step's recorded
/// and new correlation id).
public struct SessionRerunOutcome: Sendable {
    /// What became of one step's message.
    public enum Fate: Sendable, Equatable {
        /// The host took it (an event, or a response the journey sent).
        case sent
        /// The host refused to take it (the agent's reason; untrusted text).
        case refused(String)
        /// A request the host answered, with the answer's status and how long it took, in
        /// milliseconds, by the host's clock.
        case answered(status: BridgeResponseStatus?, latencyMs: Double?)
        /// A request with no answer at the end that waits in the host (`pendingRequests`, or a
        /// capture slot: `place` says which), as the recording shows it waiting too.
        case pending(place: String)
        /// A request the recording shows answered that got no answer within the answer timeout;
        /// `place` says where it waits at the end, if it waits somewhere.
        case timedOut(place: String?)
        /// A request that got no answer and waits nowhere, as the recording shows it unanswered.
        case unanswered
    }

    /// One step, as run.
    public struct StepOutcome: Sendable {
        /// The step as planned.
        public var step: SessionRerunPlan.Step
        /// The correlation id it was sent with (the recorded one with `--same-id`).
        public var sentId: String
        /// What became of it.
        public var fate: Fate
        /// For a request answered in both: the recorded latency, in milliseconds.
        public var recordedLatencyMs: Double? { step.recordedLatencyMs }
        /// For an answered request: the host's latency now, in milliseconds.
        public var observedLatencyMs: Double? {
            if case .answered(_, let latency) = fate { return latency }
            return nil
        }
    }

    /// The recorded rows the rerun should bring about (``SessionRerunPlan/expected``).
    public var expected: [LogEntry]
    /// The host's rows from the first injected message on. The injected messages are among
    /// them, made by an inspector (``LogEntry/origin`` `inspector`): the comparison takes them
    /// as the journey's, pairing them with the recorded ones through ``steps``.
    public var actual: [LogEntry]
    /// Each step, in order.
    public var steps: [StepOutcome]
    /// Every frame seen from the host (its snapshot, then its events).
    public var frames: [AgentFrame]
    /// The host's state at the end (every frame applied): what `--record` writes.
    public var state: LiveState

    /// The correlation ids, recorded to new, in step order (a recorded id used twice is listed twice).
    public var idMapping: [(recorded: String, rerun: String)] { steps.map { ($0.step.message.correlationId, $0.sentId) } }
    /// The steps whose recorded answer did not come within the answer timeout.
    public var timedOut: [StepOutcome] { steps.filter { if case .timedOut = $0.fate { true } else { false } } }
    /// The steps the host refused to take.
    public var refused: [StepOutcome] { steps.filter { if case .refused = $0.fate { true } else { false } } }

    /// The figures of the summary line; `rerun --json`'s summary line has them by these names.
    public struct Counts: Sendable, Equatable, Encodable {
        /// Journey messages the host took.
        public var sent = 0
        /// Requests the host answered.
        public var answered = 0
        /// Requests left waiting in the host at the end (`pendingRequests`, a capture slot).
        public var leftPending = 0
        /// Of ``leftPending``, the requests the recording shows answered (they timed out).
        public var leftPendingAnsweredInRecording = 0
        /// Requests the recording shows answered that got no answer in time and wait nowhere.
        public var timedOut = 0
        /// Messages the host refused to take.
        public var refused = 0
    }

    /// The figures of the summary line.
    public var counts: Counts {
        var counts = Counts()
        for step in steps {
            switch step.fate {
            case .refused: counts.refused += 1; continue
            case .answered: counts.answered += 1
            case .pending: counts.leftPending += 1
            case .timedOut(let place):
                if place != nil {
                    counts.leftPending += 1
                    counts.leftPendingAnsweredInRecording += 1
                } else {
                    counts.timedOut += 1
                }
            case .sent, .unanswered: break
            }
            counts.sent += 1
        }
        return counts
    }

    /// One line: "12 journey messages sent, 9 requests answered, 1 left pending, 0 timed out";
    /// requests left pending that the recording shows answered are named apart ("2 left pending
    /// (1 answered in the recording)").
    public var summary: String {
        let counts = counts
        var line = "\(counts.sent) journey message\(counts.sent == 1 ? "" : "s") sent, \(counts.answered) request\(counts.answered == 1 ? "" : "s") answered, \(counts.leftPending) left pending"
        if counts.leftPendingAnsweredInRecording > 0 { line += " (\(counts.leftPendingAnsweredInRecording) answered in the recording)" }
        line += ", \(counts.timedOut) timed out"
        if counts.refused > 0 { line += ", \(counts.refused) refused by the host" }
        return line
    }
}
