/// A fixed description of the host for ``BridgeHost/init(configuration:)``.
///
/// With this initializer the built-in `capability.query` handler reports exactly
/// `capabilities` as given here, read through a closure fixed at initialization
/// (Troubleshooting, "Capability Query Returns Unexpected Results"; FAQ, "Can I change
/// capabilities after initialization?"). For answers that follow the typed slots, use
/// ``BridgeHost/init(hostVersion:)`` instead.
public struct BridgeConfiguration: Sendable {
    /// The host's version, reported as `hostVersion`.
    public var hostVersion: String
    /// The capabilities to report, keyed by capability id.
    public var capabilities: [String: BridgeCapabilityInfo]
    /// The script a WebView injects at document start (main frame only).
    public var bootstrapScript: String

    /// The documented default bootstrap: defines the `window.GBGBridge` namespace and a no-op `receive`.
    public static let defaultBootstrapScript = """
        window.GBGBridge = window.GBGBridge || {};
        window.GBGBridge.receive = window.GBGBridge.receive || function(){};
        """

    /// Creates a configuration; the labels match the GBGBridge documentation.
    public init(
        hostVersion: String,
        capabilities: [String: BridgeCapabilityInfo] = [:],
        bootstrapScript: String = BridgeConfiguration.defaultBootstrapScript
    ) {
        self.hostVersion = hostVersion
        self.capabilities = capabilities
        self.bootstrapScript = bootstrapScript
    }
}
