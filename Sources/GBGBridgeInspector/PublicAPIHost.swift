import BridgeCore
import Foundation
import InspectorAgent
import InspectorProtocol

/// Presents a host seen only through GBGBridge's public API (``GBGBridgeHostAPI``) to the
/// inspector agent as an `InspectableHost`.
///
/// GBGBridge has no change stream, so the adapter assembles one:
/// - received messages, in order, from the delegate's `bridgeHost(_:didReceive:)` (its proxy
///   forwards every call to the app's own delegate, unchanged);
/// - requests that land in `pendingRequests` from `bridgeHost(_:unhandledRequest:)`;
/// - messages the host sends to the journey from the page script (``reportSent(json:)``);
/// - `lastError`, pending requests that went away, and the slots' state by comparing what the
///   public properties hold after each of those calls, after each command, and every
///   ``pollInterval`` (for changes the app makes on its own, such as a camera UI completing a slot).
///
/// Times are when the adapter first saw something, not when GBGBridge handled it. What the public
/// API cannot do at all is declared in ``inspectionProfile`` (see docs/real-apps.md).
///
/// Its time is an input: polling and ``settleTimeout`` run on the `clock` given to
/// ``init(api:hostVersion:environment:pollInterval:clock:now:)`` and times come from `now`. An app
/// keeps the defaults (the continuous clock, `Date()`); tests pass a clock they move.
@MainActor
public final class PublicAPIHost<API: GBGBridgeHostAPI>: InspectableHost, GBGBridgeDelegateTap {
    /// How often the public properties are compared when nothing else prompts it.
    public let pollInterval: Duration
    /// Reports from the page script (or a transport standing in for it) that were not a message
    /// this adapter could read, and problems the script reported (a value it could not copy, a
    /// `window.GBGBridge` it cannot wrap, a post that is not a report). Each is shown in the log
    /// as a `sent` malformed record with its raw text and the reason; never dropped.
    public private(set) var unreadReports = 0
    /// Messages reported sent by the page since the start (lost ones included).
    @exclusivity(unchecked) public private(set) var sentReports = 0
    /// Of ``sentReports``, those that reached GBGBridge's no-op bootstrap `receive` (the journey
    /// had not set its own yet), marked lost in the log.
    @exclusivity(unchecked) public private(set) var lostReports = 0
    /// The last of ``unreadReports``: its raw text (empty when there was none) and why it could
    /// not be read. Untrusted text: make it safe before it reaches a terminal.
    public private(set) var lastUnreadReport: MalformedInput?
    /// Why the last of ``unreadReports`` could not be read (``lastUnreadReport``'s reason).
    public var lastTapProblem: String? { lastUnreadReport?.reason }
    /// The journey's page, where `inject` and `replay` post a message as the journey would. Set
    /// it before the agent starts (``GBGBridgeInspector`` does): without one, the inspector is
    /// told that the host cannot inject.
    public var journeyPage: (any JourneyPage)?

    /// Read on every comparison; not checked for exclusivity at run time (see `lastError`).
    @exclusivity(unchecked) private weak var api: API?
    private let hostVersion: String
    private let environment: String
    private let codec = BridgeMessageCodec()
    let now: @Sendable () -> Date
    private let clock: any Clock<Duration>
    let timeline: ClockTimeline

    // Exclusivity: the properties marked `@exclusivity(unchecked)` are read and written on every
    // message (each access was a call into the runtime's access set, about 80 instructions). They
    // are main-actor isolated, so no other thread reaches them, and no access to one overlaps
    // another to it: each is read or written in one statement, and what runs during one (a sink's
    // inbox appending under its lock, a dictionary's or an array's own methods and the closures
    // given them here, which read other properties only) never calls back into the adapter.
    @exclusivity(unchecked) private var sinks = ReportingSinks()
    /// Read on every comparison; not checked for exclusivity at run time (see `lastError`).
    @exclusivity(unchecked) private var proxy: AnyObject?
    private weak var appDelegate: AnyObject?
    private var pollTask: Task<Void, Never>?

