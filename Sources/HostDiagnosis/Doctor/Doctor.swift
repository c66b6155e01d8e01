import BridgeCore
import InspectorClient
import InspectorProtocol

/// GBGBridge's troubleshooting page applied to what an inspector sees of a live host: each item
/// of its debugging checklist that can be observed becomes a check (``DoctorCheckID``) that is
/// ok, warns or fails, with the evidence, the documented fix and the heading it comes from.
///
/// Feed it the inspector's ``LiveState``; it reads the state and the linter's marks on the log
/// (``LintRule``), and never changes anything:
///
/// ```swift
/// let report = Doctor().examine(state, hostNow: clock.hostNow(localNow: nowMs))
/// for check in report.checks where check.status >= .warning { print(check.title, check.summary) }
/// ```
///
/// Messages an inspector made (responses, events, slot completions, injections: ✎ in the log)
/// never count: the app did not make them. A check that saw some says so in its summary ("not
/// counted: 1 made by an inspector") and judges by the others alone.
///
/// Through GBG's GBGBridge public API (``WireHostInfo/inspectionPath`` `public-api`) some checks
/// cannot see what they need; they report ``DoctorStatus/notRun`` and say why.
public struct Doctor: Sendable {
    /// The limits it judges by.
    public var thresholds: DoctorThresholds

    /// A doctor with `thresholds` (the defaults unless given).
    public init(thresholds: DoctorThresholds = DoctorThresholds()) {
        self.thresholds = thresholds
    }

    /// Runs every check on `state`. `hostNow` is the host's clock now, in milliseconds since 1970
    /// (``HostClock/hostNow(localNow:)``): ages of pending requests and busy slots are measured
    /// on it.
    public func examine(_ state: LiveState, hostNow: Double) -> DoctorReport {
        let context = Context(state: state, hostNow: hostNow, thresholds: thresholds)
        return DoctorReport(host: state.host, time: hostNow, checks: DoctorCheckID.allCases.map { context.check($0) })
    }
}

/// One examination: the state, the time and the rows each lint rule marked.
private struct Context {
    let state: LiveState
    let hostNow: Double
    let thresholds: DoctorThresholds
    let rows: [LintRule: [Int]]
    /// The rows an inspector made that break each rule: shown, never counted.
    let inspectorMadeRows: [LintRule: [Int]]
    let isPublicAPI: Bool

    init(state: LiveState, hostNow: Double, thresholds: DoctorThresholds) {
        self.state = state
        self.hostNow = hostNow
        self.thresholds = thresholds
        var rows: [LintRule: [Int]] = [:]
        for index in state.lintedRows {
            if let rule = state.log[index].lint { rows[rule, default: []].append(index) }
        }
        self.rows = rows
        var inspectorMadeRows: [LintRule: [Int]] = [:]
        for index in state.inspectorMadeLintRows {
            if let rule = state.log[index].lint { inspectorMadeRows[rule, default: []].append(index) }
        }
        self.inspectorMadeRows = inspectorMadeRows
        isPublicAPI = state.host?.inspectionPath == HostFeature.publicAPIPath
    }

