import BridgeCore
import Foundation

/// A message a scenario sends to the host, as written in a `send` step. Only `payload.action` is
/// required; the rest is filled in the way the web SDK would.
///
/// ```json
/// {"send": {"payload": {"action": "camera.document.capture", "data": {"side": "front"}}, "label": "front"}}
/// ```
public struct ScenarioMessage: Sendable, Hashable {
    /// `request` (the default), `event` or `response`.
    public var type: MessageType
    /// The action, such as `capability.query`.
    public var action: String
    /// The message data, if any.
    public var data: [String: JSONValue]?
    /// For a `response` only: its status.
    public var status: BridgeResponseStatus?
    /// For a `response` only: its error.
    public var error: BridgeErrorPayload?
    /// A fixed correlation id; `nil` (the default) generates a fresh one for every send, as the web SDK does.
    public var correlationId: String?
    /// The protocol version to stamp; `nil` means `"1.0"`.
    public var version: String?
    /// A fixed timestamp in milliseconds since 1970; `nil` means the time of sending.
    public var timestamp: Double?
    /// A name that `awaitResponse` steps use to refer to the most recent message sent by this step.
    public var label: String?
    /// For requests: how long the journey waits for the response before it gives up and notes a
    /// timeout. `nil` means the web SDK's default (see ``defaultTimeoutMs(forAction:)``).
    public var timeoutMs: Int?

    /// The fields a `send` object may have.
    static let fields = ["type", "payload", "correlationId", "version", "timestamp", "label", "timeoutMs"]
    /// The fields its `payload` may have.
    static let payloadFields = ["action", "data", "status", "error"]
    /// The longest timeout accepted, one day.
    public static let maximumTimeoutMs = 86_400_000

    /// Creates a message to send.
    public init(
        type: MessageType = .request, action: String, data: [String: JSONValue]? = nil,
        status: BridgeResponseStatus? = nil, error: BridgeErrorPayload? = nil, correlationId: String? = nil,
        version: String? = nil, timestamp: Double? = nil, label: String? = nil, timeoutMs: Int? = nil
    ) {
        self.type = type
        self.action = action
        self.data = data
        self.status = status
        self.error = error
        self.correlationId = correlationId
        self.version = version
        self.timestamp = timestamp
        self.label = label
        self.timeoutMs = timeoutMs
    }

    /// The web SDK's default timeout for a request: 5,000 ms for `capability.query`
    /// (`discoverCapabilities()`), 30,000 ms for everything else (`request()`).
    public static func defaultTimeoutMs(forAction action: String) -> Int {
        action == CapabilityQueryHandler.action ? 5_000 : 30_000
    }

    /// The journey's timeout for this message when it is a request: ``timeoutMs`` or the SDK default.
    public var effectiveTimeoutMs: Int {
        timeoutMs ?? Self.defaultTimeoutMs(forAction: action)
    }

    /// Reads a `send` object strictly.
    init(reading value: StrictValue) throws(SimulationInputError) {
        let object = try value.object(
            "a message object with \"payload\": {\"action\": ...}", allowing: Self.fields)
        if let field = object.optional("type") {
            type = MessageType(rawValue: try field.choice(MessageType.allCases.map(\.rawValue))) ?? .request
        } else {
            type = .request
        }
        let payloadValue = try object.required("payload", "an object with at least \"action\"")
        let payload = try payloadValue.object("an object with at least \"action\"", allowing: Self.payloadFields)
        action = try payload.required("action", "the action, such as \"capability.query\"").string(
            "a non-empty action such as \"capability.query\"")
        data = try payload.optional("data")?.dataObject()
        if let field = payload.optional("status") {
            guard type == .response else {
                throw field.error("only a \"response\" carries a status, and this message is a \(StrictJSON.quoted(type.rawValue)); set \"type\": \"response\" or remove \"status\"")
            }
            status = BridgeResponseStatus(rawValue: try field.choice(BridgeResponseStatus.allCases.map(\.rawValue)))
        } else {
            status = nil
        }
        if let field = payload.optional("error") {
            guard type == .response else {
                throw field.error("only a \"response\" carries an error, and this message is a \(StrictJSON.quoted(type.rawValue)); set \"type\": \"response\" or remove \"error\"")
            }
            error = try CustomCapabilityProfile.errorPayload(reading: field)
        } else {
            error = nil
        }
        correlationId = try object.optional("correlationId")?.string("a non-empty correlation id")
        version = try object.optional("version")?.string("a non-empty protocol version such as \"1.0\"")
        timestamp = try object.optional("timestamp")?.number("a number of milliseconds since 1970")
        label = try object.optional("label")?.string("a non-empty label")
        if let field = object.optional("timeoutMs") {
            guard type == .request else {
                throw field.error("only a request waits for a response, so only a request has a \"timeoutMs\"; this message is a \(StrictJSON.quoted(type.rawValue))")
            }
            timeoutMs = try field.integer("a whole number of milliseconds", in: 1...Self.maximumTimeoutMs)
        } else {
            timeoutMs = nil
        }
    }
}
