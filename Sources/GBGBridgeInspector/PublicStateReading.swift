import BridgeCore

/// What ``PublicAPIHost`` compares after every message, as last read from GBGBridge's public
/// API: what ``GBGBridgeHostAPI/readPublicState(into:)`` brings up to date.
///
/// One call through the host's witness table instead of one per property (fifteen a look before:
/// the host's five, and each slot's five through a second witness table found from the first).
/// The adapter keeps one reading and has it brought up to date in place: a slot whose fields did not change is not written (its active
/// request not copied), and the slot's flag says so, which spares the adapter its comparison.
/// Each field is the documented property of the same name.
public struct PublicStateReading {
    /// The object in `delegate` (compared by identity with the adapter's proxy).
    public var delegateObject: AnyObject?
    /// `lastError`.
    public var lastError: String?
    /// `pendingRequests`, oldest first.
    public var pendingRequests: [BridgeMessage]
    /// `documentCapture`'s fields.
    public var document: CaptureSlotReading
    /// `selfieCapture`'s fields.
    public var selfie: CaptureSlotReading
    /// Whether the last read changed ``document`` (its ``GBGBridgeCaptureAPI/readSlot(into:)``'s
    /// answer).
    public var documentChanged: Bool
    /// Whether the last read changed ``selfie``.
    public var selfieChanged: Bool

    /// A reading of these values (by default, of nothing yet).
    public init(
        delegateObject: AnyObject? = nil, lastError: String? = nil, pendingRequests: [BridgeMessage] = [],
        document: CaptureSlotReading = CaptureSlotReading(), selfie: CaptureSlotReading = CaptureSlotReading(),
        documentChanged: Bool = false, selfieChanged: Bool = false
    ) {
        self.delegateObject = delegateObject
        self.lastError = lastError
        self.pendingRequests = pendingRequests
        self.document = document
        self.selfie = selfie
        self.documentChanged = documentChanged
        self.selfieChanged = selfieChanged
    }

    /// Lets go of ``pendingRequests`` and ``delegateObject`` once they are compared: kept until
    /// the next read, GBGBridge's list would be shared, so that its next change copied it whole,
    /// and the delegate would be kept alive by the adapter, which GBGBridge holds weakly.
    mutating func letGoOfHostObjects() {
        pendingRequests = []
        delegateObject = nil
    }
}
