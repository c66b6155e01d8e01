import BridgeCore
import Foundation
import InspectorProtocol

/// What an inspector knows about a host: built from the agent's snapshot and events, and kept
/// across disconnects so nothing already shown is ever lost.
///
/// Feed it every frame a session delivers; read the log, pending requests, slots and errors:
///
/// ```swift
/// var state = LiveState()
/// for frame in try session.readAvailableFrames() { state.apply(frame) }
/// state.pending.first?.action
/// ```
///
/// When the connection drops, call ``markDisconnected(at:)``; when a new session is attached
/// (same socket, perhaps a restarted host), its snapshot is merged: the log keeps everything
/// and a marker shows where the interruption was.
public struct LiveState: Sendable {
    /// The state of the connection to the host.
    public enum Connection: Sendable, Equatable {
        /// No snapshot yet.
        case connecting
        /// Attached and receiving.
        case connected
        /// The host went away at this time (milliseconds since 1970).
        case disconnected(since: Double)
    }

    /// Who the host is (from the last snapshot).
    public private(set) var host: WireHostInfo?
    /// The connection state.
    public private(set) var connection: Connection = .connecting
    /// The message log, oldest first, with markers for interruptions.
    public private(set) var log: [LogEntry] = []
    /// `pendingRequests`, oldest first.
    public private(set) var pending: [WirePending] = []
    /// The capture slots, document first.
    public private(set) var slots: [WireSlot] = []
    /// The current `lastError`.
    public private(set) var lastError: WireError?
    /// The values `lastError` took, oldest first (including `nil` clears).
    public private(set) var errorHistory: [WireError] = []
    /// Custom capabilities.
    public private(set) var customCapabilities: [WireCapability] = []
    /// The agent's running totals.
    public private(set) var counts = WireCounts()
    /// The last report of what the host sent that could not be read as a message, with why
    /// (`counts.unreadSentReports` counts them): a host seen through a page script only.
    /// Untrusted text: make it safe before it reaches a terminal.
    public private(set) var lastUnreadSentReport: WireMalformed?
    /// Whether a journey is attached to the host.
    public private(set) var journeyAttached = false
    /// Pending requests sent by a page that has gone since (a reload, a navigation, a closed
    /// tab): an answer to one of them now reaches a page that never sent it. Known for requests
    /// that were pending when the journey went away while this inspector watched, and for every
    /// pending request while no journey is attached.
    public private(set) var orphanedPending: Set<String> = []
    /// The sequence number of the last frame applied.
    public private(set) var seq = 0
    /// Gaps reported by the agent, in order.
    public private(set) var gaps: [ClosedRange<Int>] = []
    /// Messages held at breakpoints now, oldest first.
    public private(set) var held: [WireHeld] = []
    /// Every inspector's breakpoints, oldest first.
    public private(set) var breakpoints: [WireBreakpoint] = []
    /// Every inspector's fault rules with their hit counts, oldest first (each faulted row
    /// carries its rule in ``WireTraffic/fault``).
    public private(set) var faults: [WireFault] = []
    /// The last message a breakpoint matched but that went on, not held, because the host
    /// already held as much as the agent allows (docs/inspector-protocol.md, section 13.4).
    public private(set) var lastHoldSkipped: WireHoldSkipped?
    /// How many such messages this inspector has been told of.
    public private(set) var holdSkippedCount = 0
    /// For sent messages that were held: the hold and its outcome, by log index (kept beside
    /// the log rather than in each row, which stay small).
    public private(set) var holdMarks: [Int: HoldMark] = [:]
    /// Why each row marked with a ``LogEntry/lint`` rule breaks it, by log index (untrusted text:
    /// it can quote what the journey sent).
    public private(set) var lintReasons: [Int: String] = [:]
    /// The log indexes of the rows with a lint mark that count (``LogEntry/countsAsLint``: not
    /// made by an inspector), oldest first: what the status line's `⚑ N` counts, `is:lint` finds
    /// and the doctor judges by.
    public private(set) var lintedRows: [Int] = []
    /// The log indexes of the rows an inspector made (a response, an event, a slot completion,
    /// an injection: ✎) that break a rule, oldest first. Their marks are shown, with a reason
    /// that says they do not count, but they never count: the app did not make them.
    public private(set) var inspectorMadeLintRows: [Int] = []
    /// Every violation of GBG's documented contract seen in the log, by rule, with the first
    /// example of each (``GBGBridgeContract``): what the doctor's contract check and `open
    /// --check` report. Input that did not decode is not counted here: its decode failure
    /// (``LintRule/malformed``) already names the field. Rows whose only problem is the contract are also marked
    /// ``LintRule/contract``.
    public internal(set) var contract = ContractTally()
    /// The log indexes of the messages of at least ``largeRowBytes``, oldest first: what a check
    /// for large payloads reads instead of the whole log.
    public private(set) var largeRows: [Int] = []
    /// The smallest message ``largeRows`` lists: 64 KiB.
    public static let largeRowBytes = 64 * 1024
    /// When this inspector saw the journey attach (milliseconds since 1970), if it did; `nil`
    /// while none is attached or when it was already attached at the first snapshot.
    public private(set) var journeyAttachedAt: Double?
    /// When the newest message from the journey was received (the host's time), if one was.
    public private(set) var lastReceivedAt: Double?
    /// The linter that marks rows as they arrive, with what it has learnt (the host's last
    /// `capability.query` answer, the actions it answered).
    public private(set) var linter = ProtocolLinter()

