import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

/// Reply rules that outlive the window that made them, and answer only what the journey still
/// waits for: one scheduler with `auto-respond` (uses given back when someone else answered),
/// saved and reloaded paused, asked about on quit; and the event history kept between runs.
@Suite("Reply rules kept between runs, and the one scheduler")
struct RulePersistenceTests {
    private static func rule(_ action: String, times: Int? = 1, delayMs: Int = 0) -> ReplyRule {
        ReplyRule(action: action, times: times, delayMs: delayMs, response: .init(status: .success, data: ["uid": "04A2"]))
    }

    private static func temporaryState() -> StateDirectory {
        StateDirectory(path: NSTemporaryDirectory() + "bi-tui-state-\(UUID().uuidString)")
    }

    @Test("Another inspector answered first (the host refuses: already_answered): the rule gets its use back, and it is not shown as a failure")
    func refusedByHostGivesBack() throws {
        var model = journeyModel()  // nfc-1 (nfc.read) is pending
        model.addRule(Self.rule("nfc.read"))
        let label = "rule nfc.read#1: respond success to nfc.read nfc-1"
        #expect(model.handle(.tick(Fixture.t0 + 1)).count == 1)
        #expect(model.rules.rules[0].hits == 1)
        model.handle(.commandSent(id: "c-1", label: label))
        model.handle(.frame(.reply(id: "c-1", result: .failure(InspectorError(.alreadyAnswered, "nfc-1 was already answered")), sent: [])))
        #expect(model.rules.rules[0].hits == 0, "the rule still owes an answer")
        #expect(model.rules.rules[0].isActive)
        #expect(model.flash?.isError == false)
        #expect(model.footer.contains("nfc-1 was answered elsewhere first; not counted"))

        // The next request is answered by the rule's use given back.
        model.feed(20, .pendingRemoved(correlationId: "nfc-1"))
        let next = model.handle(.frame(.event(seq: 21, event: .pendingAdded(Fixture.pending("nfc-2", "nfc.read", since: Fixture.t0 + 1)))))
        #expect(next == [.send(.respond(.init(correlationId: "nfc-2", status: .success, data: ["uid": "04A2"], error: nil, rule: "nfc.read#1")), label: "rule nfc.read#1: respond success to nfc.read nfc-2")])
    }

    @Test("Answered elsewhere while the rule's delay ran: nothing is sent and the use is given back")
    func answeredDuringDelay() throws {
        var model = journeyModel()
        model.addRule(Self.rule("nfc.read", delayMs: 1_000))
        #expect(model.rules.rules[0].hits == 1)
        model.feed(20, .pendingRemoved(correlationId: "nfc-1"))
        #expect(model.handle(.tick(Fixture.t0 + 2_000)).isEmpty)
        #expect(model.rules.rules[0].hits == 0)
        #expect(model.footer.contains("nfc-1 was answered elsewhere during the delay; not counted"))
    }

    @Test("A request pending past the journey's 30 s timeout is not answered by a rule; the note says so")
    func abandonedSkipped() throws {
        var model = makeModel()
        var state = Fixture.journeyState()
        // Already pending when the inspector attached: 31 s on the host's clock (the same as this machine's).
        state.pending.append(Fixture.pending("nfc-old", "nfc.read", since: Fixture.t0 - 31_000))
        model.handle(.frame(.snapshot(seq: 11, state: state)))
        model.addRule(ReplyRule(action: "nfc.read", response: .init()))
        let effects = model.handle(.tick(Fixture.t0 + 1))
        #expect(effects.count == 1, "only the fresh nfc-1: \(effects)")
        #expect(effects.first.map { "\($0)" }?.contains("nfc-1") == true)
        #expect(model.rules.rules[0].hits == 1)
        #expect(model.footer.contains("rules skip nfc.read nfc-old: pending past the journey's timeout"))
    }