    func check(_ id: DoctorCheckID) -> DoctorCheck {
        switch id {
        case .lastError: return lastError()
        case .journey: return journey()
        case .malformedInput:
            if let reason = state.host?.unsupportedReason(.malformedInput) {
                return DoctorCheck(id: id, status: .notRun, summary: "Cannot run: \(reason). Decode failures still show in last-error.")
            }
            return fromRows(id, [.malformed], status: .failure, found: ("input from the journey", "inputs from the journey"), verb: "failed to decode", none: "Every message from the journey decoded.")
        case .pendingRequests: return pendingRequests()
        case .abandonedRequests: return abandonedRequests()
        case .actionMismatch: return actionMismatch()
        case .slotUnsupported:
            return slotFix(fromRows(id, [.slotNoHandler, .slotDisabled], status: .failure, found: ("capture request", "capture requests"), verb: "for a slot with no handler or disabled", none: "No capture was asked of a slot without a handler or disabled."), rows: [.slotNoHandler, .slotDisabled])
        case .capabilityNotReported:
            return fromRows(id, [.notReported], status: .warning, found: ("request", "requests"), verb: "for a capability capability.query did not report as supported", none: "Every request matches what capability.query reported.")
        case .slotBusy: return slotBusy()
        case .permissionNotDetermined:
            return slotFix(fromRows(id, [.permissionNotDetermined], status: .warning, found: ("capture request", "capture requests"), verb: "while the slot's permissionState was notDetermined", none: "No capture was asked for while permission was notDetermined."), rows: [.permissionNotDetermined])
        case .largePayloads: return largePayloads()
        case .messageAccumulation: return messageAccumulation()
        case .unknownResponses:
            return fromRows(id, [.unknownResponse], status: .warning, found: ("response from the journey", "responses from the journey"), verb: "answering no request", none: "The journey sent no response that answers nothing.")
        case .duplicateIds:
            return fromRows(id, [.duplicateId], status: .failure, found: ("request", "requests"), verb: "reusing the correlationId of one still waiting (not routed)", none: "No request reused a waiting correlationId.")
        case .lostMessages:
            if isPublicAPI {
                // The page script sees one kind: a delivery to GBGBridge's no-op bootstrap receive
                // (Troubleshooting, "Messages Not Being Received by the Web Journey": "window.GBGBridge.receive not defined").
                guard rows[.lost] == nil else { return lostToNoOpReceive() }
                return DoctorCheck(
                    id: id, status: .notRun,
                    summary: "Cannot run: GBGBridge's public API does not say whether a message reached the page (the page script saw none reach the no-op receive). \"WebView not attached\" still shows in last-error.")
            }
            return fromRows(id, [.notDelivered, .lost], status: .failure, found: ("message the host sent", "messages the host sent"), verb: "not delivered", none: "Every message the host sent was delivered.")
        case .unreadSentReports: return unreadSentReports()
        case .contract: return Doctor.contractCheck(state, evidenceLimit: thresholds.evidenceLimit)
        }
    }

    // MARK: Checks from the linter's marks

    /// A check that fails or warns for each row marked with one of `rules`.
    private func fromRows(
        _ id: DoctorCheckID, _ rules: [LintRule], status: DoctorStatus, found: (one: String, many: String), verb: String, none: String
    ) -> DoctorCheck {
        let indexes = rules.flatMap { rows[$0] ?? [] }.sorted()
        let notCounted = Self.notCounted(rules.reduce(0) { $0 + (inspectorMadeRows[$1]?.count ?? 0) })
        guard !indexes.isEmpty else { return DoctorCheck(id: id, status: .ok, summary: none + notCounted) }
        let evidence = indexes.prefix(thresholds.evidenceLimit).map(rowEvidence)
        return DoctorCheck(
            id: id, status: status, summary: "\(Self.count(indexes.count, found.one, found.many)) \(verb).\(notCounted)", evidence: evidence,
            moreEvidence: indexes.count - evidence.count)
    }

    /// What a check's summary adds when an inspector made `count` of the messages it looks for
    /// (nothing when none): they are left out of its verdict.
    static func notCounted(_ count: Int) -> String {
        count == 0 ? "" : " Not counted: \(Self.count(count, "message")) made by an inspector (✎)."
    }

    private func rowEvidence(_ index: Int) -> DoctorEvidence {
        let entry = state.log[index]
        let reason = state.lintReasons[index] ?? entry.lint?.label ?? ""
        let what = entry.kind == .malformed ? (entry.direction == .sent ? "unread page report" : "malformed input") : "\(entry.type?.rawValue ?? "message") \(entry.summary)"
        return DoctorEvidence(
            "\(what): \(reason)", seq: entry.seq, correlationId: entry.correlationId.isEmpty ? entry.malformedCorrelationId : entry.correlationId,
            time: entry.time)
    }

    // MARK: What the host sends, as a page script reports it

    /// Messages that reached GBGBridge's no-op bootstrap `receive`: the journey had not set its
    /// own, so it never got them.
    private func lostToNoOpReceive() -> DoctorCheck {
        var check = fromRows(
            .lostMessages, [.lost], status: .failure, found: ("message the host sent", "messages the host sent"),
            verb: "reached GBGBridge's no-op receive before the journey set its own (lost)", none: "")
        check.fix = "The web journey must replace the no-op receive() with its own implementation, after each page load and before the host sends; check window.GBGBridge.receive.toString() in Safari Web Inspector."
        return check
    }

