import BridgeCore
import Foundation
import InspectorProtocol

/// One row of the inspector's message log: a message, malformed input, or a marker that says
/// the stream was interrupted.
///
/// Rows are compact (a few small fields plus the message's JSON bytes), so a long session of a
/// million messages stays within memory; the full message is decoded only when asked for. The
/// fields few rows have (an error code, an inspector's command, a fault, an edited original, …)
/// are kept out of line, in one shared box that most rows do without (`RareFields`), so a row
/// is under half the size it was and every frame moves and frees less (issue 30); they read and
/// set as any other field.
public struct LogEntry: Sendable {
    /// What the row is.
    public enum Kind: Sendable, Equatable {
        /// A message that crossed the bridge.
        case message
        /// Input that failed to decode (from the journey, or a report of what the host sent when
        /// ``direction`` is `sent`); `summary` holds the reason.
        case malformed
        /// Events `from...to` were missed (the client fell behind); the state was resynchronised.
        /// (Markers with payloads are `indirect`: kept in a box of their own, so a kind is one
        /// word, not the five of the largest, in every row.)
        indirect case gap(from: Int, to: Int)
        /// The connection to the host was lost.
        case disconnected
        /// The inspector attached again; `hostRestarted` when it is a new host process or agent.
        case reattached(hostRestarted: Bool)
        /// The host process ended and a new process of the host (a new pid: the app was run
        /// again) was attached: `name` as the new host calls itself (untrusted: sanitize before
        /// printing), the pid that ended and the pid now attached.
        indirect case hostRestarted(name: String, endedPid: Int, attachedPid: Int)
    }

    /// What the row is.
    public var kind: Kind
    // The one-byte fields next to the kind, in the word it leaves (a row of 128 bytes).
    /// Received or sent (messages only).
    public var direction: TrafficRecord.Direction?
    /// Request, response or event (messages only).
    public var type: MessageType?
    /// The status of a response.
    public var status: BridgeResponseStatus?
    /// Who made the message.
    public var origin: MessageOrigin?
    /// The agent's sequence number for the row (0 for markers).
    public var seq: Int
    /// When it happened, in milliseconds since 1970.
    public var time: Double
    /// `payload.action`, or the reason for malformed input.
    public var summary: String
    /// The correlation id (messages only).
    public var correlationId: String
    /// The error code of a response that carried an error.
    public var errorCode: String? {
        get { rare?.fields.errorCode }
        set {
            if newValue == nil && rare == nil { return }
            updateRare { $0.errorCode = newValue }
        }
    }
    /// For inspector-made messages: the command that made them.
    public var command: String? {
        get { rare?.fields.command }
        set {
            if newValue == nil && rare == nil { return }
            updateRare { $0.command = newValue }
        }
    }
    /// Why a sent message was not delivered.
    public var deliveryError: String? {
        get { rare?.fields.deliveryError }
        set {
            if newValue == nil && rare == nil { return }
            updateRare { $0.deliveryError = newValue }
        }
    }
    /// Why a sent message that reached the page never reached the journey's code (GBGBridge's
    /// no-op bootstrap `receive`). Untrusted text.
    public var lost: String? {
        get { rare?.fields.lost }
        set {
            if newValue == nil && rare == nil { return }
            updateRare { $0.lost = newValue }
        }
    }
    /// For a sent message a page script reported in another shape than the protocol's message
    /// JSON: the exact text reported (``json`` is the message as read). Untrusted text.
    public var reported: Data? {
        get { rare?.fields.reported }
        set {
            if newValue == nil && rare == nil { return }
            updateRare { $0.reported = newValue }
        }
    }
    /// For a response: how long the host took to answer its request, in milliseconds: from the
    /// request's arrival to the response, less the time either was held at a breakpoint
    /// (``heldMs``), which is the inspector's doing, not the host's.
    public var latencyMs: Double?
    /// For a response: how long its request, or it, was held at breakpoints on the way, in
    /// milliseconds; `nil` when neither was held. Not part of ``latencyMs``.
    public var heldMs: Double? {
        get { rare?.fields.heldMs }
        set {
            if newValue == nil && rare == nil { return }
            updateRare { $0.heldMs = newValue }
        }
    }
    /// For a request or response: the index of its partner row in the log.
    public var partner: Int?
    /// Whether a reply rule answered it.
    public var answeredByRule: Bool = false
    /// The protocol rule the row breaks, if any (``LiveState/lintReasons`` has the reason).
    /// A row an inspector made keeps its mark but does not count: see ``countsAsLint``.
    public var lint: LintRule?
    /// Whether the person marked the row in the inspector (the TUI's `m`; `is:marked` finds
    /// it). The inspector's, not the host's: kept with the row across reconnects, and in a
    /// recording saved with the TUI's `w` (``Recording/Mark``).
    public var marked: Bool = false
    /// For a message a fault rule changed: the rule and what it did (`is:fault` finds it).
    public var fault: FaultMark? {
        get { rare?.fields.fault }
        set {
            if newValue == nil && rare == nil { return }
            updateRare { $0.fault = newValue }
        }
    }
    /// Whether an inspector caused the row: it made it (``origin`` `inspector`, ✎) or one of its
    /// fault rules changed it (``fault``); see `WireTraffic.isInspectorCaused`.
    public var isInspectorCaused: Bool { origin == .inspector || fault != nil }
    /// Whether a fault rule kept the row from the journey: a message the host sent that a rule
    /// dropped, or an answer `neverAnswer` swallowed (``fault``). The journey never met it, so
    /// what it says (an answer, an event) is not what the journey saw: the journey's coverage
    /// counts such an answer as none (the request times out) and such an event as never sent.
    public var withheldFromJourney: Bool {
        direction == .sent && (fault?.effect == .dropped || fault?.effect == .neverAnswered)
    }
    /// The message's JSON (or the malformed text), exactly as it crossed the bridge. For a
    /// message an inspector edited at a breakpoint, what went on: the edited message (what the
    /// host routed, or what the journey received); ``original`` has it before the edit.
    public var json: Data
    /// For a message an inspector edited at a breakpoint before it went on: the message before
    /// the edit (what the journey posted, or what the host sent); `nil` otherwise, and when the
    /// agent could not keep it (over 256 KiB). Untrusted.
    public var original: Data? {
        get { rare?.fields.original }
        set {
            if newValue == nil && rare == nil { return }
            updateRare { $0.original = newValue }
        }
    }
    /// The size of the message when it crossed the bridge, in bytes.
    public var bytes: Int
    /// The `correlationId` malformed input names, when it is a JSON object (of at most
    /// ``maxParsedMalformedBytes``) with a non-empty string `correlationId`: read once, when the
    /// row is made, so the request it was meant to answer can be found. Untrusted text: draw it
    /// through something that makes it safe.
    public var malformedCorrelationId: String? {
        get { rare?.fields.malformedCorrelationId }
        set {
            if newValue == nil && rare == nil { return }
            updateRare { $0.malformedCorrelationId = newValue }
        }
    }

