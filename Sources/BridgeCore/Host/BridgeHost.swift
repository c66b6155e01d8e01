import Foundation

#if canImport(Combine)
import Combine
#endif

/// The native end of the bridge: decodes what the web journey sends, routes requests to typed
/// slots and handlers, sends responses and events back, and keeps the diagnostic surfaces
/// (`lastError`, `receivedMessages`, `pendingRequests`) that the inspector shows.
///
/// The API keeps GBGBridge's documented names, so code written against its documentation reads
/// the same:
///
/// ```swift
/// let host = BridgeHost(hostVersion: "1.0.0")
/// host.documentCapture.handler = { request in .document(result) }
/// host.registerCustomCapability("device.info", version: "1.0") { request, responder in
///     responder.respond(status: .success, data: ["model": "Simulator"], error: nil)
/// }
/// host.delegate = logger
/// host.attach(journeyTransport)     // where BridgeWebView sits on iOS
/// host.send(event: "host.ready", data: ["version": "1.0.0"])
/// ```
///
/// Everything runs on the main actor, as on iOS. Other code can watch every change without
/// polling through ``addObserver(_:)`` or ``changes()``.
@MainActor
public final class BridgeHost {
    // MARK: Identity

    /// The host's version, reported in `capability.query` as `hostVersion`.
    public let hostVersion: String
    /// The environment reported to the journey and used in event ids (`<environment>-event-<uuid>`).
    /// GBGBridge on iOS reports `ios`, the default here.
    public var environment: String = "ios"
    /// The configuration given to ``init(configuration:)``, or `nil` with ``init(hostVersion:)``.
    public let configuration: BridgeConfiguration?

    // MARK: Diagnostic surfaces (Troubleshooting, "Diagnostic Tools")

    #if canImport(Combine)
    /// The most recent error from message decoding, JavaScript delivery or attachment, or `nil`.
    @Published public internal(set) var lastError: String?
    /// Every successfully decoded message, oldest first, capped at ``maxReceivedMessages``.
    ///
    /// A copy of the ring buffer the host logs into, made after each change to it (`@Published`
    /// needs a stored property): it publishes once per message, and never more than the cap.
    @Published public private(set) var receivedMessages: [BridgeMessage] = []
    /// Requests that no handler took, oldest first, until ``respond(to:status:data:error:)`` answers them.
    @Published public internal(set) var pendingRequests: [BridgeMessage] = []
    #else
    /// The most recent error from message decoding, JavaScript delivery or attachment, or `nil`.
    public internal(set) var lastError: String?
    /// Every successfully decoded message, oldest first, capped at ``maxReceivedMessages``.
    ///
    /// Kept in a ring buffer: logging a message past the cap costs the same whatever the cap,
    /// and a read makes one copy of the log once it has wrapped.
    public var receivedMessages: [BridgeMessage] { receivedLog.elements }
    /// Requests that no handler took, oldest first, until ``respond(to:status:data:error:)`` answers them.
    public internal(set) var pendingRequests: [BridgeMessage] = []
    #endif

    /// The messages ``receivedMessages`` shows, newest ``maxReceivedMessages`` of them; changed
    /// only through `logReceived(_:)`, ``clearReceivedMessages()`` and ``maxReceivedMessages``,
    /// which keep the published copy on Apple platforms in step.
    private var receivedLog = RingBuffer<BridgeMessage>(capacity: BridgeHost.defaultMaxReceivedMessages)

    /// The cap on ``receivedMessages``: a ring buffer that drops the oldest message (default 200,
    /// the Android SDK's `MAX_RECEIVED_MESSAGES`). Lowering it trims at once.
    public var maxReceivedMessages: Int = BridgeHost.defaultMaxReceivedMessages {
        didSet {
            maxReceivedMessages = max(0, maxReceivedMessages)
            let countBefore = receivedLog.count
            receivedLog.capacity = maxReceivedMessages
            if receivedLog.count != countBefore { receivedLogChanged() }
        }
    }
    /// The default for ``maxReceivedMessages``.
    public static let defaultMaxReceivedMessages = 200

    /// When more requests than this are pending, a leak warning goes to `lastError` (default 50,
    /// the Android SDK's `PENDING_REQUEST_LEAK_THRESHOLD`).
    public var pendingRequestWarningThreshold: Int = BridgeHost.defaultPendingRequestWarningThreshold
    /// The default for ``pendingRequestWarningThreshold``.
    public static let defaultPendingRequestWarningThreshold = 50

    /// Receives every decoded message and every unhandled request; held weakly.
    public weak var delegate: (any BridgeHostDelegate)?

    // MARK: Typed slots

    /// The document capture slot: capability `camera.document`, action `camera.document.capture`.
    public let documentCapture: CaptureCapability
    /// The selfie capture slot: capability `camera.selfie`, action `camera.selfie.capture`.
    public let selfieCapture: CaptureCapability

    /// The clock used for arrival times and timestamps; replace it in tests.
    public var now: @Sendable () -> Date = { Date() }

    /// The clock the host's timers sleep on: each held message's time limit
    /// (``HoldRequest/timeLimit``) runs out on it. Defaults to the continuous clock; a test
    /// passes a clock it moves itself (TestSupport's `ManualClock`) to cross a limit at once,
    /// and an app has no reason to change it. A hold's timer takes the clock set when the
    /// message is held.
    public var clock: any Clock<Duration> = ContinuousClock()

    // MARK: Internal state