    /// Unanswered requests in the log, by correlation id, to thread responses to them.
    private var openRequests: [String: Int] = [:]
    /// For unanswered requests: how long they (or their answers) were held at breakpoints so
    /// far, in milliseconds, by correlation id; left out of the answer's latency.
    private var heldMsByRequest: [String: Double] = [:]

    /// The log index of the unanswered request with `correlationId`, or `nil` when its row is
    /// not in the log (a snapshot's log is bounded) or it was answered.
    public func logIndex(ofOpenRequest correlationId: String) -> Int? {
        openRequests[correlationId].flatMap { log.indices.contains($0) ? $0 : nil }
    }
    /// The log index of the message with each sequence number, for "jump to cause".
    private var indexBySeq = SeqIndex()

    /// An empty state.
    public init() {}

    /// How many times a row already in the log had its message changed in place (a message
    /// logged, then held and released edited: ``LogEntry/showDelivered(_:)``). Every other
    /// change adds rows or threads a response to its request; a reader that follows the log by
    /// the rows added (the statistics view) reads the whole log again when this moves.
    public private(set) var rowsEditedInPlace = 0

    /// The number of rows the person marked (``LogEntry/marked``).
    public private(set) var markedCount = 0

    /// Marks or unmarks the row at `index` (the TUI's `m`); only messages and malformed input
    /// can be marked, not the markers of an interruption. Returns whether the row is marked
    /// now, or `nil` when there is no such row or it cannot be marked. Marks are the
    /// inspector's: they stay on the row when the host is attached again.
    @discardableResult
    public mutating func setMarked(_ marked: Bool, at index: Int) -> Bool? {
        guard log.indices.contains(index), log[index].kind == .message || log[index].kind == .malformed else { return nil }
        if log[index].marked != marked { markedCount += marked ? 1 : -1 }
        log[index].marked = marked
        return marked
    }

    /// The number of rows with a lint mark.
    public var lintCount: Int { lintedRows.count }

    /// The number of `lastError` values that were errors (not clears).
    public var errorCount: Int { errorHistory.filter { $0.text != nil }.count }

    /// The log index of the row with sequence number `seq`, if it is in the log.
    public func logIndex(ofSeq seq: Int) -> Int? { indexBySeq[seq] }

