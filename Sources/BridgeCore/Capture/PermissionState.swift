/// Whether the user has let the app use what a capability needs (the camera, for capture slots).
///
/// Reported to the web journey in the `capability.query` answer as `permissionState`, so it can
/// detect a permission problem before it asks for a capture (FAQ, "How does permission state work?").
/// A slot's default is ``notDetermined``.
public enum PermissionState: String, Codable, Sendable, CaseIterable {
    case granted
    case denied
    case notDetermined
    /// The user cannot grant access (parental controls, device management).
    case restricted
}
