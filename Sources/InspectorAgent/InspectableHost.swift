import BridgeCore
import Foundation
import InspectorProtocol

/// What the inspector agent needs from a bridge host: a consistent snapshot, every change after
/// it, and the commands an inspector may run. The agent knows hosts only through this protocol.
///
/// Two hosts conform in this package:
/// - `BridgeCore.BridgeHost` (native: its own change stream, everything supported);
/// - the GBGBridge adapter in the `GBGBridgeInspector` library, which sees an app embedding
///   GBG's closed GBGBridge through its public API and declares what that API cannot do.
///
/// Everything runs on the main actor, as both hosts do. A conforming type must report each change
/// to the sink right after it happens, in order, and must not block: the sink only queues.
@MainActor
public protocol InspectableHost: AnyObject {
    /// The version and environment reported to inspectors, how the host is seen, and what it
    /// cannot do.
    var inspectionProfile: InspectionProfile { get }

    /// Everything the host's diagnostic surfaces hold now.
    func inspectionSnapshot() -> BridgeSnapshot

    /// Starts reporting changes to `sink`; reporting goes on until the returned value's
    /// ``InspectionReporting/stop()``. The agent calls it in the same main-actor turn as
    /// ``inspectionSnapshot()``, so no change can fall between the two.
    func startReporting(to sink: InspectionSink) -> any InspectionReporting

    /// Answers a request waiting in `pendingRequests`; throws when it is not waiting there.
    func respondToPending(_ correlationId: String, status: BridgeResponseStatus, data: [String: JSONValue]?, error: BridgeErrorPayload?) throws(BridgeHostError)
    /// Sends a host event.
    func sendEvent(_ name: String, data: [String: JSONValue]?)
    /// Sends the documented `host.ready` with the host's own `timestamp` and `version`, as it does
    /// when a journey attaches (`BridgeHost.sendReadyEvent()`); the default sends it through
    /// ``sendEvent(_:data:)`` with the time now and the profile's `hostVersion`.
    func sendReadyEvent()
    /// The request holding a capture slot, or `nil` when it is idle.
    func activeRequest(of slot: CaptureCapability.Kind) -> BridgeMessage?
    /// Ends a capture slot's active request with `result`.
    func completeSlot(_ slot: CaptureCapability.Kind, with result: CaptureResult)
    /// Why the host cannot send `result` for `slot` as it is (a host whose API has no such
    /// result), or `nil`. The agent refuses such a command with this reason, rather than let the
    /// host send something else.
    func refusal(toComplete slot: CaptureCapability.Kind, with result: CaptureResult) -> String?
    /// Enables or disables a capture slot.
    func setSlot(_ slot: CaptureCapability.Kind, enabled: Bool)
    /// Sets a capture slot's permission state.
    func setSlot(_ slot: CaptureCapability.Kind, permission: PermissionState)
    /// Clears `lastError` (only called when `HostFeature.clearError` is supported).
    func clearLastError()
    /// Clears the message log (only called when `HostFeature.clearLog` is supported).
    func clearMessageLog()

    /// The messages held at breakpoints now (only used when `HostFeature.intercept` is supported).
    var heldMessages: [HeldMessage] { get }
    /// Sets or removes the interceptor that holds messages at breakpoints; removing it releases
    /// everything held.
    func setInterceptor(_ interceptor: (any BridgeInterceptor)?)
    /// Lets a held message go on, as it was or as `edited`.
    func releaseHeld(_ id: String, as edited: BridgeMessage?, reason: HeldResolution.Reason) throws(BridgeHostError)
    /// Answers a held request by hand.
    func answerHeld(_ id: String, status: BridgeResponseStatus, data: [String: JSONValue]?, error: BridgeErrorPayload?) throws(BridgeHostError)
    /// Drops a held message.
    func dropHeld(_ id: String, reason: HeldResolution.Reason) throws(BridgeHostError)
    /// Hands the host input as if the journey had posted it (only called when
    /// `HostFeature.inject` is supported, and ``refusalToInject()`` is `nil`).
    func inject(_ bytes: Data)
    /// Sets or removes the fault injector that makes the host's handling go wrong on purpose
    /// (only used when `HostFeature.faults` is supported).
    func setFaultInjector(_ injector: (any BridgeFaultInjector)?)
    /// Why the host cannot inject now although it can in general (the GBGBridge adapter's page
    /// is not loaded), or `nil`. The agent refuses `inject` with this reason.
    func refusalToInject() -> String?

    /// Returns once the host has reported the messages the command `cause` made it send, or
    /// after a short bound. A host that reports them while the command runs (the native one)
    /// returns at once: the default does. The agent sends the command's reply after this, so
    /// the reply lists what was sent.
    func settle(after cause: InspectionCause) async
}

extension InspectableHost {
    public func settle(after cause: InspectionCause) async {}

    public func sendReadyEvent() {
        sendEvent("host.ready", data: [
            "timestamp": .number((Date().timeIntervalSince1970 * 1000).rounded()),
            "version": .string(inspectionProfile.hostVersion),
        ])
    }

    /// Every result can be sent as it is.
    public func refusal(toComplete slot: CaptureCapability.Kind, with result: CaptureResult) -> String? { nil }

