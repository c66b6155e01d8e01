import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import Testing

/// A pending request for `action` with id `id`, arrived at `since` on the host's clock.
private func request(_ action: String, _ id: String, since: Double = 0) -> WirePending {
    WirePending(
        correlationId: id, action: action, since: since,
        message: BridgeMessage(correlationId: id, type: .request, timestamp: 0, payload: .init(action: action)))
}

private func book(_ rules: ReplyRule...) -> ReplyRuleBook { ReplyRuleBook(rules: rules) }

@Suite("Reply scheduler and journey timeouts")
struct ReplySchedulerTests {
    @Test("The web SDK's timeouts (docs/bridge-protocol.md \"Defaults\"; gbgbridge-facts.md \"Web-side SDK\"): 5 s for capability.query, 30 s for a request")
    func webSDKTimeouts() {
        let timeouts = JourneyTimeouts.webSDK
        #expect(timeouts.timeoutMs(forAction: "capability.query") == 5_000)
        #expect(timeouts.timeoutMs(forAction: "nfc.read") == 30_000)
        #expect(!timeouts.isAbandoned(request("nfc.read", "a", since: 1_000), hostNow: 31_000), "exactly at the timeout the journey still waits")
        #expect(timeouts.isAbandoned(request("nfc.read", "a", since: 1_000), hostNow: 31_001))
        #expect(timeouts.isAbandoned(request("capability.query", "q", since: 1_000), hostNow: 6_001))
        #expect(!timeouts.isAbandoned(request("capability.query", "q", since: 1_000), hostNow: 5_000))
        #expect(JourneyTimeouts(overrideMs: 120_000).timeoutMs(forAction: "capability.query") == 120_000)
    }

    @Test("The host's clock is learnt from pendingAdded events: a host 60 s behind does not make a fresh request look abandoned")
    func hostClock() {
        var clock = HostClock()
        #expect(clock.hostNow(localNow: 100_000) == 100_000, "before any event: this machine's clock")
        let fresh = request("nfc.read", "a", since: 40_000)
        clock.observe(.event(seq: 1, event: .pendingAdded(fresh)), at: 100_000)
        #expect(clock.hostNow(localNow: 110_000) == 50_000)
        #expect(!JourneyTimeouts.webSDK.isAbandoned(fresh, hostNow: clock.hostNow(localNow: 110_000)))
        #expect(JourneyTimeouts.webSDK.isAbandoned(fresh, hostNow: clock.hostNow(localNow: 130_001)))
        clock.observe(.event(seq: 2, event: .pendingRemoved(correlationId: "a")), at: 500_000)
        #expect(clock.offsetMs == -60_000, "events the host did not stamp teach nothing")
    }

    @Test("A rule's answer waits for its delay on the caller's clock, then is in flight until its outcome")
    func delay() {
        var scheduler = ReplyScheduler(book: book(ReplyRule(action: "nfc.read", times: 1, delayMs: 200, response: .init())))
        let update = scheduler.update(pending: [request("nfc.read", "a", since: 1_000)], now: 1_000, hostNow: 1_000)
        #expect(update.scheduled.map(\.correlationId) == ["a"])
        #expect(scheduler.nextDue == 1_200)
        #expect(scheduler.due(now: 1_199).isEmpty)
        let replies = scheduler.due(now: 1_200)
        #expect(replies.map(\.command.correlationId) == ["a"])
        #expect(replies.first?.command.rule == "nfc.read#1")
        #expect(scheduler.isInFlight("a"))
        #expect(!scheduler.isDone, "used up, but the answer is not settled yet")
        scheduler.update(pending: [], now: 1_210, hostNow: 1_210)
        #expect(scheduler.outcome(of: "a", answered: true) == nil)
        #expect(scheduler.isDone)
        #expect(scheduler.book.totalHits == 1)
    }

    @Test("Answered by someone else during the delay: the use is given back and nothing is sent")
    func answeredElsewhereDuringDelay() {
        var scheduler = ReplyScheduler(book: book(ReplyRule(action: "nfc.read", times: 1, delayMs: 500, response: .init())))
        scheduler.update(pending: [request("nfc.read", "a")], now: 0, hostNow: 0)
        #expect(scheduler.book.totalHits == 1)
        let update = scheduler.update(pending: [], now: 100, hostNow: 100)
        #expect(update.gaveBack.map(\.request.correlationId) == ["a"])
        #expect(update.gaveBack.first?.rule.hits == 0)
        #expect(scheduler.due(now: 1_000).isEmpty)
        #expect(scheduler.book.rules.first?.remaining == 1, "the rule still owes an answer")
        scheduler.update(pending: [request("nfc.read", "b")], now: 1_000, hostNow: 1_000)
        #expect(scheduler.due(now: 1_500).map(\.request.correlationId) == ["b"])
    }

    @Test("The host refused (another inspector answered first: already_answered): the use is given back")
    func refusedGivesBack() {
        var scheduler = ReplyScheduler(book: book(ReplyRule(action: "nfc.read", times: 1, response: .init())))
        scheduler.update(pending: [request("nfc.read", "a")], now: 0, hostNow: 0)
        #expect(scheduler.due(now: 0).count == 1)
        let rule = scheduler.outcome(of: "a", answered: false)
        #expect(rule?.hits == 0)
        #expect(!scheduler.isDone)
        #expect(scheduler.outcome(of: "a", answered: false) == nil, "settled once")
    }

    @Test("Abandoned requests are skipped (reported once) unless included; a fresh one is answered")
    func abandoned() {
        let rule = ReplyRule(action: "nfc.read", response: .init())
        var scheduler = ReplyScheduler(book: book(rule))
        let old = request("nfc.read", "old", since: 0)
        let fresh = request("nfc.read", "fresh", since: 100_000)
        let update = scheduler.update(pending: [old, fresh], now: 120_000, hostNow: 120_000)
        #expect(update.skippedAbandoned.map(\.correlationId) == ["old"])
        #expect(update.scheduled.map(\.correlationId) == ["fresh"])
        #expect(scheduler.update(pending: [old, fresh], now: 120_100, hostNow: 120_100).skippedAbandoned.isEmpty)
        #expect(scheduler.due(now: 120_100).map(\.request.correlationId) == ["fresh"])

        var including = ReplyScheduler(book: book(rule), includesAbandoned: true)
        #expect(including.update(pending: [old], now: 120_000, hostNow: 120_000).scheduled.map(\.correlationId) == ["old"])
    }

    @Test("A request no rule matched is offered again when the rules change; one answered by the person never is")
    func reoffer() {
        var scheduler = ReplyScheduler()
        scheduler.update(pending: [request("nfc.read", "a"), request("nfc.read", "b")], now: 0, hostNow: 0)
        scheduler.markAnswered("b")
        scheduler.book.add(ReplyRule(action: "nfc.read", response: .init()))
        let update = scheduler.update(pending: [request("nfc.read", "a"), request("nfc.read", "b")], now: 10, hostNow: 10)
        #expect(update.scheduled.map(\.correlationId) == ["a"])
    }

    @Test("A rule paused during its delay does not answer and gets its use back")
    func pausedDuringDelay() {
        var scheduler = ReplyScheduler(book: book(ReplyRule(action: "nfc.read", times: 1, delayMs: 100, response: .init())))
        scheduler.update(pending: [request("nfc.read", "a")], now: 0, hostNow: 0)
        scheduler.book.setEnabled(false, id: 1)
        #expect(scheduler.due(now: 100).isEmpty)
        #expect(scheduler.book.totalHits == 0)
    }
}
