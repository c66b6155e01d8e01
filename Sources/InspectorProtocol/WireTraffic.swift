import BridgeCore
import Foundation

/// One message in the log, as carried in `traffic` events and snapshots.
///
/// Its fields live in one shared, immutable box: a record is one reference wide, so passing it,
/// and the frames and events that carry it, through a client costs a retain instead of a copy of
/// some twenty fields (issue 30). Reading and setting its fields is as for any struct; setting
/// one makes the record a new box (records are made once and seldom changed).
public struct WireTraffic: Codable, Sendable, Hashable {
    /// The sequence number of the event that carried it first.
    public var seq: Int {
        @inlinable get { storage.fields.seq }
        @inlinable set { update { $0.seq = newValue } }
    }
    /// Received from the journey, or sent to it.
    public var direction: TrafficRecord.Direction {
        @inlinable get { storage.fields.direction }
        @inlinable set { update { $0.direction = newValue } }
    }
    /// When the host handled it, in milliseconds since 1970.
    public var time: Double {
        @inlinable get { storage.fields.time }
        @inlinable set { update { $0.time = newValue } }
    }
    /// Who made it.
    public var origin: MessageOrigin {
        @inlinable get { storage.fields.origin }
        @inlinable set { update { $0.origin = newValue } }
    }
    /// For inspector-made messages: the id of the command that made it.
    public var command: String? {
        @inlinable get { storage.fields.command }
        @inlinable set { update { $0.command = newValue } }
    }
    /// For responses made by a reply rule: the rule's name.
    public var rule: String? {
        @inlinable get { storage.fields.rule }
        @inlinable set { update { $0.rule = newValue } }
    }
    /// For sent messages that were not delivered: why.
    public var deliveryError: String? {
        @inlinable get { storage.fields.deliveryError }
        @inlinable set { update { $0.deliveryError = newValue } }
    }
    /// For sent messages held at a breakpoint: the hold, and whether the message went out as it
    /// was, edited, as the answer to a held request, or was dropped (never delivered). For a
    /// received request held and released edited: that hold, `edited` (see ``delivered`` and
    /// ``original``).
    public var hold: HoldMark? {
        @inlinable get { storage.fields.hold }
        @inlinable set { update { $0.hold = newValue } }
    }
    /// For a message a fault rule changed: the rule and what it did (`dropped`: never routed
    /// or delivered). Absent otherwise and from older agents.
    public var fault: FaultMark? {
        @inlinable get { storage.fields.fault }
        @inlinable set { update { $0.fault = newValue } }
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
        @inlinable get { storage.fields.delivered }
        @inlinable set { update { $0.delivered = newValue } }
    }
    /// For a message logged once it was released edited (a response or event a native host
    /// sent; a request GBGBridge received, seen through its public API): the message as it was
    /// held, before the edit (``message`` is what went on). Absent otherwise, from older agents,
    /// and when the original was too large to keep. Untrusted.
    public var original: BridgeMessage? {
        @inlinable get { storage.fields.original }
        @inlinable set { update { $0.original = newValue } }
    }
    /// The size of the message's JSON in bytes.
    public var bytes: Int {
        @inlinable get { storage.fields.bytes }
        @inlinable set { update { $0.bytes = newValue } }
    }
    /// `true` when the message was too large to forward and `message` holds only its envelope.
    public var truncated: Bool? {
        @inlinable get { storage.fields.truncated }
        @inlinable set { update { $0.truncated = newValue } }
    }
    /// For sent messages a page script reported in another shape than the protocol's message
    /// JSON (a JSON string, `status` at the top level, an ISO timestamp, …): the exact text the
    /// page reported; `message` is then the message as read. Absent otherwise, from older
    /// agents, and when the two together would not fit in a frame. Untrusted.
    public var reported: String? {
        @inlinable get { storage.fields.reported }
        @inlinable set { update { $0.reported = newValue } }
    }
    /// For sent messages that reached the page but no journey code (GBGBridge's no-op bootstrap
    /// `receive`): why the journey did not get it. Absent otherwise and from older agents.
    public var lost: String? {
        @inlinable get { storage.fields.lost }
        @inlinable set { update { $0.lost = newValue } }
    }
    /// The message, decoded (its numbers are `Double`s: see ``messageJSON`` for its exact text).
    public var message: BridgeMessage {
        @inlinable get { storage.fields.message }
        @inlinable set { update { $0.message = newValue } }
    }
    /// The message's JSON text exactly as it crossed the bridge (key order, number digits,
    /// spacing), when this record was read from an agent's frame by ``AgentFrame/decode(_:)``;
    /// `nil` for a record made in code. Untrusted: sanitize before showing it.
    ///
    /// Not part of the wire format (never encoded) nor of equality: it is another spelling of
    /// ``message``, kept because decoding loses digits (`9007199254740993` becomes
    /// `9007199254740992`, `1.0` becomes `1`).
    public var messageJSON: Data? {
        @inlinable get { storage.fields.messageJSON }
        @inlinable set { update { $0.messageJSON = newValue } }
    }

