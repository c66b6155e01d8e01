import BridgeCore

/// The rules of ``GBGBridgeContract``, one constant each. Sources name GBG's pages as
/// docs/bridge-protocol.md does ("Troubleshooting", "Two-Way Communication", "Security", "FAQ":
/// the iOS pages in shared/seeds/; "iOS API", "web SDK": gbgbridge-facts); a project choice
/// names the section of docs/bridge-protocol.md that writes it down.
extension ContractRule {
    private static let decoding = "Troubleshooting, \"Message Decoding Failures\""
    private static let both = ContractRule.Direction.allCases

    /// `version` is a non-empty string.
    public static let versionString = ContractRule(
        id: "envelope.version-string", directions: both, statement: "version is a non-empty string", source: decoding, basis: .documented)
    /// `version` is the protocol version the pages show.
    public static let versionValue = ContractRule(
        id: "envelope.version-value", directions: both,
        statement: "version is \"\(BridgeMessage.protocolVersion)\", the protocol version the pages show (the web SDK answers another with VERSION_MISMATCH)",
        source: decoding + " (example); web SDK, VERSION_MISMATCH", basis: .documented)
    /// `correlationId` is a non-empty string.
    public static let correlationIdString = ContractRule(
        id: "envelope.correlation-id-string", directions: both, statement: "correlationId is a non-empty string", source: decoding,
        basis: .documented)
    /// `type` is one of the three message types.
    public static let typeDocumented = ContractRule(
        id: "envelope.type-documented", directions: both,
        statement: "type is \(GBGBridgeContract.names(MessageType.allCases.map(\.rawValue))) (case matters)", source: decoding,
        basis: .documented)
    /// `timestamp` is a number.
    public static let timestampNumber = ContractRule(
        id: "envelope.timestamp-number", directions: both,
        statement: "timestamp is a number: milliseconds since 1970 (Date.now()), never a string", source: decoding, basis: .documented)
    /// `payload` is an object with an action.
    public static let payloadAction = ContractRule(
        id: "envelope.payload-action", directions: both, statement: "payload is an object with a non-empty string action",
        source: decoding, basis: .documented)
    /// `payload.data` is an object.
    public static let dataObject = ContractRule(
        id: "envelope.data-object", directions: both, statement: "payload.data, when present, is an object",
        source: "iOS API (data is [String: JSONValue]); " + decoding, basis: .documented)
    /// A response's status is one of the four.
    public static let statusDocumented = ContractRule(
        id: "response.status-documented", directions: [.hostToJourney],
        statement: "a response's payload.status is \(GBGBridgeContract.names(BridgeResponseStatus.allCases.map(\.rawValue)))",
        source: "Two-Way Communication, \"Responding with success, error, and cancellation statuses\"; iOS API, respond(to:status:data:error:)",
        basis: .documented)
    /// Every response carries a status.
    public static let statusPresent = ContractRule(
        id: "response.status-present", directions: [.hostToJourney],
        statement: "every response carries payload.status (the response envelope is not documented)",
        source: "docs/bridge-protocol.md, section 3 (Responses)", basis: .choice)
    /// The error object's members and types.
    public static let errorObject = ContractRule(
        id: "response.error-object", directions: [.hostToJourney],
        statement: "payload.error, when present, is {code: string, message: string, recoverable: boolean}",
        source: "iOS API, BridgeErrorPayload(code:message:recoverable:)", basis: .documented)
    /// A known code carries the recoverable flag the web SDK expects.
    public static let recoverableMatchesCode = ContractRule(
        id: "error.recoverable-matches-code", directions: [.hostToJourney],
        statement: "an error with a code the web SDK knows carries the recoverable flag it expects: "
            + "true for \(BridgeErrorCode.allCases.filter(\.isRecoverable).map(\.rawValue).joined(separator: ", ")); "
            + "false for \(BridgeErrorCode.allCases.filter { !$0.isRecoverable }.map(\.rawValue).joined(separator: ", "))",
        source: "web SDK, error codes (gbgbridge-facts, \"Web-side SDK\")", basis: .documented)
    /// Host events have ids `<environment>-event-<uuid>`.
    public static let hostEventIdForm = ContractRule(
        id: "event.host-id-form", directions: [.hostToJourney],
        statement: "an event the host sends has the correlationId <environment>-event-<uuid> (ios-event-…, android-event-…)",
        source: "iOS API, send(event:data:) (Android SDK: android-event-<uuid>); Two-Way Communication, \"Outgoing events (native → web)\"",
        basis: .documented)
    /// A documented event comes from the side that sends it.
    public static let eventSender = ContractRule(
        id: "event.documented-sender", directions: both,
        statement: "a documented event comes from its sender: "
            + DocumentedEvent.Sender.allCases.map { sender in
                "\(DocumentedEvent.all.filter { $0.sender == sender }.map(\.name).joined(separator: ", ")) from the \(sender.rawValue)"
            }.joined(separator: "; "),
        source: "web SDK, event list; Two-Way Communication, \"Outgoing events (native → web)\"", basis: .documented)

    /// One rule per documented event that carries data: it carries the fields the pages show
    /// (`event.host-ready-data`, …), read from `DocumentedEvent`.
    public static var eventData: [ContractRule] {
        DocumentedEvent.all.compactMap(eventDataRule(for:))
    }

    /// The data rule of `event`, or `nil` for an event the pages show without data.
    public static func eventDataRule(for event: DocumentedEvent) -> ContractRule? {
        guard !event.dataFields.isEmpty else { return nil }
        return ContractRule(
            id: "event.\(event.name.replacingOccurrences(of: ".", with: "-"))-data",
            directions: [event.sender == .host ? .hostToJourney : .journeyToHost],
            statement: "\(event.name) carries \(event.dataFields.map { "data.\($0)" }.joined(separator: " and "))",
            source: event.source, basis: .documented)
    }

    /// The layout of the `capability.query` answer.
    public static let capabilityQueryAnswerShape = ContractRule(
        id: "capability-query.answer-shape", directions: [.hostToJourney],
        statement: "a successful capability.query answer's data is {capabilities: {<id>: {supported: boolean, version: string}}, environment: string, hostVersion: string}",
        source: "docs/bridge-protocol.md, section 6 (the layout; what it carries: FAQ, \"How does the web journey know what capabilities are available?\")",
        basis: .choice)
    /// `permissionState` values.
    public static let capabilityQueryPermissionState = ContractRule(
        id: "capability-query.permission-state", directions: [.hostToJourney],
        statement: "a capability's permissionState, when present, is \(GBGBridgeContract.names(PermissionState.allCases.map(\.rawValue)))",
        source: "docs/bridge-protocol.md, section 6 (the values; the field: FAQ, \"How does permission state work?\")", basis: .choice)
    /// The members of a capture success.
    static let captureFields = ["imageBase64", "imageWidth", "imageHeight", "mimeType"]
    /// A capture success carries the image and its size.
    public static let captureResultShape = ContractRule(
        id: "capture.result-shape", directions: [.hostToJourney],
        statement: "a successful \(CaptureCapability.Kind.allCases.map(\.action).joined(separator: " or ")) answer carries data.\(captureFields.joined(separator: ", data."))",
        source: "Two-Way Communication, message-flow diagram", basis: .documented)
    /// The types of a capture success's members.
    public static let captureResultTypes = ContractRule(
        id: "capture.result-types", directions: [.hostToJourney],
        statement: "in a capture success, imageBase64 and mimeType are strings, imageWidth and imageHeight whole numbers",
        source: "docs/bridge-protocol.md, section 7 (Typed capture slots)", basis: .choice)
}