    // What the adapter last saw, to report what changed. Compared after every message, so their
    // accesses are not checked for exclusivity at run time (each check cost some eighty
    // instructions): every access is on the main actor, in this class's synchronous methods, and
    // none lasts across a call that could come back here (the one long access, `PendingChange`'s
    // `apply(to:since:after:time:)` on `pending` and `pendingSince`, and `SeenSlots.matches`
    // on `slots`, call out to nothing; reports are made between accesses, never inside one).
    @exclusivity(unchecked) private var lastError: String?
    /// The ids and actions of the requests in `pendingRequests` at the last look, in order.
    @exclusivity(unchecked) private var pending: [(id: String, action: String)] = []
    /// Whether the ids in `pending` are all different (`PendingChange`'s `afterIsUnique`; `false`
    /// when not known), which spares the next comparison a scan of the whole list.
    @exclusivity(unchecked) private var pendingIsUnique = false
    /// When each of `pending` was first seen (every request with one id has the same time),
    /// in the same order: the times of the snapshot's pending requests.
    @exclusivity(unchecked) private var pendingSince: [Date] = []
    /// Requests seen, requests that left `pendingRequests`, and responses seen: why a request
    /// is not pending. Changed on every comparison that finds a request gone, by
    /// `RecentRequests`' own methods, which call out to nothing: not checked for exclusivity at
    /// run time (see `lastError`).
    @exclusivity(unchecked) private var recent = RecentRequests()
    /// A comparison is already queued for after GBGBridge routes the messages just received.
    @exclusivity(unchecked) private var refreshQueued = false
    /// The capture slots' states at the last look.
    @exclusivity(unchecked) private var slots = SeenSlots()
    /// The public state as last read, brought up to date in place by each comparison. Lent to
    /// the host's `readPublicState(into:)` for the call; a comparison asked for meanwhile does not
    /// start (see `refresh()`), so no other access to it can come in.
    @exclusivity(unchecked) private var reading = PublicStateReading()
    /// Whether `reading` is lent to the host's `readPublicState(into:)` now (see `refresh()`).
    @exclusivity(unchecked) private var isReadingPublicState = false
    @exclusivity(unchecked) private var journeyAttached: Bool
    /// Inspector commands whose outgoing message the page has not reported yet: responses by
    /// correlation id, events by name in order.
    @exclusivity(unchecked) private var awaitedResponses: [String: [ObjectIdentifier: InspectionCause]] = [:]
    @exclusivity(unchecked) private var awaitedEvents: [(name: String, causes: [ObjectIdentifier: InspectionCause])] = []
    /// Inspector commands whose injected message GBGBridge has not received yet, by correlation id.
    @exclusivity(unchecked) var awaitedInjections: [String: [ObjectIdentifier: InspectionCause]] = [:]
    /// The correlation ids of the last messages the page reported sent because of an inspector's
    /// command (an answer, an event): a breakpoint never holds those, as on the native path.
    var sentByInspector: [String] = []
    /// Breakpoints through the page (``PageInterceptScript``): the agent's interceptor, what the
    /// page holds now, the ids handed out, how holds ended, and the page now holding.
    var interceptor: (any BridgeInterceptor)?
    var pageHolds: [PageHold] = []
    var holdCount = 0
    var resolvedHolds: [String: HeldResolution.Outcome] = [:]
    var interceptPage: String?
    /// Replies waiting in ``settle(after:)`` for the page's reports, until those come or the
    /// timer each has (on the clock) runs out.
    @exclusivity(unchecked) private var settling: [SettlingReply] = []
    private var nextSettlingToken = 0

    /// Creates an adapter for `api`; call ``start()`` to take the delegate slot and begin polling.
    ///
    /// - Parameters:
    ///   - api: the app's bridge host, through GBGBridge's public API (``GBGBridgeHostAPI``).
    ///   - hostVersion: the version the app gave GBGBridge (`BridgeHost(hostVersion:)`), which the
    ///     public API does not expose.
    ///   - environment: the environment GBGBridge reports to the journey (`ios`).
    ///   - pollInterval: how often the public properties are compared (``pollInterval``).
    ///   - clock: what polling and ``settleTimeout`` sleep on: the continuous clock in an app; in
    ///     tests a clock the test moves (TestSupport's `ManualClock`), so no test waits on either.
    ///   - now: where the times of changes come from.
    public init(
        api: API, hostVersion: String, environment: String = "ios", pollInterval: Duration = .milliseconds(100),
        clock: any Clock<Duration> = ContinuousClock(), now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.api = api
        self.hostVersion = hostVersion
        self.environment = environment
        self.pollInterval = pollInterval
        self.now = now
        self.clock = clock
        self.timeline = ClockTimeline(clock)
        api.readPublicState(into: &reading)
        lastError = reading.lastError
        let time = now()
        pending = reading.pendingRequests.map { ($0.correlationId, $0.payload.action) }
        pendingSince = Array(repeating: time, count: pending.count)
        pendingIsUnique = PendingChange.allDifferent(pending)
        slots[.document] = Self.state(of: reading.document, kind: .document, since: time)
        slots[.selfie] = Self.state(of: reading.selfie, kind: .selfie, since: time)
        reading.letGoOfHostObjects()
        // The public API cannot say whether a page is loaded; a host that has received messages has one.
        journeyAttached = !api.receivedMessages.isEmpty
    }

