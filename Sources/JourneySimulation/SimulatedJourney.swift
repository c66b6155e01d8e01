import BridgeCore
import Foundation

/// A web journey simulated in-process: the other end of a ``BridgeHost``.
///
/// It is the host's ``JourneyTransport``, and it receives exactly what a WKWebView would: the
/// JavaScript `window.GBGBridge.receive(...)` call of each delivery, from which it recovers the
/// message with ``JavaScriptDelivery/messageJSON(fromScript:)``. It sends with
/// ``BridgeHost/receive(_:)``, as `postMessage` would. Like the web SDK it correlates responses
/// with its requests and gives up on a request after a timeout (5 s for `capability.query`,
/// 30 s otherwise). Everything it sees is kept in ``entries`` and, with a ``JourneyLog``, written
/// to a file.
///
/// ```swift
/// let host = profile.makeHost()
/// let journey = SimulatedJourney(host: host)      // attaches itself
/// host.sendReadyEvent()
/// await journey.run(scenario)                     // cancel the task to stop a looping scenario
/// ```
///
/// Its time is an input: timeouts, `wait` steps and latencies run on ``clock``, and log times and
/// timestamps come from ``now``. Tests pass a clock they move themselves (TestSupport's
/// `ManualClock`), so a timeout passes when the test says and never while it checks something
/// else.
@MainActor
public final class SimulatedJourney: JourneyTransport {
    /// The host this journey talks to.
    public let host: BridgeHost
    /// The file log, if any.
    public let log: JourneyLog?
    /// Called with every new entry, after it is logged.
    public var onEntry: ((JourneyLogEntry) -> Void)?
    /// The most recent entries, oldest first (at most ``maximumEntries``).
    public private(set) var entries: [JourneyLogEntry] = []
    /// How many entries are kept in ``entries``; older ones remain only in the file log.
    public var maximumEntries = 5_000
    /// How many entries of each kind there have been, including those no longer kept.
    public private(set) var counts: [JourneyLogEntry.Kind: Int] = [:]

    /// A request the journey is waiting on.
    struct Outstanding {
        var message: BridgeMessage
        var json: String
        var label: String?
        /// When it was sent, as time elapsed on the journey's clock.
        var sentAt: Duration
        /// Which request this was, counting from the journey's first: orders requests sent at
        /// the same time (a clock that a test moves stands still in between).
        var order: Int
        var timeoutMs: Int
        var timer: Task<Void, Never>?
    }

    struct Waiter {
        var token: Int
        var continuation: CheckedContinuation<BridgeMessage?, Never>
        var timer: Task<Void, Never>?
    }

    /// The clock the journey's timeouts, `wait` steps and latencies run on.
    public let clock: any Clock<Duration>
    /// Where the times of log entries and the timestamps of messages come from.
    public let now: @Sendable () -> Date

    private let codec = BridgeMessageCodec()
    private let timeline: ClockTimeline
    private let runToken: String
    private var sequence = 0
    private var nextWaiterToken = 0
    private var requestsSent = 0
    private var outstanding: [String: Outstanding] = [:]
    private var waiters: [String: [Waiter]] = [:]
    private var labels: [String: String] = [:]
    private var responses = BoundedMap<BridgeMessage>(capacity: 512)
    private var gaveUp = BoundedMap<Outstanding>(capacity: 1_024)
    private var stopped = false

    /// Creates a journey for `host` and attaches it as the host's transport (held weakly by the
    /// host: keep a reference to the journey). Its timeouts and waits run on `clock` and its
    /// times come from `now`: the real ones by default; tests pass a clock they move.
    public init(
        host: BridgeHost, log: JourneyLog? = nil, clock: any Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.host = host
        self.log = log
        self.clock = clock
        self.now = now
        self.timeline = ClockTimeline(clock)
        self.runToken = String(UInt16.random(in: 0...UInt16.max), radix: 16)
        host.attach(self)
    }

    // MARK: Receiving (host to journey)

