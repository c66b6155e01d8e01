import BridgeCore
import Foundation
import InspectorProtocol

/// What a rerun of a recording sends, step by step, read from the recording alone (no host, no
/// time): the journey's messages in order, and for each what the host had sent before it in the
/// recording, so a driver can wait for it (``SessionRerunDriver``).
///
/// The journey's messages are the recording's rows that are messages the host received
/// (``LogEntry/direction`` `received`, ``LogEntry/kind`` `message`), not made by an inspector
/// (`inject`, `replay`, an earlier rerun) unless ``Selection/includeInspectorMade``, within the
/// range of sequence numbers and matching the filter (the inspector's filter language, as `tail
/// --filter`). Malformed input and rows logged without their data (too large to forward) cannot
/// be sent again: they are listed in ``skipped``.
///
/// ```swift
/// let contents = Recording.load(from: url)
/// let plan = try SessionRerunPlan(contents, selection: .init(from: 12, filter: try LogFilter.parse("!action:host.*")))
/// for step in plan.steps { print(step.message.payload.action, step.awaits) }
/// ```
public struct SessionRerunPlan: Sendable {
    /// Which of a recording's journey messages to send.
    public struct Selection: Sendable {
        /// The first sequence number to consider (`--from`), or `nil` for the start.
        public var from: Int?
        /// The last sequence number to consider (`--to`), or `nil` for the end.
        public var to: Int?
        /// Only the journey messages that match (`--filter`); `nil` for all.
        public var filter: LogFilter?
        /// Also send the messages an inspector injected into the recorded host.
        public var includeInspectorMade: Bool

        /// Creates a selection.
        public init(from: Int? = nil, to: Int? = nil, filter: LogFilter? = nil, includeInspectorMade: Bool = false) {
            self.from = from
            self.to = to
            self.filter = filter
            self.includeInspectorMade = includeInspectorMade
        }
    }