    /// Takes the delegate slot (forwarding to the app's delegate) and starts polling.
    public func start() {
        guard let api, proxy == nil else { return }
        appDelegate = api.delegateObject
        proxy = api.installDelegateProxy(reportingTo: self, forwardingTo: appDelegate)
        let interval = pollInterval
        let clock = self.clock
        pollTask = Task { @MainActor [weak self] in
            while !Task.isCancelled {
                try? await clock.sleep(for: interval)
                guard let self else { return }
                self.refresh()
            }
        }
    }

    /// Gives the delegate slot back to the app's delegate and stops polling.
    public func stop() {
        // The page must not wait for verdicts that will never come.
        if journeyPage?.canHold == true { setInterceptor(nil) }
        pollTask?.cancel()
        pollTask = nil
        // No report comes any more: replies waiting for one go now.
        for waiting in settling { waiting.timer?.cancel() }
        let waiting = settling
        settling.removeAll()
        for one in waiting { one.continuation.resume() }
        if let api, proxy != nil, api.delegateObject === proxy {
            api.restoreDelegate(appDelegate)
        }
        proxy = nil
    }

    // MARK: InspectableHost

    public var inspectionProfile: InspectionProfile {
        InspectionProfile(
            hostVersion: hostVersion, environment: environment, path: HostFeature.publicAPIPath,
            unsupported: Self.unsupported.filter { feature, _ in
                switch feature {
                case .inject: return journeyPage == nil
                case .intercept: return journeyPage?.canHold != true
                default: return true
                }
            })
    }

    /// What GBGBridge's documented iOS API gives no way to do, and what a person is told.
    public static var unsupported: [HostFeature: String] {
        [
            .clearError: "GBGBridge's iOS API has no clearError(): lastError stays until GBGBridge sets another",
            .clearLog: "GBGBridge's public API cannot clear receivedMessages: the host keeps them (capped) as they are",
            .malformedInput: "GBGBridge's public API does not show input that failed to decode; lastError says why it failed",
            .customCapabilities: "GBGBridge's public API does not list custom capabilities; capability.query answers show them in the log",
            .intercept:
                "GBGBridge hands each message straight from its WebView to its handlers and sends answers itself; its public API has no point where a message could wait, and this inspector was started without the journey's page (JourneyPage), where breakpoints hold messages instead",
            .journeyControl:
                "GBGBridge's public API cannot detach, attach or reload the journey's web view; the app would have to give the inspector its own journey control (InspectorAgent's JourneyControl), calling its WKWebView's reload() and GBGBridge's attach and detach",
            .inject:
                "GBGBridge's public API cannot be handed a message as if the page had sent it, and this inspector was started without the journey's page (JourneyPage); to send one as the journey, run window.webkit.messageHandlers.gbgBridge.postMessage(…) in Safari Web Inspector's console (the inspector's Y key copies that line)",
            .faults:
                "GBGBridge runs its handlers and sends their answers itself; its public API has no point where an answer could be delayed, replaced or swallowed, so fault rules need a host built on BridgeCore (the simulated or served journey's host)",
        ]
    }

    /// Why a message cannot be injected now: no page, or the page's own reason.
    public func refusalToInject() -> String? {
        guard let journeyPage else { return Self.unsupported[.inject] }
        return journeyPage.unavailableReason
    }

    /// Posts `bytes` in the journey's page as the journey would: GBGBridge receives them through
    /// its script message handler like any journey message, and the log shows them when it does.
    public func inject(_ bytes: Data) {
        guard let journeyPage, journeyPage.unavailableReason == nil else { return }
        if case .success(let message) = codec.decode(bytes) {
            if awaitedInjections.count >= Self.awaitedLimit, let any = awaitedInjections.keys.first {
                awaitedInjections.removeValue(forKey: any)
                resumeSettled()
            }
            awaitedInjections[message.correlationId] = runningCauses()
        }
        journeyPage.post(asJourney: JourneyPost(bytes: bytes))
    }

