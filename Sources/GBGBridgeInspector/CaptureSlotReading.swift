import BridgeCore

/// The fields of one GBGBridge capture slot (`CaptureCapability`) that ``PublicAPIHost``
/// compares, as last read: what ``GBGBridgeCaptureAPI/readSlot(into:)`` brings up to date.
///
/// The adapter compares both slots after every message, and nearly always neither changed. Read
/// one property at a time, each read was a call through the generic adapter's witness tables
/// (with a lookup of the slot type's metadata), and each look copied the active request out;
/// read into the reading it keeps, a look is one call that writes only what changed and says
/// whether anything did. Each field is the documented property of the same name (`hasHandler` is
/// `handler != nil`).
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
    public init(
        hasHandler: Bool = false, isEnabled: Bool = false, isSupported: Bool = false, permissionState: PermissionState = .notDetermined,
        activeRequest: BridgeMessage? = nil
    ) {
        self.hasHandler = hasHandler
        self.isEnabled = isEnabled
        self.isSupported = isSupported
        self.permissionState = permissionState
        self.activeRequest = activeRequest
    }

    /// Sets the four flags to these values, writing only those that differ; returns whether any
    /// did.
    public mutating func update(hasHandler: Bool, isEnabled: Bool, isSupported: Bool, permissionState: PermissionState) -> Bool {
        var changed = false
        if self.hasHandler != hasHandler {
            self.hasHandler = hasHandler
            changed = true
        }
        if self.isEnabled != isEnabled {
            self.isEnabled = isEnabled
            changed = true
        }
        if self.isSupported != isSupported {
            self.isSupported = isSupported
            changed = true
        }
        if self.permissionState != permissionState {
            self.permissionState = permissionState
            changed = true
        }
        return changed
    }

    /// Sets ``activeRequest`` to `request` unless it holds an equal one (``sameRequest(_:_:)``);
    /// returns whether it differed.
    public mutating func update(activeRequest request: BridgeMessage?) -> Bool {
        if Self.sameRequest(activeRequest, request) { return false }
        activeRequest = request
        return true
    }

    /// Whether `seen` and `now` are equal messages (or both `nil`), with the correlation ids
    /// compared first: a slot that took another request differs there, without a comparison of
    /// every field (the data's values among them). Equal ids go on to the whole comparison, so the
    /// answer is `==`'s.
    public static func sameRequest(_ seen: BridgeMessage?, _ now: BridgeMessage?) -> Bool {
        // Matched one at a time: a switch over the pair (or `== nil`, which is Optional's `==`)
        // copied both into a tuple on every look, idle slots included.
        if case .some(let seen) = seen {
            if case .some(let now) = now { return seen.correlationId == now.correlationId && seen == now }
            return false
        }
        if case .some = now { return false }
        return true
    }
}
