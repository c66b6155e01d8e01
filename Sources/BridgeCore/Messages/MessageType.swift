/// The kind of a bridge message: the `type` field, one of `"request"`, `"response"` or `"event"`.
///
/// Requests expect exactly one response with the same `correlationId`; events are fire-and-forget
/// and can travel either way (Troubleshooting, "Message Decoding Failures"; FAQ, "Messaging").
public enum MessageType: String, Codable, Sendable, CaseIterable {
    case request
    case response
    case event
}
