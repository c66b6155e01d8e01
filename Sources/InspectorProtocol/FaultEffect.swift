import BridgeCore

/// What a fault rule does to a message it picks (docs/inspector-protocol.md, "Fault rules").
///
/// On a request from the journey: `delay`, `error`, `neverAnswer`, `drop`. On what the host
/// sends (responses and events): `drop`, `duplicate`, `delay`, `reorder`. In JSON an object
/// with a `kind`: `{"kind":"error","code":"BUSY"}`, `{"kind":"delay","minMs":1000,"maxMs":3000}`.
public enum FaultEffect: Sendable, Hashable, Codable {
    /// The message goes on late: between `minMs` and `maxMs` milliseconds (equal for a fixed
    /// delay; a range is drawn from the rule's seeded generator). On a request its handler runs
    /// at once and its answer goes out late.
    case delay(minMs: Int, maxMs: Int)
    /// A request is answered at once with this error; its handler never runs. `message` and
    /// `recoverable` default to ``BridgeErrorCode``'s for a documented code; a code of one's own
    /// needs an explicit `recoverable`.
    case error(code: String, message: String?, recoverable: Bool?)
    /// A request's handler runs and its answer is swallowed: the journey's own timeout fires.
    case neverAnswer
    /// A request never reaches the host's routing; a response or event is never delivered.
    case drop
    /// A response or event is delivered twice.
    case duplicate
    /// A response or event is held back and delivered right after the next message the host
    /// sends, or after `boundMs` milliseconds (default ``defaultReorderBoundMs``) if none comes.
    case reorder(boundMs: Int?)

    /// How long a `reorder` waits for a next message when the rule does not say: 1 s.
    public static let defaultReorderBoundMs = 1000
    /// The longest delay or reorder bound a rule may ask for: 10 minutes.
    public static let maxDelayMs = 600_000

    /// The effect's name in JSON and on the command line.
    public var kind: String {
        switch self {
        case .delay: return "delay"
        case .error: return "error"
        case .neverAnswer: return "neverAnswer"
        case .drop: return "drop"
        case .duplicate: return "duplicate"
        case .reorder: return "reorder"
        }
    }

    /// Whether the effect applies to a message going `direction`: `error` and `neverAnswer` to
    /// requests received, `duplicate` and `reorder` to what the host sends, `delay` and `drop` to both.
    public func applies(to direction: TrafficRecord.Direction) -> Bool {
        switch self {
        case .error, .neverAnswer: return direction == .received
        case .duplicate, .reorder: return direction == .sent
        case .delay, .drop: return true
        }
    }

    /// What is wrong with the effect, in a sentence that says what to do, or `nil` when it is sound.
    public var problem: String? {
        switch self {
        case .delay(let minMs, let maxMs):
            guard minMs >= 0, maxMs >= minMs, maxMs <= Self.maxDelayMs else {
                return "delay: \(minMs)..\(maxMs) ms is not a range from 0 to \(Self.maxDelayMs) ms with its smaller end first"
            }
        case .error(let code, let message, let recoverable):
            guard !code.isEmpty, code.utf8.count <= 64 else { return "error: the code must be 1 to 64 bytes, such as BUSY" }
            if (message?.utf8.count ?? 0) > 1024 { return "error: the message is over 1024 bytes" }
            if BridgeErrorCode(rawValue: code) == nil, recoverable == nil {
                let known = BridgeErrorCode.allCases.map(\.rawValue).joined(separator: ", ")
                return "error: '\(code)' is not a documented code (\(known)); give recoverable (true or false) for a code of your own"
            }
        case .reorder(let bound):
            if let bound, bound < 0 || bound > Self.maxDelayMs {
                return "reorder: the bound must be 0 to \(Self.maxDelayMs) ms (got \(bound))"
            }
        case .neverAnswer, .drop, .duplicate:
            break
        }
        return nil
    }

    /// The error payload an `error` effect answers with (documented defaults filled in).
    public var errorPayload: BridgeErrorPayload? {
        guard case .error(let code, let message, let recoverable) = self else { return nil }
        let documented = BridgeErrorCode(rawValue: code)
        return BridgeErrorPayload(
            code: code, message: message ?? documented?.defaultMessage ?? "Fault injected by an inspector",
            recoverable: recoverable ?? documented?.isRecoverable ?? false)
    }

    /// The host's action for this effect; a delay range draws from `random`.
    public func action(using random: inout SplitMix64) -> FaultAction {
        switch self {
        case .delay(let minMs, let maxMs):
            let span = UInt64(max(0, maxMs - minMs))
            let ms = minMs + (span == 0 ? 0 : Int(random.next() % (span + 1)))
            return .delay(seconds: Double(ms) / 1000)
        case .error:
            return .error(errorPayload ?? BridgeErrorCode.internalError.payload())
        case .neverAnswer: return .neverAnswer
        case .drop: return .drop
        case .duplicate: return .duplicate
        case .reorder(let bound): return .reorder(boundSeconds: Double(bound ?? Self.defaultReorderBoundMs) / 1000)
        }
    }

    /// The effect in a few words, as lists and marks show it: `error BUSY`, `delay 1000..3000ms`.
    public var summary: String {
        switch self {
        case .delay(let minMs, let maxMs): return minMs == maxMs ? "delay \(minMs)ms" : "delay \(minMs)..\(maxMs)ms"
        case .error(let code, _, _): return "error \(code)"
        case .neverAnswer: return "never answer"
        case .drop: return "drop"
        case .duplicate: return "duplicate"
        case .reorder(let bound): return "reorder (bound \(bound ?? Self.defaultReorderBoundMs)ms)"
        }
    }

    private enum CodingKeys: String, CodingKey { case kind, minMs, maxMs, code, message, recoverable, boundMs }

    /// Reads `{"kind": …}` with the kind's members.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .kind) {
        case "delay":
            let minMs = try container.decode(Int.self, forKey: .minMs)
            self = .delay(minMs: minMs, maxMs: try container.decodeIfPresent(Int.self, forKey: .maxMs) ?? minMs)
        case "error":
            self = .error(
                code: try container.decode(String.self, forKey: .code), message: try container.decodeIfPresent(String.self, forKey: .message),
                recoverable: try container.decodeIfPresent(Bool.self, forKey: .recoverable))
        case "neverAnswer": self = .neverAnswer
        case "drop": self = .drop
        case "duplicate": self = .duplicate
        case "reorder": self = .reorder(boundMs: try container.decodeIfPresent(Int.self, forKey: .boundMs))
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container,
                debugDescription: "unknown fault kind '\(other)'; use delay, error, neverAnswer, drop, duplicate or reorder")
        }
    }

    /// Writes `{"kind": …}` with the kind's members.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        switch self {
        case .delay(let minMs, let maxMs):
            try container.encode(minMs, forKey: .minMs)
            try container.encode(maxMs, forKey: .maxMs)
        case .error(let code, let message, let recoverable):
            try container.encode(code, forKey: .code)
            try container.encodeIfPresent(message, forKey: .message)
            try container.encodeIfPresent(recoverable, forKey: .recoverable)
        case .reorder(let bound):
            try container.encodeIfPresent(bound, forKey: .boundMs)
        case .neverAnswer, .drop, .duplicate:
            break
        }
    }
}
