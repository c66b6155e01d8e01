import BridgeCore
import InspectorProtocol

/// One way two sessions differ, as ``SessionDiff`` reports it: what kind of difference, the
/// item on each side it is about, and for a changed value its path and both values.
///
/// Its JSON form (``SessionDiff/json()``) uses these names as keys: `kind`, `left`, `right`
/// (each `{seq, action, kind, direction, correlationId, answerSeq}` or absent), `part`, `path`,
/// `old`, `new`, `leftLatencyMs`, `rightLatencyMs`.
public struct SessionDifference: Sendable, Hashable, Codable {
    /// What differs.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// An answer's `status` differs (`success` → `error`).
        case statusChanged
        /// An answer's `error.code` differs (either side may have none).
        case errorCodeChanged
        /// A value in a message differs, is only on one side: ``SessionDifference/path``.
        case fieldChanged
        /// The left request was answered, the right one is pending.
        case answerMissing
        /// The left request is pending, the right one was answered.
        case answerExtra
        /// The answer's latency is outside the tolerance (``SessionDiffOptions/LatencyTolerance``).
        case latencyChanged
        /// An item on the left has no counterpart on the right.
        case missing
        /// An item on the right has no counterpart on the left.
        case added
        /// The same item (same key and content) is at another place on the right.
        case moved
    }

    /// Which message of an item a value is in.
    public enum Part: String, Sendable, Hashable, Codable {
        /// The request, event or malformed input itself.
        case message
        /// The host's answer to the request.
        case answer
    }

    /// The item one side of a difference is about.
    public struct Side: Sendable, Hashable, Codable {
        /// The index of the item in its transcript's ``SessionTranscript/items``.
        public var index: Int
        /// The message's sequence number (the request's, for a request).
        public var seq: Int
        /// `payload.action`, or the reason for malformed input (untrusted).
        public var action: String
        /// The item's kind.
        public var kind: SessionTranscript.Item.Kind
        /// Which way it went.
        public var direction: TrafficRecord.Direction
        /// Its correlation id (untrusted), for finding it; never used to align.
        public var correlationId: String
        /// The answer's sequence number, when it was answered.
        public var answerSeq: Int?

        /// The side for item `index` of `transcript`.
        init(_ item: SessionTranscript.Item, index: Int) {
            self.index = index
            seq = item.seq
            action = item.action
            kind = item.kind
            direction = item.direction
            correlationId = item.correlationId
            answerSeq = item.answer?.seq
        }
    }

    /// What differs.
    public var kind: Kind
    /// The item on the left (`nil` for ``Kind/added``).
    public var left: Side?
    /// The item on the right (`nil` for ``Kind/missing``).
    public var right: Side?
    /// For ``Kind/fieldChanged``, ``Kind/statusChanged`` and ``Kind/errorCodeChanged``: which
    /// message the value is in.
    public var part: Part?
    /// For a changed value: where it is (`data.document.type`, `status`, `error.code`).
    public var path: String?
    /// The value on the left, shortened for display (`nil`: absent). Untrusted text.
    public var old: String?
    /// The value on the right, shortened for display (`nil`: absent). Untrusted text.
    public var new: String?
    /// For ``Kind/latencyChanged``: the latency on the left, in milliseconds.
    public var leftLatencyMs: Double?
    /// For ``Kind/latencyChanged``: the latency on the right, in milliseconds.
    public var rightLatencyMs: Double?

    /// Creates a difference.
    public init(
        kind: Kind, left: Side?, right: Side?, part: Part? = nil, path: String? = nil, old: String? = nil, new: String? = nil,
        leftLatencyMs: Double? = nil, rightLatencyMs: Double? = nil
    ) {
        self.kind = kind
        self.left = left
        self.right = right
        self.part = part
        self.path = path
        self.old = old
        self.new = new
        self.leftLatencyMs = leftLatencyMs
        self.rightLatencyMs = rightLatencyMs
    }
}
