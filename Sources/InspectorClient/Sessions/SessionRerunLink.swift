import BridgeCore
import InspectorProtocol

/// How a ``SessionRerunDriver`` reaches a host: hands it a message as the journey would post it,
/// and reads what the host did. The command line's link is a subscribed ``InspectorSession``
/// (the agent's `inject` command and its events), so a rerun works with whatever host offers
/// `inject`: a native host, or an app seen through GBGBridge's public API with its journey page;
/// tests give a link of their own.
public protocol SessionRerunLink: AnyObject {
    /// Hands the host `message` as if the journey had posted it. Throws when the host refuses
    /// (the driver notes the refusal on the step and goes on).
    func inject(_ message: BridgeMessage) async throws
    /// Every frame the host's agent sent since the last call, without waiting. Throws when the
    /// host has gone (the rerun ends with that error).
    func availableFrames() async throws -> [AgentFrame]
}
