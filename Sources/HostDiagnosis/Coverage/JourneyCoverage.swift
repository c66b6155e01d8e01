import BridgeCore
import InspectorClient
import InspectorProtocol

/// Which documented paths of GBGBridge a session's web journey met, how it answered the unhappy
/// ones, and which it never met: what a journey developer provokes next (with `bridge-inspector
/// fault` and `lifecycle`) to exercise the rest.
///
/// A pure function of an inspector's state (``LiveState``: its log, slots and declared custom
/// capabilities), the journey's timeouts and the time the session is read at. It reads the whole
/// log once, so callers compute it when asked (the CLI once, the TUI when the view opens and on
/// `r`), never per frame.
///
/// What counts:
/// - **actions**: `capability.query`, the typed slots' capture actions (``CaptureCapability``),
///   and the custom capabilities the host declared, each with its requests, answers by status
///   and error codes; requests for any other action are listed apart (``otherActions``);
/// - **statuses** (``BridgeResponseStatus``) and **error codes** (``BridgeErrorCode``; codes the
///   pages do not name are listed apart) of the answers to the journey's requests;
/// - **events**: the documented events (``DocumentedEvent``), a host event when the host sent it,
///   a journey event when the journey did;
/// - **unhappy paths** (``UnhappyPath``): each non-`success` answer and each request the journey
///   gave up on, with how it answered.
///
/// Inspector-made traffic (✎), and answers and events a fault rule changed (⚡), count as met and
/// are counted apart (``CoverageCount/inspectorMade``); what a fault rule kept from the journey
/// (a dropped event, an answer swallowed by never-answer) was never met: such a request is a
/// timeout for the journey.
///
/// ```swift
/// let coverage = JourneyCoverage(state: state, now: hostNow)
/// coverage.neverMet.errorCodes   // ["TIMEOUT", "INTERNAL_ERROR", …]
/// ```
public struct JourneyCoverage: Sendable, Equatable {
    /// The version of the JSON form (``JourneyCoverage`` as `stats --coverage --json`).
    public static let jsonVersion = 1

    /// How long after an unhappy path the journey's next request for the same action counts as
    /// its answer to it (a retry), and a `journey.cancel` as its answer to a cancellation: 30 s,
    /// the web SDK's request timeout. This project's choice: GBG's pages name no such window.
    public static let reactionWindowMs = JourneyTimeouts.requestMs

    /// Where an action comes from.
    public enum ActionSource: String, Sendable, Equatable {
        /// `capability.query`.
        case capabilityQuery
        /// A typed slot's capture action.
        case capture
        /// A custom capability the host declared.
        case custom
        /// Neither: an action the host never declared.
        case other
    }

    /// One action: its requests and how they were answered.
    public struct Action: Sendable, Equatable {
        /// The action. Untrusted text for ``ActionSource/other`` and ``ActionSource/custom``.
        public var action: String
        /// Where it comes from.
        public var source: ActionSource
        /// Requests for it (the journey's, and ✎ those an inspector injected).
        public var requests = CoverageCount()
        /// Answers by status.
        public var statuses: [BridgeResponseStatus: CoverageCount] = [:]
        /// Error answers by code (`""` for an error without one).
        public var errorCodes: [String: CoverageCount] = [:]
        /// Requests with no answer in the log.
        public var unanswered = 0

        /// An action not yet met.
        public init(action: String, source: ActionSource) {
            self.action = action
            self.source = source
        }
    }

    /// One documented event and how often it was sent.
    public struct Event: Sendable, Equatable {
        /// The documented event.
        public var event: DocumentedEvent
        /// How often its sender sent it.
        public var sent: CoverageCount
    }

    /// The documented statuses, codes, events and actions the session never met.
    public struct NeverMet: Sendable, Equatable {
        /// Documented and declared actions with no request.
        public var actions: [String] = []
        /// Statuses no answer had.
        public var statuses: [BridgeResponseStatus] = []
        /// Documented error codes no answer had.
        public var errorCodes: [String] = []
        /// Documented host events the host never sent.
        public var hostEvents: [String] = []
        /// Documented journey events the journey never sent.
        public var journeyEvents: [String] = []
        /// Whether the journey never gave up on a request (no timeout met).
        public var journeyTimeout = true
    }

