/// The outcome a response reports to the web journey: `payload.status` on the wire.
///
/// The documented statuses are `success`, `error`, `cancelled` and `unsupported`
/// (Two-Way Communication example).
public enum BridgeResponseStatus: String, Codable, Sendable, CaseIterable {
    case success
    case error
    case cancelled
    case unsupported
}
