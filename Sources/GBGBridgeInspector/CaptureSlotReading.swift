import BridgeCore

/// The fields of one GBGBridge capture slot (`CaptureCapability`) that ``PublicAPIHost``
/// compares, read at once: what ``GBGBridgeCaptureAPI/readSlot()`` returns.
///
/// The adapter compares both slots after every message, and nearly always neither changed. Read
/// one property at a time, each read was a call through the generic adapter's witness tables
/// (with a lookup of the slot type's metadata); read together, it is one call, and the values are
/// compared where they lie. Each field is the documented property of the same name
/// (`hasHandler` is `handler != nil`).
public struct CaptureSlotReading: Sendable, Equatable {
    /// `handler != nil`.
    public var hasHandler: Bool
    /// `isEnabled`.
    public var isEnabled: Bool
    /// `isSupported`, as the slot reports it.
    public var isSupported: Bool
    /// `permissionState`.
    public var permissionState: PermissionState
    /// `activeRequest`: the request holding the slot, or `nil` when idle.
    public var activeRequest: BridgeMessage?

    /// A reading of these values.
    public init(hasHandler: Bool, isEnabled: Bool, isSupported: Bool, permissionState: PermissionState, activeRequest: BridgeMessage?) {
        self.hasHandler = hasHandler
        self.isEnabled = isEnabled
        self.isSupported = isSupported
        self.permissionState = permissionState
        self.activeRequest = activeRequest
    }
}
