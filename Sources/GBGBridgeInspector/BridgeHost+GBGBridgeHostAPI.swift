import BridgeCore

/// This project's `BridgeHost` seen only through GBGBridge's documented public API: the test
/// double that lets the adapter run, end to end, where GBGBridge cannot (Linux), and what
/// `bridge-inspector host --inspect-via public-api` serves. Every member here is one GBGBridge
/// documents under the same name.
extension BridgeHost: GBGBridgeHostAPI {
    public var delegateObject: AnyObject? { delegate }

    /// Each documented property read, the slots' through their own ``GBGBridgeCaptureAPI/readSlot(into:)``
    /// (called on the concrete slot type, not through a witness table).
    public func readPublicState(into reading: inout PublicStateReading) {
        reading.delegateObject = delegate
        reading.lastError = lastError
        reading.pendingRequests = pendingRequests
        reading.documentChanged = documentCapture.readSlot(into: &reading.document)
        reading.selfieChanged = selfieCapture.readSlot(into: &reading.selfie)
    }

    public func installDelegateProxy(reportingTo tap: any GBGBridgeDelegateTap, forwardingTo appDelegate: AnyObject?) -> AnyObject {
        let proxy = BridgeHostDelegateProxy(tap: tap, app: appDelegate as? any BridgeHostDelegate)
        delegate = proxy
        return proxy
    }

    public func restoreDelegate(_ appDelegate: AnyObject?) {
        delegate = appDelegate as? any BridgeHostDelegate
    }
}

extension CaptureCapability: GBGBridgeCaptureAPI {
    public var hasHandler: Bool { handler != nil }

    /// Each documented property read (`isSupported` as the slot computes it). An idle slot seen
    /// idle is known from the active request's tag, without copying it.
    public func readSlot(into reading: inout CaptureSlotReading) -> Bool {
        var changed = reading.update(hasHandler: handler != nil, isEnabled: isEnabled, isSupported: isSupported, permissionState: permissionState)
        // Matched by its tag: `== nil` is Optional's `==`, which copied both into a tuple.
        if case .none = activeRequest, case .none = reading.activeRequest { return changed }
        if reading.update(activeRequest: activeRequest) { changed = true }
        return changed
    }

    /// What GBGBridge's documented API cannot express is refused here too, so the public-API
    /// path behaves as it does in an app.
    public func refusal(toComplete result: CaptureResult) -> String? {
        DocumentedCaptureResults.refusal(toComplete: result)
    }
}

/// The adapter's delegate for a `BridgeHost`: reports each call to the adapter, then forwards it
/// unchanged to the app's delegate (held weakly, as the host holds its delegate).
@MainActor
final class BridgeHostDelegateProxy: BridgeHostDelegate {
    private weak var tap: (any GBGBridgeDelegateTap)?
    private weak var app: (any BridgeHostDelegate)?

    init(tap: any GBGBridgeDelegateTap, app: (any BridgeHostDelegate)?) {
        self.tap = tap
        self.app = app
    }

    func bridgeHost(_ host: BridgeHost, didReceive message: BridgeMessage) {
        tap?.didReceive(message)
        app?.bridgeHost(host, didReceive: message)
    }

    func bridgeHost(_ host: BridgeHost, unhandledRequest message: BridgeMessage) {
        tap?.unhandledRequest(message)
        app?.bridgeHost(host, unhandledRequest: message)
    }
}
