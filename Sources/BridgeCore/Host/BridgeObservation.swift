import Foundation

/// One message that crossed the bridge, as observers and inspectors see it: the decoded message,
/// its exact JSON, its direction and when the host handled it.
public struct TrafficRecord: Sendable {
    /// Which way a message travelled.
    public enum Direction: String, Sendable, Codable {
        /// From the web journey to the host.
        case received
        /// From the host to the web journey.
        case sent
    }

    /// Which way the message travelled.
    public var direction: Direction
    /// The decoded message.
    public var message: BridgeMessage
    /// The exact bytes received, or the exact bytes the host delivered.
    public var json: Data
    /// When the host received or sent it.
    public var time: Date
    /// For sent messages that could not be delivered: why (the text also set in `lastError`).
    public var deliveryError: String?
    /// For sent messages that were held at a breakpoint: the hold and what became of it
    /// (a `dropped` message was never delivered).
    public var hold: HoldMark?
    /// For sent messages seen by a page script in another shape than BridgeCore's message JSON
    /// (a JSON string, `status` at the top level, an ISO timestamp, …): the exact text the page
    /// reported, while `json` holds the message as it was read. `nil` when `json` is the text.
    public var reported: Data?
    /// For sent messages that reached the page but no journey code: why the journey did not get
    /// it (such as GBGBridge's no-op bootstrap `receive`, before the journey set its own).
    public var lost: String?
    /// For a message a fault rule changed: the rule and what it did (a `dropped` request was
    /// never routed, a `dropped` response or event never delivered).
    public var fault: FaultMark?

    /// Creates a record.
    public init(
        direction: Direction, message: BridgeMessage, json: Data, time: Date, deliveryError: String? = nil, hold: HoldMark? = nil,
        reported: Data? = nil, lost: String? = nil, fault: FaultMark? = nil
    ) {
        self.fault = fault
        self.direction = direction
        self.message = message
        self.json = json
        self.time = time
        self.deliveryError = deliveryError
        self.hold = hold
        self.reported = reported
        self.lost = lost
    }
}

/// What a message that crossed the bridge carries besides its direction, message, bytes and
/// time, as a ``PackageObserver`` gets it: the marks of its ``TrafficRecord`` that a native host
/// sets. All `nil` for a message that went its ordinary way.
package struct TrafficMarks: Sendable {
    /// ``TrafficRecord/deliveryError``.
    package var deliveryError: String?
    /// ``TrafficRecord/hold``.
    package var hold: HoldMark?
    /// ``TrafficRecord/fault``.
    package var fault: FaultMark?

    /// Creates marks (none by default).
    package init(deliveryError: String? = nil, hold: HoldMark? = nil, fault: FaultMark? = nil) {
        self.deliveryError = deliveryError
        self.hold = hold
        self.fault = fault
    }

    /// Whether the message went its ordinary way: no mark is set.
    @inlinable @inline(__always) package var isEmpty: Bool { deliveryError == nil && hold == nil && fault == nil }
}

/// An observer inside this package, added with ``BridgeHost/addPackageObserver(_:)``: the
/// inspector agent, whose hand-off runs on the host's thread for every message.
///
/// It gets what ``BridgeHost/addObserver(_:)`` observers get, in the same order, except that a
/// message that crossed the bridge comes as its pieces, borrowed for the call, so that the host
/// builds no ``TrafficRecord`` and no ``BridgeChange`` for it and nothing is retained that the
/// observer does not keep.
package struct PackageObserver: Sendable {
    /// Every change except traffic, as ``BridgeHost/addObserver(_:)`` observers get it, and
    /// whether it is about the very message reported last as traffic in its direction (`true`
    /// only for a `pendingAdded` request the host routed as it arrived, or a request held as it
    /// arrived, with no message received in between; `false` says only that the host did not
    /// see it so).
    package var change: @Sendable (BridgeChange, _ isLastLogged: Bool) -> Void
    /// Every message that crossed the bridge: the fields of its ``TrafficRecord`` (direction,
    /// message, exact JSON, time and marks), and the JSON's bytes when the host has them at hand
    /// (a received message: the bytes it decoded), lent for the call, `nil` otherwise. An observer
    /// that copies the bytes takes them from there rather than from the `Data`: each look into a
    /// `Data`'s storage is a run-time exclusivity check, some 200 instructions a message on the
    /// host's thread (issue 30).
    package var traffic: @Sendable (TrafficRecord.Direction, BridgeMessage, Data, UnsafeRawBufferPointer?, Date, TrafficMarks) -> Void

    /// Creates an observer.
    package init(
        change: @escaping @Sendable (BridgeChange, _ isLastLogged: Bool) -> Void,
        traffic: @escaping @Sendable (TrafficRecord.Direction, BridgeMessage, Data, UnsafeRawBufferPointer?, Date, TrafficMarks) -> Void
    ) {
        self.change = change
        self.traffic = traffic
    }
}

