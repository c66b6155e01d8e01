/// The categories of GBGBridge's troubleshooting page a `lastError` text falls in, told by the
/// documented beginnings of the texts ("Failed to decode message: ...", "evaluateJavaScript
/// failed: ...", "WebView not attached") and BridgeCore's own (the pending-request leak warning,
/// a duplicate correlationId, a response nobody asked for).
enum LastErrorKind: Equatable {
    /// "Failed to decode message: ..." and what is wrong (the field, when it names one).
    case decode(String)
    /// "evaluateJavaScript failed: ...".
    case evaluateJavaScript
    /// "WebView not attached".
    case webViewNotAttached
    /// The pending-request leak warning.
    case pendingLeak
    /// A request reused a waiting correlationId.
    case duplicateId
    /// A response from the journey answered nothing.
    case unknownResponse
    /// Anything else.
    case other

    init(_ text: String) {
        if text.hasPrefix("Failed to decode message:") {
            self = .decode(String(text.dropFirst("Failed to decode message:".count)).trimmingLeadingSpaces)
        } else if text.hasPrefix("evaluateJavaScript failed") {
            self = .evaluateJavaScript
        } else if text.hasPrefix("WebView not attached") {
            self = .webViewNotAttached
        } else if text.hasPrefix("Pending request leak") {
            self = .pendingLeak
        } else if text.hasPrefix("Duplicate correlationId") {
            self = .duplicateId
        } else if text.hasPrefix("Received a response for unknown correlationId") {
            self = .unknownResponse
        } else {
            self = .other
        }
    }

    /// What kind of error it is, for the check's summary.
    var description: String {
        switch self {
        case .decode(let reason): return reason.isEmpty ? "a message failed to decode" : "a message failed to decode (\(reason))"
        case .evaluateJavaScript: return "JavaScript evaluation failed, so a message did not reach the journey"
        case .webViewNotAttached: return "WebView not attached, so a message did not reach the journey"
        case .pendingLeak: return "the pending-request leak warning"
        case .duplicateId: return "a request reused a correlationId still waiting"
        case .unknownResponse: return "the journey sent a response that answers no request"
        case .other: return "an error"
        }
    }

    /// The heading of the troubleshooting page for it.
    var guideHeading: String {
        switch self {
        case .decode: return "Message Decoding Failures"
        case .evaluateJavaScript, .webViewNotAttached: return "Messages Not Being Received by the Web Journey"
        case .pendingLeak: return "Pending Request Inspection"
        case .duplicateId, .unknownResponse: return "Debugging Checklist"
        case .other: return "Observing lastError"
        }
    }

    /// The documented fix.
    var fix: String {
        switch self {
        case .decode: return DoctorCheckID.malformedInput.fix
        case .evaluateJavaScript:
            return "Make sure the journey defines window.GBGBridge.receive after page load (check with console.log(window.GBGBridge.receive.toString()) in Safari Web Inspector)."
        case .webViewNotAttached: return "Ensure the WebView is attached to the host, and keep a reference to it."
        case .pendingLeak: return DoctorCheckID.pendingRequests.fix
        case .duplicateId: return DoctorCheckID.duplicateIds.fix
        case .unknownResponse: return DoctorCheckID.unknownResponses.fix
        case .other: return "Read the error in full; clear it once handled so the next one stands out."
        }
    }
}

extension String {
    fileprivate var trimmingLeadingSpaces: String { String(drop { $0 == " " }) }
}
