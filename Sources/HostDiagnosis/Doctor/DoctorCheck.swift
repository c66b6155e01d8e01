/// One check of a ``DoctorReport``: its outcome, what was seen, the documented fix and the
/// heading of GBGBridge's troubleshooting page it comes from.
///
/// ```swift
/// if let busy = report.check(.slotBusy), busy.status == .failure {
///     print(busy.summary, busy.evidence.first?.text ?? "")
/// }
/// ```
public struct DoctorCheck: Sendable, Hashable, Codable {
    /// Which check.
    public var id: DoctorCheckID
    /// Its outcome.
    public var status: DoctorStatus
    /// One sentence: what was found, or why the check could not run.
    public var summary: String
    /// The heading of the troubleshooting page cited for what was found.
    public var guideHeading: String
    /// What to do about it (empty when there is nothing to do).
    public var fix: String
    /// What was seen: the first few messages, requests or errors.
    public var evidence: [DoctorEvidence]
    /// How many more items were seen than ``evidence`` lists.
    public var moreEvidence: Int

    /// Creates a check.
    public init(
        id: DoctorCheckID, status: DoctorStatus, summary: String, guideHeading: String? = nil, fix: String? = nil,
        evidence: [DoctorEvidence] = [], moreEvidence: Int = 0
    ) {
        self.id = id
        self.status = status
        self.summary = summary
        self.guideHeading = guideHeading ?? id.guideHeading
        self.fix = status == .ok || status == .notRun ? "" : (fix ?? id.fix)
        self.evidence = evidence
        self.moreEvidence = moreEvidence
    }

    /// The check's title (``DoctorCheckID/title``).
    public var title: String { id.title }
}

/// One thing a check saw: a message of the log, a pending request, an error.
public struct DoctorEvidence: Sendable, Hashable, Codable {
    /// What it is, for a person (untrusted: it can quote what a journey sent).
    public var text: String
    /// The agent's sequence number of the message, when it is one (jump to it in the log).
    public var seq: Int?
    /// The correlation id, when there is one (untrusted).
    public var correlationId: String?
    /// When it happened, in milliseconds since 1970 on the host's clock.
    public var time: Double?

    /// Creates evidence.
    public init(_ text: String, seq: Int? = nil, correlationId: String? = nil, time: Double? = nil) {
        self.text = text
        self.seq = seq
        self.correlationId = correlationId
        self.time = time
    }
}