/// Input that was not a valid message: what arrived and why it was refused.
///
/// Usually input from the journey (`received`). An adapter that learns what a host sends from a
/// page script (GBGBridgeInspector's `PublicAPIHost`) reports a delivery it could not read, or a
/// problem the script reported, as `sent` input, so that it is shown rather than dropped.
public struct MalformedInput: Sendable {
    /// The bytes as they arrived (empty when there were none to show, such as a page script
    /// saying it cannot see deliveries).
    public var raw: Data
    /// Why they were refused, completing `Failed to decode message: ...` for received input.
    public var reason: String
    /// When they arrived.
    public var time: Date
    /// `received` for input from the journey; `sent` for a report of what the host sent.
    public var direction: TrafficRecord.Direction

    /// Creates a record.
    public init(raw: Data, reason: String, time: Date, direction: TrafficRecord.Direction = .received) {
        self.raw = raw
        self.reason = reason
        self.time = time
        self.direction = direction
    }
}

/// A request waiting for an answer in `pendingRequests`, with when it arrived.
public struct PendingRequest: Sendable, Hashable {
    /// The request.
    public var message: BridgeMessage
    /// When it arrived.
    public var since: Date

    /// Creates a record.
    public init(message: BridgeMessage, since: Date) {
        self.message = message
        self.since = since
    }
}

/// A value copy of a capture slot's state.
public struct CaptureSlotState: Sendable, Hashable {
    /// Which slot.
    public var kind: CaptureCapability.Kind
    /// `camera.document` or `camera.selfie`.
    public var capabilityId: String
    /// `camera.document.capture` or `camera.selfie.capture`.
    public var action: String
    /// The version reported in `capability.query`.
    public var version: String
    /// Whether a handler is set.
    public var hasHandler: Bool
    /// Whether the slot is enabled.
    public var isEnabled: Bool
    /// `hasHandler && isEnabled`.
    public var isSupported: Bool
    /// The permission reported in `capability.query`.
    public var permissionState: PermissionState
    /// The request holding the slot, or `nil` when idle.
    public var activeRequest: BridgeMessage?
    /// When that request started.
    public var activeSince: Date?

    /// Creates a state value.
    public init(
        kind: CaptureCapability.Kind, capabilityId: String, action: String, version: String, hasHandler: Bool,
        isEnabled: Bool, isSupported: Bool, permissionState: PermissionState, activeRequest: BridgeMessage?,
        activeSince: Date?
    ) {
        self.kind = kind
        self.capabilityId = capabilityId
        self.action = action
        self.version = version
        self.hasHandler = hasHandler
        self.isEnabled = isEnabled
        self.isSupported = isSupported
        self.permissionState = permissionState
        self.activeRequest = activeRequest
        self.activeSince = activeSince
    }
}

/// A custom capability as reported in `capability.query`.
public struct CustomCapability: Sendable, Hashable {
    /// The capability id, which is also the action its requests carry.
    public var id: String
    /// The reported version.
    public var version: String
    /// Whether a handler answers it; declared-only capabilities send their requests to `pendingRequests`.
    public var hasHandler: Bool
    /// Whether a typed slot with the same id takes precedence over it.
    public var isShadowedBySlot: Bool

