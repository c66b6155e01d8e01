import BridgeCore

extension InspectorCommand {
    /// The feature this command needs, or `nil` for those every host supports (`snapshot`, `ping`).
    public var feature: HostFeature? {
        switch self {
        case .respond: return .respond
        case .sendEvent: return .sendEvent
        case .completeSlot, .cancelSlot: return .completeSlot
        case .setSlotEnabled: return .setSlotEnabled
        case .setSlotPermission: return .setSlotPermission
        case .clearError: return .clearError
        case .clearLog: return .clearLog
        case .addBreakpoint, .removeBreakpoint, .release, .answer, .drop: return .intercept
        case .inject: return .inject
        case .journey: return .journeyControl
        case .addFault, .removeFault: return .faults
        case .snapshot, .ping: return nil
        }
    }
}
