import Foundation

/// What a capture slot's handler returns; the host encodes it into the response for you.
///
/// ```swift
/// host.documentCapture.handler = { request in
///     .document(DocumentCaptureResult(imageData: jpeg, width: 1920, height: 1080, mimeType: "image/jpeg"))
/// }
/// ```
///
/// A success is sent as status `success` with `{imageBase64, imageWidth, imageHeight, mimeType}`
/// (Two-Way Communication example); `.cancelled(reason:)` as status `cancelled` with a `CANCELLED`
/// error carrying the reason; `.failure(_)` as status `error` with the given error.
public enum CaptureResult: Sendable, Hashable {
    /// A captured document image.
    case document(DocumentCaptureResult)
    /// A captured selfie image.
    case selfie(SelfieCaptureResult)
    /// The user or the app cancelled the capture.
    case cancelled(reason: String)
    /// The capture failed, for example `PERMISSION_DENIED`.
    case failure(BridgeErrorPayload)
}

/// A captured document image: the documented `DocumentCaptureResult(imageData:width:height:mimeType:)`.
public struct DocumentCaptureResult: Sendable, Hashable {
    /// The encoded image bytes (sent as base64).
    public var imageData: Data
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// The image's media type, such as `image/jpeg`.
    public var mimeType: String

    /// Creates a result; the labels match the GBGBridge documentation.
    public init(imageData: Data, width: Int, height: Int, mimeType: String) {
        self.imageData = imageData
        self.width = width
        self.height = height
        self.mimeType = mimeType
    }
}

/// A captured selfie image; the same shape as a document result.
public struct SelfieCaptureResult: Sendable, Hashable {
    /// The encoded image bytes (sent as base64).
    public var imageData: Data
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// The image's media type, such as `image/jpeg`.
    public var mimeType: String

    /// Creates a result.
    public init(imageData: Data, width: Int, height: Int, mimeType: String) {
        self.imageData = imageData
        self.width = width
        self.height = height
        self.mimeType = mimeType
    }
}

extension CaptureResult {
    /// The response this result becomes: status, data and error.
    public var response: (status: BridgeResponseStatus, data: [String: JSONValue]?, error: BridgeErrorPayload?) {
        switch self {
        case .document(let image):
            return (.success, Self.imageData(image.imageData, image.width, image.height, image.mimeType), nil)
        case .selfie(let image):
            return (.success, Self.imageData(image.imageData, image.width, image.height, image.mimeType), nil)
        case .cancelled(let reason):
            return (.cancelled, nil, BridgeErrorPayload(code: BridgeErrorCode.cancelled.rawValue, message: reason, recoverable: true))
        case .failure(let error):
            return (.error, nil, error)
        }
    }

    private static func imageData(_ data: Data, _ width: Int, _ height: Int, _ mimeType: String) -> [String: JSONValue] {
        [
            "imageBase64": .string(data.base64EncodedString()),
            "imageWidth": .number(Double(width)),
            "imageHeight": .number(Double(height)),
            "mimeType": .string(mimeType),
        ]
    }
}
