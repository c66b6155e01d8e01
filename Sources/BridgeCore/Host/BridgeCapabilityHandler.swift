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
///
/// Order (FAQ, "Is the message order preserved?": "Messages are processed in the order they
/// arrive"): `handle` runs on the main actor, like the host, and the host starts it while it
/// routes the request, before it looks at the next message. A handler that responds without
/// awaiting anything therefore answers requests in the order they arrived. A handler that awaits
/// (a camera, a network call, `Task.sleep`) lets the next requests start meanwhile, so its answer
/// goes out when it responds, after answers that were quicker. Keep heavy work off the main actor:
/// await it in a task of its own.
public protocol BridgeCapabilityHandler: Sendable {
    /// The action this handler answers, such as `device.info`.
    var action: String { get }
    /// Handles one request, on the main actor; call `responder.respond(...)` exactly once.
    @MainActor func handle(request: BridgeMessage, responder: BridgeResponder) async
}

/// A handler made from a closure, as ``BridgeHost/registerCustomCapability(_:version:handler:)`` takes it.
struct ClosureCapabilityHandler: BridgeCapabilityHandler {
    let action: String
    let body: @MainActor @Sendable (BridgeMessage, BridgeResponder) async -> Void

    @MainActor
    func handle(request: BridgeMessage, responder: BridgeResponder) async {
        await body(request, responder)
    }
}
