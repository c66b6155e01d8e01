/// A lifecycle step an inspector does to the journey's web view (the `journey` command): what
/// an app's own lifecycle does to it, at a moment a person chooses.
///
/// Nothing the host holds is cleared by any of them: pending requests stay in
/// `pendingRequests` and capture slots keep their active requests, as GBGBridge's host keeps
/// them (only an answer or the journey's own timeout ends a request).
public enum JourneyStep: String, Codable, Sendable, Hashable, CaseIterable {
    /// The host forgets its web view (`detach()`): every send fails with `WebView not attached`
    /// in `lastError` until `attach`.
    case detach
    /// The host gets the same web view back (`attach(_:)`), and delivery works again.
    case attach
    /// The journey's page loads again: a new page attaches and the host sends `host.ready` again.
    case reload

    /// One line for a person: what the step does.
    public var summary: String {
        switch self {
        case .detach: return "detach the web view (sends fail: WebView not attached)"
        case .attach: return "attach the same web view again"
        case .reload: return "reload the journey's page (host.ready follows)"
        }
    }
}
