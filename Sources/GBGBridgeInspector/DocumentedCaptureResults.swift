import BridgeCore

/// The capture results GBGBridge's documented API can express: `.document(DocumentCaptureResult(
/// imageData:width:height:mimeType:))` and `.cancelled(reason:)` (the Two-Way Communication
/// example and the troubleshooting page's BUSY fix). A selfie image and an error are not
/// documented, so the public-API path refuses to complete a slot with them, with the reason,
/// rather than send something else (such as a cancellation for an error) and report success.
///
/// ```swift
/// if let reason = DocumentedCaptureResults.refusal(toComplete: result) { refuse(reason) }
/// ```
public enum DocumentedCaptureResults {
    /// Why `result` cannot go out through GBGBridge's documented API, or `nil` when it can.
    public static func refusal(toComplete result: CaptureResult) -> String? {
        switch result {
        case .document, .cancelled:
            return nil
        case .selfie:
            return "GBGBridge documents no selfie image result (only DocumentCaptureResult and .cancelled(reason:)), "
                + "so the inspector cannot complete camera.selfie with an image through its public API; cancel it, or complete it from the app"
        case .failure:
            return "GBGBridge's documented CaptureResult has no error case (only .document and .cancelled(reason:)), "
                + "so the inspector cannot complete a slot with an error through its public API; cancel it instead, or complete it from the app"
        }
    }
}
