/// A handler for one action, registered with ``BridgeHost/register(handler:)``.
///
/// The host routes a request to the handler whose `action` matches `payload.action` exactly
/// (case-sensitive). The handler answers through the responder, once:
///
/// ```swift
/// struct DeviceInfoHandler: BridgeCapabilityHandler {
///     let action = "device.info"
///     func handle(request: BridgeMessage, responder: BridgeResponder) async {
///         responder.respond(status: .success, data: ["model": "Simulator"], error: nil)
///     }
/// }
/// host.register(handler: DeviceInfoHandler())
/// ```
///
/// Registering a handler for `capability.query` replaces the built-in one (FAQ, "Can I change
/// capabilities after initialization?").
public protocol BridgeCapabilityHandler: Sendable {
    /// The action this handler answers, such as `device.info`.
    var action: String { get }
    /// Handles one request; call `responder.respond(...)` exactly once.
    func handle(request: BridgeMessage, responder: BridgeResponder) async
}

/// A handler made from a closure, as ``BridgeHost/registerCustomCapability(_:version:handler:)`` takes it.
struct ClosureCapabilityHandler: BridgeCapabilityHandler {
    let action: String
    let body: @Sendable (BridgeMessage, BridgeResponder) async -> Void

    func handle(request: BridgeMessage, responder: BridgeResponder) async {
        await body(request, responder)
    }
}
