/// The rules of the built-in `capability.query` answer, as pure functions of what a host offers:
/// its typed slots and its custom capabilities.
///
/// ``BridgeHost/capabilityAnswer()`` and ``BridgeHost/capabilityQueryData()`` answer with them,
/// and an inspector that knows a host's slots and custom capabilities (not the host itself)
/// works out with the same functions what the host would answer now, so the two cannot differ:
///
/// ```swift
/// let capabilities = CapabilityQueryAnswer.capabilities(
///     slots: [.init(capabilityId: "camera.document", version: "1.0", supported: true, permissionState: .granted)],
///     customCapabilities: [.init(id: "device.info", version: "1.0")])
/// let data = CapabilityQueryAnswer.data(environment: "ios", hostVersion: "1.0.0", capabilities: capabilities)
/// ```
///
/// The rules (FAQ, "What is the difference between typed slots and custom capabilities?"):
/// every custom capability is reported supported with its version; every typed slot is reported
/// with `supported` (a handler set and enabled), its version and `permissionState`; a slot wins
/// over a custom capability with the same id.
public enum CapabilityQueryAnswer {
    /// What the answer needs of one typed slot.
    public struct Slot: Sendable, Hashable {
        /// `camera.document` or `camera.selfie`.
        public var capabilityId: String
        /// The version reported.
        public var version: String
        /// Whether a handler is set and the slot is enabled.
        public var supported: Bool
        /// The permission reported.
        public var permissionState: PermissionState

        /// Creates a slot's description.
        public init(capabilityId: String, version: String, supported: Bool, permissionState: PermissionState) {
            self.capabilityId = capabilityId
            self.version = version
            self.supported = supported
            self.permissionState = permissionState
        }
    }

    /// What the answer needs of one custom capability.
    public struct Custom: Sendable, Hashable {
        /// The capability id (and action).
        public var id: String
        /// The version reported.
        public var version: String

        /// Creates a custom capability's description.
        public init(id: String, version: String) {
            self.id = id
            self.version = version
        }
    }

    /// The capabilities reported for `slots` and `customCapabilities`: each custom capability
    /// supported, then each slot over it (a slot shadows a custom capability with its id).
    public static func capabilities(slots: [Slot], customCapabilities: [Custom]) -> [String: BridgeCapabilityInfo] {
        var answer: [String: BridgeCapabilityInfo] = [:]
        for capability in customCapabilities {
            answer[capability.id] = BridgeCapabilityInfo(supported: true, version: capability.version)
        }
        for slot in slots {
            answer[slot.capabilityId] = BridgeCapabilityInfo(
                supported: slot.supported, version: slot.version, permissionState: slot.permissionState)
        }
        return answer
    }

    /// The `data` of the `capability.query` response:
    /// `{"environment": "ios", "hostVersion": "1.0.0", "capabilities": {id: {supported, version, permissionState?}}}`.
    public static func data(
        environment: String, hostVersion: String, capabilities: [String: BridgeCapabilityInfo]
    ) -> [String: JSONValue] {
        var reported: [String: JSONValue] = [:]
        for (id, info) in capabilities {
            var entry: [String: JSONValue] = ["supported": .bool(info.supported), "version": .string(info.version)]
            if let permission = info.permissionState { entry["permissionState"] = .string(permission.rawValue) }
            reported[id] = .object(entry)
        }
        return [
            "environment": .string(environment),
            "hostVersion": .string(hostVersion),
            "capabilities": .object(reported),
        ]
    }
}