    /// Whether the row's lint mark counts against the app (the status line's `⚑ N`, `is:lint`,
    /// the doctor's verdicts): it has one, and no inspector caused the row. A response, event,
    /// slot completion or injection made by an inspector (``origin`` `inspector`, ✎), or a
    /// message a fault rule changed (``fault``, ⚡), shows its mark but is not the app's doing.
    public var countsAsLint: Bool { lint != nil && !isInspectorCaused }

    /// Larger malformed input is not parsed for its ``malformedCorrelationId``.
    public static let maxParsedMalformedBytes = 8 * 1024

    /// The decoded message, decoded on demand (`nil` for markers and malformed input).
    public var message: BridgeMessage? {
        guard kind == .message else { return nil }
        return try? BridgeMessageCodec.message(in: JSONParser.read(json)).get()
    }

    /// A marker row.
    public static func marker(_ kind: Kind, time: Double) -> LogEntry {
        LogEntry(
            kind: kind, seq: 0, time: time, direction: nil, type: nil, summary: "", correlationId: "", status: nil,
            errorCode: nil, origin: nil, command: nil, deliveryError: nil, latencyMs: nil, partner: nil, json: Data(), bytes: 0)
    }

    /// The row for a traffic record. ``json`` is, in order: `json` when the caller has the
    /// message's bytes, the record's ``WireTraffic/messageJSON`` (the bytes as they stood in the
    /// agent's frame), or, for a record made in code, the message re-encoded (sorted keys, and
    /// numbers as `Double`s: the only case where the text is not the one that crossed the bridge).
    public init(_ traffic: WireTraffic, json: Data? = nil) {
        // Every field set once, here: through the memberwise initializer and then the optional
        // fields, the row was copied twice more on every frame (issue 30).
        // Each field read where the record keeps it, not from a copy of its message.
        kind = .message
        seq = traffic.seq
        time = traffic.time
        direction = traffic.direction
        type = traffic.messageType
        summary = traffic.messageAction
        correlationId = traffic.messageCorrelationId
        status = traffic.messageStatus
        origin = traffic.origin
        latencyMs = nil
        partner = nil
        answeredByRule = traffic.rule != nil
        lint = nil
        marked = false
        self.json = json ?? traffic.messageJSON ?? ((try? LogEntry.encoder.encode(traffic.message)) ?? Data())
        bytes = traffic.bytes
        // The rare fields, in a box only when the record has one of them (nearly none has).
        let errorCode = traffic.messageErrorCode
        if errorCode == nil && !traffic.hasRareFields {
            rare = nil
        } else {
            let rare = RareFields(
                errorCode: errorCode, command: traffic.command, deliveryError: traffic.deliveryError, lost: traffic.lost,
                reported: traffic.reported.map { Data($0.utf8) }, fault: traffic.fault)
            self.rare = rare.isEmpty ? nil : RareFieldsBox(rare)
        }
        if let delivered = traffic.delivered {
            showDelivered(delivered)
        } else if let original = traffic.original {
            self.original = (try? LogEntry.encoder.encode(original)) ?? Data()
        }
    }

