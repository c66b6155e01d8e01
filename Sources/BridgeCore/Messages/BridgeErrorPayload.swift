/// The error object of a response: `payload.error` on the wire.
///
/// ```swift
/// responder.respond(status: .error, data: nil, error: BridgeErrorPayload(
///     code: "INVALID_PARAMS",
///     message: "Missing or invalid 'side' parameter. Expected 'front' or 'back'.",
///     recoverable: true))
/// ```
///
/// `code` is an open string: use one of ``BridgeErrorCode`` when it fits (the web SDK understands
/// those), or a code of your own such as `CAMERA_DENIED`.
public struct BridgeErrorPayload: Codable, Sendable, Hashable {
    /// A machine-readable code, such as `BUSY` or `PERMISSION_DENIED`.
    public var code: String
    /// A sentence for a person. It reaches the web journey, so keep internal details out of it.
    public var message: String
    /// Whether the journey may retry or offer the user another go.
    public var recoverable: Bool

    /// Creates an error payload; the argument labels match the GBGBridge documentation.
    public init(code: String, message: String, recoverable: Bool) {
        self.code = code
        self.message = message
        self.recoverable = recoverable
    }
}

/// The error codes the web-side SDK understands, with the `recoverable` flag it expects for each.
///
/// ```swift
/// let busy = BridgeErrorCode.busy.payload()   // BUSY, "Another native operation is in progress", recoverable
/// ```
public enum BridgeErrorCode: String, Sendable, CaseIterable {
    case unsupported = "UNSUPPORTED"
    case permissionDenied = "PERMISSION_DENIED"
    case cancelled = "CANCELLED"
    case timeout = "TIMEOUT"
    case busy = "BUSY"
    case invalidRequest = "INVALID_REQUEST"
    case internalError = "INTERNAL_ERROR"
    case versionMismatch = "VERSION_MISMATCH"

    /// Whether the web SDK treats an error with this code as recoverable.
    public var isRecoverable: Bool {
        switch self {
        case .permissionDenied, .cancelled, .timeout, .busy: return true
        case .unsupported, .invalidRequest, .internalError, .versionMismatch: return false
        }
    }

    /// A default sentence for the code, used when the caller gives none.
    public var defaultMessage: String {
        switch self {
        case .unsupported: return "This capability is not supported by the host"
        case .permissionDenied: return "Permission was denied"
        case .cancelled: return "The operation was cancelled"
        case .timeout: return "The operation timed out"
        case .busy: return "Another native operation is in progress"
        case .invalidRequest: return "The request is invalid"
        case .internalError: return "An internal error occurred in the host"
        case .versionMismatch: return "The bridge protocol versions do not match"
        }
    }

    /// An error payload with this code, the given (or default) message and the SDK's recoverable flag.
    public func payload(message: String? = nil) -> BridgeErrorPayload {
        BridgeErrorPayload(code: rawValue, message: message ?? defaultMessage, recoverable: isRecoverable)
    }
}
