import BridgeCore
import Foundation

/// One message in the log, as carried in `traffic` events and snapshots.
///
/// Its fields live in one shared, copy-on-write box (as an `Array`'s elements do): a record
/// is one reference wide, so passing it, and the frames and events that carry it, through a
/// client costs a retain instead of a copy of some twenty fields (issue 30). Reading and setting
/// its fields is as for any struct; a record set after a copy is copied first.
public struct WireTraffic: Codable, Sendable, Hashable {
    /// The sequence number of the event that carried it first.
    public var seq: Int {
        get { storage.seq }
        set { unique().seq = newValue }
    }
    /// Received from the journey, or sent to it.
    public var direction: TrafficRecord.Direction {
        get { storage.direction }
        set { unique().direction = newValue }
    }
    /// When the host handled it, in milliseconds since 1970.
    public var time: Double {
        get { storage.time }
        set { unique().time = newValue }
    }
    /// Who made it.
    public var origin: MessageOrigin {
        get { storage.origin }
        set { unique().origin = newValue }
    }
    /// For inspector-made messages: the id of the command that made it.
    public var command: String? {
        get { storage.command }
        set { unique().command = newValue }
    }
    /// For responses made by a reply rule: the rule's name.
    public var rule: String? {
        get { storage.rule }
        set { unique().rule = newValue }
    }
    /// For sent messages that were not delivered: why.
    public var deliveryError: String? {
        get { storage.deliveryError }
        set { unique().deliveryError = newValue }
    }
    /// For sent messages held at a breakpoint: the hold, and whether the message went out as it
    /// was, edited, as the answer to a held request, or was dropped (never delivered). For a
    /// received request held and released edited: that hold, `edited` (see ``delivered`` and
    /// ``original``).
    public var hold: HoldMark? {
        get { storage.hold }
        set { unique().hold = newValue }
    }
    /// For a message a fault rule changed: the rule and what it did (`dropped`: never routed
    /// or delivered). Absent otherwise and from older agents.
    public var fault: FaultMark? {
        get { storage.fault }
        set { unique().fault = newValue }
    }
    /// Whether an inspector caused this message: it made it (``origin`` `inspector`, ✎) or one of
    /// its fault rules changed it (``fault``). Such a message is shown as it is, but its lint
    /// mark, contract violations and the `lastError` it causes are never held against the app.
    public var isInspectorCaused: Bool { origin == .inspector || fault != nil }
    /// For a message logged before it was held (a request the journey posted to a native host;
    /// what GBGBridge sent, seen through its public API) and then released edited: what went on
    /// instead of ``message``, which stays as it was logged. Absent otherwise and from older
    /// agents. Untrusted.
    public var delivered: BridgeMessage? {
        get { storage.delivered }
        set { unique().delivered = newValue }
    }
    /// For a message logged once it was released edited (a response or event a native host
    /// sent; a request GBGBridge received, seen through its public API): the message as it was
    /// held, before the edit (``message`` is what went on). Absent otherwise, from older agents,
    /// and when the original was too large to keep. Untrusted.
    public var original: BridgeMessage? {
        get { storage.original }
        set { unique().original = newValue }
    }
    /// The size of the message's JSON in bytes.
    public var bytes: Int {
        get { storage.bytes }
        set { unique().bytes = newValue }
    }
    /// `true` when the message was too large to forward and `message` holds only its envelope.
    public var truncated: Bool? {
        get { storage.truncated }
        set { unique().truncated = newValue }
    }
    /// For sent messages a page script reported in another shape than the protocol's message
    /// JSON (a JSON string, `status` at the top level, an ISO timestamp, …): the exact text the
    /// page reported; `message` is then the message as read. Absent otherwise, from older
    /// agents, and when the two together would not fit in a frame. Untrusted.
    public var reported: String? {
        get { storage.reported }
        set { unique().reported = newValue }
    }
    /// For sent messages that reached the page but no journey code (GBGBridge's no-op bootstrap
    /// `receive`): why the journey did not get it. Absent otherwise and from older agents.
    public var lost: String? {
        get { storage.lost }
        set { unique().lost = newValue }
    }
    /// The message, decoded (its numbers are `Double`s: see ``messageJSON`` for its exact text).
    public var message: BridgeMessage {
        get { storage.message }
        set { unique().message = newValue }
    }
    /// The message's JSON text exactly as it crossed the bridge (key order, number digits,
    /// spacing), when this record was read from an agent's frame by ``AgentFrame/decode(_:)``;
    /// `nil` for a record made in code. Untrusted: sanitize before showing it.
    ///
    /// Not part of the wire format (never encoded) nor of equality: it is another spelling of
    /// ``message``, kept because decoding loses digits (`9007199254740993` becomes
    /// `9007199254740992`, `1.0` becomes `1`).
    public var messageJSON: Data? {
        get { storage.messageJSON }
        set { unique().messageJSON = newValue }
    }

    private enum CodingKeys: String, CodingKey {
        case seq, direction, time, origin, command, rule, deliveryError, hold, fault, delivered, original, bytes, truncated, reported, lost, message
    }

    /// Records are equal when their fields are, whether or not they carry ``messageJSON``.
    public static func == (lhs: WireTraffic, rhs: WireTraffic) -> Bool {
        lhs.seq == rhs.seq && lhs.direction == rhs.direction && lhs.time == rhs.time && lhs.origin == rhs.origin
            && lhs.command == rhs.command && lhs.rule == rhs.rule && lhs.deliveryError == rhs.deliveryError
            && lhs.hold == rhs.hold && lhs.fault == rhs.fault && lhs.bytes == rhs.bytes && lhs.truncated == rhs.truncated && lhs.message == rhs.message
            && lhs.reported == rhs.reported && lhs.lost == rhs.lost && lhs.delivered == rhs.delivered && lhs.original == rhs.original
    }

