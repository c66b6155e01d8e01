import BridgeCore
import InspectorProtocol

/// What GBG's GBGBridge pages document about the messages on the bridge, as rules a message can
/// be checked against (``ContractRule``), each citing the page it comes from and marked
/// documented or this project's choice where the pages are silent (docs/gbgbridge-contract.md
/// lists them; `bridge-inspector contract` prints them).
///
/// Vocabularies are BridgeCore's, never copied: ``BridgeErrorCode`` (codes and their
/// `recoverable` flags), `BridgeResponseStatus`, `MessageType`, `PermissionState`,
/// `CaptureCapability.Kind` and `DocumentedEvent`.
///
/// ```swift
/// for violation in GBGBridgeContract.check(traffic) { print(violation.line) }
/// // error.recoverable-matches-code: recoverable is false for BUSY: the web SDK expects true (web SDK, …)
/// ```
///
/// ``check(_:)`` reads the decoded message only (no JSON text is parsed again) and looks at a
/// fixed depth of it, so it costs a few dictionary look-ups per message whatever the message
/// holds: ``LiveState`` runs it on every row as it enters the log. A message that did not
/// decode is checked with ``check(envelope:direction:)`` on the value the log already parsed.
public enum GBGBridgeContract {
    /// The contract's version: the date it was written and a revision. Bumped when a rule is
    /// added or changes meaning.
    public static let version = "2026-11-27.1"

    /// Every rule, envelope first, in the order docs/gbgbridge-contract.md lists them.
    public static var rules: [ContractRule] {
        [
            ContractRule.versionString, .versionValue, .correlationIdString, .typeDocumented, .timestampNumber,
            .payloadAction, .dataObject, .statusDocumented, .statusPresent, .errorObject, .recoverableMatchesCode,
            .hostEventIdForm, .eventSender,
        ] + ContractRule.eventData + [
            .capabilityQueryAnswerShape, .capabilityQueryPermissionState, .captureResultShape, .captureResultTypes,
        ]
    }

    /// The rule with `id`, if there is one.
    public static func rule(id: String) -> ContractRule? {
        rules.first { $0.id == id }
    }

    /// The rules `traffic`'s message breaks, in the contract's order (none for a message that
    /// follows it).
    public static func check(_ traffic: WireTraffic) -> [ContractViolation] {
        check(traffic.message, direction: traffic.direction == .received ? .journeyToHost : .hostToJourney)
    }

    /// The rules `message` breaks, travelling in `direction`.
    public static func check(_ message: BridgeMessage, direction: ContractRule.Direction) -> [ContractViolation] {
        var found: [ContractViolation] = []
        // version, correlationId, type, timestamp and action are typed by decoding; their
        // values are checked here.
        if message.version != BridgeMessage.protocolVersion {
            found.append(ContractViolation(.versionValue, "version is \(ContractText.quoted(message.version)), not \"\(BridgeMessage.protocolVersion)\""))
        }
        if !message.timestamp.isFinite {
            found.append(ContractViolation(.timestampNumber, "timestamp is \(message.timestamp), not milliseconds since 1970"))
        }
        if message.payload.action.isEmpty {
            found.append(ContractViolation(.payloadAction, "payload.action is empty"))
        }
        switch message.type {
        case .response where direction == .hostToJourney:
            checkResponse(message, into: &found)
        case .event:
            checkEvent(message, direction: direction, into: &found)
        default:
            break
        }
        return found
    }

    // MARK: Responses

    private static func checkResponse(_ message: BridgeMessage, into found: inout [ContractViolation]) {
        let payload = message.payload
        if payload.status == nil {
            found.append(ContractViolation(.statusPresent, "the response to \(ContractText.quoted(payload.action)) has no payload.status"))
        }
        if let error = payload.error {
            checkRecoverable(code: error.code, recoverable: error.recoverable, into: &found)
        }
        guard payload.status == .success else { return }
        if payload.action == CapabilityQueryHandler.action {
            checkCapabilityAnswer(payload.data, into: &found)
        } else if captureActions.contains(payload.action) {
            checkCaptureResult(payload.data, into: &found)
        }
    }

    /// The capture slots' actions, made once: each `action` is a new string, and every
    /// successful response is looked up here.
    private static let captureActions: [String] = CaptureCapability.Kind.allCases.map(\.action)

    static func checkRecoverable(code: String, recoverable: Bool, into found: inout [ContractViolation]) {
        guard let known = BridgeErrorCode(rawValue: code), known.isRecoverable != recoverable else { return }
        found.append(ContractViolation(
            .recoverableMatchesCode, "recoverable is \(recoverable) for \(known.rawValue): the web SDK expects \(known.isRecoverable)"))
    }

