import BridgeCore
import Foundation
import GBGBridgeInspector
import GBGBridgeNames

/// GBG's `BridgeHost` seen through ``GBGBridgeHostAPI``, the mirror the portable adapter
/// (`PublicAPIHost`) is written and tested against. GBG's names are resolved in GBGBridgeNames;
/// here everything is BridgeCore's, and messages cross as JSON.
@MainActor
public final class GBGBridgeHostMirror: GBGBridgeHostAPI {
    private let link: GBGHostLink
    public let documentCapture: GBGBridgeCaptureMirror
    public let selfieCapture: GBGBridgeCaptureMirror

    /// Mirrors `host` (held weakly).
    public init(_ host: GBGBridgeHost) {
        link = GBGHostLink(host)
        documentCapture = GBGBridgeCaptureMirror(link.documentCapture, kind: .document)
        selfieCapture = GBGBridgeCaptureMirror(link.selfieCapture, kind: .selfie)
    }

    public var lastError: String? { link.lastError }
    public var receivedMessages: [BridgeMessage] { link.receivedMessages.compactMap(Self.message) }
    public var pendingRequests: [BridgeMessage] { link.pendingRequests.compactMap(Self.message) }

    public func respond(to correlationId: String, status: BridgeResponseStatus, data: [String: JSONValue]?, error: BridgeErrorPayload?) {
        link.respond(
            to: correlationId, status: Self.status(status), data: data.flatMap(Self.json),
            error: error.map { GBGError(code: $0.code, message: $0.message, recoverable: $0.recoverable) })
    }

    public func send(event: String, data: [String: JSONValue]?) {
        link.send(event: event, data: data.flatMap(Self.json))
    }

    public var delegateObject: AnyObject? { link.delegateObject }

    public func installDelegateProxy(reportingTo tap: any GBGBridgeDelegateTap, forwardingTo appDelegate: AnyObject?) -> AnyObject {
        let reporter = TapReporter(tap)
        return link.installDelegateProxy(
            onReceive: { json in reporter.didReceive(json) }, onUnhandled: { json in reporter.unhandledRequest(json) },
            forwardingTo: appDelegate)
    }

    public func restoreDelegate(_ appDelegate: AnyObject?) {
        link.restoreDelegate(appDelegate)
    }

    /// A message GBGBridge encoded, as BridgeCore's value, or why it cannot be read. GBG does
    /// not document its encoding, so every shape ``SentDeliveryDecoder`` knows is accepted (a
    /// `status` at the top level, an ISO timestamp, ...).
    static func read(_ json: Data) -> Result<BridgeMessage, SentDeliveryDecoder.Unreadable> {
        SentDeliveryDecoder.decode(json, actionOfRequest: { _ in nil }).map(\.message)
    }

    /// The message in `json`, or `nil` when it cannot be read (the delegate's report of it
    /// showed it as an unreadable row when it arrived).
    static func message(_ json: Data) -> BridgeMessage? {
        try? read(json).get()
    }

    static func json(_ data: [String: JSONValue]) -> Data? {
        try? JSONEncoder().encode(data)
    }

    static func status(_ status: BridgeResponseStatus) -> GBGStatus {
        switch status {
        case .success: return .success
        case .error: return .error
        case .cancelled: return .cancelled
        case .unsupported: return .unsupported
        }
    }
}

/// Hands the delegate proxy's reports to the adapter while it exists (weakly held: the proxy
/// lives in GBGBridge's host and must not keep the adapter alive).
@MainActor
private final class TapReporter: Sendable {
    private weak var tap: (any GBGBridgeDelegateTap)?

    init(_ tap: any GBGBridgeDelegateTap) {
        self.tap = tap
    }

    func didReceive(_ json: Data) {
        switch GBGBridgeHostMirror.read(json) {
        case .success(let message): tap?.didReceive(message)
        case .failure(let problem): tap?.didReceiveUnreadable(json: json, reason: problem.reason)
        }
    }

    func unhandledRequest(_ json: Data) {
        // An unreadable one was shown when didReceive reported it.
        if let message = GBGBridgeHostMirror.message(json) { tap?.unhandledRequest(message) }
    }
}

/// A typed slot of GBG's `BridgeHost` seen through ``GBGBridgeCaptureAPI``.
@MainActor
public final class GBGBridgeCaptureMirror: GBGBridgeCaptureAPI {
    private let slot: GBGSlotLink
    private let kind: CaptureCapability.Kind

    init(_ slot: GBGSlotLink, kind: CaptureCapability.Kind) {
        self.slot = slot
        self.kind = kind
    }

    public var hasHandler: Bool { slot.hasHandler }
    public var isSupported: Bool { slot.isSupported }
    public var activeRequest: BridgeMessage? { slot.activeRequest.flatMap(GBGBridgeHostMirror.message) }

    public var isEnabled: Bool {
        get { slot.isEnabled }
        set { slot.isEnabled = newValue }
    }

    public var permissionState: PermissionState {
        get { PermissionState(rawValue: slot.permission.rawValue) ?? .notDetermined }
        set { slot.permission = GBGPermission(rawValue: newValue.rawValue) ?? .notDetermined }
    }

    public func refusal(toComplete result: CaptureResult) -> String? {
        DocumentedCaptureResults.refusal(toComplete: result)
    }

    @discardableResult
    public func complete(_ result: CaptureResult) -> Bool {
        guard slot.activeRequest != nil else { return false }
        switch result {
        case .document(let image):
            slot.completeWithDocument(imageData: image.imageData, width: image.width, height: image.height, mimeType: image.mimeType)
        case .cancelled(let reason):
            slot.cancel(reason: reason)
        case .selfie, .failure:
            // Not expressible (``refusal(toComplete:)``): the agent refuses before calling this.
            return false
        }
        return true
    }
}
