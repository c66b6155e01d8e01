import Foundation

/// One message on the bridge, in either direction.
///
/// Every message carries the five documented fields: `version`, `correlationId`, `type`,
/// `timestamp` (milliseconds since the epoch, a number) and `payload` with at least `action`
/// (Troubleshooting, "Message Decoding Failures"):
///
/// ```json
/// {"version": "1.0", "correlationId": "unique-id", "type": "request",
///  "timestamp": 1732240000000, "payload": {"action": "camera.capture", "data": {}}}
/// ```
///
/// Responses additionally carry `payload.status` and, for failures, `payload.error`; that
/// envelope is this project's documented choice (see `docs/bridge-protocol.md`).
public struct BridgeMessage: Sendable, Hashable, Identifiable {
    /// The protocol version the sender speaks, such as `"1.0"`.
    public var version: String
    /// Pairs a response with its request; unique per request.
    public var correlationId: String
    /// Request, response or event.
    public var type: MessageType
    /// When the sender created the message, in milliseconds since 1970.
    public var timestamp: Double
    /// The action and its data (plus status and error for responses).
    public var payload: Payload

    /// `Identifiable` conformance: the correlation id.
    public var id: String { correlationId }

    /// The body of a message: what it is about and what it carries.
    public struct Payload: Sendable, Hashable {
        /// What the message is about, matched exactly (case-sensitive) against handlers, e.g. `camera.document.capture`.
        public var action: String
        /// Optional data; the web journey is a less-trusted zone, so validate it in handlers.
        ///
        /// A message an inspector read from the agent's frames may hold it as checked text, built
        /// each time it is read (`DeferredJSONObject`): read it once into a constant when looking
        /// into it often. Setting it stores the value.
        public var data: [String: JSONValue]? {
            get {
                switch storedData {
                case .built(let data): data
                case .deferred(let text): text.value
                }
            }
            set { storedData = .built(newValue) }
        }
        /// ``data``, built or as text.
        var storedData: StoredData
        /// For responses: the outcome.
        public var status: BridgeResponseStatus?
        /// For responses that failed: what went wrong.
        public var error: BridgeErrorPayload?

        /// Creates a payload.
        public init(
            action: String,
            data: [String: JSONValue]? = nil,
            status: BridgeResponseStatus? = nil,
            error: BridgeErrorPayload? = nil
        ) {
            self.action = action
            self.storedData = .built(data)
            self.status = status
            self.error = error
        }

        /// A payload whose `data` object is kept as the checked text `data` and built when read.
        init(action: String, deferredData data: DeferredJSONObject, status: BridgeResponseStatus?, error: BridgeErrorPayload?) {
            self.action = action
            self.storedData = .deferred(data)
            self.status = status
            self.error = error
        }

        /// How a payload holds ``data``.
        enum StoredData: Sendable {
            /// Built (or absent).
            case built([String: JSONValue]?)
            /// An object's checked text, built when read.
            case deferred(DeferredJSONObject)
        }

        /// Payloads are equal when their fields are, however each holds ``data``.
        public static func == (lhs: Payload, rhs: Payload) -> Bool {
            lhs.action == rhs.action && lhs.data == rhs.data && lhs.status == rhs.status && lhs.error == rhs.error
        }

        /// Hashes the fields in order, as the synthesized conformance did.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(action)
            hasher.combine(data)
            hasher.combine(status)
            hasher.combine(error)
        }
    }

    /// The protocol version this library speaks and stamps on what it sends.
    public static let protocolVersion = "1.0"

    /// Creates a message. `timestamp` defaults to now.
    public init(
        version: String = BridgeMessage.protocolVersion,
        correlationId: String,
        type: MessageType,
        timestamp: Double = (Date().timeIntervalSince1970 * 1000).rounded(),
        payload: Payload
    ) {
        self.version = version
        self.correlationId = correlationId
        self.type = type
        self.timestamp = timestamp
        self.payload = payload
    }
}

extension BridgeMessage: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case version, correlationId, type, timestamp, payload
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(String.self, forKey: .version)
        correlationId = try container.decode(String.self, forKey: .correlationId)
        let rawType = try container.decode(String.self, forKey: .type)
        guard let type = MessageType(rawValue: rawType) else {
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container,
                debugDescription: "field 'type' must be one of \"request\", \"response\", \"event\" (got \(Self.quoted(rawType)))")
        }
        self.type = type
        timestamp = try container.decode(Double.self, forKey: .timestamp)
        payload = try container.decode(Payload.self, forKey: .payload)
        if version.isEmpty {
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: container, debugDescription: "field 'version' must not be empty")
        }
        if correlationId.isEmpty {
            throw DecodingError.dataCorruptedError(
                forKey: .correlationId, in: container, debugDescription: "field 'correlationId' must not be empty")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(correlationId, forKey: .correlationId)
        try container.encode(type, forKey: .type)
        try container.encode(timestamp, forKey: .timestamp)
        try container.encode(payload, forKey: .payload)
    }

    static func quoted(_ text: String) -> String {
        let limit = 40
        let shown = text.count > limit ? String(text.prefix(limit)) + "…" : text
        return "\"" + shown + "\""
    }
}

extension BridgeMessage.Payload: Codable {
    enum CodingKeys: String, CodingKey {
        case action, data, status, error
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        action = try container.decode(String.self, forKey: .action)
        if action.isEmpty {
            throw DecodingError.dataCorruptedError(
                forKey: .action, in: container, debugDescription: "field 'payload.action' must not be empty")
        }
        storedData = .built(try container.decodeIfPresent([String: JSONValue].self, forKey: .data))
        if let rawStatus = try container.decodeIfPresent(String.self, forKey: .status) {
            guard let status = BridgeResponseStatus(rawValue: rawStatus) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .status, in: container,
                    debugDescription:
                        "field 'payload.status' must be one of \"success\", \"error\", \"cancelled\", \"unsupported\" (got \(BridgeMessage.quoted(rawStatus)))"
                )
            }
            self.status = status
        } else {
            status = nil
        }
        error = try container.decodeIfPresent(BridgeErrorPayload.self, forKey: .error)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(action, forKey: .action)
        try container.encodeIfPresent(data, forKey: .data)
        try container.encodeIfPresent(status, forKey: .status)
        try container.encodeIfPresent(error, forKey: .error)
    }
}
