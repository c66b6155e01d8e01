import BridgeCore

/// What ``PublicAPIHost`` compares after every message, read from GBGBridge's public API at once:
/// what ``GBGBridgeHostAPI/readPublicState()`` returns.
///
/// One call through the host's witness table instead of one per property (nine in all, the slots'
/// through a second witness table found from the first); the adapter compares the values where
/// they lie in it. Each field is the documented property of the same name.
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

    /// A reading of these values.
    public init(
        delegateObject: AnyObject?, lastError: String?, pendingRequests: [BridgeMessage], document: CaptureSlotReading,
        selfie: CaptureSlotReading
    ) {
        self.delegateObject = delegateObject
        self.lastError = lastError
        self.pendingRequests = pendingRequests
        self.document = document
        self.selfie = selfie
    }
}
