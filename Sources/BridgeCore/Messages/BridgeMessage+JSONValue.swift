extension BridgeMessage {
    /// The message a parsed JSON value holds, or `nil` when it is not a valid message.
    ///
    /// Accepts exactly what the `Decodable` conformance accepts (the same required fields, types,
    /// enumerations and non-empty strings; unknown fields are ignored), without saying why a value
    /// is refused: it is the fast path in front of the `Decodable` conformance, which then gives
    /// the reason, read from the same parsed value (``BridgeMessageCodec/message(in:)``).
    public init?(validating value: JSONValue) {
        guard case .object(let fields) = value,
            case .string(let version)? = fields["version"], !version.isEmpty,
            case .string(let correlationId)? = fields["correlationId"], !correlationId.isEmpty,
            case .string(let rawType)? = fields["type"], let type = MessageType(rawValue: rawType),
            case .number(let timestamp)? = fields["timestamp"],
            let payload = fields["payload"].flatMap(Payload.init(validating:))
        else { return nil }
        self.init(version: version, correlationId: correlationId, type: type, timestamp: timestamp, payload: payload)
    }
}

extension BridgeMessage.Payload {
    /// The payload a parsed JSON value holds, or `nil`; see ``BridgeMessage/init(validating:)``.
    public init?(validating value: JSONValue) {
        guard case .object(let fields) = value, case .string(let action)? = fields["action"], !action.isEmpty else { return nil }
        var data: [String: JSONValue]?
        switch fields["data"] {
        case nil, .null?: data = nil
        case .object(let object)?: data = object
        default: return nil
        }
        var status: BridgeResponseStatus?
        switch fields["status"] {
        case nil, .null?: status = nil
        case .string(let raw)?:
            guard let known = BridgeResponseStatus(rawValue: raw) else { return nil }
            status = known
        default: return nil
        }
        var error: BridgeErrorPayload?
        switch fields["error"] {
        case nil, .null?: error = nil
        case let value?:
            guard let payload = BridgeErrorPayload(validating: value) else { return nil }
            error = payload
        }
        self.init(action: action, data: data, status: status, error: error)
    }
}

extension BridgeErrorPayload {
    /// The error payload a parsed JSON value holds, or `nil`; see ``BridgeMessage/init(validating:)``.
    public init?(validating value: JSONValue) {
        guard case .object(let fields) = value,
            case .string(let code)? = fields["code"],
            case .string(let message)? = fields["message"],
            case .bool(let recoverable)? = fields["recoverable"]
        else { return nil }
        self.init(code: code, message: message, recoverable: recoverable)
    }
}
