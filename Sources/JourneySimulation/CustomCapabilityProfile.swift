import BridgeCore

/// A custom capability of a simulated host, such as `device.info` or `nfc.read`.
///
/// ```json
/// {"id": "device.info", "version": "1.0", "delayMs": 150,
///  "behaviour": {"respond": {"status": "success", "data": {"model": "Simulated"}}}}
/// {"id": "location.get", "behaviour": {"error": {"code": "PERMISSION_DENIED", "message": "Location is off", "recoverable": true}}}
/// {"id": "nfc.read", "behaviour": "pending"}
/// ```
public struct CustomCapabilityProfile: Sendable, Hashable {
    /// What happens to a request for the capability.
    public enum Behaviour: Sendable, Hashable {
        /// A handler answers with this status, data and error.
        case respond(status: BridgeResponseStatus, data: [String: JSONValue]?, error: BridgeErrorPayload?)
        /// A handler answers with status `error` and this error.
        case error(BridgeErrorPayload)
        /// No handler: the capability is declared (reported as supported) and its requests wait
        /// in `pendingRequests` to be answered by hand.
        case pending
    }

    /// The capability id, which is also the action its requests carry.
    public var id: String
    /// The version reported in `capability.query` (default `"1.0"`).
    public var version: String
    /// What happens to its requests.
    public var behaviour: Behaviour
    /// Milliseconds the handler waits before answering (default 0); not allowed with `pending`.
    public var delayMs: Int

    /// The fields a custom capability object may have.
    static let fields = ["id", "version", "behaviour", "delayMs"]

    /// Creates a custom capability profile.
    public init(id: String, version: String = "1.0", behaviour: Behaviour, delayMs: Int = 0) {
        self.id = id
        self.version = version
        self.behaviour = behaviour
        self.delayMs = delayMs
    }

    /// Reads one custom capability object strictly.
    init(reading value: StrictValue) throws(SimulationInputError) {
        let object = try value.object("an object with \"id\" and \"behaviour\"", allowing: Self.fields)
        let idValue = try object.required("id", "the capability id, such as \"device.info\"")
        id = try idValue.string("a non-empty capability id such as \"device.info\"")
        if id == CapabilityQueryHandler.action {
            throw idValue.error("\"capability.query\" is answered by the host itself and cannot be a custom capability")
        }
        version = try object.optional("version")?.string("a non-empty version string such as \"1.0\"") ?? "1.0"
        behaviour = try Self.behaviour(reading: object.required(
            "behaviour", "\"pending\", {\"respond\": {...}} or {\"error\": {...}}"))
        delayMs = try object.optional("delayMs")?.integer("a whole number of milliseconds", in: 0...SlotProfile.maximumDelayMs) ?? 0
        if behaviour == .pending, let delay = object.optional("delayMs") {
            throw delay.error("\"delayMs\" is only used when a handler answers (\"respond\" or \"error\"); a \"pending\" capability never answers by itself")
        }
    }

    private static func behaviour(reading value: StrictValue) throws(SimulationInputError) -> Behaviour {
        let expectation = "\"pending\", {\"respond\": {\"status\": ...}} or {\"error\": {\"code\": ...}}"
        switch value.value {
        case .string(let text):
            guard text == "pending" else {
                throw value.expected(expectation)
            }
            return .pending
        case .object(let fields):
            guard fields.count == 1, let key = fields.keys.first, key == "respond" || key == "error" else {
                if fields.isEmpty { throw value.error("expected \(expectation), found an empty object") }
                let object = StrictObject(fields: fields, path: value.path, file: value.file)
                try object.allowOnly(["respond", "error"], noun: "behaviour")
                throw value.error("expected exactly one of \"respond\" or \"error\", found both")
            }
            let inner = StrictValue(value: fields[key]!, path: value.path.appending(key), file: value.file)
            if key == "error" {
                return .error(try errorPayload(reading: inner))
            }
            let respond = try inner.object("an object with \"status\" and optional \"data\" and \"error\"", allowing: ["status", "data", "error"])
            let statusValue = try respond.required("status", StrictValue.list(BridgeResponseStatus.allCases.map(\.rawValue)))
            let status = BridgeResponseStatus(rawValue: try statusValue.choice(BridgeResponseStatus.allCases.map(\.rawValue))) ?? .success
            let data = try respond.optional("data")?.dataObject()
            let error = try respond.optional("error").map { field throws(SimulationInputError) in try errorPayload(reading: field) }
            return .respond(status: status, data: data, error: error)
        default:
            throw value.expected(expectation)
        }
    }

    /// Reads `{"code": ..., "message": ..., "recoverable": ...}`. `message` and `recoverable`
    /// default to what the web SDK expects for a known code (``BridgeErrorCode``); for other
    /// codes `message` is required and `recoverable` defaults to `false`.
    static func errorPayload(reading value: StrictValue) throws(SimulationInputError) -> BridgeErrorPayload {
        let object = try value.object("an error object with \"code\", \"message\" and \"recoverable\"", allowing: ["code", "message", "recoverable"])
        let code = try object.required("code", "an error code such as \"BUSY\" or \"PERMISSION_DENIED\"").string(
            "a non-empty error code such as \"PERMISSION_DENIED\"")
        let known = BridgeErrorCode(rawValue: code)
        let message: String
        if let field = object.optional("message") {
            message = try field.string("a sentence for a person", allowEmpty: false)
        } else if let known {
            message = known.defaultMessage
        } else {
            throw object.error("missing required field \"message\" (a sentence for a person; only the standard codes \(BridgeErrorCode.allCases.map(\.rawValue).joined(separator: ", ")) have a default)")
        }
        let recoverable = try object.optional("recoverable")?.bool() ?? known?.isRecoverable ?? false
        return BridgeErrorPayload(code: code, message: message, recoverable: recoverable)
    }

    /// Registers (or declares) the capability on `host` as this profile describes. Its delay
    /// runs on the host's clock (``BridgeCore/BridgeHost/clock``), so a test that gives the host
    /// a clock it moves decides when the answer goes.
    @MainActor
    public func apply(to host: BridgeHost) {
        let delay = delayMs
        let clock = host.clock
        let answer: (status: BridgeResponseStatus, data: [String: JSONValue]?, error: BridgeErrorPayload?)
        switch behaviour {
        case .pending:
            host.declareCustomCapability(id, version: version)
            return
        case .respond(let status, let data, let error):
            answer = (status, data, error)
        case .error(let error):
            answer = (.error, nil, error)
        }
        let (status, data, error) = answer
        host.registerCustomCapability(id, version: version) { _, responder in
            if delay > 0 { try? await clock.sleep(for: .milliseconds(delay)) }
            responder.respond(status: status, data: data, error: error)
        }
    }
}