    private static func checkCapabilityAnswer(_ data: [String: JSONValue]?, into found: inout [ContractViolation]) {
        guard let data else {
            found.append(ContractViolation(.capabilityQueryAnswerShape, "the answer has no data"))
            return
        }
        for key in ["environment", "hostVersion"] {
            requireString(data[key], "data.\(key)", .capabilityQueryAnswerShape, into: &found)
        }
        guard case .object(let capabilities)? = data["capabilities"] else {
            let what = data["capabilities"].map { "is \(ContractText.describe($0)), not an object" } ?? "is missing"
            found.append(ContractViolation(.capabilityQueryAnswerShape, "data.capabilities \(what)"))
            return
        }
        // Every entry is looked at (a host declares a handful); one violation per rule is
        // enough to say what is wrong, with the first offending capability.
        var shapeProblem: String?
        var permissionProblem: String?
        for id in capabilities.keys.sorted() {
            guard case .object(let entry)? = capabilities[id] else {
                shapeProblem = shapeProblem ?? "capability \(ContractText.quoted(id)) is not an object"
                continue
            }
            if shapeProblem == nil {
                if case .bool? = entry["supported"] {} else {
                    shapeProblem = "capability \(ContractText.quoted(id)) has no boolean supported"
                }
            }
            if shapeProblem == nil {
                if case .string? = entry["version"] {} else {
                    shapeProblem = "capability \(ContractText.quoted(id)) has no string version"
                }
            }
            if permissionProblem == nil, let state = entry["permissionState"] {
                if case .string(let text) = state, PermissionState(rawValue: text) != nil {} else {
                    permissionProblem = "capability \(ContractText.quoted(id)) has permissionState \(ContractText.describe(state))"
                }
            }
        }
        if let shapeProblem { found.append(ContractViolation(.capabilityQueryAnswerShape, shapeProblem)) }
        if let permissionProblem { found.append(ContractViolation(.capabilityQueryPermissionState, permissionProblem)) }
    }

    private static func checkCaptureResult(_ data: [String: JSONValue]?, into found: inout [ContractViolation]) {
        let fields = data ?? [:]
        let missing = ContractRule.captureFields.filter { fields[$0] == nil }
        if !missing.isEmpty {
            found.append(ContractViolation(.captureResultShape, "the capture success has no \(missing.joined(separator: ", "))"))
        }
        var wrong: [String] = []
        for key in ["imageBase64", "mimeType"] {
            if let value = fields[key], case .string = value {} else if let value = fields[key] {
                wrong.append("\(key) is \(ContractText.describe(value))")
            }
        }
        for key in ["imageWidth", "imageHeight"] {
            guard let value = fields[key] else { continue }
            if case .number(let number) = value, number.isFinite, number >= 0, number == number.rounded() { continue }
            wrong.append("\(key) is \(ContractText.describe(value))")
        }
        if !wrong.isEmpty {
            found.append(ContractViolation(.captureResultTypes, wrong.joined(separator: "; ")))
        }
    }

    // MARK: Events

    private static func checkEvent(_ message: BridgeMessage, direction: ContractRule.Direction, into found: inout [ContractViolation]) {
        if direction == .hostToJourney, !isHostEventId(message.correlationId) {
            found.append(ContractViolation(.hostEventIdForm, "correlationId \(ContractText.quoted(message.correlationId)) is not <environment>-event-<uuid>"))
        }
        guard let event = DocumentedEvent.named(message.payload.action) else { return }
        let expected: ContractRule.Direction = event.sender == .host ? .hostToJourney : .journeyToHost
        if expected != direction {
            found.append(ContractViolation(.eventSender, "\(event.name) is the \(event.sender.rawValue)'s event, but the \(direction == .hostToJourney ? "host" : "journey") sent it"))
        }
        // Read once: a message from the agent's frames builds `data` on each read.
        let data = message.payload.data
        let missing = event.dataFields.filter { data?[$0] == nil }
        if !missing.isEmpty, let rule = ContractRule.eventDataRule(for: event) {
            found.append(ContractViolation(rule, "\(event.name) has no \(missing.map { "data.\($0)" }.joined(separator: ", "))"))
        }
    }

    /// Whether `id` has the form `<environment>-event-<uuid>`: a non-empty environment of
    /// letters, digits, `_` or `.`, then `-event-` and a UUID (8-4-4-4-12 hexadecimal digits,
    /// either case). Reads at most the length of such an id.
    static func isHostEventId(_ id: String) -> Bool {
        let bytes = Array(id.utf8.prefix(128))
        guard bytes.count == id.utf8.count, bytes.count > 43 else { return false }
        let uuid = bytes.suffix(36)
        let prefix = bytes.prefix(bytes.count - 36)
        let marker = Array("-event-".utf8)
        guard prefix.count > marker.count, Array(prefix.suffix(marker.count)) == marker else { return false }
        let environment = prefix.prefix(prefix.count - marker.count)
        guard environment.allSatisfy({ isWordByte($0) }) else { return false }
        for (offset, byte) in uuid.enumerated() {
            if [8, 13, 18, 23].contains(offset) {
                if byte != UInt8(ascii: "-") { return false }
            } else if !isHexByte(byte) {
                return false
            }
        }
        return true
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte == 0x2E
    }

    private static func isHexByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    }
}
