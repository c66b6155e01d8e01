import BridgeCore

/// The checks the doctor runs, one per item of GBGBridge's troubleshooting page that an inspector
/// can observe. The raw values are stable: `--json` output, docs/cli.md, the scenarios in
/// `examples/scenarios/doctor/` and the tests use them.
public enum DoctorCheckID: String, Sendable, Hashable, CaseIterable, Codable {
    /// `lastError` is set; sorted into the page's categories.
    case lastError = "last-error"
    /// No journey is attached, or one is attached and has sent nothing.
    case journey
    /// Input from the journey failed to decode.
    case malformedInput = "malformed-input"
    /// Requests wait in `pendingRequests`.
    case pendingRequests = "pending-requests"
    /// Pending requests the journey has given up on (past the web SDK's timeouts).
    case abandonedRequests = "abandoned-requests"
    /// A request nobody handles whose action is a near miss of a known one.
    case actionMismatch = "action-mismatch"
    /// A typed slot was asked for while it had no handler or was disabled.
    case slotUnsupported = "slot-unsupported"
    /// The journey asked for a capability `capability.query` did not report.
    case capabilityNotReported = "capability-not-reported"
    /// A slot stuck busy, and BUSY rejections.
    case slotBusy = "slot-busy"
    /// A capture was asked for while the slot's `permissionState` was `notDetermined`.
    case permissionNotDetermined = "permission-not-determined"
    /// Messages larger than the threshold (Base64 images).
    case largePayloads = "large-payloads"
    /// `receivedMessages` sits at its cap, or grows without one.
    case messageAccumulation = "message-accumulation"
    /// Responses from the journey that answer nothing.
    case unknownResponses = "unknown-responses"
    /// Requests reusing a correlationId still waiting.
    case duplicateIds = "duplicate-ids"
    /// Reports of what the host sent that the inspector could not read (a page script's).
    case unreadSentReports = "unread-sent-reports"
    /// Messages the host sent that never reached a journey (through GBGBridge's public API:
    /// those that reached its no-op bootstrap `receive`).
    case lostMessages = "lost-messages"
    /// Messages, either way, that break GBG's documented contract (`GBGBridgeContract`).
    case contract

    /// A short title for a person.
    public var title: String {
        switch self {
        case .lastError: return "lastError"
        case .journey: return "Journey attached and talking"
        case .malformedInput: return "Messages decode"
        case .pendingRequests: return "Pending requests"
        case .abandonedRequests: return "Requests the journey gave up on"
        case .actionMismatch: return "Action strings match exactly"
        case .slotUnsupported: return "Typed slots have a handler and are enabled"
        case .capabilityNotReported: return "Requests match capability.query"
        case .slotBusy: return "Typed slots are not stuck busy"
        case .permissionNotDetermined: return "Permission state is set"
        case .largePayloads: return "Payload sizes"
        case .messageAccumulation: return "receivedMessages does not pile up"
        case .unknownResponses: return "Responses answer a request"
        case .duplicateIds: return "Correlation ids are unique"
        case .lostMessages: return "Messages reach the journey"
        case .unreadSentReports: return "What the host sends can be read"
        case .contract: return "Messages follow GBG's documented contract"
        }
    }

    /// The heading of GBGBridge's troubleshooting page the check follows (a check may cite a
    /// more precise one for what it found, such as `last-error`).
    public var guideHeading: String {
        switch self {
        case .lastError: return "Observing lastError"
        case .journey: return "Messages Not Being Received by the Host"
        case .malformedInput: return "Message Decoding Failures"
        case .pendingRequests, .abandonedRequests: return "Pending Request Inspection"
        case .actionMismatch, .slotUnsupported: return "Handler Not Called for Requests"
        case .capabilityNotReported: return "Capability Query Returns Unexpected Results"
        case .slotBusy: return "Typed Slot Returns \"BUSY\" Error"
        case .permissionNotDetermined: return "Permission State Not Appearing in Query Response"
        case .largePayloads, .messageAccumulation: return "Memory Warnings or Crashes"
        case .unknownResponses, .duplicateIds: return "Debugging Checklist"
        case .lostMessages, .unreadSentReports: return "Messages Not Being Received by the Web Journey"
        case .contract: return "Message Decoding Failures"
        }
    }