    /// Applies one frame from the agent; markers it adds (gap, reattached) are stamped with
    /// `time` (milliseconds since 1970; a caller with its own clock passes it).
    ///
    /// Log rows keep each message's JSON exactly as it crossed the bridge: a frame from
    /// ``AgentFrame/decode(_:)`` carries those bytes (``WireTraffic/messageJSON``); `json` is for
    /// a caller that has a traffic event's message bytes from elsewhere.
    public mutating func apply(_ frame: AgentFrame, json: Data? = nil, at time: Double = Date().timeIntervalSince1970 * 1000) {
        switch frame {
        case .hello:
            break
        case .snapshot(let seq, let state):
            merge(snapshot: state, seq: seq, time: time)
        case .event(let seq, let event):
            self.seq = max(self.seq, seq)
            apply(event, json: json, at: time)
        case .gap(let from, let to):
            // `AgentFrame.decode` refuses an inverted gap, but a frame made in code can still
            // carry one: normalise it rather than trap building the range.
            let missed = min(from, to)...max(from, to)
            gaps.append(missed)
            log.append(.marker(.gap(from: missed.lowerBound, to: missed.upperBound), time: time))
        case .reply:
            break
        }
    }

    /// Notes that the connection was lost; everything shown stays.
    public mutating func markDisconnected(at time: Double = Date().timeIntervalSince1970 * 1000) {
        guard !isDisconnected else { return }
        connection = .disconnected(since: time)
        log.append(.marker(.disconnected, time: time))
    }

    /// Whether the state is disconnected.
    public var isDisconnected: Bool {
        if case .disconnected = connection { return true }
        return false
    }

    private mutating func apply(_ event: WireEvent, json: Data?, at time: Double) {
        switch event {
        case .traffic(let traffic):
            appendTraffic(traffic, json: json)
        case .malformed(let malformed):
            appendMalformed(malformed)
            counts.malformed += 1
            if malformed.direction == .sent {
                counts.unreadSentReports = (counts.unreadSentReports ?? 0) + 1
                lastUnreadSentReport = malformed
            }
        case .lastError(let error):
            lastError = error.text == nil ? nil : error
            errorHistory.append(error)
        case .pendingAdded(let request):
            pending.append(request)
            markNearMiss(request)
        case .pendingRemoved(let correlationId):
            let before = pending.count
            pending.removeAll { $0.correlationId == correlationId }
            orphanedPending.remove(correlationId)
            if pending.count == before, let omitted = counts.pendingOmitted {
                // One of the requests the agent's snapshot left out is no longer pending (which
                // action it was for, the event does not say).
                counts.pendingOmitted = omitted > 1 ? omitted - 1 : nil
                if counts.pendingOmitted == nil { counts.pendingOmittedActions = nil }
            }
        case .slot(let slot):
            if let index = slots.firstIndex(where: { $0.kind == slot.kind }) { slots[index] = slot } else { slots.append(slot) }
            slots.sort { $0.kind.rawValue < $1.kind.rawValue }
        case .customCapabilities(let list):
            customCapabilities = list
        case .logCleared:
            // The host's log was cleared; the inspector keeps what it has shown.
            if counts.receivedMessages != nil { counts.receivedMessages = 0 }
        case .journey(let attached):
            journeyAttached = attached
            journeyAttachedAt = attached ? time : nil
            if !attached { orphanedPending.formUnion(pending.map(\.correlationId)) }
        case .held(let record):
            held.append(record)
            // The agent announces a hit only by this event.
            if let index = breakpoints.firstIndex(where: { $0.id == record.breakpoint }) { breakpoints[index].hits += 1 }
        case .holdSkipped(let skipped):
            lastHoldSkipped = skipped
            holdSkippedCount += 1
        case .heldResolved(let resolution):
            if let record = held.first(where: { $0.id == resolution.id }), openRequests[resolution.correlationId] != nil {
                heldMsByRequest[resolution.correlationId, default: 0] += max(0, resolution.time - record.since)
            }
            held.removeAll { $0.id == resolution.id }
            markEdited(resolution)
        case .breakpoints(let list):
            breakpoints = list
        case .faults(let list):
            faults = list
        case .unknown:
            break
        }
    }

