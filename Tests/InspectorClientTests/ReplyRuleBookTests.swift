import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import Testing

/// A pending request for `action` with id `id`.
private func pending(_ action: String, _ id: String, since: Double = 0) -> WirePending {
    WirePending(
        correlationId: id, action: action, since: since,
        message: BridgeMessage(correlationId: id, type: .request, timestamp: 0, payload: .init(action: action)))
}

@Suite("Reply rules")
struct ReplyRuleBookTests {
    @Test("a rule with times 2 answers exactly two requests, then is used up; the hit count says so")
    func answersExactlyN() {
        var book = ReplyRuleBook()
        let rule = book.add(ReplyRule(action: "nfc.read", times: 2, response: .init(status: .success, data: ["uid": "04A2"])))
        #expect(rule.id == 1)
        #expect(rule.name == "nfc.read#1")
        #expect(rule.remaining == 2)

        let first = book.match(pending("nfc.read", "a"))
        #expect(first?.rule.hits == 1)
        #expect(first?.rule.remaining == 1)
        #expect(first?.delayMs == 0)
        #expect(book.isUsedUp == false)
        #expect(book.match(pending("nfc.read", "b"))?.rule.remaining == 0)
        #expect(book.match(pending("nfc.read", "c")) == nil, "the third request is left alone")
        #expect(book.rules.first?.hits == 2)
        #expect(book.rules.first?.isUsedUp == true)
        #expect(book.isUsedUp)
        #expect(book.totalHits == 2)
    }

    @Test("a rule without times answers every request and the book is never used up")
    func everyRequest() {
        var book = ReplyRuleBook(rules: [ReplyRule(action: "device.*", delayMs: 250, response: .init(status: .unsupported))])
        for index in 0..<100 {
            let match = book.match(pending("device.info", "r\(index)"))
            #expect(match?.delayMs == 250)
        }
        #expect(book.rules[0].hits == 100)
        #expect(book.rules[0].remaining == nil)
        #expect(book.hasUnlimitedRule)
        #expect(!book.isUsedUp)
    }

    @Test("actions match exactly or with * globs, as the filter language's action: does")
    func globs() {
        let cases: [(pattern: String, action: String, matches: Bool)] = [
            ("nfc.read", "nfc.read", true), ("nfc.read", "nfc.reads", false), ("nfc.read", "NFC.read", false),
            ("camera.*", "camera.document.capture", true), ("camera.*", "camera", false), ("*.capture", "camera.selfie.capture", true),
            ("camera.*.capture", "camera.selfie.capture", true), ("camera.*.capture", "camera.selfie.capture2", false),
            ("*", "anything", true), ("a*a", "a", false), ("a*a", "aa", true), ("*info*", "device.info.v2", true),
        ]
        for (pattern, action, expected) in cases {
            #expect(ReplyRule(action: pattern, response: .init()).matches(action: action) == expected, "\(pattern) vs \(action)")
        }
    }

    @Test("the first active matching rule wins; used-up and disabled rules are skipped")
    func order() {
        var book = ReplyRuleBook()
        let specific = book.add(ReplyRule(name: "first-nfc", action: "nfc.read", times: 1, response: .init(status: .error)))
        let general = book.add(ReplyRule(action: "*", response: .init(status: .unsupported)))
        #expect(general.name == "*#2")
        #expect(book.match(pending("nfc.read", "1"))?.rule.id == specific.id)
        #expect(book.match(pending("nfc.read", "2"))?.rule.id == general.id, "the specific rule is used up")
        let disabled = book.setEnabled(false, id: general.id)
        #expect(disabled)
        #expect(book.match(pending("nfc.read", "3")) == nil)
        #expect(book.isUsedUp, "the only enabled rule is used up")
        let enabled = book.setEnabled(true, id: general.id)
        #expect(enabled)
        #expect(book.match(pending("x", "4"))?.rule.name == "*#2")
        let unknown = book.setEnabled(true, id: 99)
        #expect(!unknown)
    }

    @Test("giving a hit back makes the rule owe that answer again (the host refused it)")
    func giveBack() {
        var book = ReplyRuleBook(rules: [ReplyRule(action: "nfc.read", times: 1, response: .init())])
        let match = book.match(pending("nfc.read", "1"))
        #expect(book.isUsedUp)
        book.giveBack(ruleID: match?.rule.id ?? 0)
        #expect(!book.isUsedUp)
        #expect(book.rules[0].hits == 0)
        book.giveBack(ruleID: match?.rule.id ?? 0)
        #expect(book.rules[0].hits == 0, "hits never go below zero")
        #expect(book.match(pending("nfc.read", "2")) != nil)
    }