    /// The message's type, read where it is stored: `message.type` copies the whole message
    /// (some twenty words and their references) to read one field, and a client reads a few on
    /// every row (issue 30).
    package var messageType: MessageType { storage.fields.message.type }
    /// The message's `correlationId`, read where it is stored (see ``messageType``).
    package var messageCorrelationId: String { storage.fields.message.correlationId }
    /// The message's `payload.action`, read where it is stored (see ``messageType``).
    package var messageAction: String { storage.fields.message.payload.action }
    /// The message's `payload.status`, read where it is stored (see ``messageType``).
    package var messageStatus: BridgeResponseStatus? { storage.fields.message.payload.status }
    /// The code of the message's `payload.error`, read where it is stored (see ``messageType``).
    package var messageErrorCode: String? { storage.fields.message.payload.error?.code }

    /// Whether the record has any of its rare fields (``command``, ``rule``, ``deliveryError``,
    /// ``hold``, ``fault``, ``delivered``, ``original``, ``truncated``, ``reported``, ``lost``):
    /// when not, a reader of them need not look at each (issue 30).
    package var hasRareFields: Bool { storage.fields.rare != nil }

    /// Runs `body` on the message as it went on, read where the record stores it: ``delivered``
    /// when an inspector's edit made one, ``message`` otherwise. `delivered ?? message` copies
    /// the whole message out to read it, and a client checks every row's (issue 30).
    @inlinable package func withMessageAsDelivered<Result>(_ body: (BridgeMessage) -> Result) -> Result {
        if let rare = storage.fields.rare, let delivered = rare.fields.delivered { return body(delivered) }
        return body(storage.fields.message)
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
        self.init(
            seq: seq, direction: direction, time: time, origin: origin, command: command, rule: rule, deliveryError: deliveryError,
            hold: hold, bytes: bytes, truncated: truncated, reported: reported, lost: lost, delivered: delivered, original: original,
            fault: fault, message: message, messageJSON: nil)
    }

    /// Creates a record read from an agent's frame, with its message's bytes (``messageJSON``).
    init(
        seq: Int, direction: TrafficRecord.Direction, time: Double, origin: MessageOrigin, command: String?, rule: String?,
        deliveryError: String?, hold: HoldMark?, bytes: Int, truncated: Bool?, reported: String?, lost: String?,
        delivered: BridgeMessage?, original: BridgeMessage?, fault: FaultMark?, message: BridgeMessage, messageJSON: Data?
    ) {
        // Each rare field looked at where it stands: a box of them made (and its copies of the
        // messages) only for a record that has one (issue 30).
        let rare: RareBox?
        if command == nil, rule == nil, deliveryError == nil, hold == nil, fault == nil, delivered == nil, original == nil, truncated == nil,
            reported == nil, lost == nil
        {
            rare = nil
        } else {
            rare = RareBox(Rare(
                command: command, rule: rule, deliveryError: deliveryError, hold: hold, fault: fault, delivered: delivered,
                original: original, truncated: truncated, reported: reported, lost: lost))
        }
        storage = Storage(Fields(
            seq: seq, direction: direction, time: time, origin: origin, bytes: bytes, message: message, messageJSON: messageJSON, rare: rare))
    }