    @Test("q with active rules asks how many will stop answering; n stays, q again quits; without active rules q quits at once")
    func quitAsks() throws {
        var model = journeyModel()
        model.addRule(Self.rule("wallet.*", times: nil))
        model.addRule(Self.rule("nfc.*", times: 3, delayMs: 0))
        #expect(model.press(.char("q")).isEmpty)
        #expect(!model.quitting)
        #expect(model.screenText.contains("Quit? 2 active reply rules will stop answering"))
        model.press(.char("n"))
        #expect(model.overlays.isEmpty && !model.quitting)
        model.press(.char("q"))
        #expect(model.press(.char("q")) == [.quit])
        #expect(model.quitting)

        var paused = journeyModel()
        paused.addRule(Self.rule("wallet.*", times: nil))
        paused.press(.char("R"), .char(" "), .escape)
        #expect(paused.press(.char("q")) == [.quit], "a paused rule answers nothing: nothing to lose")
        var yes = journeyModel()
        yes.addRule(Self.rule("wallet.*", times: nil))
        yes.press(.char("q"))
        #expect(yes.press(.char("y")) == [.quit])
    }

    @Test("Rules and the event history are saved when they change and a later inspector loads them: rules paused, with a note")
    func savedAndReloaded() throws {
        let state = Self.temporaryState()
        defer { try? FileManager.default.removeItem(atPath: state.path) }
        var first = journeyModel()
        var store = InspectorStateStore(directory: state)
        store.load(into: &first)
        first.addRule(Self.rule("nfc.read", times: 2, delayMs: 200))
        first.addRule(ReplyRule(name: "wallet-no", action: "wallet.*", response: .init(status: .unsupported)))
        _ = first.send(.sendEvent(.init(name: "host.ping", data: ["n": 1])), label: "send host.ping")
        #expect(store.saveChanges(of: first) == nil)

        // The file is the rules-file format auto-respond --rules reads.
        let saved = try #require(FileManager.default.contents(atPath: state.file("rules.json")))
        #expect(try ReplyRuleBook.decode(saved).rules.map(\.name) == ["nfc.read#1", "wallet-no"])

        var second = journeyModel()
        var secondStore = InspectorStateStore(directory: state)
        secondStore.load(into: &second)
        #expect(second.rules.rules.map(\.name) == ["nfc.read#1", "wallet-no"])
        #expect(second.rules.rules.allSatisfy { !$0.isEnabled && $0.hits == 0 }, "paused, counts afresh")
        #expect(second.notice.contains("2 reply rules loaded from \(state.file("rules.json")), paused"))
        #expect(second.handle(.tick(Fixture.t0 + 1_000)).isEmpty, "a paused rule answers nothing")
        #expect(second.eventHistory == [EventDraft(name: "host.ping", dataText: #"{"n":1}"#)])
        #expect(second.press(.char("q")) == [.quit], "nothing active: no question")
    }

    @Test("A damaged rules or events file: a visible note, no crash, and the file is not overwritten")
    func damagedFiles() throws {
        let state = Self.temporaryState()
        defer { try? FileManager.default.removeItem(atPath: state.path) }
        try FileManager.default.createDirectory(atPath: state.path, withIntermediateDirectories: true)
        try "{\"rules\": [".write(toFile: state.file("rules.json"), atomically: true, encoding: .utf8)
        try "not json".write(toFile: state.file("events.json"), atomically: true, encoding: .utf8)
        var model = journeyModel()
        var store = InspectorStateStore(directory: state)
        store.load(into: &model)
        #expect(model.flash?.isError == true)
        #expect(model.notice.contains("not loaded"))
        model.addRule(Self.rule("nfc.read"))
        _ = model.send(.sendEvent(.init(name: "host.ping", data: nil)), label: "send host.ping")
        store.saveChanges(of: model)
        #expect(try String(contentsOfFile: state.file("rules.json"), encoding: .utf8) == "{\"rules\": [")
        #expect(try String(contentsOfFile: state.file("events.json"), encoding: .utf8) == "not json")
    }

    @Test("The event history is bounded")
    func historyBounded() {
        var model = journeyModel()
        for index in 0..<(InspectorModel.eventHistoryLimit + 10) {
            _ = model.send(.sendEvent(.init(name: "e\(index)", data: nil)), label: "send e\(index)")
        }
        #expect(model.eventHistory.count == InspectorModel.eventHistoryLimit)
        #expect(model.eventHistory.last?.name == "e\(InspectorModel.eventHistoryLimit + 9)")
    }
}
