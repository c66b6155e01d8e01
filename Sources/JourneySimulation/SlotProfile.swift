import BridgeCore
import Foundation

/// How a simulated host sets up one typed capture slot (`document` or `selfie`).
///
/// ```json
/// "document": {"handler": "auto", "delayMs": 800, "width": 1920, "height": 1080,
///              "mimeType": "image/jpeg", "imageBytes": 100, "permissionState": "granted"}
/// ```
public struct SlotProfile: Sendable, Hashable {
    /// What answers the slot's capture requests.
    public enum Handler: String, Sendable, Hashable, CaseIterable {
        /// A handler that waits ``SlotProfile/delayMs`` and returns a synthetic image.
        case auto
        /// A handler that suspends in `awaitCompletion()` until the capture is completed from
        /// outside (by the inspector), the way a camera UI holds the slot busy.
        case manual
        /// No handler: the slot is unsupported and its requests go to `pendingRequests`.
        case none
    }

    /// What answers the slot's requests (default ``Handler/none``).
    public var handler: Handler
    /// Whether the slot is enabled (default `true`); a disabled slot is unsupported.
    public var enabled: Bool
    /// The camera permission reported in `capability.query` (default `notDetermined`, as on iOS).
    public var permissionState: PermissionState
    /// The version reported in `capability.query` (default `"1.0"`).
    public var version: String
    /// For ``Handler/auto``: milliseconds before the result is returned (default 1,000).
    public var delayMs: Int
    /// For ``Handler/auto``: the image width in pixels (default 1,920).
    public var width: Int
    /// For ``Handler/auto``: the image height in pixels (default 1,080).
    public var height: Int
    /// For ``Handler/auto``: the image's media type (default `image/jpeg`).
    public var mimeType: String
    /// For ``Handler/auto``: how many bytes of synthetic image data to send (default 100).
    public var imageBytes: Int

    /// The fields a slot object may have.
    static let fields = ["handler", "enabled", "permissionState", "version", "delayMs", "width", "height", "mimeType", "imageBytes"]
    /// The fields only an `auto` handler uses.
    static let autoOnlyFields = ["delayMs", "width", "height", "mimeType", "imageBytes"]
    /// The longest delay accepted, one hour.
    static let maximumDelayMs = 3_600_000
    /// The largest synthetic image, 16 MiB.
    static let maximumImageBytes = 16 * 1024 * 1024

    /// Creates a slot profile; every argument has the documented default.
    public init(
        handler: Handler = .none, enabled: Bool = true, permissionState: PermissionState = .notDetermined,
        version: String = "1.0", delayMs: Int = 1_000, width: Int = 1_920, height: Int = 1_080,
        mimeType: String = "image/jpeg", imageBytes: Int = 100
    ) {
        self.handler = handler
        self.enabled = enabled
        self.permissionState = permissionState
        self.version = version
        self.delayMs = delayMs
        self.width = width
        self.height = height
        self.mimeType = mimeType
        self.imageBytes = imageBytes
    }

    /// Reads a slot object strictly.
    init(reading value: StrictValue) throws(SimulationInputError) {
        let object = try value.object("an object describing the slot", allowing: Self.fields)
        self.init()
        if let field = object.optional("handler") {
            handler = Handler(rawValue: try field.choice(Handler.allCases.map(\.rawValue))) ?? .none
        }
        if handler != .auto {
            for key in Self.autoOnlyFields where object.has(key) {
                throw SimulationInputError(
                    file: value.file, place: value.path.appending(key).description,
                    message: "\(StrictJSON.quoted(key)) is only used when \"handler\" is \"auto\" (this slot's handler is \(StrictJSON.quoted(handler.rawValue))); remove it or set \"handler\": \"auto\"")
            }
        }
        if let field = object.optional("enabled") { enabled = try field.bool() }
        if let field = object.optional("permissionState") {
            permissionState = PermissionState(rawValue: try field.choice(PermissionState.allCases.map(\.rawValue))) ?? .notDetermined
        }
        if let field = object.optional("version") { version = try field.string("a non-empty version string such as \"1.0\"") }
        if let field = object.optional("delayMs") {
            delayMs = try field.integer("a whole number of milliseconds", in: 0...Self.maximumDelayMs)
        }
        if let field = object.optional("width") { width = try field.integer("a width in pixels", in: 1...100_000) }
        if let field = object.optional("height") { height = try field.integer("a height in pixels", in: 1...100_000) }
        if let field = object.optional("mimeType") { mimeType = try field.string("a media type such as \"image/jpeg\"") }
        if let field = object.optional("imageBytes") {
            imageBytes = try field.integer("a size in bytes", in: 0...Self.maximumImageBytes)
        }
    }

    /// Sets up `slot` as this profile describes: handler, enablement, permission and version.
    /// An `auto` handler's delay runs on `clock`: the host's clock when a ``HostProfile`` applies
    /// it (``BridgeCore/BridgeHost/clock``), the continuous clock by default.
    @MainActor
    public func apply(to slot: CaptureCapability, clock: any Clock<Duration> = ContinuousClock()) {
        slot.isEnabled = enabled
        slot.permissionState = permissionState
        slot.version = version
        switch handler {
        case .none:
            slot.handler = nil
        case .manual:
            slot.handler = { [weak slot] _ in
                guard let slot else { return .cancelled(reason: "The host was shut down") }
                return await slot.awaitCompletion()
            }
        case .auto:
            let result = syntheticResult(for: slot.kind)
            let delay = delayMs
            slot.handler = { _ in
                if delay > 0 { try? await clock.sleep(for: .milliseconds(delay)) }
                return result
            }
        }
    }

    /// The result an `auto` handler returns for a slot of `kind`: `imageBytes` bytes of 0xFF
    /// described as a `width`×`height` image of `mimeType`.
    public func syntheticResult(for kind: CaptureCapability.Kind) -> CaptureResult {
        let data = Data(repeating: 0xFF, count: imageBytes)
        switch kind {
        case .document:
            return .document(DocumentCaptureResult(imageData: data, width: width, height: height, mimeType: mimeType))
        case .selfie:
            return .selfie(SelfieCaptureResult(imageData: data, width: width, height: height, mimeType: mimeType))
        }
    }
}