    /// Why a recording gives nothing to rerun.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong, in a sentence.
        public var description: String
    }

    /// A message the host sent in the recording, between two steps.
    public struct HostMessage: Sendable, Hashable {
        /// Its sequence number in the recording.
        public var seq: Int
        /// Request, response or event.
        public var type: MessageType?
        /// Its action (untrusted text).
        public var action: String
        /// Its correlation id as recorded (untrusted text).
        public var correlationId: String
        /// For an answer to a request the plan sends: that step's index.
        public var answersStep: Int?
    }

    /// One journey message to send.
    public struct Step: Sendable {
        /// The step's position in ``SessionRerunPlan/steps``.
        public var index: Int
        /// The row's sequence number in the recording.
        public var seq: Int
        /// When the host received it, in milliseconds since 1970 (the recorded host's time).
        public var time: Double
        /// The message as recorded (the driver gives it a new id and today's timestamp).
        public var message: BridgeMessage
        /// The recorded time since the previous step was received, in milliseconds (0 for the
        /// first step): what ``SessionRerun/Pacing/recorded`` keeps.
        public var gapMs: Double
        /// The steps (indexes) whose requests the recording shows answered after the previous
        /// step and before this one: the driver waits for their answers before sending it.
        public var awaits: [Int]
        /// What the host sent after the previous step and before this one (the answers, the
        /// events), as recorded.
        public var hostBefore: [HostMessage]
        /// For a request the recording shows answered in the range: the answer's sequence number.
        public var recordedAnswerSeq: Int?
        /// For a request the recording shows answered: how long the host took, in milliseconds.
        public var recordedLatencyMs: Double?
        /// For a request the recording shows answered: the answer's status.
        public var recordedStatus: BridgeResponseStatus?

        /// Whether the step is a request.
        public var isRequest: Bool { message.type == .request }
    }

    /// A journey message of the range that cannot be sent again, and why.
    public struct Skipped: Sendable, Hashable {
        /// Its sequence number in the recording.
        public var seq: Int
        /// Why it is not sent.
        public var reason: String
    }

    /// The messages to send, in the recorded order.
    public var steps: [Step]
    /// The steps whose requests the recording shows answered after the last step: the driver
    /// waits for them before it finishes.
    public var awaitsAtEnd: [Int]
    /// What the host sent after the last step, up to the end of the range.
    public var hostAfter: [HostMessage]
    /// The recorded rows the rerun should bring about: from the first step to the end of the
    /// range, without the journey messages not sent and without the host's answers to them.
    /// Host messages before the first step (such as the first `host.ready`) are context, not
    /// expected.
    public var expected: [LogEntry]
    /// Journey messages of the range that are not sent (malformed input, rows logged without
    /// their data).
    public var skipped: [Skipped]
    /// The recorded state (every frame applied), for the rows' partners and latencies.
    public var recorded: LiveState

    /// The plan for `contents` with `selection`; a ``Problem`` when the range is inverted or
    /// holds no journey message to send.
    public init(_ contents: Recording.Contents, selection: Selection = .init()) throws(Problem) {
        var state = LiveState()
        for frame in contents.frames { state.apply(frame, at: 0) }
        try self.init(recorded: state, selection: selection)
    }

    /// The plan for a recorded state (a recording's frames applied in order).
    public init(recorded state: LiveState, selection: Selection = .init()) throws(Problem) {
        if let from = selection.from, let to = selection.to, from > to {
            throw Problem(description: "--from \(from) is after --to \(to): the range holds nothing")
        }
        recorded = state
        let log = state.log
        let pendingIds = Set(state.pending.map(\.correlationId))
        // The rows of the range, in log order (a range ends at the first row past --to).
        var range: [Int] = []
        var started = selection.from == nil
        for index in log.indices {
            let row = log[index]
            let counted = row.kind == .message || row.kind == .malformed
            if !started {
                guard counted, row.seq >= (selection.from ?? 0) else { continue }
                started = true
            }
            if counted, let to = selection.to, row.seq > to { break }
            range.append(index)
        }
        var steps: [Step] = []
        var skipped: [Skipped] = []
        var stepByRow: [Int: Int] = [:]
        for index in range {
            let row = log[index]
            guard row.direction == .received, row.kind == .message || row.kind == .malformed else { continue }
            guard selection.includeInspectorMade || row.origin != .inspector else { continue }
            guard selection.filter?.matches(row, pending: pendingIds) ?? true else { continue }
            guard row.kind == .message, let message = row.message else {
                skipped.append(Skipped(seq: row.seq, reason: row.kind == .malformed ? "malformed input: not a message" : "not readable as a message"))
                continue
            }
            if message.payload.data == nil, row.bytes > row.json.count {
                skipped.append(Skipped(seq: row.seq, reason: "logged without its data (too large to forward)"))
                continue
            }
            stepByRow[index] = steps.count
            let gap = steps.last.map { max(0, row.time - $0.time) } ?? 0
            steps.append(
                Step(
                    index: steps.count, seq: row.seq, time: row.time, message: message, gapMs: gap, awaits: [], hostBefore: [],
                    recordedAnswerSeq: nil, recordedLatencyMs: nil, recordedStatus: nil))
        }
        guard let firstRow = range.first(where: { stepByRow[$0] != nil }) else {
            throw Problem(description: Self.nothingToSend(selection: selection, skipped: skipped.count))
        }
        // What the host sent, between steps, and which recorded answers each step waits for.
        var expected: [LogEntry] = []
        var awaits: [Int] = []
        var hostBefore: [HostMessage] = []
        for index in range where index >= firstRow {
            let row = log[index]
            if let step = stepByRow[index] {
                // What was gathered since the previous step comes before this one.
                steps[step].awaits = awaits
                steps[step].hostBefore = hostBefore
                awaits = []
                hostBefore = []
                expected.append(row)
                continue
            }
            if row.direction == .received {
                continue  // a journey message not sent, or made by an inspector: not expected
            }
            var answers: Int?
            if row.kind == .message, row.type == .response, let partner = row.partner, log.indices.contains(partner) {
                // An answer to a request of the recording: expected only when that request is sent.
                guard let step = stepByRow[partner] else { continue }
                answers = step
                steps[step].recordedAnswerSeq = row.seq
                steps[step].recordedLatencyMs = row.latencyMs
                steps[step].recordedStatus = row.status
                awaits.append(step)
            }
            if row.kind == .message {
                hostBefore.append(HostMessage(seq: row.seq, type: row.type, action: row.summary, correlationId: row.correlationId, answersStep: answers))
            }
            expected.append(row)
        }
        self.steps = steps
        awaitsAtEnd = awaits
        hostAfter = hostBefore
        self.expected = expected
        self.skipped = skipped
    }

    /// The steps that are requests.
    public var requests: [Step] { steps.filter(\.isRequest) }

    private static func nothingToSend(selection: Selection, skipped: Int) -> String {
        var words = "no journey message to send"
        var scope: [String] = []
        if let from = selection.from { scope.append("from seq \(from)") }
        if let to = selection.to { scope.append("to seq \(to)") }
        if let filter = selection.filter { scope.append("matching \(filter.source)") }
        if !scope.isEmpty { words += " " + scope.joined(separator: ", ") }
        if skipped > 0 { words += " (\(skipped) cannot be sent again: malformed, or logged without their data)" }
        if !selection.includeInspectorMade { words += "; messages an inspector injected are left out unless asked" }
        return words
    }
}