    /// Reports of what the host sent that the inspector could not read: counted by the agent
    /// (rows may have left the log), with the rows still in it as evidence.
    private func unreadSentReports() -> DoctorCheck {
        let count = state.counts.unreadSentReports ?? 0
        guard count > 0 else {
            return DoctorCheck(id: .unreadSentReports, status: .ok, summary: "Every report of what the host sent was read.")
        }
        let indexes = rows[.unreadSentReport] ?? []
        var evidence = indexes.suffix(thresholds.evidenceLimit).map(rowEvidence)
        if evidence.isEmpty, let last = state.lastUnreadSentReport {
            evidence = [DoctorEvidence("unread page report: \(last.reason)", seq: last.seq, time: last.time)]
        }
        return DoctorCheck(
            id: .unreadSentReports, status: .warning,
            summary: "\(Self.count(count, "report", "reports")) of what the host sent could not be read: the log shows \(count == 1 ? "it" : "each") with its text and why.",
            evidence: evidence, moreEvidence: max(0, count - evidence.count))
    }

    // MARK: lastError

    private func lastError() -> DoctorCheck {
        // Errors an inspector caused (an injected bad message, an answer to an injected
        // request) are shown, marked, and never counted against the app.
        let errors = state.errorHistory.filter { $0.text != nil }
        let inspectorMade = errors.filter(state.isInspectorMade).count
        let current = state.lastError.map { $0.text != nil ? 1 : 0 } ?? 0
        let currentIsInspectors = state.lastError.map(state.isInspectorMade) ?? false
        let earlier = max(0, errors.count - inspectorMade - (current == 1 && !currentIsInspectors ? 1 : 0))
        let earlierInspectors = max(0, inspectorMade - (currentIsInspectors ? 1 : 0))
        let notCounted = earlierInspectors == 0 ? "" : " Not counted: \(Self.count(earlierInspectors, "earlier error")) an inspector caused (✎)."
        guard let error = state.lastError, let text = error.text else {
            let summary = earlier == 0 ? "lastError is empty." : "lastError is empty now (\(Self.count(earlier, "earlier error")) in its history)."
            return DoctorCheck(id: .lastError, status: .ok, summary: summary + notCounted)
        }
        let kind = LastErrorKind(text)
        if currentIsInspectors {
            var evidence = [DoctorEvidence("✎ caused by an inspector: \(text)", seq: error.cause, time: error.time)]
            if earlier > 0 { evidence.append(DoctorEvidence("\(Self.count(earlier, "earlier error")) in lastError's history")) }
            // As an empty lastError with a history is: ok, the history noted.
            return DoctorCheck(
                id: .lastError, status: .ok,
                summary: "lastError: \(kind.description), caused by an inspector (✎): not counted against the app.\(notCounted)",
                guideHeading: kind.guideHeading, evidence: evidence)
        }
        var evidence = [DoctorEvidence(text, seq: error.cause, time: error.time)]
        if earlier > 0 { evidence.append(DoctorEvidence("\(Self.count(earlier, "earlier error")) in lastError's history")) }
        return DoctorCheck(
            id: .lastError, status: .failure, summary: "lastError: \(kind.description).\(notCounted)", guideHeading: kind.guideHeading, fix: kind.fix,
            evidence: evidence)
    }

    // MARK: The journey

