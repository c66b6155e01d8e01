import Foundation
import GBGBridge

/// A permission state, as the inspector names it; GBG's cases are matched by name, so a case the
/// docs do not list (say `restricted`) is still read.
public enum GBGPermission: String, Sendable {
    case granted, denied, notDetermined, restricted
}

/// One of GBG's typed slots (`CaptureCapability`) seen through plain values.
@MainActor
public final class GBGSlotLink {
    private let slot: CaptureCapability

    init(_ slot: CaptureCapability) {
        self.slot = slot
    }

    /// `handler != nil`.
    public var hasHandler: Bool { slot.handler != nil }
    /// `isSupported`.
    public var isSupported: Bool { slot.isSupported }
    /// `isEnabled`.
    public var isEnabled: Bool {
        get { slot.isEnabled }
        set { slot.isEnabled = newValue }
    }
    /// `activeRequest`, as JSON.
    public var activeRequest: Data? { slot.activeRequest.map(GBGMessageJSON.encode) }

    /// `permissionState`, read by its case name. Setting `.restricted`, which GBG's docs do not
    /// list, sets `.denied` (the user cannot grant access either way).
    public var permission: GBGPermission {
        get { GBGPermission(rawValue: String(describing: slot.permissionState)) ?? .notDetermined }
        set {
            switch newValue {
            case .granted: slot.permissionState = .granted
            case .denied, .restricted: slot.permissionState = .denied
            case .notDetermined: slot.permissionState = .notDetermined
            }
        }
    }

    /// `complete(.document(DocumentCaptureResult(imageData:width:height:mimeType:)))`, the one
    /// image result GBG documents.
    public func completeWithDocument(imageData: Data, width: Int, height: Int, mimeType: String) {
        // `.init(gbgPixels:)` builds whichever number type the initializer takes (Int or CGFloat).
        slot.complete(.document(DocumentCaptureResult(
            imageData: imageData, width: .init(gbgPixels: width), height: .init(gbgPixels: height), mimeType: mimeType)))
    }

    /// `complete(.cancelled(reason:))`.
    public func cancel(reason: String) {
        slot.complete(.cancelled(reason: reason))
    }
}

// Image sizes: GBG's docs show literals only (`width: 1920`), which fit any number type.
extension Int {
    init(gbgPixels: Int) { self = gbgPixels }
}

extension Double {
    init(gbgPixels: Int) { self.init(gbgPixels) }
}

extension Float {
    init(gbgPixels: Int) { self.init(gbgPixels) }
}

extension CGFloat {
    init(gbgPixels: Int) { self.init(gbgPixels) }
}