    public func inspectionSnapshot() -> BridgeSnapshot {
        let time = now()
        // Differences found now go to the agents already reporting; the new one starts from
        // the snapshot.
        refresh()
        let received = api?.receivedMessages ?? []
        let pendingMessages = api?.pendingRequests ?? []
        var pendingSince: [String: Date] = [:]
        for (request, since) in zip(pending, self.pendingSince) where pendingSince[request.id] == nil { pendingSince[request.id] = since }
        return BridgeSnapshot(
            hostVersion: hostVersion, environment: environment, lastError: lastError, receivedMessages: received,
            pendingRequests: pendingMessages.map { PendingRequest(message: $0, since: pendingSince[$0.correlationId] ?? time) },
            slots: CaptureCapability.Kind.allCases.compactMap { slots[$0] }, customCapabilities: [],
            isJourneyAttached: journeyAttached, time: time, unreadSentReports: unreadReports, lastUnreadSentReport: lastUnreadReport)
    }

    public func startReporting(to sink: InspectionSink) -> any InspectionReporting {
        let reporting = SinkReporting()
        reporting.onStop = { [weak self, weak reporting] in
            guard let self, let reporting else { return }
            self.sinks.remove(ObjectIdentifier(reporting))
        }
        sinks.add(sink, for: ObjectIdentifier(reporting))
        return reporting
    }

    public func respondToPending(
        _ correlationId: String, status: BridgeResponseStatus, data: [String: JSONValue]?, error: BridgeErrorPayload?
    ) throws(BridgeHostError) {
        guard let api else { throw .notPending(correlationId: correlationId) }
        refresh()
        guard api.pendingRequests.contains(where: { $0.correlationId == correlationId }) else {
            // Say why, as BridgeCore's host does, from what the adapter saw.
            switch recent.fate(of: correlationId) {
            // Answered, or once pending and gone (answered by the app with no page to report it).
            case .answered?, .leftPending?: throw .alreadyAnswered(correlationId: correlationId)
            // Received and never pending: a handler or a capture slot holds it.
            case .received?: throw .handledElsewhere(correlationId: correlationId)
            case nil: throw .notPending(correlationId: correlationId)
            }
        }
        expectResponse(to: correlationId)
        api.respond(to: correlationId, status: status, data: data, error: error)
        refresh()
    }

    public func sendEvent(_ name: String, data: [String: JSONValue]?) {
        awaitedEvents.append((name, runningCauses()))
        if awaitedEvents.count > Self.awaitedLimit {
            awaitedEvents.removeFirst()
            resumeSettled()
        }
        api?.send(event: name, data: data)
        refresh()
    }

    public func activeRequest(of slot: CaptureCapability.Kind) -> BridgeMessage? {
        guard let api else { return nil }
        return Self.capture(slot, of: api).activeRequest
    }

    public func completeSlot(_ slot: CaptureCapability.Kind, with result: CaptureResult) {
        guard let api else { return }
        if let id = Self.capture(slot, of: api).activeRequest?.correlationId {
            expectResponse(to: id)
        }
        Self.capture(slot, of: api).complete(result)
        refresh()
    }

    /// What the slot's API cannot express (GBGBridge documents only `.document(...)` and
    /// `.cancelled(reason:)`): refused with the reason instead of sending something else.
    public func refusal(toComplete slot: CaptureCapability.Kind, with result: CaptureResult) -> String? {
        guard let api else { return nil }
        return Self.capture(slot, of: api).refusal(toComplete: result)
    }

    public func setSlot(_ slot: CaptureCapability.Kind, enabled: Bool) {
        guard let api else { return }
        Self.capture(slot, of: api).isEnabled = enabled
        refresh()
    }

    public func setSlot(_ slot: CaptureCapability.Kind, permission: PermissionState) {
        guard let api else { return }
        Self.capture(slot, of: api).permissionState = permission
        refresh()
    }

    /// Waits (at most ``settleTimeout``) until the page has reported every message the command
    /// `cause` made GBGBridge send: WebKit hands the page script's posts over asynchronously.
    public func settle(after cause: InspectionCause) async {
        if isAwaitingReports(from: cause) {
            await waitForReports(from: cause)
        }
        // Not reported in time (no page, or no script): a later message of the same name must
        // not be taken for this command's. An injection stays awaited: it is known by its
        // correlation id, not its name, and a page busy for longer than settleTimeout (a loaded
        // machine, a page still loading) delivers it later, when it is still the inspector's
        // and not the journey's. ``awaitedLimit`` bounds those never delivered.
        awaitedEvents.removeAll { $0.causes.values.contains(cause) }
    }

    /// How long a command's reply waits for the page to report what the command sent. A page
    /// that never reports (no page script, or no page) delays each reply by this much.
    public var settleTimeout: Duration = .milliseconds(500)

