/// How one capability is reported in the `capability.query` answer when the host is built with
/// ``BridgeHost/init(configuration:)``.
///
/// ```swift
/// BridgeConfiguration(hostVersion: "1.0.0", capabilities: [
///     "camera.document": BridgeCapabilityInfo(supported: true, version: "1.0", permissionState: .granted),
///     "nfc": BridgeCapabilityInfo(supported: false, version: "1.0"),
/// ])
/// ```
public struct BridgeCapabilityInfo: Codable, Sendable, Hashable {
    /// Whether the host can serve the capability now.
    public var supported: Bool
    /// The capability's version, such as `"1.0"`.
    public var version: String
    /// The permission the capability depends on; `nil` (the default) leaves it out of the answer.
    public var permissionState: PermissionState?

    /// Creates a capability description.
    public init(supported: Bool, version: String, permissionState: PermissionState? = nil) {
        self.supported = supported
        self.version = version
        self.permissionState = permissionState
    }
}
