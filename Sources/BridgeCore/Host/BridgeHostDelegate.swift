/// Sees every message the host decodes, and every request nothing handles.
///
/// ```swift
/// final class Logger: BridgeHostDelegate {
///     func bridgeHost(_ host: BridgeHost, didReceive message: BridgeMessage) { print(message.payload.action) }
///     func bridgeHost(_ host: BridgeHost, unhandledRequest message: BridgeMessage) {
///         host.respond(to: message.correlationId, status: .unsupported,
///                      error: BridgeErrorPayload(code: "UNSUPPORTED", message: "Not supported", recoverable: false))
///     }
/// }
/// host.delegate = logger   // held weakly
/// ```
///
/// `didReceive` is called first, for every decoded message; `unhandledRequest` follows for a
/// request that went to `pendingRequests`. Malformed messages reach neither (Security,
/// "Incoming Message Decoding").
@MainActor
public protocol BridgeHostDelegate: AnyObject {
    /// A message was decoded and logged in `receivedMessages`.
    func bridgeHost(_ host: BridgeHost, didReceive message: BridgeMessage)
    /// A request has no handler and was added to `pendingRequests`.
    func bridgeHost(_ host: BridgeHost, unhandledRequest message: BridgeMessage)
}

extension BridgeHostDelegate {
    /// Does nothing by default.
    public func bridgeHost(_ host: BridgeHost, didReceive message: BridgeMessage) {}
    /// Does nothing by default: the request waits in `pendingRequests`.
    public func bridgeHost(_ host: BridgeHost, unhandledRequest message: BridgeMessage) {}
}