    /// Suspends until no report from `cause` is awaited any more (``resumeSettled()``) or
    /// ``settleTimeout`` passes on the clock.
    private func waitForReports(from cause: InspectionCause) async {
        nextSettlingToken += 1
        let token = nextSettlingToken
        let timeline = self.timeline
        let deadline = timeline.elapsed + settleTimeout
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let timer = Task { @MainActor [weak self] in
                try? await timeline.sleep(untilElapsed: deadline)
                guard !Task.isCancelled else { return }
                self?.endSettling(token)
            }
            settling.append(SettlingReply(token: token, cause: cause, continuation: continuation, timer: timer))
        }
    }

    private func endSettling(_ token: Int) {
        guard let index = settling.firstIndex(where: { $0.token == token }) else { return }
        let waiting = settling.remove(at: index)
        waiting.timer?.cancel()
        waiting.continuation.resume()
    }

    /// Lets go the replies whose command's messages have all been reported.
    private func resumeSettled() {
        guard !settling.isEmpty else { return }
        for waiting in settling where !isAwaitingReports(from: waiting.cause) {
            endSettling(waiting.token)
        }
    }

    private func isAwaitingReports(from cause: InspectionCause) -> Bool {
        awaitedResponses.values.contains { $0.values.contains(cause) } || awaitedEvents.contains { $0.causes.values.contains(cause) }
            || awaitedInjections.values.contains { $0.values.contains(cause) }
    }

    /// Not offered (``unsupported``); the agent refuses the command before calling this.
    public func clearLastError() {}

    /// Not offered (``unsupported``); the agent refuses the command before calling this.
    public func clearMessageLog() {}

    // MARK: What the delegate and the page report

    public func didReceive(_ message: BridgeMessage) {
        if message.type == .request { recent.received(message.correlationId, action: message.payload.action) }
        journeyAttached(true)
        let causes = awaitedInjections.isEmpty ? [:] : awaitedInjections.removeValue(forKey: message.correlationId) ?? [:]
        // Handed to each agent as it is: the agent's thread encodes it (BridgeCore's codec, the
        // bytes this thread encoded before) and logs it in its place among the other changes.
        if !sinks.isEmpty { sinks.reportReceived(message, time: now(), causes: causes) }
        if !causes.isEmpty { resumeSettled() }
        // The delegate hears of a message before GBGBridge routes it, so nothing it changes is
        // visible yet: compare once the routing (a slot taking the request, a handler answering)
        // has happened, once for a whole burst of messages.
        guard !refreshQueued else { return }
        refreshQueued = true
        Task { @MainActor [weak self] in
            self?.refreshQueued = false
            self?.refresh()
        }
    }

    public func unhandledRequest(_ message: BridgeMessage) {
        refresh()
    }

    /// A message GBGBridge decoded and told its delegate about, in an encoding the inspector
    /// cannot read (an app's mirror could not turn it into a message): shown as a `received`
    /// malformed record with the raw text and the reason, never dropped.
    public func didReceiveUnreadable(json: Data, reason: String) {
        journeyAttached(true)
        let reason = "GBGBridge received this message, but the inspector cannot read GBGBridge's encoding of it: " + reason
        report(.malformed(MalformedInput(
            raw: json.prefix(Self.unreadRawLimit), reason: String(reason.prefix(Self.problemTextLimit)), time: now(), direction: .received)))
    }

    /// The page script saw the host deliver `json` to `window.GBGBridge.receive`: reports it as a
    /// sent message. Every shape a GBGBridge build could plausibly deliver is read
    /// (``SentDeliveryDecoder``: an object or a JSON string, `status` at the top level, a response
    /// without an action, an ISO timestamp); the record keeps the exact reported text. Text that
    /// still cannot be read is shown as a `sent` malformed record with the reason, and counted in
    /// ``unreadReports``.
    public func reportSent(json: String) {
        reportSent(json: json, lost: nil)
    }

    /// Reports a delivery as ``reportSent(json:)`` does, marked lost when `lost` is set: the page
    /// script saw it reach GBGBridge's no-op bootstrap `receive` (the journey had not set its own
    /// yet), and `lost` says so.
    public func reportSent(json: String, lost: String?) {
        guard lost == nil else { return reportSentWhole(json: json, lost: lost) }
        switch Self.documentedHead(of: json, maxDepth: codec.maxDepth) {
        case .read(let head) where !isAwaited(head):
            reportPlainSent(json: json, head: head)
        case .read, .notTried:
            reportSentWhole(json: json, lost: lost)
        case .refused:
            // Not BridgeCore's message JSON as it stands: the one-pass reading, which refuses
            // exactly what the head's pass refused, is not taken again.
            reportSentWhole(json: json, lost: lost, documentedRefused: true)
        }
    }

    /// Whether the report whose head is `head` is an inspector command's message the adapter
    /// awaits: read whole then (``reportSentWhole(json:lost:documentedRefused:)``), for its causes.
    private func isAwaited(_ head: BridgeMessageReader.Head) -> Bool {
        switch head.type {
        case .response: return !awaitedResponses.isEmpty && awaitedResponses[head.correlationId] != nil
        case .event: return !awaitedEvents.isEmpty && awaitedEvents.contains(where: { $0.name == head.action })
        default: return false
        }
    }

    /// The head of `json` when it is BridgeCore's message JSON as it stands and small enough to
    /// hand over as text, read in one validating pass over the string's UTF-8 bytes where they
    /// lie, building nothing else. Not isolated: the closure that reads them then needs no check
    /// that it runs on the main actor.
    private nonisolated static func documentedHead(of json: String, maxDepth: Int) -> SentReportHead {
        var text = json
        guard text.utf8.count <= InspectionSink.plainSentLimit else { return .notTried }
        let head = text.withUTF8 { DocumentedDeliveryReader.head(in: UnsafeRawBufferPointer($0), maxDepth: maxDepth) }
        guard let head else { return .refused }
        return .read(head)
    }

    /// Reports a plain record (its head read by ``documentedHead(of:maxDepth:)``, not awaited by a
    /// command): what ``reportSentWhole(json:lost:documentedRefused:)`` does for
    /// it, with the text handed to each agent, which reads the message from it if it needs one.
    private func reportPlainSent(json: String, head: BridgeMessageReader.Head) {
        sentReports += 1
        if head.type == .response { recent.answered(head.correlationId) }
        journeyAttached(true)
        sinks.reportSent(json: json, time: now())
        resumeSettled()
        refresh()
    }

    /// Reads a report whole (``SentDeliveryDecoder``) and reports it: a report in another shape
    /// than BridgeCore's, one marked lost, one an inspector's command awaits, or an unreadable one.
    /// With `documentedRefused`, the head's pass already found it is not BridgeCore's message JSON
    /// as it stands, and it is parsed whole at once (what `decode` does after that one-pass
    /// reading refuses it).
    private func reportSentWhole(json: String, lost: String?, documentedRefused: Bool = false) {
        let bytes = Self.bytes(of: json)
        guard bytes.count <= Self.reportLimit else {
            unread(raw: bytes.prefix(Self.unreadRawLimit), reason: "a report of \(bytes.count) bytes, over the limit of \(Self.reportLimit)")
            return
        }
        let delivery: SentDeliveryDecoder.Delivery
        // Asked only for a response that names no action: `recent` is read then, not copied for every report.
        func actionOfRequest(_ id: String) -> String? { recent.action(of: id) ?? Self.action(ofRequest: id, in: api) }
        let read =
            documentedRefused
            ? SentDeliveryDecoder.decodeParsingWhole(bytes, maxDepth: codec.maxDepth, actionOfRequest: actionOfRequest)
            : SentDeliveryDecoder.decode(bytes, maxDepth: codec.maxDepth, actionOfRequest: actionOfRequest)
        switch read {
        case .success(let read): delivery = read
        case .failure(let problem):
            unread(raw: bytes, reason: problem.reason)
            return
        }
        let message = delivery.message
        sentReports += 1
        if lost != nil { lostReports += 1 }
        if message.type == .response { recent.answered(message.correlationId) }
        journeyAttached(true)
        var causes: [ObjectIdentifier: InspectionCause] = [:]
        // Looked up only while an inspector's command awaits a report (an empty table still
        // hashed the id of every response the app sent).
        if message.type == .response, !awaitedResponses.isEmpty, let awaited = awaitedResponses.removeValue(forKey: message.correlationId) {
            causes = awaited
        } else if message.type == .event, !awaitedEvents.isEmpty, let index = awaitedEvents.firstIndex(where: { $0.name == message.payload.action }) {
            causes = awaitedEvents.remove(at: index).causes
        }
        if !causes.isEmpty {
            sentByInspector.append(message.correlationId)
            if sentByInspector.count > Self.awaitedLimit { sentByInspector.removeFirst(sentByInspector.count - Self.awaitedLimit) }
        }
        let change = BridgeChange.traffic(TrafficRecord(
            direction: .sent, message: message, json: delivery.json, time: now(), reported: delivery.reported,
            lost: lost.map { String($0.prefix(Self.problemTextLimit)) }))
        sinks.report(change, causes: causes)
        resumeSettled()
        refresh()
    }

    /// The page script started on a newly loaded page: a journey is attached.
    public func reportPageLoaded() {
        journeyAttached(true)
    }

    /// Takes one report of the page script (`OutgoingTap` in an app): a sent message (lost or
    /// not), a page load, or a problem, which is shown as a `sent` malformed record with the
    /// reason (``unreadReports``, ``lastUnreadReport``).
    public func handle(_ report: OutgoingTapReport) {
        switch report {
        case .sent(let json): reportSent(json: json)
        case .lost(let json, let reason): reportSent(json: json, lost: reason)
        case .page:
            reportPageLoaded()
            pageChanged()
        case .unreportable(let reason):
            unread(raw: Data(), reason: "the page script could not copy what receive got: " + reason)
        case .blind(let reason):
            unread(raw: Data(), reason: "the page script cannot see deliveries to this window.GBGBridge: " + reason)
        case .invalid(let reason):
            unread(raw: Data(), reason: "a post to the page script's handler that is not a report: " + reason)
        case .intercept(let page, let id, let direction, let json):
            intercepted(page: page, id: id, direction: direction, json: json)
        }
    }

    /// Shows a report that could not be read: a `sent` malformed record, counted.
    private func unread(raw: Data, reason: String) {
        let input = MalformedInput(raw: raw, reason: String(reason.prefix(Self.problemTextLimit)), time: now(), direction: .sent)
        unreadReports += 1
        lastUnreadReport = MalformedInput(raw: raw.prefix(Self.unreadRawLimit), reason: input.reason, time: input.time, direction: .sent)
        report(.malformed(input))
    }

    /// The UTF-8 bytes of `text` in one copy (`Data(text.utf8)` reads them one at a time).
    private static func bytes(of text: String) -> Data {
        var text = text
        return text.withUTF8 { Data($0) }
    }

    /// The action of the request `id` names, from what GBGBridge still holds, for a request the
    /// adapter did not see arrive (before it started): a response without an action takes its
    /// request's. Requests seen arrive are looked up in ``recent`` first, without this scan.
    private static func action(ofRequest id: String, in api: API?) -> String? {
        guard let api else { return nil }
        if let pending = api.pendingRequests.last(where: { $0.correlationId == id }) { return pending.payload.action }
        return api.receivedMessages.last { $0.type == .request && $0.correlationId == id }?.payload.action
    }

    /// The largest report read (a bridge message larger than this is not one GBGBridge sends).
    public static var reportLimit: Int { 64 * 1024 * 1024 }
    /// The most of an unread report's raw text kept for ``lastUnreadReport`` and over-limit rows
    /// (the agent keeps at most 64 KiB of a row's raw text anyway).
    static var unreadRawLimit: Int { 64 * 1024 }
    /// The longest problem text taken from the page.
    static var problemTextLimit: Int { 1024 }
    static var awaitedLimit: Int { 1000 }

    // MARK: Comparing the public state

    /// Compares the public properties with what was last seen and reports the differences.
    ///
    /// It runs after every message, and nearly always little or nothing changed: the public state
    /// is read in one call into the reading kept (``GBGBridgeHostAPI/readPublicState(into:)``,
    /// which says which slots changed since the last read), each part is compared where it lies
    /// first (the pending ids in order, a changed slot's fields), and the work of reporting a
    /// difference (the time, the change, the new state) is done only for a part that differs.
    /// Every change found in one comparison has the same time, read when the first is found.
    public func refresh() {
        // The app's code runs inside the read, with the reading kept lent to it: a comparison
        // asked for from there (the app's mirror calling back into the adapter) does not start,
        // so nothing reaches the reading while it is lent; this one compares what was read.
        guard let api, !isReadingPublicState else { return }
        isReadingPublicState = true
        api.readPublicState(into: &reading)
        isReadingPublicState = false
        if let proxy, reading.delegateObject !== proxy {
            // The app set its own delegate after the adapter started: chain to it again.
            appDelegate = api.delegateObject
            self.proxy = api.installDelegateProxy(reportingTo: self, forwardingTo: appDelegate)
        }
        compareReading()
        reading.letGoOfHostObjects()
    }

    /// Compares ``reading`` with what was last seen and reports the differences (``refresh()``).
    /// A slot the read did not change is not compared: its state seen was made from the reading
    /// before, or found to match it, so it still matches.
    private func compareReading() {
        var time: Date?
        if reading.lastError != lastError {
            lastError = reading.lastError
            report(.lastError(lastError, time: Self.stamp(&time, now)))
        }
        if !PendingChange.isUnchanged(from: pending, to: reading.pendingRequests) {
            comparePending(reading.pendingRequests, time: Self.stamp(&time, now))
        }
        if reading.documentChanged { compareSlot(.document, reading.document, time: &time) }
        if reading.selfieChanged { compareSlot(.selfie, reading.selfie, time: &time) }
    }

    /// The time of the changes one comparison finds: read from `now` when the first is found.
    private static func stamp(_ time: inout Date?, _ now: () -> Date) -> Date {
        if let time { return time }
        let read = now()
        time = read
        return read
    }

    /// Reports how `pendingRequests` (now `current`) differs from what was last seen.
    private func comparePending(_ current: [BridgeMessage], time: Date) {
        let change = PendingChange(from: pending, to: current, beforeIsUnique: pendingIsUnique)
        // Read from the list seen, which stays as it is until the change is applied below.
        change.forEachRemoved(from: pending) { id, action in
            recent.leftPending(id)
            report(.pendingRemoved(correlationId: id, action: action))
        }
        // By index: each message is copied once, into its report.
        for index in change.added.indices {
            report(.pendingAdded(PendingRequest(message: change.added[index], since: time)))
        }
        // A list reordered with the same ids is no change: the order seen stays, as it did.
        guard !change.isEmpty else { return }
        change.apply(to: &pending, since: &pendingSince, after: current, time: time)
        pendingIsUnique = change.afterIsUnique
    }

    /// Reports how the `kind` slot (read as `slot`) differs from what was last seen, if it does.
    private func compareSlot(_ kind: CaptureCapability.Kind, _ slot: CaptureSlotReading, time: inout Date?) {
        // Unchanged (nearly always): the state made again would equal the one seen, so it is not
        // made (its strings, the active request copied) only to be compared. The state seen is
        // compared where it lies, not copied.
        if slots.matches(kind, slot) { return }
        let stamp = Self.stamp(&time, now)
        let previous = slots[kind]
        let since = previous?.activeRequest?.correlationId == slot.activeRequest?.correlationId ? previous?.activeSince : stamp
        let state = Self.state(of: slot, kind: kind, since: since)
        if state != previous {
            slots[kind] = state
            report(.slot(state))
        }
    }

    func journeyAttached(_ attached: Bool) {
        guard attached != journeyAttached else { return }
        journeyAttached = attached
        report(.journeyAttachment(attached))
    }

    func report(_ change: BridgeChange) {
        sinks.report(change)
    }

    /// Remembers which command (if any) is answering `correlationId`, until the page reports the
    /// response. Bounded: a page that never reports (no script installed) cannot grow it.
    func expectResponse(to correlationId: String) {
        if awaitedResponses.count >= Self.awaitedLimit, let any = awaitedResponses.keys.first {
            awaitedResponses.removeValue(forKey: any)
            resumeSettled()
        }
        awaitedResponses[correlationId] = runningCauses()
    }

    private func runningCauses() -> [ObjectIdentifier: InspectionCause] {
        sinks.runningCauses()
    }

    private static func capture(_ kind: CaptureCapability.Kind, of api: API) -> API.Capture {
        switch kind {
        case .document: return api.documentCapture
        case .selfie: return api.selfieCapture
        }
    }

    private static func state(of slot: CaptureSlotReading, kind: CaptureCapability.Kind, since: Date?) -> CaptureSlotState {
        CaptureSlotState(
            kind: kind, capabilityId: kind.capabilityId, action: kind.action, version: "",
            hasHandler: slot.hasHandler, isEnabled: slot.isEnabled, isSupported: slot.isSupported,
            permissionState: slot.permissionState, activeRequest: slot.activeRequest, activeSince: slot.activeRequest == nil ? nil : since)
    }
}

/// What the head's pass made of a sent report (`PublicAPIHost.reportSent(json:lost:)`). Outside
/// the generic adapter, so that making one is not a generic type's metadata lookup.
private enum SentReportHead {
    /// BridgeCore's message JSON as it stands, small enough to hand over as text.
    case read(BridgeMessageReader.Head)
    /// Not BridgeCore's message JSON as it stands (`DocumentedDeliveryReader` refuses it too).
    case refused
    /// Too large to hand over as text: not read.
    case notTried
}

/// One agent's reporting from a ``PublicAPIHost``.
@MainActor
private final class SinkReporting: InspectionReporting {
    var onStop: (() -> Void)?

    func stop() {
        onStop?()
        onStop = nil
    }
}

/// A reply waiting in `PublicAPIHost.settle(after:)` for the page's reports. Outside the
/// generic adapter, so that a look at the waiting replies (after every report) is not a generic
/// type's metadata lookup.
private struct SettlingReply {
    var token: Int
    var cause: InspectionCause
    var continuation: CheckedContinuation<Void, Never>
    var timer: Task<Void, Never>?
}
