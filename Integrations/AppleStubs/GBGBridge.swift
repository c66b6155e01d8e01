// Interface stub of GBG's GBGBridge (the closed XCFramework of
// https://github.com/gbgplc/gbg-go-ios-sdk, tag ios-bridge-v1.0.0), written from GBG's
// documentation only: the iOS troubleshooting, two-way messaging example, security and FAQ
// pages (shared/seeds/) and the API reference facts in shared/reference/gbgbridge-facts.md.
// Where the docs leave a point open there is a compile-time switch (README.md lists them); the
// type-check compiles everything under each reading. Never shipped.
//
// Stricter than the real thing where unsure: no type here is Sendable, and only the members the
// docs show exist.
import Combine
import Foundation
import SwiftUI
import UIKit
import WebKit

#if GBG_TYPE_NAMED_LIKE_MODULE
/// A reading: the module also has a type named like it, so `GBGBridge.BridgeHost` would look
/// for a member of this type, not the module's `BridgeHost`.
public enum GBGBridge {
    public static let version = "1.0.0"
}
#endif

// MARK: - Values

/// FAQ and Messaging pages: JSON values in `payload.data` (`.string`, `.number(Double)` shown).
public enum JSONValue: Equatable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case object([String: JSONValue])
    case array([JSONValue])
    case null
}
#if GBG_MESSAGE_DECODABLE_ONLY
extension JSONValue: Decodable {
    public init(from decoder: any Decoder) throws { fatalError("stub") }
}
#else
extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws { fatalError("stub") }
    public func encode(to encoder: any Encoder) throws { fatalError("stub") }
}
#endif

/// Troubleshooting page, Message Decoding Failures: `type` is one of request, response, event.
public enum MessageType: String {
    case request, response, event
}

/// Troubleshooting page: "payload (with at least action)"; Security page: `payload.data?["side"]`.
public struct BridgeMessagePayload {
    public var action: String
    public var data: [String: JSONValue]?
}

/// Troubleshooting page: `message.type.rawValue`, `message.payload.action`, `message.correlationId`.
public struct BridgeMessage {
    public let version: String
    public let correlationId: String
    public let type: MessageType
    public let timestamp: Double
    public let payload: BridgeMessagePayload
}
#if GBG_MESSAGE_DECODABLE_ONLY
extension BridgeMessage: Decodable {
    public init(from decoder: any Decoder) throws { fatalError("stub") }
}
#else
extension BridgeMessage: Codable {
    public init(from decoder: any Decoder) throws { fatalError("stub") }
    public func encode(to encoder: any Encoder) throws { fatalError("stub") }
}
#endif

/// Two-way example: `BridgeErrorPayload(code:message:recoverable:)`.
public struct BridgeErrorPayload {
    public init(code: String, message: String, recoverable: Bool) { fatalError("stub") }
}

// Only the reading's own names exist (no alias the checked code could lean on).
#if GBG_STATUS_RESPONSE_STATUS
/// A reading: the status type has another name.
public enum ResponseStatus { case success, error, cancelled, unsupported }
#else
/// Two-way example: `.success`, `.error`, `.cancelled`, `.unsupported` (the type's name is not shown).
public enum BridgeResponseStatus { case success, error, cancelled, unsupported }
#endif

/// Two-way example: `responder.respond(status:data:error:)` in a custom capability.
public final class BridgeResponder {
    #if GBG_STATUS_RESPONSE_STATUS
    public func respond(status: ResponseStatus, data: [String: JSONValue]?, error: BridgeErrorPayload?) { fatalError("stub") }
    #else
    public func respond(status: BridgeResponseStatus, data: [String: JSONValue]?, error: BridgeErrorPayload?) { fatalError("stub") }
    #endif
}

// MARK: - Typed slots

#if GBG_PERMISSION_MORE_CASES
public enum PermissionState { case granted, denied, notDetermined, restricted }
#else
/// API reference: `permissionState` cases granted, denied, notDetermined.
public enum PermissionState { case granted, denied, notDetermined }
#endif

/// Two-way example: `DocumentCaptureResult(imageData:width:height:mimeType:)`.
public struct DocumentCaptureResult {
    #if GBG_IMAGE_SIZE_CGFLOAT
    public init(imageData: Data, width: CGFloat, height: CGFloat, mimeType: String) { fatalError("stub") }
    #else
    public init(imageData: Data, width: Int, height: Int, mimeType: String) { fatalError("stub") }
    #endif
}