    /// Shows `delivered`, what an inspector's edit made of this row's message, keeping the
    /// message as it was in ``original``: the row, its detail and what is copied or replayed
    /// from it are then the message the host routed.
    public mutating func showDelivered(_ delivered: BridgeMessage) {
        guard kind == .message, original == nil, let json = try? LogEntry.encoder.encode(delivered) else { return }
        original = self.json
        self.json = json
        bytes = json.count
        status = delivered.payload.status
        errorCode = delivered.payload.error?.code
    }

    /// The row for malformed input: from the journey, or (``WireMalformed/direction`` `sent`) a
    /// report of what the host sent that could not be read, or (``WireMalformed/origin``
    /// `inspector`) text an inspector injected.
    public init(_ malformed: WireMalformed) {
        let direction = malformed.direction ?? .received
        self.init(
            kind: .malformed, seq: malformed.seq, time: malformed.time, direction: direction, type: nil,
            summary: malformed.reason, correlationId: "", status: nil, errorCode: nil,
            origin: malformed.origin ?? (direction == .sent ? .host : .journey), command: malformed.command,
            deliveryError: nil, latencyMs: nil, partner: nil, json: Data(malformed.raw.utf8), bytes: malformed.bytes)
        // Read by the one JSON rule the host reads messages by (JSONParser), not another parser.
        if !json.isEmpty, json.count <= Self.maxParsedMalformedBytes,
            case .object(let fields)? = JSONParser.parse(json),
            case .string(let id)? = fields["correlationId"], !id.isEmpty
        {
            malformedCorrelationId = id
        }
    }

    init(
        kind: Kind, seq: Int, time: Double, direction: TrafficRecord.Direction?, type: MessageType?, summary: String,
        correlationId: String, status: BridgeResponseStatus?, errorCode: String?, origin: MessageOrigin?, command: String?,
        deliveryError: String?, latencyMs: Double?, partner: Int?, json: Data, bytes: Int
    ) {
        self.kind = kind
        self.seq = seq
        self.time = time
        self.direction = direction
        self.type = type
        self.summary = summary
        self.correlationId = correlationId
        self.status = status
        self.origin = origin
        self.latencyMs = latencyMs
        self.partner = partner
        self.json = json
        self.bytes = bytes
        if errorCode == nil && command == nil && deliveryError == nil {
            rare = nil
        } else {
            rare = RareFieldsBox(RareFields(errorCode: errorCode, command: command, deliveryError: deliveryError))
        }
    }

    static let encoder = JSONEncoding.compact

    // MARK: The fields few rows have

    /// The box of ``RareFields``; `nil` when the row has none of them (nearly every row).
    private var rare: RareFieldsBox?

    /// Sets rare fields: on a new box, so that a box, once made, never changes (a copy of the
    /// row, which shares it, never sees the change); none when every rare field is `nil`.
    private mutating func updateRare(_ change: (inout RareFields) -> Void) {
        var fields = rare?.fields ?? RareFields()
        change(&fields)
        rare = fields.isEmpty ? nil : RareFieldsBox(fields)
    }
}

/// The fields of a ``LogEntry`` that few rows have, as the row's properties of the same names
/// describe them: kept out of line so that a row, made, moved and freed on every frame, stays
/// small (issue 30).
struct RareFields: Sendable {
    var errorCode: String?
    var command: String?
    var deliveryError: String?
    var lost: String?
    var reported: Data?
    var heldMs: Double?
    var fault: FaultMark?
    var original: Data?
    var malformedCorrelationId: String?

    /// Whether the row has none of them.
    var isEmpty: Bool {
        errorCode == nil && command == nil && deliveryError == nil && lost == nil && reported == nil && heldMs == nil && fault == nil
            && original == nil && malformedCorrelationId == nil
    }
}

/// The box of a row's ``RareFields``: immutable, so rows share it and can be sent between threads.
final class RareFieldsBox: Sendable {
    let fields: RareFields

    init(_ fields: RareFields) { self.fields = fields }
}