    /// Hashes the fields ``==`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(seq)
        hasher.combine(message)
    }

    /// Creates a record.
    public init(
        seq: Int, direction: TrafficRecord.Direction, time: Double, origin: MessageOrigin, command: String? = nil,
        rule: String? = nil, deliveryError: String? = nil, hold: HoldMark? = nil, bytes: Int, truncated: Bool? = nil,
        reported: String? = nil, lost: String? = nil, delivered: BridgeMessage? = nil, original: BridgeMessage? = nil,
        fault: FaultMark? = nil, message: BridgeMessage
    ) {
        storage = Storage(
            seq: seq, direction: direction, time: time, origin: origin, command: command, rule: rule, deliveryError: deliveryError,
            hold: hold, fault: fault, delivered: delivered, original: original, bytes: bytes, truncated: truncated,
            reported: reported, lost: lost, message: message, messageJSON: nil)
    }

    private var storage: Storage

    /// The box, made this record's own first when another record shares it.
    private mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    /// The fields. Set only through `unique()`, on a box no other record holds: a box that is
    /// shared is never written, which is what makes it safe to send.
    private final class Storage: @unchecked Sendable {
        var seq: Int
        var direction: TrafficRecord.Direction
        var time: Double
        var origin: MessageOrigin
        var command: String?
        var rule: String?
        var deliveryError: String?
        var hold: HoldMark?
        var fault: FaultMark?
        var delivered: BridgeMessage?
        var original: BridgeMessage?
        var bytes: Int
        var truncated: Bool?
        var reported: String?
        var lost: String?
        var message: BridgeMessage
        var messageJSON: Data?

        init(
            seq: Int, direction: TrafficRecord.Direction, time: Double, origin: MessageOrigin, command: String?, rule: String?,
            deliveryError: String?, hold: HoldMark?, fault: FaultMark?, delivered: BridgeMessage?, original: BridgeMessage?, bytes: Int,
            truncated: Bool?, reported: String?, lost: String?, message: BridgeMessage, messageJSON: Data?
        ) {
            self.seq = seq
            self.direction = direction
            self.time = time
            self.origin = origin
            self.command = command
            self.rule = rule
            self.deliveryError = deliveryError
            self.hold = hold
            self.fault = fault
            self.delivered = delivered
            self.original = original
            self.bytes = bytes
            self.truncated = truncated
            self.reported = reported
            self.lost = lost
            self.message = message
            self.messageJSON = messageJSON
        }

        func copy() -> Storage {
            Storage(
                seq: seq, direction: direction, time: time, origin: origin, command: command, rule: rule, deliveryError: deliveryError,
                hold: hold, fault: fault, delivered: delivered, original: original, bytes: bytes, truncated: truncated,
                reported: reported, lost: lost, message: message, messageJSON: messageJSON)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // In the order of the fields, as the synthesized conformance read them.
        let seq = try container.decode(Int.self, forKey: .seq)
        let direction = try container.decode(TrafficRecord.Direction.self, forKey: .direction)
        let time = try container.decode(Double.self, forKey: .time)
        let origin = try container.decode(MessageOrigin.self, forKey: .origin)
        let command = try container.decodeIfPresent(String.self, forKey: .command)
        let rule = try container.decodeIfPresent(String.self, forKey: .rule)
        let deliveryError = try container.decodeIfPresent(String.self, forKey: .deliveryError)
        let hold = try container.decodeIfPresent(HoldMark.self, forKey: .hold)
        let fault = try container.decodeIfPresent(FaultMark.self, forKey: .fault)
        let delivered = try container.decodeIfPresent(BridgeMessage.self, forKey: .delivered)
        let original = try container.decodeIfPresent(BridgeMessage.self, forKey: .original)
        let bytes = try container.decode(Int.self, forKey: .bytes)
        let truncated = try container.decodeIfPresent(Bool.self, forKey: .truncated)
        let reported = try container.decodeIfPresent(String.self, forKey: .reported)
        let lost = try container.decodeIfPresent(String.self, forKey: .lost)
        let message = try container.decode(BridgeMessage.self, forKey: .message)
        self.init(
            seq: seq, direction: direction, time: time, origin: origin, command: command, rule: rule,
            deliveryError: deliveryError, hold: hold, bytes: bytes, truncated: truncated, reported: reported, lost: lost,
            delivered: delivered, original: original, fault: fault, message: message)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(seq, forKey: .seq)
        try container.encode(direction, forKey: .direction)
        try container.encode(time, forKey: .time)
        try container.encode(origin, forKey: .origin)
        try container.encodeIfPresent(command, forKey: .command)
        try container.encodeIfPresent(rule, forKey: .rule)
        try container.encodeIfPresent(deliveryError, forKey: .deliveryError)
        try container.encodeIfPresent(hold, forKey: .hold)
        try container.encodeIfPresent(fault, forKey: .fault)
        try container.encodeIfPresent(delivered, forKey: .delivered)
        try container.encodeIfPresent(original, forKey: .original)
        try container.encode(bytes, forKey: .bytes)
        try container.encodeIfPresent(truncated, forKey: .truncated)
        try container.encodeIfPresent(reported, forKey: .reported)
        try container.encodeIfPresent(lost, forKey: .lost)
        try container.encode(message, forKey: .message)
    }
}