    private func journey() -> DoctorCheck {
        if isPublicAPI {
            // The adapter knows a journey only by what it received.
            if state.journeyAttached {
                return DoctorCheck(id: .journey, status: .ok, summary: "Messages are arriving from the journey.")
            }
            return DoctorCheck(
                id: .journey, status: .warning,
                summary: "No message has arrived from the journey yet (GBGBridge's public API cannot say whether a WebView is attached).")
        }
        guard state.journeyAttached else {
            return DoctorCheck(
                id: .journey, status: .failure, summary: "No journey is attached: what the host sends fails with \"WebView not attached\".",
                guideHeading: "Messages Not Being Received by the Web Journey",
                fix: "Attach the WebView to the host (BridgeWebView, or BridgeWebViewConfigurator.configure(_:host:)) before loading the journey, and keep a reference to it.",
                evidence: [
                    DoctorEvidence(
                        state.lastReceivedAt == nil
                            ? "the host reports no journey attached, and none has sent a message"
                            : "the host reports no journey attached; the last message from one arrived then",
                        time: state.lastReceivedAt)
                ])
        }
        // Silent: nothing received since the journey attached (seen by this inspector), or ever
        // (attached before the inspector came, so since the agent started).
        let since: Double
        if let attachedAt = state.journeyAttachedAt {
            if let last = state.lastReceivedAt, last >= attachedAt {
                return DoctorCheck(id: .journey, status: .ok, summary: "A journey is attached and messages arrive from it.")
            }
            since = attachedAt
        } else {
            guard state.counts.received == 0 else {
                return DoctorCheck(id: .journey, status: .ok, summary: "A journey is attached and \(Self.count(state.counts.received, "message")) arrived from it.")
            }
            since = state.host?.startedAt ?? hostNow
        }
        let silentFor = hostNow - since
        guard silentFor >= thresholds.silentMs else {
            return DoctorCheck(id: .journey, status: .ok, summary: "A journey is attached; its first message has not arrived yet.")
        }
        return DoctorCheck(
            id: .journey, status: .failure,
            summary: "A journey is attached but has sent nothing for \(TimeFormat.duration(ms: silentFor)): a wrong message handler name (gbgBridge, lowercase g), a WebView not configured, or messages sent before the bootstrap script ran.",
            evidence: [DoctorEvidence("no message received in the \(TimeFormat.duration(ms: silentFor)) since the journey attached", time: since)])
    }

    // MARK: Action typos

    /// Requests for an action nobody handles that is a near miss of a known one: the log's rows
    /// the linter marked, and the pending requests whose rows are not in the log (they left the
    /// bounded log, or the agent's snapshot counts them by action only, past its
    /// `maxPendingRecords`), one line per action.
    private func actionMismatch() -> DoctorCheck {
        let markedRows = rows[.unhandledNearMiss] ?? []
        let markedIds = Set(markedRows.map { state.log[$0].correlationId })
        var unseen: [String: Int] = [:]
        for request in state.pending where !markedIds.contains(request.correlationId) && state.logIndex(ofOpenRequest: request.correlationId) == nil {
            unseen[request.action, default: 0] += 1
        }
        for (action, count) in state.counts.pendingOmittedActions ?? [:] { unseen[action, default: 0] += count }
        var extra: [(action: String, count: Int, reason: String)] = []
        for (action, count) in unseen {
            guard let mark = state.linter.nearMiss(for: action, slots: state.slots, capabilities: state.customCapabilities) else { continue }
            extra.append((action, count, mark.reason))
        }
        extra.sort { $0.count != $1.count ? $0.count > $1.count : $0.action < $1.action }
        let total = markedRows.count + extra.reduce(0) { $0 + $1.count }
        guard total > 0 else { return DoctorCheck(id: .actionMismatch, status: .ok, summary: "No unhandled request is a near miss of a known action.") }
        let shownRows = markedRows.prefix(thresholds.evidenceLimit)
        let shownActions = extra.prefix(max(0, thresholds.evidenceLimit - shownRows.count))
        let evidence = shownRows.map(rowEvidence) + shownActions.map { item in
            DoctorEvidence("\(Self.count(item.count, "pending request")) not in the log: \(item.reason)")
        }
        let shown = shownRows.count + shownActions.reduce(0) { $0 + $1.count }
        return DoctorCheck(
            id: .actionMismatch, status: .failure,
            summary: "\(Self.count(total, "request")) for an action nobody handles, close to one that is handled.", evidence: evidence,
            moreEvidence: total - shown)
    }

    // MARK: Pending requests

    /// Whether an inspector made the request `correlationId` (injected it), as its row in the log
    /// says; `false` when the row is not in the log.
    private func isInspectorMade(request correlationId: String) -> Bool {
        state.logIndex(ofOpenRequest: correlationId).map { state.log[$0].origin == .inspector } ?? false
    }

