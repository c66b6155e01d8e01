/// Something an inspector can ask of a host, or see of it, that not every host offers.
///
/// A host embedding this project's `BridgeCore` offers all of them (it lives here, below the
/// inspector's modules, so that every library product can name it). An app embedding GBG's
/// GBGBridge is seen through its public API, which cannot clear `lastError` or the message log,
/// and cannot show input that failed to decode. The agent lists what its host cannot do in the
/// handshake (the `unsupported` member of its hello, with a reason for each), refuses those commands with
/// the `unsupported` error code, and clients grey out or explain what is missing.
public enum HostFeature: String, Sendable, CaseIterable, Codable {
    /// Answer a pending request (`respond`).
    case respond
    /// Send a host event (`sendEvent`).
    case sendEvent
    /// Complete or cancel a capture slot's active request.
    case completeSlot
    /// Enable or disable a capture slot.
    case setSlotEnabled
    /// Set a capture slot's permission state.
    case setSlotPermission
    /// Clear `lastError`.
    case clearError
    /// Clear the message log.
    case clearLog
    /// See input from the journey that failed to decode (beyond `lastError`'s text).
    case malformedInput
    /// See custom capabilities.
    case customCapabilities
    /// Hold messages at breakpoints, and release, answer or drop them.
    case intercept
    /// Hand the host a message as if the journey had sent it.
    case inject
    /// Detach and re-attach the journey's web view, or reload its page (the `journey` command):
    /// only a host whose embedding process gave the agent a journey control offers it.
    case journeyControl
    /// Fault the host's real handling with fault rules (`addFault`, `removeFault`).
    case faults

    /// The `inspection` value of a host seen through BridgeCore's own change stream.
    public static let nativePath = "native"
    /// The `inspection` value of an app seen through GBGBridge's public API.
    public static let publicAPIPath = "public-api"
}