    // A host that cannot hold or inject lists `HostFeature.intercept` and `HostFeature.inject`
    // as unsupported; the agent then never calls these.
    public var heldMessages: [HeldMessage] { [] }
    public func setInterceptor(_ interceptor: (any BridgeInterceptor)?) {}
    public func releaseHeld(_ id: String, as edited: BridgeMessage?, reason: HeldResolution.Reason) throws(BridgeHostError) {
        throw .notHeld(holdId: id)
    }
    public func answerHeld(
        _ id: String, status: BridgeResponseStatus, data: [String: JSONValue]?, error: BridgeErrorPayload?
    ) throws(BridgeHostError) {
        throw .notHeld(holdId: id)
    }
    public func dropHeld(_ id: String, reason: HeldResolution.Reason) throws(BridgeHostError) {
        throw .notHeld(holdId: id)
    }
    public func inject(_ bytes: Data) {}
    public func setFaultInjector(_ injector: (any BridgeFaultInjector)?) {}
    public func refusalToInject() -> String? { nil }
}

/// How a host is presented to inspectors.
public struct InspectionProfile: Sendable, Hashable {
    /// The host's version.
    public var hostVersion: String
    /// The environment reported to the journey, such as `ios`.
    public var environment: String
    /// `HostFeature.nativePath` or `HostFeature.publicAPIPath`.
    public var path: String
    /// What the host cannot do, each with a reason for a person.
    public var unsupported: [HostFeature: String]
    /// The cap on the host's `receivedMessages`, if it has one (shown by the doctor's
    /// message-accumulation check).
    public var receivedMessagesCap: Int?

    /// Creates a profile.
    public init(
        hostVersion: String, environment: String, path: String, unsupported: [HostFeature: String] = [:],
        receivedMessagesCap: Int? = nil
    ) {
        self.hostVersion = hostVersion
        self.environment = environment
        self.path = path
        self.unsupported = unsupported
        self.receivedMessagesCap = receivedMessagesCap
    }
}

/// One ``InspectableHost/startReporting(to:)``, until it is stopped.
@MainActor
public protocol InspectionReporting: AnyObject, Sendable {
    /// Stops reporting (safe to call more than once).
    func stop()
}

/// An inspector command running now, kept by a host whose changes arrive later than the command
/// (the GBGBridge adapter sees an outgoing response only when the page reports it), so that the
/// change is still marked as the command's.
public struct InspectionCause: Sendable, Hashable {
    let tag: AgentInbox.CommandTag
}

/// Where a host reports its changes; made by the agent.
public struct InspectionSink: Sendable {
    /// The agent's inbox: every report is appended to it, at once, under its lock.
    let inbox: AgentInbox
    let running: @MainActor @Sendable () -> InspectionCause?

    /// Pushes a change marked with the command running now, the agent's inbox reading which
    /// one under the lock it takes anyway (no main-actor check on the host's hot path).
    let pushCausedByRunning: @Sendable (BridgeChange, _ isLastLogged: Bool) -> Void
    /// Pushes a message that crossed the bridge, in pieces, marked with the command running now,
    /// from a host that hands traffic over so (this package's `BridgeHost`, through
    /// `BridgeHost.addPackageObserver(_:)`): no record or change is built on the host's thread.
    let pushTrafficCausedByRunning: @Sendable (TrafficRecord.Direction, BridgeMessage, Data, UnsafeRawBufferPointer?, Date, TrafficMarks) -> Void

    init(
        inbox: AgentInbox, running: @escaping @MainActor @Sendable () -> InspectionCause?,
        pushCausedByRunning: @escaping @Sendable (BridgeChange, _ isLastLogged: Bool) -> Void,
        pushTrafficCausedByRunning: @escaping @Sendable (TrafficRecord.Direction, BridgeMessage, Data, UnsafeRawBufferPointer?, Date, TrafficMarks) -> Void
    ) {
        self.inbox = inbox
        self.running = running
        self.pushCausedByRunning = pushCausedByRunning
        self.pushTrafficCausedByRunning = pushTrafficCausedByRunning
    }

    /// Reports a change caused by the command running now, if any (the usual case: a change
    /// happens synchronously inside the call that caused it).
    @MainActor
    public func report(_ change: BridgeChange) {
        // The inbox holds the command running now (the executor tells it as it changes, on the
        // main actor), read under the lock it takes anyway: the same as asking ``runningCommand``,
        // without copying the command's tag out on the host's thread for every change.
        inbox.push(change, causedByRunningCommand: true)
    }

    /// Reports a change caused by `cause` (taken earlier from ``runningCommand``), or by nobody.
    public func report(_ change: BridgeChange, causedBy cause: InspectionCause?) {
        inbox.push(change, tag: cause?.tag)
    }

    /// Reports a message the host received, as a value, caused by `cause` (or by nobody): the
    /// agent's thread encodes it with BridgeCore's codec and logs the traffic record a
    /// ``report(_:causedBy:)`` of it would have logged, in its place among the host's other
    /// changes, so the host's thread does no encoding. A message the codec cannot encode (a NaN
    /// or infinite number in its data) is not logged, as a host that encodes it first cannot
    /// report it either.
    package func reportReceived(_ message: BridgeMessage, at time: Date, causedBy cause: InspectionCause?) {
        inbox.pushReceived(message, time: time, tag: cause?.tag)
    }

    /// The longest text ``reportSent(json:at:)`` takes; a longer message is reported whole.
    package static var plainSentLimit: Int { AgentInbox.compactMessageLimit }

    /// Reports a message the host sent, caused by nobody and with nothing to say but its bytes
    /// and time, as its text: `json` must be BridgeCore's message JSON as it stands (text that
    /// `BridgeMessageCodec.decode(_:)` reads as the message meant) and at most
    /// ``plainSentLimit`` bytes. Its UTF-8 bytes are copied straight into the agent's inbox, and
    /// the agent reads the message from them only if it needs one; nothing else is built.
    package func reportSent(json: String, at time: Date) {
        inbox.pushSent(json: json, time: time)
    }

    /// The inspector command running now, or `nil`.
    @MainActor
    public var runningCommand: InspectionCause? { running() }
}
