/// Why the simulated journey refused a delivery (reported by the host as `evaluateJavaScript failed: ...`).
public enum SimulatedJourneyError: Error, Sendable, CustomStringConvertible {
    /// The script was not a `window.GBGBridge.receive(...)` call.
    case notADeliveryScript
    /// The argument of `receive(...)` was not a bridge message.
    case undecodable(String)

    /// A sentence saying what was wrong with the delivery.
    public var description: String {
        switch self {
        case .notADeliveryScript: return "the script is not a window.GBGBridge.receive(...) call"
        case .undecodable(let reason): return "receive() was given something that is not a bridge message: \(reason)"
        }
    }
}