    private mutating func appendTraffic(_ traffic: WireTraffic, json: Data?) {
        var entry = LogEntry(traffic, json: json)
        let index = log.count
        if traffic.direction == .received {
            counts.received += 1
            lastReceivedAt = max(lastReceivedAt ?? traffic.time, traffic.time)
            if counts.receivedMessages != nil { counts.countReceivedMessage(cap: host?.receivedMessagesCap) }
        } else {
            counts.sent += 1
        }
        // Two fields, not a copy of the message.
        let type = traffic.messageType
        let correlationId = traffic.messageCorrelationId
        let isRequest = type == .request && traffic.direction == .received
        let reusesOpenId = isRequest && openRequests[correlationId] != nil
        if let mark = linter.mark(traffic, slots: slots, reusesOpenId: reusesOpenId) {
            entry.lint = mark.rule
            keepLint(mark, at: index, inspectorMade: traffic.isInspectorCaused)
        }
        checkContract(traffic, entry: &entry, at: index)
        switch type {
        case .request where traffic.direction == .received:
            // A duplicate of a request still waiting is not routed (the host refuses it): the
            // answer that comes belongs to the first.
            if !reusesOpenId { openRequests[correlationId] = index }
        case .response:
            if let requestIndex = openRequests.removeValue(forKey: correlationId) {
                // The time held at breakpoints is the inspector's, not the host's: shown apart.
                let heldMs = heldMsByRequest.isEmpty ? nil : heldMsByRequest.removeValue(forKey: correlationId)
                entry.partner = requestIndex
                entry.latencyMs = max(0, traffic.time - log[requestIndex].time - (heldMs ?? 0))
                entry.heldMs = heldMs
                log[requestIndex].partner = index
            }
        default:
            break
        }
        indexBySeq.set(index, for: traffic.seq)
        if let hold = traffic.hold { holdMarks[index] = hold }
        if entry.bytes >= Self.largeRowBytes { largeRows.append(index) }
        // Moved in, not copied: a row holds some fifteen references.
        log.append(consume entry)
    }

    /// A message logged before it was held, then released edited (a request the journey posted
    /// to a native host; what GBGBridge sent, seen through its public API): its row (the record
    /// the agent names, or for a request from an older agent the open request with its id) shows
    /// what went on instead, marked edited, keeping the message as logged as its original. (A
    /// message logged after its release comes as delivered, with its original: nothing to do.)
    private mutating func markEdited(_ resolution: WireHeldResolution) {
        guard resolution.outcome == .edited, let delivered = resolution.message else { return }
        let fallback = resolution.direction == .received ? openRequests[resolution.correlationId] : nil
        guard let index = resolution.record.flatMap({ indexBySeq[$0] }) ?? fallback,
            log.indices.contains(index), log[index].kind == .message, log[index].direction == resolution.direction,
            log[index].correlationId == resolution.correlationId
        else { return }
        log[index].showDelivered(delivered)
        rowsEditedInPlace += 1
        holdMarks[index] = HoldMark(id: resolution.id, outcome: .edited)
    }

    private mutating func appendMalformed(_ malformed: WireMalformed) {
        let index = log.count
        indexBySeq.set(index, for: malformed.seq)
        var entry = LogEntry(malformed)
        if entry.bytes >= Self.largeRowBytes { largeRows.append(index) }
        let mark = ProtocolLinter.mark(malformed)
        entry.lint = mark.rule
        // Text an inspector injected is shown marked, never held against the app.
        keepLint(mark, at: index, inspectorMade: entry.origin == .inspector)
        log.append(entry)
    }

    /// Keeps the reason of the mark on the newest row, `index`, and lists the row with those that
    /// count, or (made by an inspector) with those shown but not counted.
    mutating func keepLint(_ mark: LintMark, at index: Int, inspectorMade: Bool) {
        if inspectorMade {
            lintReasons[index] = mark.reason + Self.notCountedNote
            inspectorMadeLintRows.append(index)
        } else {
            lintReasons[index] = mark.reason
            lintedRows.append(index)
        }
    }

    /// Said after the lint reason of a row an inspector made.
    public static let notCountedNote = " (made by an inspector: not counted)"