    private func pendingRequests() -> DoctorCheck {
        let pending = state.pending.filter { !isInspectorMade(request: $0.correlationId) }
        let notCounted = Self.notCounted(state.pending.count - pending.count)
        let total = pending.count + (state.counts.pendingOmitted ?? 0)
        guard total > 0 else { return DoctorCheck(id: .pendingRequests, status: .ok, summary: "No request is waiting in pendingRequests.\(notCounted)") }
        let evidence = pending.prefix(thresholds.evidenceLimit).map { request in
            DoctorEvidence(
                "\(request.action) waiting \(TimeFormat.duration(ms: hostNow - request.since))", correlationId: request.correlationId,
                time: request.since)
        }
        let status: DoctorStatus = total > thresholds.pendingLeak ? .failure : .warning
        let summary = status == .failure
            ? "\(Self.count(total, "request")) waiting in pendingRequests, past the leak threshold of \(thresholds.pendingLeak): requests arrive for actions with no registered handler."
            : "\(Self.count(total, "request")) waiting in pendingRequests: no handler is registered for \(total == 1 ? "its action" : "their actions")."
        return DoctorCheck(id: .pendingRequests, status: status, summary: summary + notCounted, evidence: evidence, moreEvidence: total - evidence.count)
    }

    private func abandonedRequests() -> DoctorCheck {
        let timeouts = thresholds.journeyTimeouts
        let old = state.pending.filter { timeouts.isAbandoned($0, hostNow: hostNow) }
        let abandoned = old.filter { !isInspectorMade(request: $0.correlationId) }
        let notCounted = Self.notCounted(old.count - abandoned.count)
        guard !abandoned.isEmpty else {
            return DoctorCheck(id: .abandonedRequests, status: .ok, summary: "No pending request is older than the journey's timeout.\(notCounted)")
        }
        let evidence = abandoned.prefix(thresholds.evidenceLimit).map { request in
            DoctorEvidence(
                "\(request.action) waited \(TimeFormat.duration(ms: hostNow - request.since)); the journey gives up after \(TimeFormat.duration(ms: timeouts.timeoutMs(forAction: request.action)))",
                correlationId: request.correlationId, time: request.since)
        }
        return DoctorCheck(
            id: .abandonedRequests, status: .failure,
            summary: "\(Self.count(abandoned.count, "pending request")) older than the journey's timeout: the journey has given up on \(abandoned.count == 1 ? "it" : "them").\(notCounted)",
            evidence: evidence, moreEvidence: abandoned.count - evidence.count)
    }

    // MARK: Slots

    private func slotBusy() -> DoctorCheck {
        let stuck = state.slots.filter { slot in
            guard slot.activeRequest != nil, let since = slot.activeSince else { return false }
            return hostNow - since > thresholds.busyMs
        }
        let busyRows = rows[.busy] ?? []
        if stuck.isEmpty && busyRows.isEmpty {
            return DoctorCheck(id: .slotBusy, status: .ok, summary: "No slot is stuck busy and no capture was answered BUSY.")
        }
        var evidence = stuck.map { slot in
            DoctorEvidence(
                "\(slot.kind.rawValue) slot busy for \(TimeFormat.duration(ms: hostNow - (slot.activeSince ?? hostNow))) with \(slot.activeAction ?? slot.action)",
                correlationId: slot.activeRequest, time: slot.activeSince)
        }
        evidence += busyRows.prefix(max(0, thresholds.evidenceLimit - evidence.count)).map(rowEvidence)
        var parts: [String] = []
        if !stuck.isEmpty {
            parts.append("\(Self.count(stuck.count, "slot")) busy for longer than \(TimeFormat.duration(ms: thresholds.busyMs))")
        }
        if !busyRows.isEmpty { parts.append("\(Self.count(busyRows.count, "capture request")) answered BUSY") }
        let check = DoctorCheck(
            id: .slotBusy, status: stuck.isEmpty ? .warning : .failure, summary: parts.joined(separator: "; ") + ".", evidence: evidence,
            moreEvidence: stuck.count + busyRows.count - evidence.count)
        return slotFix(check, rows: [.busy], also: stuck.map(\.kind))
    }

