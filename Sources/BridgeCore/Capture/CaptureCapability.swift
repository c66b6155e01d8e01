import Foundation

/// A typed capture slot: `host.documentCapture` or `host.selfieCapture`.
///
/// A slot answers its action (`camera.document.capture`, `camera.selfie.capture`) with the
/// ``CaptureResult`` its handler returns, encoded for you. While a request is active, another
/// request for the same slot is answered at once with a recoverable `BUSY` error and the active
/// one is left alone (Troubleshooting, "Typed Slot Returns BUSY Error").
///
/// Automatic flow, the handler returns a result:
///
/// ```swift
/// host.documentCapture.handler = { request in
///     .document(DocumentCaptureResult(imageData: data, width: 1920, height: 1080, mimeType: "image/jpeg"))
/// }
/// ```
///
/// UI-driven flow, the handler waits for the camera UI to call ``complete(_:)``:
///
/// ```swift
/// host.documentCapture.handler = { [weak host] request in
///     showCamera = true
///     return await host?.documentCapture.awaitCompletion() ?? .cancelled(reason: "Host gone")
/// }
/// // later, from the camera UI or its onDismiss:
/// host.documentCapture.complete(.cancelled(reason: "Dismissed"))
/// ```
///
/// Without a handler, or while disabled, the slot's requests go to `pendingRequests` and the
/// slot is reported unsupported (Troubleshooting, "Handler Not Called for Requests").
@MainActor
public final class CaptureCapability {
    /// Which slot this is.
    public enum Kind: String, Sendable, CaseIterable, Codable {
        case document
        case selfie

        /// The capability id reported in `capability.query`: `camera.document` or `camera.selfie`.
        public var capabilityId: String { "camera.\(rawValue)" }
        /// The request action this slot answers: `camera.document.capture` or `camera.selfie.capture`.
        public var action: String { "camera.\(rawValue).capture" }
    }

    /// The signature of a slot handler: runs on the main actor and returns the capture's result.
    public typealias Handler = @MainActor (BridgeMessage) async -> CaptureResult

    /// Which slot this is.
    public let kind: Kind
    /// The capability id, such as `camera.document`.
    public var capabilityId: String { kind.capabilityId }
    /// The action this slot answers, such as `camera.document.capture`.
    public var action: String { kind.action }
    /// The version reported for the slot in `capability.query`.
    public var version: String = "1.0" { didSet { changed() } }

    /// The code that performs a capture. `nil` means the slot is unsupported and its requests
    /// go to `pendingRequests`.
    public var handler: Handler? { didSet { changed() } }
    /// Whether the slot accepts requests; a disabled slot is unsupported.
    public var isEnabled: Bool = true { didSet { changed() } }
    /// The camera permission, reported in `capability.query` (default `.notDetermined`).
    public var permissionState: PermissionState = .notDetermined { didSet { changed() } }
    /// `handler != nil && isEnabled`.
    public var isSupported: Bool { handler != nil && isEnabled }

    /// The request being served, or `nil` when idle. The host sets it when a request starts and
    /// clears it when the request is answered. Assigning it is allowed for code written against
    /// GBGBridge, whose examples set it from the handler.
    public var activeRequest: BridgeMessage? {
        didSet {
            if activeRequest?.correlationId != oldValue?.correlationId {
                activeSince = activeRequest == nil ? nil : host?.now()
            }
            changed()
        }
    }
    /// When the active request started, or `nil` when idle.
    public private(set) var activeSince: Date?

    weak var host: BridgeHost?
    private var waiters: [CheckedContinuation<CaptureResult, Never>] = []

    init(kind: Kind) {
        self.kind = kind
    }

    /// Ends the active request with `result`: the result is encoded and sent, the slot becomes idle,
    /// and a handler suspended in ``awaitCompletion()`` resumes with the same result.
    ///
    /// Returns `false`, sending nothing, when the slot is idle.
    @discardableResult
    public func complete(_ result: CaptureResult) -> Bool {
        guard let request = activeRequest else { return false }
        activeRequest = nil
        host?.sendCaptureResponse(to: request, result: result)
        let resumed = waiters
        waiters.removeAll()
        for waiter in resumed { waiter.resume(returning: result) }
        return true
    }

    /// Suspends until ``complete(_:)`` is called, and returns the result it was given.
    ///
    /// Call it from the handler in the UI-driven flow. When the slot is idle it returns a
    /// cancellation at once, so a handler never waits for a request that no longer exists.
    public func awaitCompletion() async -> CaptureResult {
        guard activeRequest != nil else { return .cancelled(reason: "No active request") }
        return await withCheckedContinuation { continuation in
            waiters.append(continuation)
        }
    }

    /// A value copy of the slot's state, for observers and inspectors.
    public var state: CaptureSlotState {
        CaptureSlotState(
            kind: kind, capabilityId: capabilityId, action: action, version: version, hasHandler: handler != nil,
            isEnabled: isEnabled, isSupported: isSupported, permissionState: permissionState,
            activeRequest: activeRequest, activeSince: activeSince)
    }

    private func changed() {
        host?.slotDidChange(self)
    }
}