    /// Marks the row of a request that went to `pendingRequests` when its action is a near miss
    /// of a known one, unless the row already breaks another rule. A typo of a known action is
    /// also not reported by `capability.query`: the near miss says why, so it replaces that mark, as it replaces a mark of GBG's contract (which `contract` still counts).
    private mutating func markNearMiss(_ request: WirePending) {
        guard let index = openRequests[request.correlationId], log.indices.contains(index),
            log[index].lint == nil || log[index].lint == .notReported || log[index].lint == .contract,
            let mark = linter.nearMiss(for: request.action, slots: slots, capabilities: customCapabilities)
        else { return }
        let wasMarked = log[index].lint != nil
        log[index].lint = mark.rule
        let inspectorMade = log[index].isInspectorCaused
        lintReasons[index] = inspectorMade ? mark.reason + Self.notCountedNote : mark.reason
        if wasMarked { return }
        if inspectorMade {
            Self.insertInOrder(index, into: &inspectorMadeLintRows)
        } else {
            Self.insertInOrder(index, into: &lintedRows)
        }
    }

    /// Adds `index` to a list of log indexes kept in ascending order.
    private static func insertInOrder(_ index: Int, into rows: inout [Int]) {
        if let last = rows.last, last > index {
            rows.insert(index, at: rows.firstIndex { $0 > index } ?? rows.endIndex)
        } else {
            rows.append(index)
        }
    }

    private mutating func merge(snapshot state: WireState, seq: Int, time: Double) {
        let sameAgent = host.map { $0.pid == state.host.pid && $0.startedAt == state.host.startedAt } ?? false
        let wasDisconnected = isDisconnected
        let hadHost = host != nil
        if let previous = host, previous.pid != state.host.pid {
            // A new process: the app was run again. Both pids, so the gap can be told apart.
            log.append(.marker(.hostRestarted(name: state.host.name, endedPid: previous.pid, attachedPid: state.host.pid), time: time))
        } else if hadHost && (wasDisconnected || !sameAgent) {
            log.append(.marker(.reattached(hostRestarted: !sameAgent), time: time))
        }
        if !sameAgent {
            openRequests.removeAll()
            heldMsByRequest.removeAll()
            indexBySeq.removeAll()
            linter = ProtocolLinter()
        }
        // Rows from the snapshot are linted against the slots and capabilities as they are now.
        slots = state.slots.sorted { $0.kind.rawValue < $1.kind.rawValue }
        customCapabilities = state.customCapabilities
        let known = sameAgent ? self.seq : 0
        var items: [(seq: Int, entry: Either)] = []
        for traffic in state.messages where traffic.seq > known { items.append((traffic.seq, .traffic(traffic))) }
        for malformed in state.malformed where malformed.seq > known { items.append((malformed.seq, .malformed(malformed))) }
        items.sort { $0.seq < $1.seq }
        for item in items {
            switch item.entry {
            case .traffic(let traffic): appendTraffic(traffic, json: nil)
            case .malformed(let malformed):
                appendMalformed(malformed)
            }
        }
        if sameAgent {
            let newErrors = state.errorHistory.filter { $0.seq > known }
            errorHistory.append(contentsOf: newErrors)
        } else {
            errorHistory.append(contentsOf: state.errorHistory)
        }
        host = state.host
        if !state.journeyAttached || !journeyAttached || !sameAgent { journeyAttachedAt = nil }
        journeyAttached = state.journeyAttached
        lastError = state.lastError
        pending = state.pending
        let pendingIds = Set(state.pending.map(\.correlationId))
        orphanedPending = state.journeyAttached ? orphanedPending.intersection(pendingIds) : pendingIds
        counts = state.counts
        lastUnreadSentReport = state.lastUnreadSentReport
        held = state.held ?? []
        breakpoints = state.breakpoints ?? []
        faults = state.faults ?? []
        self.seq = seq
        connection = .connected
        for request in pending { markNearMiss(request) }
    }

    private enum Either {
        case traffic(WireTraffic)
        case malformed(WireMalformed)
    }
}