    /// Receives one delivery through the JavaScript path, as `evaluateJavaScript` would run it.
    ///
    /// Throws (the host then records `evaluateJavaScript failed: ...`) when the script is not a
    /// `window.GBGBridge.receive(...)` call or its argument is not a message.
    public func deliver(_ delivery: JourneyDelivery) throws {
        let script = delivery.javaScript
        guard let json = JavaScriptDelivery.messageJSON(fromScript: script) else {
            record(JourneyLogEntry(time: now(), kind: .note, text: "the host evaluated a script that is not a window.GBGBridge.receive(...) call; it was ignored"))
            throw SimulatedJourneyError.notADeliveryScript
        }
        let text = String(decoding: json, as: UTF8.self)
        let message: BridgeMessage
        switch codec.decode(json) {
        case .failure(let failure):
            record(JourneyLogEntry(time: now(), kind: .note, json: text, text: "the journey could not decode a delivery: \(failure.reason)"))
            throw SimulatedJourneyError.undecodable(failure.reason)
        case .success(let decoded):
            message = decoded
        }
        switch message.type {
        case .response:
            receiveResponse(message, json: text)
        case .event:
            record(JourneyLogEntry(time: now(), kind: .received, message: message, json: text))
        case .request:
            record(JourneyLogEntry(time: now(), kind: .received, message: message, json: text))
            note("the host sent a request (\(message.payload.action)); the bridge protocol has no host-to-journey requests, so the journey does not answer it")
        }
    }

    private func receiveResponse(_ message: BridgeMessage, json: String) {
        let id = message.correlationId
        if let request = outstanding.removeValue(forKey: id) {
            request.timer?.cancel()
            let latency = milliseconds(since: request.sentAt)
            record(JourneyLogEntry(time: now(), kind: .received, message: message, json: json, label: request.label, latencyMs: latency))
            responses[id] = message
            resumeWaiters(for: id, with: message)
        } else if let abandoned = gaveUp[id] {
            record(JourneyLogEntry(time: now(), kind: .received, message: message, json: json, label: abandoned.label, latencyMs: milliseconds(since: abandoned.sentAt)))
            note("late response to \(abandoned.message.payload.action) (\(id)): it arrived after the journey's \(abandoned.timeoutMs) ms timeout, so the web SDK would ignore it")
        } else if responses[id] != nil {
            record(JourneyLogEntry(time: now(), kind: .received, message: message, json: json))
            note("second response to \(message.payload.action) (\(id)): the request was already answered")
        } else {
            record(JourneyLogEntry(time: now(), kind: .received, message: message, json: json))
            note("response for unknown correlationId \(id): the journey sent no request with this id")
        }
    }

    // MARK: Sending (journey to host)

    /// Sends a message to the host and returns its correlation id. Requests are then waited on
    /// until they are answered or time out.
    @discardableResult
    public func send(_ spec: ScenarioMessage) -> String {
        let id = spec.correlationId ?? nextCorrelationId(event: spec.type == .event)
        let message = BridgeMessage(
            version: spec.version ?? BridgeMessage.protocolVersion, correlationId: id, type: spec.type,
            timestamp: spec.timestamp ?? (now().timeIntervalSince1970 * 1000).rounded(),
            payload: .init(action: spec.action, data: spec.data, status: spec.status, error: spec.error))
        let json: Data
        do {
            json = try codec.encode(message)
        } catch {
            note("could not encode \(spec.action): \(error); nothing was sent")
            return id
        }
        let text = String(decoding: json, as: UTF8.self)
        if let label = spec.label { labels[label] = id }
        if spec.type == .request {
            if let earlier = outstanding.removeValue(forKey: id) {
                earlier.timer?.cancel()
                note("correlationId \(id) was reused while its earlier request was still waiting for a response")
            }
            responses[id] = nil
            requestsSent += 1
            var request = Outstanding(
                message: message, json: text, label: spec.label, sentAt: timeline.elapsed, order: requestsSent,
                timeoutMs: spec.effectiveTimeoutMs)
            let deadline = request.sentAt + .milliseconds(request.timeoutMs)
            let timeline = self.timeline
            request.timer = Task { @MainActor [weak self] in
                try? await timeline.sleep(untilElapsed: deadline)
                guard !Task.isCancelled else { return }
                self?.giveUp(on: id, because: nil)
            }
            outstanding[id] = request
        }
        // Logged before the host sees it: the host may answer synchronously (BUSY).
        record(JourneyLogEntry(time: now(), kind: .sent, message: message, json: text, label: spec.label))
        host.receive(json)
        return id
    }