    /// Creates a record read from an agent's frame: its rare fields as read (`nil`: none of
    /// them), with its message's bytes (``messageJSON``). Their lifetimes end where they are
    /// moved into the box (`consuming`): held to the end of the initialiser, each reference in
    /// them was retained for the box and released after it (issue 30).
    init(
        seq: Int, direction: TrafficRecord.Direction, time: Double, origin: MessageOrigin, bytes: Int, message: consuming BridgeMessage,
        messageJSON: consuming Data?, rare: consuming Rare?
    ) {
        let box = rare.flatMap { $0.isEmpty ? nil : RareBox($0) }
        storage = Storage(Fields(
            seq: seq, direction: direction, time: time, origin: origin, bytes: bytes, message: message, messageJSON: messageJSON, rare: box))
    }

    @usableFromInline var storage: Storage

    /// Sets fields: on a new box, so that a box, once made, never changes (and a copy of the
    /// record, which shares it, never sees the change).
    @inlinable mutating func update(_ change: (inout Fields) -> Void) {
        var fields = storage.fields
        change(&fields)
        storage = Storage(fields)
    }

    /// The fields, as they were stored before the box. The common ones are stored here; the
    /// ten few records have (an inspector's command, a rule, a hold, a fault, the `delivered`
    /// and `original` messages, …) in a box of their own, ``Rare``, absent from a plain record:
    /// with three messages inline the fields were some 600 bytes, moved into the record's box on
    /// every frame a client reads (issue 30). They read and set as the others.
    ///
    /// Its `Codable` conformance is the record's wire format: what the synthesized conformance
    /// of the stored-field struct did, over every field but ``messageJSON`` (never encoded), in
    /// this order, optionals left out when absent (`decodeIfPresent`, `encodeIfPresent`): seq,
    /// direction, time, origin, command, rule, deliveryError, hold, fault, delivered, original,
    /// bytes, truncated, reported, lost, message.
    @usableFromInline struct Fields: Sendable, Codable {
        @usableFromInline var seq: Int
        @usableFromInline var direction: TrafficRecord.Direction
        @usableFromInline var time: Double
        @usableFromInline var origin: MessageOrigin
        @usableFromInline var bytes: Int
        @usableFromInline var message: BridgeMessage
        @usableFromInline var messageJSON: Data? = nil
        /// The rare fields, or `nil` when the record has none of them.
        @usableFromInline var rare: RareBox?

        @usableFromInline var command: String? {
            get { rare?.fields.command }
            set { updateRare(unlessNil: newValue) { $0.command = newValue } }
        }
        @usableFromInline var rule: String? {
            get { rare?.fields.rule }
            set { updateRare(unlessNil: newValue) { $0.rule = newValue } }
        }
        @usableFromInline var deliveryError: String? {
            get { rare?.fields.deliveryError }
            set { updateRare(unlessNil: newValue) { $0.deliveryError = newValue } }
        }
        @usableFromInline var hold: HoldMark? {
            get { rare?.fields.hold }
            set { updateRare(unlessNil: newValue) { $0.hold = newValue } }
        }
        @usableFromInline var fault: FaultMark? {
            get { rare?.fields.fault }
            set { updateRare(unlessNil: newValue) { $0.fault = newValue } }
        }
        @usableFromInline var delivered: BridgeMessage? {
            get { rare?.fields.delivered }
            set { updateRare(unlessNil: newValue) { $0.delivered = newValue } }
        }
        @usableFromInline var original: BridgeMessage? {
            get { rare?.fields.original }
            set { updateRare(unlessNil: newValue) { $0.original = newValue } }
        }
        @usableFromInline var truncated: Bool? {
            get { rare?.fields.truncated }
            set { updateRare(unlessNil: newValue) { $0.truncated = newValue } }
        }
        @usableFromInline var reported: String? {
            get { rare?.fields.reported }
            set { updateRare(unlessNil: newValue) { $0.reported = newValue } }
        }
        @usableFromInline var lost: String? {
            get { rare?.fields.lost }
            set { updateRare(unlessNil: newValue) { $0.lost = newValue } }
        }

        /// Sets rare fields on a new box (none when all are `nil`); nothing to do when a field
        /// is set to `nil` on a record without any.
        @usableFromInline mutating func updateRare<Value>(unlessNil value: Value?, _ change: (inout Rare) -> Void) {
            if value == nil && rare == nil { return }
            var fields = rare?.fields ?? Rare()
            change(&fields)
            rare = fields.isEmpty ? nil : RareBox(fields)
        }
    }