#if GBG_CAPTURE_MORE_CASES
public struct SelfieCaptureResult {
    public init(imageData: Data, width: Int, height: Int, mimeType: String) { fatalError("stub") }
}
public enum CaptureResult {
    case document(DocumentCaptureResult)
    case selfie(SelfieCaptureResult)
    case cancelled(reason: String)
    case failure(BridgeErrorPayload)
}
#else
/// Two-way example and troubleshooting page: `.document(...)`, `.cancelled(reason:)`.
public enum CaptureResult {
    case document(DocumentCaptureResult)
    case cancelled(reason: String)
}
#endif

/// FAQ: a typed slot (`host.documentCapture`, `host.selfieCapture`).
@MainActor
public final class CaptureCapability {
    public var handler: ((BridgeMessage) async -> CaptureResult)?
    public var isEnabled: Bool
    public var permissionState: PermissionState
    public var isSupported: Bool { fatalError("stub") }
    public private(set) var activeRequest: BridgeMessage?
    public func complete(_ result: CaptureResult) { fatalError("stub") }
    public func awaitCompletion() async -> CaptureResult { fatalError("stub") }
    init() { fatalError("stub") }
}

// MARK: - The host

#if GBG_DELEGATE_NONISOLATED
/// A reading: a plain protocol (the seed's MessageLogger marks itself @MainActor).
public protocol BridgeHostDelegate: AnyObject {
    func bridgeHost(_ host: BridgeHost, didReceive message: BridgeMessage)
    func bridgeHost(_ host: BridgeHost, unhandledRequest message: BridgeMessage)
    #if GBG_DELEGATE_EXTRA_REQUIREMENTS
    func bridgeHost(_ host: BridgeHost, didFailWith error: String)
    #endif
}
#else
/// Two-way example: `bridgeHost(_:didReceive:)`, `bridgeHost(_:unhandledRequest:)`.
@MainActor
public protocol BridgeHostDelegate: AnyObject {
    func bridgeHost(_ host: BridgeHost, didReceive message: BridgeMessage)
    func bridgeHost(_ host: BridgeHost, unhandledRequest message: BridgeMessage)
    #if GBG_DELEGATE_EXTRA_REQUIREMENTS
    func bridgeHost(_ host: BridgeHost, didFailWith error: String)
    #endif
}
#endif

#if GBG_DELEGATE_EXTRA_REQUIREMENTS
extension BridgeHostDelegate {
    public func bridgeHost(_ host: BridgeHost, didFailWith error: String) {}
}
#endif

/// API reference: `@MainActor open class BridgeHost: NSObject, ObservableObject, WKScriptMessageHandler`.
@MainActor
open class BridgeHost: NSObject, ObservableObject, WKScriptMessageHandler {
    public convenience init(hostVersion: String) { fatalError("stub") }
    /// API reference: `init(configuration:)` (its `BridgeConfiguration` is not needed here).
    init(stubConfiguration: Void) { fatalError("stub") }
    @Published public private(set) var lastError: String?
    @Published public private(set) var receivedMessages: [BridgeMessage]
    @Published public private(set) var pendingRequests: [BridgeMessage]
    public weak var delegate: (any BridgeHostDelegate)?
    public let documentCapture: CaptureCapability
    public let selfieCapture: CaptureCapability

    #if GBG_STATUS_RESPONSE_STATUS
    public func respond(to correlationId: String, status: ResponseStatus, data: [String: JSONValue]? = nil, error: BridgeErrorPayload? = nil) {
        fatalError("stub")
    }
    #else
    public func respond(to correlationId: String, status: BridgeResponseStatus, data: [String: JSONValue]? = nil, error: BridgeErrorPayload? = nil) {
        fatalError("stub")
    }
    #endif
    #if GBG_SEND_DATA_OPTIONAL
    public func send(event: String, data: [String: JSONValue]? = nil) { fatalError("stub") }
    #else
    public func send(event: String, data: [String: JSONValue]) { fatalError("stub") }
    #endif
    public func registerCustomCapability(
        _ action: String, version: String, handler: @escaping (BridgeMessage, BridgeResponder) async -> Void
    ) { fatalError("stub") }

    public func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage) {
        fatalError("stub")
    }
}

/// Two-way example: `BridgeWebView(url:host:)`, the SwiftUI view that owns the WKWebView.
public struct BridgeWebView: View {
    public init(url: URL, host: BridgeHost) { fatalError("stub") }
    public var body: Never { fatalError("stub") }
}

/// Troubleshooting page: `BridgeWebViewConfigurator.configure(_:host:)`.
@MainActor
public enum BridgeWebViewConfigurator {
    public static func configure(_ configuration: WKWebViewConfiguration, host: BridgeHost) { fatalError("stub") }
}
