import Foundation

/// Tells whether a camera is available and what permission the app has, to copy onto a slot:
///
/// ```swift
/// let camera = CameraDetector.check()
/// host.documentCapture.permissionState = camera.permissionState
/// ```
///
/// On iOS GBGBridge asks AVFoundation. Away from iOS there is no camera API, so this reports what
/// the environment says: `BRIDGE_CAMERA=granted|denied|notDetermined|restricted|none`
/// (`none` meaning no camera), and otherwise no camera with permission not determined.
public enum CameraDetector {
    /// The result of a check.
    public struct Result: Sendable, Hashable {
        /// Whether a camera exists.
        public var isAvailable: Bool
        /// The app's camera permission.
        public var permissionState: PermissionState

        /// Creates a result.
        public init(isAvailable: Bool, permissionState: PermissionState) {
            self.isAvailable = isAvailable
            self.permissionState = permissionState
        }
    }

    /// Checks camera availability and permission (see the type's notes for non-iOS platforms).
    public static func check(environment: [String: String] = ProcessInfo.processInfo.environment) -> Result {
        guard let value = environment["BRIDGE_CAMERA"] else {
            return Result(isAvailable: false, permissionState: .notDetermined)
        }
        if value == "none" { return Result(isAvailable: false, permissionState: .denied) }
        if let state = PermissionState(rawValue: value) { return Result(isAvailable: true, permissionState: state) }
        return Result(isAvailable: false, permissionState: .notDetermined)
    }
}
