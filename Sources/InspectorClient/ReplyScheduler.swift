import BridgeCore
import InspectorProtocol

/// When reply rules answer what: the one scheduler behind both `bridge-inspector auto-respond`
/// and the interactive inspector's rules.
///
/// Pure: no I/O and no clock of its own. The caller feeds it the pending requests
/// (``update(pending:now:hostNow:)``), the time (``due(now:)``) and what became of each answer
/// it sent (``outcome(of:answered:)``), and sends the ``Reply`` values it returns.
///
/// ```swift
/// var scheduler = ReplyScheduler(book: book)
/// scheduler.update(pending: state.pending, now: nowMs, hostNow: clock.hostNow(localNow: nowMs))
/// for reply in scheduler.due(now: nowMs) {
///     let result = session.run(.respond(reply.command))
///     scheduler.outcome(of: reply.request.correlationId, answered: result is success)
/// }
/// ```
///
/// A rule's use is given back (its hit count goes down again) whenever its answer did not reach
/// the journey: the request left `pendingRequests` while the rule's delay ran (someone else
/// answered it), the host refused the answer (another inspector answered first:
/// `already_answered`), or the rule was paused or removed before the delay ended.
///
/// Requests the journey has abandoned (``JourneyTimeouts``) are skipped unless
/// ``includesAbandoned`` is set: an answer to them reaches no one.
public struct ReplyScheduler: Sendable {
    /// An answer to send now.
    public struct Reply: Sendable, Hashable {
        /// The request it answers.
        public var request: WirePending
        /// The rule answering, as it is after this use.
        public var rule: ReplyRule
        /// The `respond` command to send.
        public var command: InspectorCommand.Respond
    }

    /// A rule's use given back because its request left `pendingRequests` before the rule's delay ended.
    public struct GiveBack: Sendable, Hashable {
        /// The request someone else answered.
        public var request: WirePending
        /// The rule, as it is after the use was given back.
        public var rule: ReplyRule
    }

    /// What changed in an update.
    public struct Update: Sendable, Hashable {
        /// Requests newly matched by a rule (the answer waits for its rule's delay).
        public var scheduled: [WirePending] = []
        /// Requests that left `pendingRequests` while their rule's delay ran.
        public var gaveBack: [GiveBack] = []
        /// Abandoned requests an active rule would have answered, each reported once.
        public var skippedAbandoned: [WirePending] = []
    }

    /// A request matched by a rule, waiting for the rule's delay.
    struct Scheduled: Sendable, Hashable {
        var due: Double
        var request: WirePending
        var ruleID: Int
    }

    /// The rules, with their hit counts.
    public var book: ReplyRuleBook
    /// The journey's timeouts, which say when a request is abandoned.
    public var timeouts: JourneyTimeouts
    /// Whether rules answer abandoned requests too.
    public var includesAbandoned: Bool

    private var scheduled: [Scheduled] = []
    /// Answers sent and not yet settled: correlation id → rule id.
    private var sent: [String: Int] = [:]
    /// Requests already matched, answered or handled by someone else: never offered again.
    private var offered: Set<String> = []
    /// Abandoned requests already reported.
    private var reportedAbandoned: Set<String> = []

    /// A scheduler for `book`.
    public init(book: ReplyRuleBook = ReplyRuleBook(), timeouts: JourneyTimeouts = .webSDK, includesAbandoned: Bool = false) {
        self.book = book
        self.timeouts = timeouts
        self.includesAbandoned = includesAbandoned
    }

    /// Whether nothing more will be answered: every rule used up and nothing waiting or in flight.
    public var isDone: Bool { scheduled.isEmpty && sent.isEmpty && book.isUsedUp }

    /// When the next answer is due (the caller's clock, milliseconds), if one waits.
    public var nextDue: Double? { scheduled.map(\.due).min() }

    /// Takes the whole list of pending requests: offers the ones not yet offered to the rules
    /// (oldest first; a request that matches no rule is offered again when the rules change) and
    /// gives back the use of a rule whose request left before its delay ended.
    ///
    /// - Parameters:
    ///   - now: the caller's clock in milliseconds; an answer is due at `now` plus its rule's delay.
    ///   - hostNow: the host's clock now (``HostClock``), for the requests' ages.
    @discardableResult
    public mutating func update(pending: [WirePending], now: Double, hostNow: Double) -> Update {
        var update = Update()
        let ids = Set(pending.map(\.correlationId))
        scheduled.removeAll { item in
            guard !ids.contains(item.request.correlationId) else { return false }
            book.giveBack(ruleID: item.ruleID)
            if let rule = book.rule(id: item.ruleID) { update.gaveBack.append(GiveBack(request: item.request, rule: rule)) }
            return true
        }
        // Forget what is no longer pending (and not awaiting its outcome), so memory stays bounded.
        offered = offered.filter { ids.contains($0) || sent[$0] != nil }
        reportedAbandoned.formIntersection(ids)
        for request in pending.sorted(by: { $0.since < $1.since }) where !offered.contains(request.correlationId) {
            if !includesAbandoned, timeouts.isAbandoned(request, hostNow: hostNow) {
                if !reportedAbandoned.contains(request.correlationId), book.rules.contains(where: { $0.isActive && $0.matches(action: request.action) }) {
                    reportedAbandoned.insert(request.correlationId)
                    update.skippedAbandoned.append(request)
                }
                continue
            }
            guard let (rule, delayMs) = book.match(request) else { continue }
            offered.insert(request.correlationId)
            scheduled.append(Scheduled(due: now + Double(delayMs), request: request, ruleID: rule.id))
            update.scheduled.append(request)
        }
        return update
    }

    /// Marks `correlationId` as answered by someone else (the person, in the respond dialog):
    /// no rule answers it.
    public mutating func markAnswered(_ correlationId: String) {
        offered.insert(correlationId)
    }

    /// The answers whose delay has passed at `now`, in the order they were scheduled. Each is
    /// then in flight until ``outcome(of:answered:)``. A rule paused or removed meanwhile
    /// does not answer (a paused rule gets its use back).
    public mutating func due(now: Double) -> [Reply] {
        // Asked after every frame: with nothing scheduled, nothing to look at (or to mutate).
        guard !scheduled.isEmpty else { return [] }
        var replies: [Reply] = []
        scheduled.removeAll { item in
            guard item.due <= now else { return false }
            guard let rule = book.rule(id: item.ruleID) else { return true }
            guard rule.isEnabled else {
                book.giveBack(ruleID: rule.id)
                offered.remove(item.request.correlationId)
                return true
            }
            sent[item.request.correlationId] = rule.id
            replies.append(Reply(request: item.request, rule: rule, command: rule.command(answering: item.request.correlationId)))
            return true
        }
        return replies
    }

    /// Settles an answer sent for `correlationId`: when the host refused it (`answered` false:
    /// someone answered first, or it is no longer pending) the rule's use is given back, and the
    /// rule is returned as it is after that.
    @discardableResult
    public mutating func outcome(of correlationId: String, answered: Bool) -> ReplyRule? {
        guard let ruleID = sent.removeValue(forKey: correlationId) else { return nil }
        guard !answered else { return nil }
        book.giveBack(ruleID: ruleID)
        return book.rule(id: ruleID)
    }

    /// Whether an answer for `correlationId` was sent by a rule and is not settled yet.
    public func isInFlight(_ correlationId: String) -> Bool { sent[correlationId] != nil }
}