    /// Sends a journey event, such as `journey.step` or `journey.cancel`.
    public func sendEvent(_ name: String, data: [String: JSONValue]? = nil) {
        send(ScenarioMessage(type: .event, action: name, data: data))
    }

    /// Sends `text` to the host exactly as given, valid or not.
    public func sendRaw(_ text: String) {
        record(JourneyLogEntry(time: now(), kind: .sent, raw: text))
        host.receive(Data(text.utf8))
    }

    private func nextCorrelationId(event: Bool) -> String {
        sequence += 1
        return event ? "web-event-\(runToken)-\(sequence)" : "web-\(runToken)-\(sequence)"
    }

    /// Makes the host forget this journey (``BridgeHost/detach()``), as a host that lost or
    /// never set its WebView reference: the journey can still send (the host's message handler
    /// is registered apart from `attach`), but nothing the host sends reaches it any more; each
    /// such send fails with `WebView not attached` in the host's `lastError`.
    public func detachFromHost() {
        host.detach()
        note("the host no longer has this journey attached (a detach step): what it sends from now on is not delivered")
    }

    // MARK: Waiting

    /// The response to the most recent request sent with `label`, if it has arrived.
    public func response(forLabel label: String) -> BridgeMessage? {
        labels[label].flatMap { responses[$0] }
    }

    /// The correlation id of the most recent message sent with `label`.
    public func correlationId(forLabel label: String) -> String? {
        labels[label]
    }

    /// Whether the journey is still waiting for a response to `correlationId`.
    public func isWaiting(for correlationId: String) -> Bool {
        outstanding[correlationId] != nil
    }

    /// The correlation ids of requests still waiting for a response, oldest first.
    public var waitingRequests: [BridgeMessage] {
        outstanding.values.sorted { ($0.sentAt, $0.order) < ($1.sentAt, $1.order) }.map(\.message)
    }

    /// Waits for the response to the most recent request sent with `label`: until it arrives,
    /// the request times out, or `timeoutMs` passes, whichever is first. When `timeoutMs` passes
    /// first the journey gives up on the request and notes a timeout. Returns the response, or
    /// `nil` when none came.
    @discardableResult
    public func awaitResponse(label: String, timeoutMs: Int) async -> BridgeMessage? {
        guard let id = labels[label] else {
            note("awaitResponse: no request labelled \"\(label)\" has been sent")
            return nil
        }
        if let response = responses[id] { return response }
        guard outstanding[id] != nil else { return nil }
        let deadline = timeline.elapsed + .milliseconds(timeoutMs)
        let response = await wait(for: id, until: deadline)
        if response == nil, outstanding[id] != nil, !Task.isCancelled {
            giveUp(on: id, because: timeoutMs)
        }
        return response
    }