    /// `check` with its fix naming the slots its rows (those marked with `rules`) and `also`
    /// were about: `host.selfieCapture` for a selfie problem, not the document slot's.
    private func slotFix(_ check: DoctorCheck, rows rules: [LintRule], also: [CaptureCapability.Kind] = []) -> DoctorCheck {
        guard !check.fix.isEmpty else { return check }
        var kinds = Set(also)
        for index in rules.flatMap({ rows[$0] ?? [] }) {
            let action = state.log[index].summary
            if let kind = CaptureCapability.Kind.allCases.first(where: { $0.action == action }) { kinds.insert(kind) }
        }
        var fixed = check
        fixed.fix = check.id.fix(forSlots: CaptureCapability.Kind.allCases.filter(kinds.contains))
        return fixed
    }

    // MARK: Memory

    private func largePayloads() -> DoctorCheck {
        // Rows of at least LiveState.largeRowBytes are listed as they arrive: read only those,
        // unless the threshold is lower than that.
        let candidates = thresholds.largePayloadBytes >= LiveState.largeRowBytes ? state.largeRows : Array(state.log.indices)
        let large = candidates.filter { state.log[$0].bytes > thresholds.largePayloadBytes }
        // The inspector's own (a slot completed with an image file, say) are not the app's.
        let indexes = large.filter { state.log[$0].origin != .inspector }
        let notCounted = Self.notCounted(large.count - indexes.count)
        guard !indexes.isEmpty else {
            return DoctorCheck(
                id: .largePayloads, status: .ok, summary: "No message is larger than \(TimeFormat.bytes(thresholds.largePayloadBytes)).\(notCounted)")
        }
        let evidence = indexes.prefix(thresholds.evidenceLimit).map { index in
            let entry = state.log[index]
            return DoctorEvidence(
                "\(entry.direction == .sent ? "sent" : "received") \(entry.type?.rawValue ?? "input") \(entry.summary): \(TimeFormat.bytes(entry.bytes))",
                seq: entry.seq, correlationId: entry.correlationId.isEmpty ? nil : entry.correlationId, time: entry.time)
        }
        return DoctorCheck(
            id: .largePayloads, status: .warning,
            summary: "\(Self.count(indexes.count, "message")) larger than \(TimeFormat.bytes(thresholds.largePayloadBytes)) (Base64 images cause memory pressure).\(notCounted)",
            evidence: evidence, moreEvidence: indexes.count - evidence.count)
    }

    private func messageAccumulation() -> DoctorCheck {
        guard let count = state.counts.receivedMessages else {
            return DoctorCheck(id: .messageAccumulation, status: .notRun, summary: "Cannot run: this agent does not report the size of receivedMessages (it is older than the doctor).")
        }
        if let cap = state.host?.receivedMessagesCap {
            guard cap > 0, count >= cap else {
                return DoctorCheck(id: .messageAccumulation, status: .ok, summary: "receivedMessages holds \(count) of at most \(cap).")
            }
            return DoctorCheck(
                id: .messageAccumulation, status: .warning,
                summary: "receivedMessages is at its cap of \(cap): the oldest messages are being dropped in this long session.",
                evidence: [DoctorEvidence("\(state.counts.received) messages received, receivedMessages keeps \(cap)")])
        }
        guard count > thresholds.accumulation else {
            return DoctorCheck(id: .messageAccumulation, status: .ok, summary: "receivedMessages holds \(count) (it has no cap).")
        }
        return DoctorCheck(
            id: .messageAccumulation, status: .warning,
            summary: "receivedMessages holds \(count) and grows without bound.",
            evidence: [DoctorEvidence("\(count) messages in receivedMessages, more than \(thresholds.accumulation)")])
    }

    /// "1 request", "3 requests": `noun` with an `s`, or `plural` when it is not that simple.
    static func count(_ n: Int, _ noun: String, _ plural: String? = nil) -> String {
        n == 1 ? "1 \(noun)" : "\(n) \(plural ?? noun + "s")"
    }
}
