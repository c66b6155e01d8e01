/// A protocol rule a row of the log breaks, found as the row arrives (``ProtocolLinter``) and
/// shown inline in the log, counted in the status line and matched by the filter `is:lint`.
///
/// Each rule is one observable item of GBGBridge's troubleshooting page; the doctor
/// (`HostDiagnosis`) gathers the rows of each rule into its checks. The raw values are stable:
/// they appear in `--json` output and in docs/cli.md.
public enum LintRule: String, Sendable, Hashable, CaseIterable, Codable {
    /// Input from the journey that failed to decode ("Message Decoding Failures").
    case malformed
    /// A request nobody handles whose action differs from a known action by case or a small typo
    /// ("Handler Not Called for Requests": "Check for typos and case sensitivity").
    case unhandledNearMiss = "unhandled-near-miss"
    /// A capture request for a typed slot that has no handler ("Handler Not Called for Requests").
    case slotNoHandler = "slot-no-handler"
    /// A capture request for a typed slot that is disabled (`isEnabled` false).
    case slotDisabled = "slot-disabled"
    /// A request for a capability the host's last `capability.query` answer did not report as
    /// supported ("Capability Query Returns Unexpected Results").
    case notReported = "not-reported"
    /// A capture request answered `BUSY`: its slot was still busy with an earlier request
    /// (`Typed Slot Returns "BUSY" Error`).
    case busy
    /// A capture request while the slot's `permissionState` was still `notDetermined`
    /// ("Permission State Not Appearing in Query Response").
    case permissionNotDetermined = "permission-not-determined"
    /// A message larger than ``ProtocolLinter/largePayloadBytes`` ("Memory Warnings or Crashes":
    /// pass file paths instead of Base64 images).
    case largePayload = "large-payload"
    /// A response from the journey for an id the host never sent a request with, or one already
    /// answered.
    case unknownResponse = "unknown-response"
    /// A request reusing the correlationId of a request still waiting for its answer: the host
    /// does not route it.
    case duplicateId = "duplicate-id"
    /// A message the host sent that was not delivered (no journey attached, or JavaScript
    /// evaluation failed): "Messages Not Being Received by the Web Journey".
    case notDelivered = "not-delivered"
    /// A message the host sent that reached GBGBridge's no-op bootstrap `receive`: the journey
    /// had not set its own yet, so it never got it (Troubleshooting, "Messages Not Being
    /// Received by the Web Journey": "window.GBGBridge.receive not defined").
    case lost
    /// A page script's report of what the host sent that the inspector could not read as a
    /// message (or a problem the script reported): shown with its raw text and the reason.
    case unreadSentReport = "unread-sent-report"
    /// A message, either way, that breaks a rule of GBG's documented contract
    /// (``GBGBridgeContract``): the reason names the contract rule and its page. Any other mark
    /// on the row wins; ``LiveState/contract`` counts every violation, marked or not.
    case contract

    /// A few words for the log's inline mark.
    public var label: String {
        switch self {
        case .malformed: return "decode failure"
        case .unhandledNearMiss: return "action typo?"
        case .slotNoHandler: return "slot has no handler"
        case .slotDisabled: return "slot disabled"
        case .notReported: return "not reported by capability.query"
        case .busy: return "BUSY"
        case .permissionNotDetermined: return "permission notDetermined"
        case .largePayload: return "large payload"
        case .unknownResponse: return "response to no request"
        case .duplicateId: return "duplicate correlationId"
        case .notDelivered: return "not delivered"
        case .lost: return "lost: receive not set"
        case .unreadSentReport: return "unread page report"
        case .contract: return "GBG contract"
        }
    }
}
