// The one module that imports GBG's GBGBridge. It imports nothing of bridge-inspector's, so every
// GBGBridge name here (BridgeHost, BridgeMessage, JSONValue, CaptureCapability, ...) means GBG's,
// and no name of ours can clash with one of theirs; nothing is qualified with `GBGBridge.`
// (which a type named like the module would break). Everything crosses to the inspector as plain
// values: messages as JSON bytes, statuses and permissions as small enums of this file.
//
// Where GBG's docs leave a point open, the code is written to compile under every reading
// (Integrations/AppleStubs/README.md lists them; CI type-checks each): no status type is named
// (`.success` is inferred from `respond(to:status:...)`), no switch over GBG's enums, image sizes
// are built by whatever type `DocumentCaptureResult` takes, and the delegate proxy works whether
// or not `BridgeHostDelegate` is @MainActor.
import Foundation
import GBGBridge

/// GBG's `BridgeHost`, by a name that no module of bridge-inspector declares. Use it where a
/// signature outside this module must name GBG's host.
public typealias GBGBridgeHost = BridgeHost

/// A response status, as the inspector names it (GBG's type name is not documented).
public enum GBGStatus: Sendable {
    case success, error, cancelled, unsupported
}

/// A response error: the fields of GBG's `BridgeErrorPayload(code:message:recoverable:)`.
public struct GBGError: Sendable, Equatable {
    public var code: String
    public var message: String
    public var recoverable: Bool

    public init(code: String, message: String, recoverable: Bool) {
        self.code = code
        self.message = message
        self.recoverable = recoverable
    }
}

/// GBG's `BridgeHost` seen through plain values: what the inspector's mirror reads and calls.
/// It holds the host weakly, as the inspector must not keep an app's host alive.
@MainActor
public final class GBGHostLink {
    private weak var host: BridgeHost?
    /// `documentCapture`.
    public let documentCapture: GBGSlotLink
    /// `selfieCapture`.
    public let selfieCapture: GBGSlotLink

    public init(_ host: BridgeHost) {
        self.host = host
        documentCapture = GBGSlotLink(host.documentCapture)
        selfieCapture = GBGSlotLink(host.selfieCapture)
    }

    /// `lastError`.
    public var lastError: String? { host?.lastError }
    /// `receivedMessages`, each as JSON (``GBGMessageJSON``).
    public var receivedMessages: [Data] { (host?.receivedMessages ?? []).map(GBGMessageJSON.encode) }
    /// `pendingRequests`, each as JSON.
    public var pendingRequests: [Data] { (host?.pendingRequests ?? []).map(GBGMessageJSON.encode) }

    /// `respond(to:status:data:error:)`. `data` is a JSON object; returns why it could not be
    /// handed to GBGBridge's `JSONValue` (the response then goes out without data), or `nil`.
    @discardableResult
    public func respond(to correlationId: String, status: GBGStatus, data: Data?, error: GBGError?) -> String? {
        guard let host else { return "the host is gone" }
        let (values, problem) = Self.values(data, otherwise: "the response went out without data")
        let payload = error.map { BridgeErrorPayload(code: $0.code, message: $0.message, recoverable: $0.recoverable) }
        switch status {
        case .success: host.respond(to: correlationId, status: .success, data: values, error: payload)
        case .error: host.respond(to: correlationId, status: .error, data: values, error: payload)
        case .cancelled: host.respond(to: correlationId, status: .cancelled, data: values, error: payload)
        case .unsupported: host.respond(to: correlationId, status: .unsupported, data: values, error: payload)
        }
        return problem
    }

    /// `send(event:data:)`. `data` is a JSON object (`nil` sends `{}`); returns why it could not
    /// be handed to GBGBridge's `JSONValue` (the event then goes out with `{}`), or `nil`.
    @discardableResult
    public func send(event: String, data: Data?) -> String? {
        guard let host else { return "the host is gone" }
        let (values, problem) = Self.values(data, otherwise: "the event went out with {}")
        // A non-optional dictionary fits both `[String: JSONValue]` and `[String: JSONValue]?`.
        host.send(event: event, data: values ?? [:])
        return problem
    }

    /// `data` (a JSON object) as GBG's values, or `nil` and why not (ending with `otherwise`,
    /// what is sent instead).
    private static func values(_ data: Data?, otherwise: String) -> ([String: JSONValue]?, String?) {
        guard let data else { return (nil, nil) }
        do {
            return (try GBGMessageJSON.values(from: data), nil)
        } catch {
            return (nil, "GBGBridge's JSONValue could not decode the data (\(error)); " + otherwise)
        }
    }

    /// The object in `delegate` now.
    public var delegateObject: AnyObject? { host?.delegate }

    /// Puts a ``GBGDelegateProxy`` in `delegate` that hands each message to `onReceive` /
    /// `onUnhandled` (as JSON) and forwards the call, unchanged, to `appDelegate`. The caller
    /// keeps the returned proxy: GBGBridge holds its delegate weakly.
    public func installDelegateProxy(
        onReceive: @escaping @MainActor @Sendable (Data) -> Void, onUnhandled: @escaping @MainActor @Sendable (Data) -> Void,
        forwardingTo appDelegate: AnyObject?
    ) -> AnyObject {
        let proxy = GBGDelegateProxy(onReceive: onReceive, onUnhandled: onUnhandled)
        proxy.app = appDelegate as? any BridgeHostDelegate
        host?.delegate = proxy
        return proxy
    }

    /// Puts `appDelegate` back in `delegate`.
    public func restoreDelegate(_ appDelegate: AnyObject?) {
        host?.delegate = appDelegate as? any BridgeHostDelegate
    }
}
