// The one file that names GBG's GBGBridge: it presents `GBGBridge.BridgeHost` through the mirror
// the adapter is written against (GBGBridgeHostAPI.swift), and adds the one-call start for an app.
//
// NOT COMPILED HERE: GBGBridge is a closed iOS XCFramework and this project has no Apple machine.
// Everything below uses only names GBGBridge documents (../shared/reference/gbgbridge-facts.md);
// where the docs do not say (a type's exact shape), the choice is noted. The logic it feeds
// (PublicAPIHost) is compiled and tested on Linux through this project's own BridgeHost.
#if canImport(GBGBridge) && canImport(WebKit)
import BridgeCore
import Foundation
import GBGBridge
import InspectorAgent
import WebKit

/// `GBGBridge.BridgeHost` seen through ``GBGBridgeHostAPI``. Messages cross as JSON: GBGBridge
/// decodes messages with `JSONDecoder` (Security page), so its `BridgeMessage` is taken to be
/// `Codable`, and BridgeCore decodes the same JSON.
@MainActor
public final class GBGBridgeHostMirror: GBGBridgeHostAPI {
    private weak var host: GBGBridge.BridgeHost?
    public let documentCapture: GBGBridgeCaptureMirror
    public let selfieCapture: GBGBridgeCaptureMirror

    public init(_ host: GBGBridge.BridgeHost) {
        self.host = host
        documentCapture = GBGBridgeCaptureMirror(host.documentCapture, kind: .document)
        selfieCapture = GBGBridgeCaptureMirror(host.selfieCapture, kind: .selfie)
    }

    public var lastError: String? { host?.lastError }
    public var receivedMessages: [BridgeCore.BridgeMessage] { (host?.receivedMessages ?? []).compactMap(Self.mirrored) }
    public var pendingRequests: [BridgeCore.BridgeMessage] { (host?.pendingRequests ?? []).compactMap(Self.mirrored) }

    public func respond(to correlationId: String, status: BridgeCore.BridgeResponseStatus, data: [String: BridgeCore.JSONValue]?, error: BridgeCore.BridgeErrorPayload?) {
        host?.respond(
            to: correlationId, status: Self.status(status), data: data.flatMap(Self.data),
            error: error.map { GBGBridge.BridgeErrorPayload(code: $0.code, message: $0.message, recoverable: $0.recoverable) })
    }

    public func send(event: String, data: [String: BridgeCore.JSONValue]?) {
        host?.send(event: event, data: data.flatMap(Self.data) ?? [:])
    }

    public var delegateObject: AnyObject? { host?.delegate }

    public func installDelegateProxy(reportingTo tap: any GBGBridgeDelegateTap, forwardingTo appDelegate: AnyObject?) -> AnyObject {
        let proxy = GBGBridgeDelegateProxy(tap: tap, app: appDelegate as? any GBGBridge.BridgeHostDelegate)
        host?.delegate = proxy
        return proxy
    }

    public func restoreDelegate(_ appDelegate: AnyObject?) {
        host?.delegate = appDelegate as? any GBGBridge.BridgeHostDelegate
    }

    static func mirrored(_ message: GBGBridge.BridgeMessage) -> BridgeCore.BridgeMessage? {
        guard let json = try? JSONEncoder().encode(message), case .success(let value) = BridgeMessageCodec().decode(json) else { return nil }
        return value
    }

    static func data(_ data: [String: BridgeCore.JSONValue]) -> [String: GBGBridge.JSONValue]? {
        guard let json = try? JSONEncoder().encode(data) else { return nil }
        return try? JSONDecoder().decode([String: GBGBridge.JSONValue].self, from: json)
    }

    static func status(_ status: BridgeCore.BridgeResponseStatus) -> GBGBridge.BridgeResponseStatus {
        switch status {
        case .success: return .success
        case .error: return .error
        case .cancelled: return .cancelled
        case .unsupported: return .unsupported
        }
    }
}

/// A typed slot of `GBGBridge.BridgeHost` seen through ``GBGBridgeCaptureAPI``.
@MainActor
public final class GBGBridgeCaptureMirror: GBGBridgeCaptureAPI {
    private let slot: GBGBridge.CaptureCapability
    private let kind: CaptureCapability.Kind

    init(_ slot: GBGBridge.CaptureCapability, kind: CaptureCapability.Kind) {
        self.slot = slot
        self.kind = kind
    }