    let codec = BridgeMessageCodec()
    weak var transport: (any JourneyTransport)?
    /// Whether observers were last told that a journey is attached. The transport is held
    /// weakly, like the WebView, so it can go without `detach()`; the host notices at its next
    /// delivery and tells observers then.
    var reportedJourneyAttached = false
    var handlers: [String: any BridgeCapabilityHandler] = [:]
    var customCapabilityVersions: [String: String] = [:]
    /// Custom capabilities reported as supported whose requests go to `pendingRequests`.
    var declaredCapabilities: Set<String> = []
    var pendingSince: [String: Date] = [:]
    /// Requests received and not yet answered, by correlation id: handled, slot or pending.
    var outstanding: [String: BridgeMessage] = [:]
    /// Recently answered requests, to tell a second answer from an unknown id.
    var recentlyAnswered = BoundedMap<Void>(capacity: 1024)
    /// Responses made through ``BridgeResponder``, in the order they were made, until sent.
    let responseOutbox = ResponseOutbox()
    /// Decides which messages are held (``setInterceptor(_:)``); `nil` holds nothing.
    var interceptor: (any BridgeInterceptor)?
    /// Messages stopped at a breakpoint, oldest first, until released, answered or dropped.
    public internal(set) var heldMessages: [HeldMessage] = []
    /// Holds made so far: the next hold's id is `h<holdCount + 1>`.
    var holdCount = 0
    /// What became of recently resolved holds, so that a second action on one says what the
    /// first did.
    var resolvedHolds = BoundedMap<HeldResolution.Outcome>(capacity: 1024)
    /// Decides which messages are faulted (``setFaultInjector(_:)``); `nil` faults nothing.
    var faultInjector: (any BridgeFaultInjector)?
    /// Requests whose answer a fault delays or swallows, by correlation id, until answered.
    var answerFaults = BoundedMap<AnswerFault>(capacity: 1024)
    /// Sent messages a `reorder` fault holds back until the next delivery (or their bound).
    var reorderedMessages: [ReorderedMessage] = []
    /// Reorder faults so far, to tell each held-back message apart.
    var reorderCount = 0
    var observers: [Int: @Sendable (BridgeChange) -> Void] = [:]
    /// Observers inside this package (``addPackageObserver(_:)``), in the order they were added.
    var packageObservers: [(id: Int, observer: PackageObserver)] = []
    /// Received messages reported so far (and package observers added): a request routed while
    /// it is unchanged is the very message reported last as received (``PackageObserver``).
    var receivedTrafficCount = 0
    var nextObserverId = 0
    let capabilityReport: (() -> [String: BridgeCapabilityInfo])?

    /// Creates a host whose `capability.query` answer is built afresh from the typed slots and
    /// custom capabilities on every query. The recommended initializer.
    public init(hostVersion: String) {
        self.hostVersion = hostVersion
        self.configuration = nil
        self.capabilityReport = nil
        self.documentCapture = CaptureCapability(kind: .document)
        self.selfieCapture = CaptureCapability(kind: .selfie)
        finishInit()
    }

    /// Creates a host whose `capability.query` answer reports exactly `configuration.capabilities`
    /// as they were at initialization.
    public init(configuration: BridgeConfiguration) {
        self.hostVersion = configuration.hostVersion
        self.configuration = configuration
        let fixed = configuration.capabilities
        self.capabilityReport = { fixed }
        self.documentCapture = CaptureCapability(kind: .document)
        self.selfieCapture = CaptureCapability(kind: .selfie)
        finishInit()
    }

    private func finishInit() {
        documentCapture.host = self
        selfieCapture.host = self
        handlers[CapabilityQueryHandler.action] = CapabilityQueryHandler()
    }

    /// The two typed slots.
    public var captureSlots: [CaptureCapability] { [documentCapture, selfieCapture] }

    /// The slot for `kind`.
    public func slot(_ kind: CaptureCapability.Kind) -> CaptureCapability {
        kind == .document ? documentCapture : selfieCapture
    }

    // MARK: Attaching the journey

    /// Attaches the transport that carries messages to the journey (held weakly, like the WebView).
    public func attach(_ transport: any JourneyTransport) {
        self.transport = transport
        reportedJourneyAttached = true
        emit(.journeyAttachment(true))
    }

    /// Detaches the journey; later sends fail with `WebView not attached`. Returns the transport
    /// that was attached, so whoever detaches on purpose (an inspector's `journey detach`) can
    /// keep it and give the same one back with ``attach(_:)``.
    @discardableResult
    public func detach() -> (any JourneyTransport)? {
        let previous = transport
        transport = nil
        reportedJourneyAttached = false
        emit(.journeyAttachment(false))
        return previous
    }

    /// Whether a journey transport is attached.
    public var isJourneyAttached: Bool { transport != nil }

    // MARK: Errors

    /// Clears `lastError` (the Android SDK's `clearError()`).
    public func clearError() {
        setLastError(nil)
    }

    /// Forgets the received-message log; long sessions should do this now and then
    /// (Troubleshooting, "Memory Warnings or Crashes").
    public func clearReceivedMessages() {
        receivedLog.removeAll()
        receivedLogChanged()
        emit(.receivedMessagesCleared)
    }

    func setLastError(_ text: String?) {
        lastError = text
        emit(.lastError(text, time: now()))
    }

    /// Logs a decoded message in ``receivedMessages``, dropping the oldest past the cap.
    func logReceived(_ message: BridgeMessage) {
        receivedLog.append(message)
        receivedLogChanged()
    }

    /// Brings the published copy of the log up to date, on Apple platforms; elsewhere
    /// ``receivedMessages`` reads the log itself.
    private func receivedLogChanged() {
        #if canImport(Combine)
        receivedMessages = receivedLog.elements
        #endif
    }
}

#if canImport(Combine)
extension BridgeHost: ObservableObject {}
#endif