    /// The documented fix (a check may give a more precise one for what it found).
    public var fix: String {
        switch self {
        case .lastError: return "Read the error; each kind has its own entry on the page."
        case .journey:
            return "Configure the WebView with BridgeWebView or BridgeWebViewConfigurator.configure(_:host:) before loading any content, and post with window.webkit.messageHandlers.gbgBridge.postMessage (lowercase g)."
        case .malformedInput:
            return "Validate the message on the web side before sending: version, correlationId, type (request, response or event), timestamp (a number) and payload.action are required."
        case .pendingRequests:
            return "Register a handler for each action (before the journey asks), or answer with respond(to:status:data:error:)."
        case .abandonedRequests:
            return "The journey stopped waiting: register a handler or answer sooner; an answer now reaches no one."
        case .actionMismatch:
            return "Make the handler's action match the request's payload.action exactly (case-sensitive)."
        case .slotUnsupported, .slotBusy, .permissionNotDetermined:
            return fix(forSlots: CaptureCapability.Kind.allCases)
        case .capabilityNotReported:
            return "Register the capability before the query (registerCustomCapability), or, with init(configuration:), declare it in BridgeConfiguration; the journey should not ask for what was not reported."
        case .largePayloads:
            return "Pass a file path (data: [\"imagePath\": ...]) instead of Base64 image data."
        case .messageAccumulation:
            return "Periodically clear old messages in a long-running session."
        case .unknownResponses:
            return "The journey sends requests and events; only the host answers. Send an event, or a request of its own."
        case .duplicateIds:
            return "Give every request a unique correlationId (the web SDK makes one per request)."
        case .lostMessages:
            return "Attach the WebView to the host before sending, and make the journey set window.GBGBridge.receive after each page load."
        case .unreadSentReports:
            return "Each row shows the text the page script reported and why it could not be read. A delivery the inspector cannot read may not be one the journey can read either: check it in Safari Web Inspector; if the page script cannot see window.GBGBridge (frozen, or receive redefined), let the journey assign receive as a plain property."
        case .contract:
            return "Make the sender follow the rule: each line names the rule and the GBG page it comes from (docs/gbgbridge-contract.md; `bridge-inspector contract` lists every rule)."
        }
    }

    /// The fix of a slot check (``slotUnsupported``, ``slotBusy``, ``permissionNotDetermined``)
    /// naming the slot properties of `kinds` (`host.documentCapture`, `host.selfieCapture`, as
    /// GBGBridge's FAQ names them), so a selfie problem is not sent to the document slot. `fix`
    /// for any other check.
    public func fix(forSlots kinds: [CaptureCapability.Kind]) -> String {
        let properties = (kinds.isEmpty ? CaptureCapability.Kind.allCases : kinds).map(Self.slotProperty)
        switch self {
        case .slotUnsupported:
            return "Set the slot's handler and keep isEnabled true: \(properties.map { $0 + ".isSupported" }.joined(separator: " and ")) should be true."
        case .slotBusy:
            return "Call \(properties.map { $0 + ".complete(...)" }.joined(separator: " or ")) when the camera UI finishes or is dismissed (in the fullScreenCover's onDismiss)."
        case .permissionNotDetermined:
            let assignments = properties.map { $0 + ".permissionState = camera.permissionState" }.joined(separator: ", ")
            return "Call CameraDetector.check() and assign its permissionState to the slot: \(assignments)."
        default:
            return fix
        }
    }

    /// The host's property for the `kind` slot: `host.documentCapture` or `host.selfieCapture`.
    public static func slotProperty(_ kind: CaptureCapability.Kind) -> String {
        "host.\(kind.rawValue)Capture"
    }
}