    public var hasHandler: Bool { slot.handler != nil }
    public var isSupported: Bool { slot.isSupported }
    public var activeRequest: BridgeCore.BridgeMessage? { slot.activeRequest.flatMap(GBGBridgeHostMirror.mirrored) }

    public var isEnabled: Bool {
        get { slot.isEnabled }
        set { slot.isEnabled = newValue }
    }

    public var permissionState: BridgeCore.PermissionState {
        get {
            switch slot.permissionState {
            case .granted: return .granted
            case .denied: return .denied
            default: return .notDetermined
            }
        }
        set {
            switch newValue {
            case .granted: slot.permissionState = .granted
            case .denied: slot.permissionState = .denied
            default: slot.permissionState = .notDetermined
            }
        }
    }

    @discardableResult
    public func complete(_ result: BridgeCore.CaptureResult) -> Bool {
        guard slot.activeRequest != nil else { return false }
        switch result {
        case .document(let image):
            slot.complete(.document(GBGBridge.DocumentCaptureResult(imageData: image.imageData, width: image.width, height: image.height, mimeType: image.mimeType)))
        case .selfie(let image):
            // The docs show only the document result; the selfie one is taken to be its twin.
            slot.complete(.selfie(GBGBridge.SelfieCaptureResult(imageData: image.imageData, width: image.width, height: image.height, mimeType: image.mimeType)))
        case .cancelled(let reason):
            slot.complete(.cancelled(reason: reason))
        case .failure(let error):
            // The docs name no error case of CaptureResult: the nearest documented one is sent.
            slot.complete(.cancelled(reason: "\(error.code): \(error.message)"))
        }
        return true
    }
}

/// The adapter's delegate in GBGBridge's `delegate` slot: reports, then forwards every call to
/// the app's delegate (weakly held, as GBGBridge holds its delegate).
@MainActor
final class GBGBridgeDelegateProxy: NSObject, GBGBridge.BridgeHostDelegate {
    private weak var tap: (any GBGBridgeDelegateTap)?
    private weak var app: (any GBGBridge.BridgeHostDelegate)?

    init(tap: any GBGBridgeDelegateTap, app: (any GBGBridge.BridgeHostDelegate)?) {
        self.tap = tap
        self.app = app
    }

    func bridgeHost(_ host: GBGBridge.BridgeHost, didReceive message: GBGBridge.BridgeMessage) {
        if let mirrored = GBGBridgeHostMirror.mirrored(message) { tap?.didReceive(mirrored) }
        app?.bridgeHost(host, didReceive: message)
    }

    func bridgeHost(_ host: GBGBridge.BridgeHost, unhandledRequest message: GBGBridge.BridgeMessage) {
        if let mirrored = GBGBridgeHostMirror.mirrored(message) { tap?.unhandledRequest(mirrored) }
        app?.bridgeHost(host, unhandledRequest: message)
    }
}

extension GBGBridgeInspector where API == GBGBridgeHostMirror {
    /// Serves an app's GBGBridge host to `bridge-inspector` (debug builds only): takes the
    /// delegate slot (forwarding every call to the app's delegate) and installs the page script
    /// in `webView` (from its next page load). Keep the result; ``stop()`` undoes both.
    ///
    /// ```swift
    /// #if DEBUG
    /// inspector = try GBGBridgeInspector.start(host: host, webView: webView, hostVersion: "1.0.0", name: "MyApp")
    /// #endif
    /// ```
    ///
    /// In the Simulator the Mac's `bridge-inspector` finds it on its own; on a device pass
    /// `tcp: InspectorTCPOptions(port: 9123)` and follow the line it logs (docs/real-apps.md).
    public static func start(
        host: GBGBridge.BridgeHost, webView: WKWebView, hostVersion: String, name: String, socketPath: String? = nil,
        tcp: InspectorTCPOptions? = nil
    ) throws -> GBGBridgeInspector {
        let mirror = GBGBridgeHostMirror(host)
        let inspector = try start(api: mirror, hostVersion: hostVersion, name: name, socketPath: socketPath, tcp: tcp)
        let adapter = inspector.adapter
        let tap = OutgoingTap(installingIn: webView.configuration.userContentController) { [weak adapter] report in
            adapter?.handle(report)
        }
        inspector.retained = [mirror, tap]
        inspector.cleanups.append { tap.remove() }
        return inspector
    }
}
#endif
