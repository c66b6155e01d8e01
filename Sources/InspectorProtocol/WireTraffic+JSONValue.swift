import BridgeCore

extension WireTraffic {
    /// The record a parsed JSON value holds, or `nil` when it is not one.
    ///
    /// Accepts exactly what the `Decodable` conformance accepts (unknown fields are ignored,
    /// optional fields may be missing or `null`), without saying why a value is refused: it is
    /// the fast path ``AgentFrame/decode(_:)`` takes for the frame it sees most, and anything it
    /// refuses is decoded again through the `Decodable` conformance, from the same parsed value
    /// (``JSONDecoding``), which says what is wrong.
    public init?(validating value: JSONValue) {
        guard case .object(let fields) = value,
            let seq = fields["seq"].flatMap(Self.integer),
            case .string(let rawDirection)? = fields["direction"], let direction = TrafficRecord.Direction(rawValue: rawDirection),
            case .number(let time)? = fields["time"],
            case .string(let rawOrigin)? = fields["origin"], let origin = MessageOrigin(rawValue: rawOrigin),
            let bytes = fields["bytes"].flatMap(Self.integer),
            let message = fields["message"].flatMap(BridgeMessage.init(validating:)),
            let command = Self.optionalString(fields["command"]),
            let rule = Self.optionalString(fields["rule"]),
            let deliveryError = Self.optionalString(fields["deliveryError"]),
            let reported = Self.optionalString(fields["reported"]),
            let lost = Self.optionalString(fields["lost"]),
            let truncated = Self.optionalBool(fields["truncated"])
        else { return nil }
        guard let hold = Self.optionalHold(fields["hold"]), let fault = Self.optionalFault(fields["fault"]),
            let delivered = Self.optionalMessage(fields["delivered"]), let original = Self.optionalMessage(fields["original"]) else { return nil }
        self.init(
            seq: seq, direction: direction, time: time, origin: origin, command: command, rule: rule,
            deliveryError: deliveryError, hold: hold, bytes: bytes, truncated: truncated, reported: reported, lost: lost,
            delivered: delivered, original: original, fault: fault, message: message)
    }

    /// `.some(nil)` for a missing or `null` field, `.some(mark)` for a hold mark, `nil` for anything else.
    static func optionalHold(_ value: JSONValue?) -> HoldMark?? {
        switch value {
        case nil, .null?: return .some(nil)
        case .object(let mark)?:
            guard case .string(let id)? = mark["id"], case .string(let rawOutcome)? = mark["outcome"],
                let outcome = HeldResolution.Outcome(rawValue: rawOutcome)
            else { return nil }
            return .some(HoldMark(id: id, outcome: outcome))
        default: return nil
        }
    }

    /// `.some(nil)` for a missing or `null` field, `.some(mark)` for a fault mark, `nil` for anything else.
    static func optionalFault(_ value: JSONValue?) -> FaultMark?? {
        switch value {
        case nil, .null?: return .some(nil)
        case .object(let mark)?:
            guard case .string(let rule)? = mark["rule"], case .string(let rawEffect)? = mark["effect"],
                let effect = FaultMark.Effect(rawValue: rawEffect), let detail = Self.optionalString(mark["detail"])
            else { return nil }
            return .some(FaultMark(rule: rule, effect: effect, detail: detail))
        default: return nil
        }
    }

    /// `.some(nil)` for a missing or `null` field, `.some(message)` for a bridge message, `nil` for anything else.
    private static func optionalMessage(_ value: JSONValue?) -> BridgeMessage?? {
        switch value {
        case nil, .null?: return .some(nil)
        case let value?: return BridgeMessage(validating: value).map { .some($0) }
        }
    }

    /// An integral number that fits an `Int` exactly, as `JSONDecoder` decodes `Int`.
    static func integer(_ value: JSONValue) -> Int? {
        guard case .number(let number) = value, number.rounded() == number, abs(number) < 9_007_199_254_740_992 else { return nil }
        return Int(number)
    }

    /// `.some(nil)` for a missing or `null` field, `.some(text)` for a string, `nil` for anything else.
    static func optionalString(_ value: JSONValue?) -> String?? {
        switch value {
        case nil, .null?: return .some(nil)
        case .string(let text)?: return .some(text)
        default: return nil
        }
    }

    /// `.some(nil)` for a missing or `null` field, `.some(flag)` for a boolean, `nil` for anything else.
    static func optionalBool(_ value: JSONValue?) -> Bool?? {
        switch value {
        case nil, .null?: return .some(nil)
        case .bool(let flag)?: return .some(flag)
        default: return nil
        }
    }
}

extension WirePending {
    /// The record a parsed JSON value holds, or `nil` when it is not one; the same rules as the
    /// `Decodable` conformance (see ``WireTraffic/init(validating:)``).
    public init?(validating value: JSONValue) {
        guard case .object(let fields) = value,
            case .string(let correlationId)? = fields["correlationId"],
            case .string(let action)? = fields["action"],
            case .number(let since)? = fields["since"],
            let message = fields["message"].flatMap(BridgeMessage.init(validating:)),
            let truncated = WireTraffic.optionalBool(fields["truncated"])
        else { return nil }
        self.init(correlationId: correlationId, action: action, since: since, truncated: truncated, message: message)
    }
}
