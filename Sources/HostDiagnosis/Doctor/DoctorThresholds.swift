import InspectorClient

/// The limits the doctor judges by. The defaults follow GBGBridge's documentation where it gives
/// a number (the web SDK's timeouts, the Android SDK's leak threshold); the rest are ours, and
/// `bridge-inspector doctor` lets a person change them.
///
/// ```swift
/// var thresholds = DoctorThresholds()
/// thresholds.busyMs = 2_000
/// let report = Doctor(thresholds: thresholds).examine(state, hostNow: now)
/// ```
public struct DoctorThresholds: Sendable, Hashable {
    /// How long the journey waits for an answer (5 s for `capability.query`, 30 s otherwise).
    public var journeyTimeouts = JourneyTimeouts.webSDK
    /// A slot busy for longer than this is stuck (default 10 s: longer than a capture takes,
    /// shorter than the web SDK's 30 s request timeout).
    public var busyMs = 10_000.0
    /// A journey attached for this long without sending anything is silent (default 10 s; the
    /// web SDK's first call, `discoverCapabilities()`, comes at once).
    public var silentMs = 10_000.0
    /// Messages larger than this are large payloads (default 1 MiB).
    public var largePayloadBytes = ProtocolLinter.largePayloadBytes
    /// More pending requests than this is a leak (default 50, GBGBridge Android's
    /// `PENDING_REQUEST_LEAK_THRESHOLD`; BridgeCore warns in `lastError` past it too).
    public var pendingLeak = 50
    /// A host without a cap on `receivedMessages` holding more than this is accumulating
    /// (default 1,000).
    public var accumulation = 1_000
    /// At most this many items of evidence per check.
    public var evidenceLimit = 5

    /// The defaults.
    public init() {}
}