    private func wait(for id: String, until deadline: Duration) async -> BridgeMessage? {
        nextWaiterToken += 1
        let token = nextWaiterToken
        let timeline = self.timeline
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<BridgeMessage?, Never>) in
                if Task.isCancelled {
                    continuation.resume(returning: nil)
                    return
                }
                let timer = Task { @MainActor [weak self] in
                    try? await timeline.sleep(untilElapsed: deadline)
                    guard !Task.isCancelled else { return }
                    self?.resumeWaiter(id: id, token: token)
                }
                waiters[id, default: []].append(Waiter(token: token, continuation: continuation, timer: timer))
            }
        } onCancel: {
            Task { @MainActor [weak self] in self?.resumeWaiter(id: id, token: token) }
        }
    }

    private func resumeWaiter(id: String, token: Int) {
        guard var list = waiters[id], let index = list.firstIndex(where: { $0.token == token }) else { return }
        let waiter = list.remove(at: index)
        waiters[id] = list.isEmpty ? nil : list
        waiter.timer?.cancel()
        waiter.continuation.resume(returning: nil)
    }

    private func resumeWaiters(for id: String, with response: BridgeMessage?) {
        guard let list = waiters.removeValue(forKey: id) else { return }
        for waiter in list {
            waiter.timer?.cancel()
            waiter.continuation.resume(returning: response)
        }
    }

    /// Stops waiting for `id`: notes a timeout (once) and wakes anything waiting for it.
    private func giveUp(on id: String, because stepTimeoutMs: Int?) {
        guard var request = outstanding.removeValue(forKey: id) else { return }
        request.timer?.cancel()
        request.timer = nil
        gaveUp[id] = request
        let waited = stepTimeoutMs ?? request.timeoutMs
        let reason = stepTimeoutMs == nil
            ? "no response to \(request.message.payload.action) within the journey's \(request.timeoutMs) ms timeout"
            : "awaitResponse gave up on \(request.message.payload.action) after \(waited) ms"
        record(JourneyLogEntry(
            time: now(), kind: .timeout, message: request.message, json: request.json, label: request.label,
            timeoutMs: waited, text: reason))
        resumeWaiters(for: id, with: nil)
    }

    // MARK: Running a scenario

    /// Runs `scenario` on the main actor: once, or until the task is cancelled when it loops.
    /// Returns when the steps end or the task is cancelled.
    public func run(_ scenario: JourneyScenario) async {
        note("scenario \"\(scenario.name)\" started" + (scenario.loop ? " (looping)" : ""))
        var pass = 0
        repeat {
            pass += 1
            if pass > 1 { note("scenario \"\(scenario.name)\" pass \(pass)") }
            await run(scenario.steps)
        } while scenario.loop && !Task.isCancelled && !stopped
        note(Task.isCancelled || stopped ? "scenario \"\(scenario.name)\" stopped" : "scenario \"\(scenario.name)\" finished")
    }

    private func run(_ steps: [ScenarioStep]) async {
        for step in steps {
            if Task.isCancelled || stopped { return }
            switch step {
            case .send(let message):
                send(message)
            case .sendRaw(let text):
                sendRaw(text)
            case .wait(let milliseconds):
                if milliseconds > 0 { try? await clock.sleep(for: .milliseconds(milliseconds)) }
            case .awaitResponse(let label, let timeoutMs):
                await awaitResponse(label: label, timeoutMs: timeoutMs)
            case .event(let name, let data):
                sendEvent(name, data: data)
            case .detach:
                detachFromHost()
            case .repeat(let times, let body):
                for _ in 0..<times {
                    if Task.isCancelled || stopped { return }
                    await run(body)
                }
            }
        }
    }

    /// Stops the journey: a running scenario ends at its next step, request timers are cancelled
    /// and anything waiting is woken. Call it before shutting the host down.
    public func stop() {
        stopped = true
        for request in outstanding.values { request.timer?.cancel() }
        for id in Array(waiters.keys) { resumeWaiters(for: id, with: nil) }
    }

    // MARK: Log

    /// Adds a note to the log.
    public func note(_ text: String) {
        record(JourneyLogEntry(time: now(), kind: .note, text: text))
    }

    private func record(_ entry: JourneyLogEntry) {
        entries.append(entry)
        if entries.count > maximumEntries { entries.removeFirst(entries.count - maximumEntries) }
        counts[entry.kind, default: 0] += 1
        log?.write(entry)
        onEntry?(entry)
    }

    private func milliseconds(since instant: Duration) -> Int {
        ClockTimeline.milliseconds(timeline.elapsed - instant)
    }
}