    /// The documented and declared actions, in that order: `capability.query`, the capture
    /// actions, then the custom capabilities as the host declared them.
    public var actions: [Action]
    /// Actions the journey asked for that the host never declared, by name.
    public var otherActions: [Action]
    /// Answers by status, every status listed (``BridgeResponseStatus/allCases``).
    public var statuses: [(status: BridgeResponseStatus, answers: CoverageCount)] { statusOrder.map { ($0, statusCounts[$0] ?? CoverageCount()) } }
    /// Error answers by documented code, every code listed (``BridgeErrorCode/allCases``).
    public var errorCodes: [(code: BridgeErrorCode, answers: CoverageCount)] { BridgeErrorCode.allCases.map { ($0, codeCounts[$0.rawValue] ?? CoverageCount()) } }
    /// Error answers with a code the pages do not name, by code (sorted).
    public var undocumentedErrorCodes: [(code: String, answers: CoverageCount)] {
        codeCounts.filter { BridgeErrorCode(rawValue: $0.key) == nil }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
    /// The documented events, in ``DocumentedEvent/all``'s order.
    public var events: [Event]
    /// Every unhappy path met, in the order the journey met them.
    public var unhappyPaths: [UnhappyPath]
    /// When the session was read (the window of a later path may not have run out yet).
    public var now: Double
    /// Answers by status.
    var statusCounts: [BridgeResponseStatus: CoverageCount] = [:]
    /// Error answers by code.
    var codeCounts: [String: CoverageCount] = [:]

    private var statusOrder: [BridgeResponseStatus] { BridgeResponseStatus.allCases }

    /// What the session never met.
    public var neverMet: NeverMet {
        var never = NeverMet()
        never.actions = actions.filter { !$0.requests.met }.map(\.action)
        never.statuses = statuses.filter { !$0.answers.met }.map(\.status)
        never.errorCodes = errorCodes.filter { !$0.answers.met }.map(\.code.rawValue)
        never.hostEvents = events.filter { $0.event.sender == .host && !$0.sent.met }.map(\.event.name)
        never.journeyEvents = events.filter { $0.event.sender == .journey && !$0.sent.met }.map(\.event.name)
        never.journeyTimeout = !unhappyPaths.contains { if case .journeyTimeout = $0.kind { true } else { false } }
        return never
    }

    /// The coverage of `state`'s log read at `now` (milliseconds since 1970 on the host's clock:
    /// a live host's ``HostClock`` reading, or ``sessionEnd(of:)`` for a recording), judging the
    /// journey's give-ups by `timeouts`.
    public init(state: LiveState, now: Double, timeouts: JourneyTimeouts = .webSDK) {
        let log = state.log
        self.now = now
        var actions = [Action(action: CapabilityQueryHandler.action, source: .capabilityQuery)]
        actions += CaptureCapability.Kind.allCases.map { Action(action: $0.action, source: .capture) }
        for capability in state.customCapabilities where !capability.shadowedBySlot && !actions.contains(where: { $0.action == capability.id }) {
            actions.append(Action(action: capability.id, source: .custom))
        }
        let slotOf = Dictionary(actions.enumerated().map { ($1.action, $0) }, uniquingKeysWith: { first, _ in first })
        var others: [Action] = []
        var otherOf: [String: Int] = [:]
        var events = DocumentedEvent.all.map { Event(event: $0, sent: CoverageCount()) }
        var statusCounts: [BridgeResponseStatus: CoverageCount] = [:]
        var codeCounts: [String: CoverageCount] = [:]
        // The journey's own requests' times per action and its journey.cancel times, for the reactions.
        var journeyRequestTimes: [String: [Double]] = [:]
        var journeyCancelTimes: [Double] = []
        // What may be an unhappy path: the request's row and, if answered, the answer's.
        var candidates: [(request: Int, answer: Int?)] = []

        func update(_ action: String, _ change: (inout Action) -> Void) {
            if let index = slotOf[action] {
                change(&actions[index])
            } else if let index = otherOf[action] {
                change(&others[index])
            } else {
                var row = Action(action: action, source: .other)
                change(&row)
                otherOf[action] = others.count
                others.append(row)
            }
        }

        for index in log.indices where log[index].kind == .message {
            let row = log[index]
            switch (row.type, row.direction) {
            case (.request?, .received?):
                let byInspector = row.origin == .inspector
                if !byInspector { journeyRequestTimes[row.summary, default: []].append(row.time) }
                var answer: Int?
                // An answer a fault rule kept from the journey (dropped, or swallowed by
                // never-answer) is no answer to it: the journey waits for its timeout.
                if let partner = row.partner, log.indices.contains(partner), log[partner].kind == .message, log[partner].type == .response,
                    !log[partner].withheldFromJourney
                {
                    answer = partner
                }
                update(row.summary) { action in
                    action.requests.add(inspectorMade: byInspector)
                    if answer == nil { action.unanswered += 1 }
                }
                if let answer {
                    let answerRow = log[answer]
                    let made = byInspector || answerRow.isInspectorCaused
                    let status = answerRow.status ?? .error
                    statusCounts[status, default: CoverageCount()].add(inspectorMade: made)
                    let code = status == .error ? (answerRow.errorCode ?? "") : nil
                    if let code { codeCounts[code, default: CoverageCount()].add(inspectorMade: made) }
                    update(row.summary) { action in
                        action.statuses[status, default: CoverageCount()].add(inspectorMade: made)
                        if let code { action.errorCodes[code, default: CoverageCount()].add(inspectorMade: made) }
                    }
                }
                if !byInspector { candidates.append((index, answer)) }
            case (.event?, let direction?):
                let sender: DocumentedEvent.Sender = direction == .sent ? .host : .journey
                if !row.withheldFromJourney, let slot = events.firstIndex(where: { $0.event.name == row.summary && $0.event.sender == sender }) {
                    events[slot].sent.add(inspectorMade: row.isInspectorCaused)
                }
                if sender == .journey, row.origin != .inspector, row.summary == "journey.cancel" { journeyCancelTimes.append(row.time) }
            default:
                break
            }
        }
        for key in journeyRequestTimes.keys { journeyRequestTimes[key]?.sort() }
        journeyCancelTimes.sort()

        var paths: [UnhappyPath] = []
        for (requestIndex, answerIndex) in candidates {
            let request = log[requestIndex]
            let timeout = timeouts.timeoutMs(forAction: request.summary)
            let answer = answerIndex.map { log[$0] }
            var kind: UnhappyPath.Kind
            var recoverable: Bool
            var metAt: Double
            if let answer, answer.time - request.time <= timeout {
                switch answer.status ?? .error {
                case .success: continue
                case .cancelled: kind = .cancelled; recoverable = true
                case .unsupported: kind = .unsupported; recoverable = false
                case .error:
                    let code = answer.errorCode ?? ""
                    kind = .error(code: code)
                    recoverable = BridgeErrorCode(rawValue: code)?.isRecoverable ?? (answer.message?.payload.error?.recoverable ?? false)
                }
                metAt = answer.time
            } else if answer != nil || now - request.time > timeout {
                kind = .journeyTimeout(ms: timeout)
                recoverable = true
                metAt = request.time + timeout
            } else {
                continue
            }
            let window = metAt + Self.reactionWindowMs
            let retry = Self.first(in: journeyRequestTimes[request.summary] ?? [], after: metAt, excluding: request.time).flatMap { $0 <= window ? $0 : nil }
            let reaction: UnhappyPath.Reaction
            if let retry {
                reaction = recoverable ? .retried(afterMs: retry - metAt) : .retriedNonRecoverable(afterMs: retry - metAt)
            } else {
                reaction = now >= window ? .gaveUp : .waiting
            }
            var path = UnhappyPath(
                kind: kind, action: request.summary, correlationId: request.correlationId, time: metAt, recoverable: recoverable,
                inspectorMade: answer?.isInspectorCaused ?? (request.fault != nil), reaction: reaction, requestSeq: request.seq)
            if path.isCancellation, let cancel = Self.first(in: journeyCancelTimes, after: metAt, excluding: nil), cancel <= window {
                path.journeyCancelAfterMs = cancel - metAt
            }
            paths.append(path)
        }
        self.actions = actions
        self.otherActions = others.sorted { $0.action < $1.action }
        self.events = events
        self.unhappyPaths = paths.sorted { $0.time < $1.time }
        self.statusCounts = statusCounts
        self.codeCounts = codeCounts
    }

    /// The first time in the sorted `times` at or after `start`, other than `excluding` (the
    /// request that met the path, which can be at `start` only for a zero timeout).
    static func first(in times: [Double], after start: Double, excluding: Double?) -> Double? {
        var low = 0
        var high = times.count
        while low < high {
            let middle = (low + high) / 2
            if times[middle] < start { low = middle + 1 } else { high = middle }
        }
        var index = low
        while index < times.count, let skip = excluding, times[index] == skip { index += 1 }
        return index < times.count ? times[index] : nil
    }

    /// The time a recording's session ends: its last row's time (a request still unanswered
    /// then is judged by how long it had waited by that moment); 0 for an empty log.
    public static func sessionEnd(of state: LiveState) -> Double {
        state.log.last(where: { $0.kind == .message || $0.kind == .malformed }).map(\.time) ?? 0
    }
}
