import BridgeCore
import Foundation

/// The part of GBG's `GBGBridge.BridgeHost` public API that the inspector adapter uses, with the
/// documented names (`../shared/reference/gbgbridge-facts.md`, "BridgeHost").
///
/// GBGBridge is a closed iOS binary that cannot be built on this project's machines, so the
/// adapter is written against this mirror and tested on Linux through a host that conforms to it
/// (this project's own `BridgeCore.BridgeHost`, seen only through these members). The one file
/// that names GBGBridge's types lives in the app integration package (`Integrations/GBGBridgeApp`,
/// `GBGBridgeHostMirror`), type-checked in CI against interface stubs of GBGBridge and WebKit.
///
/// Nothing here is a change stream: GBGBridge publishes no history of what changed. The adapter
/// learns of messages from the delegate, of outgoing messages from a script in the page, and of
/// everything else by comparing what these properties hold (see ``GBGBridgeInspector``).
@MainActor
public protocol GBGBridgeHostAPI: AnyObject {
    /// The type of the two typed capture slots.
    associatedtype Capture: GBGBridgeCaptureAPI

    /// `lastError`: the most recent decoding, JavaScript or WebView error, or `nil`.
    var lastError: String? { get }
    /// `receivedMessages`: every successfully decoded message still held, oldest first.
    var receivedMessages: [BridgeMessage] { get }
    /// `pendingRequests`: requests no handler took, oldest first.
    var pendingRequests: [BridgeMessage] { get }
    /// `documentCapture`, the `camera.document` slot.
    var documentCapture: Capture { get }
    /// `selfieCapture`, the `camera.selfie` slot.
    var selfieCapture: Capture { get }
    /// Brings `reading` up to date with `delegate`, `lastError`, `pendingRequests` and both
    /// slots (each through its ``GBGBridgeCaptureAPI/readSlot(into:)``, whose answers go to
    /// `documentChanged` and `selfieChanged`): what the adapter compares after every message, read
    /// in one call. The default implementation reads the properties one by one; implement it only
    /// to read them more cheaply, by reading those documented properties and nothing else.
    /// Afterwards `reading` must hold what reading the properties one by one gives.
    func readPublicState(into reading: inout PublicStateReading)

    /// `respond(to:status:data:error:)`: answers a request by its correlation id.
    func respond(to correlationId: String, status: BridgeResponseStatus, data: [String: JSONValue]?, error: BridgeErrorPayload?)
    /// `send(event:data:)`: sends a host event to the journey.
    func send(event: String, data: [String: JSONValue]?)

    /// The object in `delegate` now (compared by identity to notice that the app replaced the
    /// adapter's proxy).
    var delegateObject: AnyObject? { get }
    /// Puts a delegate in `delegate` that reports each call to `tap` and forwards it, unchanged
    /// and in the same order, to `appDelegate` (the object that was in `delegate`, held weakly as
    /// GBGBridge holds its delegate). Returns the installed proxy, which the caller keeps.
    func installDelegateProxy(reportingTo tap: any GBGBridgeDelegateTap, forwardingTo appDelegate: AnyObject?) -> AnyObject
    /// Puts `appDelegate` back in `delegate` (when the adapter stops).
    func restoreDelegate(_ appDelegate: AnyObject?)
}

/// The part of GBGBridge's `CaptureCapability` (a typed slot) the adapter uses.
@MainActor
public protocol GBGBridgeCaptureAPI: AnyObject {
    /// Whether `handler` is set (`handler != nil`).
    var hasHandler: Bool { get }
    /// `isEnabled`.
    var isEnabled: Bool { get set }
    /// `permissionState`.
    var permissionState: PermissionState { get set }
    /// `isSupported` (`handler != nil && isEnabled`).
    var isSupported: Bool { get }
    /// `activeRequest`: the request holding the slot, or `nil` when idle.
    var activeRequest: BridgeMessage? { get }
    /// Brings `reading` up to date with ``hasHandler``, ``isEnabled``, ``isSupported``,
    /// ``permissionState`` and ``activeRequest``, writing only the fields that differ (an active
    /// request equal to the one held is left as it is, not copied: `CaptureSlotReading`'s
    /// `update` methods do both), and returns whether any did. What the adapter compares after
    /// every message; afterwards `reading` must hold what reading the properties one by one gives.
    /// The default implementation reads each property once; implement it only to read them more
    /// cheaply.
    func readSlot(into reading: inout CaptureSlotReading) -> Bool
    /// `complete(_:)`: ends the active request with a result. Returns whether a request was
    /// active (a mirror of a slot whose `complete(_:)` returns nothing checks `activeRequest`).
    @discardableResult
    func complete(_ result: CaptureResult) -> Bool
    /// Why `result` cannot be expressed through this slot's API (GBGBridge documents only a
    /// document image and a cancellation: ``DocumentedCaptureResults``), or `nil` when
    /// ``complete(_:)`` can send it as it is. The adapter refuses such a completion with this
    /// reason instead of sending something else.
    func refusal(toComplete result: CaptureResult) -> String?
}

extension GBGBridgeHostAPI {
    /// Reads `delegate`, `lastError`, `pendingRequests` and both slots one by one, each slot
    /// through its ``GBGBridgeCaptureAPI/readSlot(into:)``: what a conformance gets unless it
    /// reads them more cheaply itself (this package's `BridgeHost` does).
    public func readPublicState(into reading: inout PublicStateReading) {
        reading.delegateObject = delegateObject
        reading.lastError = lastError
        reading.pendingRequests = pendingRequests
        reading.documentChanged = documentCapture.readSlot(into: &reading.document)
        reading.selfieChanged = selfieCapture.readSlot(into: &reading.selfie)
    }
}

extension GBGBridgeCaptureAPI {
    /// Reads the slot's documented properties, each once (the active request once), and writes
    /// only those that differ: what a conformance gets unless it reads them more cheaply itself.
    public func readSlot(into reading: inout CaptureSlotReading) -> Bool {
        let flagsChanged = reading.update(
            hasHandler: hasHandler, isEnabled: isEnabled, isSupported: isSupported, permissionState: permissionState)
        let requestChanged = reading.update(activeRequest: activeRequest)
        return flagsChanged || requestChanged
    }
}

/// What the adapter's delegate proxy reports: the two `BridgeHostDelegate` calls.
@MainActor
public protocol GBGBridgeDelegateTap: AnyObject {
    /// `bridgeHost(_:didReceive:)`: a message was decoded.
    func didReceive(_ message: BridgeMessage)
    /// `bridgeHost(_:unhandledRequest:)`: a request landed in `pendingRequests`.
    func unhandledRequest(_ message: BridgeMessage)
    /// `bridgeHost(_:didReceive:)` for a message GBGBridge decoded but whose encoding (`json`,
    /// as the mirror got it) the inspector cannot read, and why: shown, never dropped.
    func didReceiveUnreadable(json: Data, reason: String)
}
