import BridgeCore
import Foundation

/// Describes a simulated native host: its identity, its two typed capture slots and its custom
/// capabilities. Read from a JSON file, strictly (unknown fields, wrong types and impossible values
/// are refused with the file, the place and what was expected), then applied to a ``BridgeHost``.
///
/// ```json
/// {
///   "name": "minimal",
///   "hostVersion": "1.0.0",
///   "slots": {"document": {"handler": "auto", "delayMs": 200}},
///   "customCapabilities": [{"id": "device.info", "behaviour": {"respond": {"status": "success"}}}]
/// }
/// ```
///
/// ```swift
/// let profile = try HostProfile.load(path: "examples/profiles/minimal.json")
/// let host = profile.makeHost()
/// ```
///
/// The format is described field by field in `docs/scenarios.md`.
public struct HostProfile: Sendable, Hashable {
    /// The host's name; the inspector shows it and the socket file is named after it.
    public var name: String
    /// A sentence about the profile, for people reading the file (optional).
    public var description: String?
    /// The version the host reports in `capability.query` and `host.ready`.
    public var hostVersion: String
    /// The environment reported to the journey and used in event ids (default `ios`).
    public var environment: String
    /// The cap on `receivedMessages` (default 200, the Android SDK's `MAX_RECEIVED_MESSAGES`).
    public var messageLogCap: Int
    /// The document capture slot (default: no handler).
    public var document: SlotProfile
    /// The selfie capture slot (default: no handler).
    public var selfie: SlotProfile
    /// Custom capabilities, registered in this order (default none).
    public var customCapabilities: [CustomCapabilityProfile]

    /// The fields allowed at the top of a profile.
    static let fields = ["name", "description", "hostVersion", "environment", "messageLogCap", "slots", "customCapabilities"]
    /// The longest name accepted.
    static let maximumNameLength = 64
    /// The default ``messageLogCap``: 200, as `BridgeHost.defaultMaxReceivedMessages`.
    public static let defaultMessageLogCap = 200

    /// Creates a profile; everything but the name and version has the documented default.
    public init(
        name: String, description: String? = nil, hostVersion: String, environment: String = "ios",
        messageLogCap: Int = HostProfile.defaultMessageLogCap, document: SlotProfile = SlotProfile(),
        selfie: SlotProfile = SlotProfile(), customCapabilities: [CustomCapabilityProfile] = []
    ) {
        self.name = name
        self.description = description
        self.hostVersion = hostVersion
        self.environment = environment
        self.messageLogCap = messageLogCap
        self.document = document
        self.selfie = selfie
        self.customCapabilities = customCapabilities
    }

    /// The profile for slot `kind`.
    public func slot(_ kind: CaptureCapability.Kind) -> SlotProfile {
        kind == .document ? document : selfie
    }

    // MARK: Reading

    /// Reads and validates the profile file at `path`.
    public static func load(path: String) throws(SimulationInputError) -> HostProfile {
        try parse(StrictJSON.read(path: path), file: path)
    }

    /// Validates a profile held in memory; `file` names it in error messages.
    public static func parse(_ data: Data, file: String) throws(SimulationInputError) -> HostProfile {
        try HostProfile(reading: StrictJSON.parse(data, file: file))
    }

    /// Validates a profile given as text; `file` names it in error messages.
    public static func parse(json: String, file: String) throws(SimulationInputError) -> HostProfile {
        try parse(Data(json.utf8), file: file)
    }

    init(reading value: StrictValue) throws(SimulationInputError) {
        let object = try value.object("a profile object with \"name\" and \"hostVersion\"", allowing: Self.fields)
        let nameValue = try object.required("name", "the host's name, such as \"demo\"")
        name = try nameValue.string("a non-empty host name")
        if name.count > Self.maximumNameLength || name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw nameValue.expected("a host name of at most \(Self.maximumNameLength) characters without control characters")
        }
        description = try object.optional("description")?.string("a string", allowEmpty: true)
        hostVersion = try object.required("hostVersion", "the version the host reports, such as \"1.0.0\"").string(
            "a non-empty version string such as \"1.0.0\"")
        environment = try object.optional("environment")?.string("a non-empty environment name such as \"ios\"") ?? "ios"
        messageLogCap = try object.optional("messageLogCap")?.integer("a number of messages", in: 0...1_000_000)
            ?? Self.defaultMessageLogCap
        document = SlotProfile()
        selfie = SlotProfile()
        if let slots = object.optional("slots") {
            guard case .object(let fields) = slots.value else {
                throw slots.expected("an object with \"document\" and/or \"selfie\"")
            }
            try StrictObject(fields: fields, path: slots.path, file: slots.file).allowOnly(["document", "selfie"], noun: "slot")
            if let field = fields["document"] {
                document = try SlotProfile(reading: StrictValue(value: field, path: slots.path.appending("document"), file: slots.file))
            }
            if let field = fields["selfie"] {
                selfie = try SlotProfile(reading: StrictValue(value: field, path: slots.path.appending("selfie"), file: slots.file))
            }
        }
        customCapabilities = []
        if let list = object.optional("customCapabilities") {
            var seen: [String: Int] = [:]
            for (index, element) in try list.array("an array of custom capabilities", nonEmpty: false).enumerated() {
                let capability = try CustomCapabilityProfile(reading: element)
                if let first = seen[capability.id] {
                    throw SimulationInputError(
                        file: element.file, place: element.path.appending("id").description,
                        message: "duplicate capability id \(StrictJSON.quoted(capability.id)); it is already defined at customCapabilities[\(first)]")
                }
                seen[capability.id] = index
                customCapabilities.append(capability)
            }
        }
    }

    // MARK: Applying

    /// Creates a host with this profile's `hostVersion` and applies the rest of the profile to it.
    /// The host's timers and the profile's delays run on `clock` and its times come from `now`:
    /// the real ones by default; tests pass a clock they move (TestSupport's `ManualClock`).
    @MainActor
    public func makeHost(clock: any Clock<Duration> = ContinuousClock(), now: @escaping @Sendable () -> Date = { Date() }) -> BridgeHost {
        let host = BridgeHost(hostVersion: hostVersion)
        host.clock = clock
        host.now = now
        apply(to: host)
        return host
    }

    /// Configures `host` as the profile describes: environment, message log cap, both slots and
    /// the custom capabilities. (`hostVersion` is fixed when a host is created; see
    /// ``makeHost(clock:now:)``.) Delays run on the host's clock (``BridgeCore/BridgeHost/clock``).
    @MainActor
    public func apply(to host: BridgeHost) {
        host.environment = environment
        host.maxReceivedMessages = messageLogCap
        document.apply(to: host.documentCapture, clock: host.clock)
        selfie.apply(to: host.selfieCapture, clock: host.clock)
        for capability in customCapabilities {
            capability.apply(to: host)
        }
    }
}