    /// The fields few records have (see ``Fields``).
    @usableFromInline struct Rare: Sendable {
        @usableFromInline var command: String?
        @usableFromInline var rule: String?
        @usableFromInline var deliveryError: String?
        @usableFromInline var hold: HoldMark?
        @usableFromInline var fault: FaultMark?
        @usableFromInline var delivered: BridgeMessage?
        @usableFromInline var original: BridgeMessage?
        @usableFromInline var truncated: Bool?
        @usableFromInline var reported: String?
        @usableFromInline var lost: String?

        @usableFromInline init(
            command: String? = nil, rule: String? = nil, deliveryError: String? = nil, hold: HoldMark? = nil, fault: FaultMark? = nil,
            delivered: BridgeMessage? = nil, original: BridgeMessage? = nil, truncated: Bool? = nil, reported: String? = nil,
            lost: String? = nil
        ) {
            self.command = command
            self.rule = rule
            self.deliveryError = deliveryError
            self.hold = hold
            self.fault = fault
            self.delivered = delivered
            self.original = original
            self.truncated = truncated
            self.reported = reported
            self.lost = lost
        }

        /// Whether the record has none of them.
        var isEmpty: Bool {
            command == nil && rule == nil && deliveryError == nil && hold == nil && fault == nil && delivered == nil && original == nil
                && truncated == nil && reported == nil && lost == nil
        }
    }

    /// The box of a record's ``Rare`` fields: immutable, as ``Storage`` is.
    @usableFromInline final class RareBox: Sendable {
        @usableFromInline let fields: Rare

        @usableFromInline init(_ fields: Rare) { self.fields = fields }
    }

    /// The box: immutable, so it is read without exclusivity checks and shared between threads
    /// without a lock.
    @usableFromInline final class Storage: Sendable {
        @usableFromInline let fields: Fields

        @usableFromInline init(_ fields: consuming Fields) { self.fields = fields }
    }

    /// Decodes as the stored-field struct's synthesized conformance did (``Fields``' own).
    public init(from decoder: any Decoder) throws {
        storage = Storage(try Fields(from: decoder))
    }

    /// Encodes as the stored-field struct's synthesized conformance did (``Fields``' own).
    public func encode(to encoder: any Encoder) throws {
        try storage.fields.encode(to: encoder)
    }
}

/// The record's wire format (see `Fields`). In an extension, so that the fields keep
/// their memberwise initialiser: it makes them in place, where the one written out made them
/// apart and copied them, retaining and releasing every reference in them (issue 30).
extension WireTraffic.Fields {
    enum CodingKeys: String, CodingKey {
        case seq, direction, time, origin, command, rule, deliveryError, hold, fault, delivered, original, bytes, truncated, reported, lost, message
    }

    /// Decodes the fields in the order the synthesized conformance did (the first problem met
    /// is the one reported).
    @usableFromInline init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        seq = try container.decode(Int.self, forKey: .seq)
        direction = try container.decode(TrafficRecord.Direction.self, forKey: .direction)
        time = try container.decode(Double.self, forKey: .time)
        origin = try container.decode(MessageOrigin.self, forKey: .origin)
        var rare = WireTraffic.Rare()
        rare.command = try container.decodeIfPresent(String.self, forKey: .command)
        rare.rule = try container.decodeIfPresent(String.self, forKey: .rule)
        rare.deliveryError = try container.decodeIfPresent(String.self, forKey: .deliveryError)
        rare.hold = try container.decodeIfPresent(HoldMark.self, forKey: .hold)
        rare.fault = try container.decodeIfPresent(FaultMark.self, forKey: .fault)
        rare.delivered = try container.decodeIfPresent(BridgeMessage.self, forKey: .delivered)
        rare.original = try container.decodeIfPresent(BridgeMessage.self, forKey: .original)
        bytes = try container.decode(Int.self, forKey: .bytes)
        rare.truncated = try container.decodeIfPresent(Bool.self, forKey: .truncated)
        rare.reported = try container.decodeIfPresent(String.self, forKey: .reported)
        rare.lost = try container.decodeIfPresent(String.self, forKey: .lost)
        message = try container.decode(BridgeMessage.self, forKey: .message)
        messageJSON = nil
        self.rare = rare.isEmpty ? nil : WireTraffic.RareBox(rare)
    }

    /// Encodes the fields in the order the synthesized conformance did.
    @usableFromInline func encode(to encoder: any Encoder) throws {
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