    @Test("rules are added, listed with hit counts and removed; ids are never reused")
    func addRemove() {
        var book = ReplyRuleBook()
        let a = book.add(ReplyRule(action: "a", response: .init()))
        let b = book.add(ReplyRule(action: "b", times: 3, response: .init()))
        _ = book.match(pending("b", "1"))
        #expect(book.rules.map(\.name) == ["a#1", "b#2"])
        #expect(book.rule(named: "b#2")?.hits == 1)
        #expect(book.remove(id: a.id)?.name == "a#1")
        #expect(book.remove(id: a.id) == nil)
        let c = book.add(ReplyRule(action: "c", response: .init()))
        #expect(c.id == 3)
        #expect(book.rules.map(\.id) == [b.id, c.id])
        book.resetHits()
        #expect(book.totalHits == 0)
        book.removeAll()
        #expect(book.isEmpty)
        #expect(!book.isUsedUp, "an empty book is not used up: it never answers anything")
    }

    @Test("the respond command a rule makes carries its response and its name")
    func command() {
        let rule = ReplyRuleBook(rules: [
            ReplyRule(action: "location.get", response: .init(status: .error, error: BridgeErrorCode.timeout.payload()))
        ]).rules[0]
        let respond = rule.command(answering: "req-9")
        #expect(respond.correlationId == "req-9")
        #expect(respond.status == .error)
        #expect(respond.error?.code == "TIMEOUT")
        #expect(respond.error?.recoverable == true)
        #expect(respond.rule == "location.get#1")
    }

    @Test("a book survives saving and reading, hit counts included")
    func codableRoundTrip() throws {
        var book = ReplyRuleBook()
        book.add(ReplyRule(name: "nfc-ok", action: "nfc.read", times: 2, delayMs: 200, response: .init(status: .success, data: ["uid": "04A2", "n": 1])))
        book.add(ReplyRule(action: "wallet.*", response: .init(status: .unsupported, error: BridgeErrorCode.unsupported.payload()), isEnabled: false))
        _ = book.match(pending("nfc.read", "1"))
        let data = try book.encoded()
        let read = try ReplyRuleBook.decode(data)
        #expect(read == book)
        #expect(read.nextID == 3)
    }

    @Test("a hand-written rules file: defaults, a bare array, and error objects with known codes")
    func handWritten() throws {
        let text = """
            {"rules": [
              {"action": "nfc.read", "times": 2, "data": {"uid": "04A2"}},
              {"name": "deny", "action": "camera.*", "status": "error", "error": {"code": "PERMISSION_DENIED"}},
              {"action": "custom.thing", "status": "error", "error": {"code": "MY_CODE", "message": "Nope"}}
            ]}
            """
        let book = try ReplyRuleBook.decode(Data(text.utf8))
        #expect(book.rules.map(\.name) == ["nfc.read#1", "deny", "custom.thing#3"])
        #expect(book.rules[0].response.status == .success)
        #expect(book.rules[0].times == 2)
        #expect(book.rules[1].times == nil)
        #expect(book.rules[1].response.error == BridgeErrorCode.permissionDenied.payload())
        #expect(book.rules[2].response.error == BridgeErrorPayload(code: "MY_CODE", message: "Nope", recoverable: false))
        let array = try ReplyRuleBook.decode(Data(#"[{"action": "a"}, {"action": "b", "delayMs": 5}]"#.utf8))
        #expect(array.rules.map(\.action) == ["a", "b"])
        #expect(array.rules[1].delayMs == 5)
    }

    @Test("mistakes in a rules file are refused with the place and what is wrong", arguments: [
        (#"{"rules": [{"acton": "x"}]}"#, "rules[0].acton", "unknown field \"acton\""),
        (#"{"rules": [{"action": "x", "status": "fine"}]}"#, "rules[0].status", "status must be"),
        (#"{"rules": [{"action": "x", "times": 0}]}"#, "rules[0]", "times must be at least 1"),
        (#"{"rules": [{"action": "x", "times": "2"}]}"#, "rules[0].times", "expected a whole number"),
        (#"{"rules": [{"action": ""}]}"#, "rules[0]", "the action must not be empty"),
        (#"{"rules": [{"action": "x", "delayMs": -1}]}"#, "rules[0]", "delayMs must be from 0"),
        (#"{"rules": [{"action": "x", "error": {"code": "MINE"}}]}"#, "rules[0].error", "needs a \"message\""),
        (#"{"rules": [{"status": "success"}]}"#, "rules[0]", "missing field \"action\""),
        (#"{"rules": [{"action": "x",}]}"#, "line 1, column 27", "invalid JSON"),
        (#"{"version": 2, "rules": []}"#, "version", "newer than this bridge-inspector reads"),
        (#"{"rule": []}"#, "rule", "unknown field"),
    ])
    func mistakes(text: String, place: String, reason: String) {
        do {
            _ = try ReplyRuleBook.decode(Data(text.utf8))
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.place == place, "\(error)")
            #expect(error.reason.contains(reason), "\(error)")
        }
    }
}