    /// Creates a description.
    public init(id: String, version: String, hasHandler: Bool, isShadowedBySlot: Bool) {
        self.id = id
        self.version = version
        self.hasHandler = hasHandler
        self.isShadowedBySlot = isShadowedBySlot
    }
}

/// One change to the host's state, in the order it happened.
///
/// Observers get every change, synchronously on the host's main actor, right after it happens;
/// see ``BridgeHost/addObserver(_:)``.
public enum BridgeChange: Sendable {
    /// A message was received (and decoded) or sent.
    case traffic(TrafficRecord)
    /// Input from the journey could not be decoded.
    case malformed(MalformedInput)
    /// `lastError` changed (`nil` when cleared).
    case lastError(String?, time: Date)
    /// A request was added to `pendingRequests`.
    case pendingAdded(PendingRequest)
    /// A request left `pendingRequests` (it was answered). Its `action` lets an observer that
    /// keeps counts by action, not every request, keep them right.
    case pendingRemoved(correlationId: String, action: String)
    /// A slot's handler, enablement, permission or active request changed.
    case slot(CaptureSlotState)
    /// Custom capabilities were registered, declared or removed.
    case customCapabilities([CustomCapability])
    /// `receivedMessages` was cleared.
    case receivedMessagesCleared
    /// A journey transport was attached (`true`) or detached (`false`): a WebView loaded the
    /// journey, or a page connected or went away.
    case journeyAttachment(Bool)
    /// A message was stopped at a breakpoint (``BridgeHost/heldMessages``).
    case held(HeldMessage)
    /// A held message was released, edited, answered or dropped.
    case heldResolved(HeldResolution)
}

/// Everything the host's diagnostic surfaces hold at one moment.
public struct BridgeSnapshot: Sendable {
    /// The host's version.
    public var hostVersion: String
    /// The environment reported to the journey, such as `ios`.
    public var environment: String
    /// The most recent error, if any.
    public var lastError: String?
    /// The decoded messages still held (oldest first, capped).
    public var receivedMessages: [BridgeMessage]
    /// Requests waiting for an answer, oldest first.
    public var pendingRequests: [PendingRequest]
    /// The document and selfie slots.
    public var slots: [CaptureSlotState]
    /// Custom capabilities.
    public var customCapabilities: [CustomCapability]
    /// Whether a journey transport is attached.
    public var isJourneyAttached: Bool
    /// Messages held at breakpoints, oldest first.
    public var heldMessages: [HeldMessage]
    /// When the snapshot was taken.
    public var time: Date
    /// Reports of what the host sent that could not be read as a message (an adapter seeing
    /// sent messages through a page script; always 0 for BridgeCore's host, which knows them).
    public var unreadSentReports: Int
    /// The last of those, with why it could not be read (`direction` `sent`).
    public var lastUnreadSentReport: MalformedInput?

    /// Creates a snapshot (for adapters that assemble one from another bridge's public state).
    public init(
        hostVersion: String, environment: String, lastError: String?, receivedMessages: [BridgeMessage],
        pendingRequests: [PendingRequest], slots: [CaptureSlotState], customCapabilities: [CustomCapability],
        isJourneyAttached: Bool, heldMessages: [HeldMessage] = [], time: Date, unreadSentReports: Int = 0,
        lastUnreadSentReport: MalformedInput? = nil
    ) {
        self.unreadSentReports = unreadSentReports
        self.lastUnreadSentReport = lastUnreadSentReport
        self.heldMessages = heldMessages
        self.hostVersion = hostVersion
        self.environment = environment
        self.lastError = lastError
        self.receivedMessages = receivedMessages
        self.pendingRequests = pendingRequests
        self.slots = slots
        self.customCapabilities = customCapabilities
        self.isJourneyAttached = isJourneyAttached
        self.time = time
    }
}

/// Keeps an observer registered; pass it to ``BridgeHost/removeObserver(_:)`` to stop.
public struct BridgeObservationToken: Hashable, Sendable {
    let id: Int
}
