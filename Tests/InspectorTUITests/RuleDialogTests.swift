import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

/// The new-rule form on top, if any.
func ruleDialog(_ model: InspectorModel) -> RuleDialog? {
    model.topOverlay as? RuleDialog
}

@Suite("New reply rule form")
struct RuleDialogTests {
    /// A connected host with nothing pending, the rules view open and the new-rule form on it.
    static func formModel(width: Int = 120, height: Int = 40) -> InspectorModel {
        var model = makeModel(width: width, height: height)
        model.handle(.frame(Fixture.emptySnapshot()))
        model.press(.char("R"), .char("n"))
        return model
    }

    /// Fills the action pattern, how many and the delay (the form starts on the action field).
    static func fill(_ model: inout InspectorModel, action: String, times: String, delay: String) {
        model.type(action)
        model.press(.tab, .ctrl("u"))
        model.type(times)
        model.press(.tab, .ctrl("u"))
        model.type(delay)
    }

    /// The line of the rules view about the rule named `name`.
    static func ruleLine(_ model: InspectorModel, _ name: String) -> String? {
        model.screen.line(containing: name)
    }

    @Test("n in the rules view opens the form; its footer and the rules view's footer name the keys")
    func opens() throws {
        var model = makeModel()
        model.handle(.frame(Fixture.emptySnapshot()))
        model.press(.char("R"))
        #expect(model.footer.contains("n new rule"))
        #expect(model.screen.contains { $0.contains("Press n to make one") })
        model.press(.char("n"))
        _ = try #require(ruleDialog(model))
        #expect(model.screen.contains { $0.contains("┌ New reply rule") })
        #expect(model.screen.contains { $0.contains("action pattern") && $0.contains("nfc.read, or camera.* (* matches anything)") })
        #expect(model.screen.contains { $0.contains("how many") && $0.contains("a number (3), or every") })
        #expect(model.screen.contains { $0.contains("delay (ms)") && $0.contains("0 (answer at once)") })
        #expect(model.screen.contains { $0.contains("✗ the action pattern is empty") })
        #expect(model.footer.contains("Enter add"))
        #expect(model.footer.contains("Esc cancel"))

        // At 80×24 every field, the verdict and the footer's keys fit.
        var small = Self.formModel(width: 80, height: 24)
        Self.fill(&small, action: "nfc.*", times: "3", delay: "500")
        let screen = small.screen
        for label in ["action pattern  nfc.*", "how many        3", "delay (ms)      500", "status          ‹ success ›", "recoverable     ‹ no ›"] {
            #expect(screen.contains { $0.contains("│" + label) }, "\(label)")
        }
        #expect(screen.contains { $0.contains("│✓ ready: Enter adds it: next 3 nfc.* requests → success after 500 ms") })
        #expect(small.footer.contains("Esc cancel"))
    }

    @Test("A glob rule for the next 3 with a delay is listed with its settings, then answers after the delay through respond")
    func globTimesDelay() throws {
        var model = Self.formModel()
        Self.fill(&model, action: "nfc.*", times: "3", delay: "500")
        #expect(model.screen.contains { $0.contains("✓ ready: Enter adds it: next 3 nfc.* requests → success after 500 ms") })
        #expect(model.press(.enter).isEmpty)
        // Back in the rules view, with the new rule and what it will do.
        guard model.topOverlay is RulesView else {
            Issue.record("not back in the rules view")
            return
        }
        #expect(model.overlays.count == 1)
        #expect(model.screen.contains { $0.contains("Reply rules: 1 (0 hits)") })
        let line = try #require(Self.ruleLine(model, "nfc.*#1"))
        #expect(line.contains("next 3"))
        #expect(line.contains("500ms"))
        #expect(line.contains("success"))
        let rule = try #require(model.rules.rules.first)
        #expect(rule.action == "nfc.*" && rule.times == 3 && rule.delayMs == 500 && rule.response == .init(status: .success, data: [:]))
        #expect(model.footer.contains("rule nfc.*#1 will answer the next 3 nfc.* request"))

        // A matching request is answered 500 ms later, through the ordinary respond command naming the rule.
        model.press(.escape)
        #expect(model.overlays.isEmpty)
        model.feed(1, .pendingAdded(Fixture.pending("w-1", "nfc.write", since: Fixture.t0)))
        model.feed(2, .pendingAdded(Fixture.pending("c-1", "camera.selfie.capture", since: Fixture.t0)))
        #expect(model.rules.rules[0].hits == 1, "counted when matched; the camera request does not match")
        #expect(model.handle(.tick(Fixture.t0 + 499)).isEmpty)
        let label = "rule nfc.*#1: respond success to nfc.write w-1"
        let effects = model.handle(.tick(Fixture.t0 + 500))
        #expect(
            effects == [.send(.respond(.init(correlationId: "w-1", status: .success, data: [:], error: nil, rule: "nfc.*#1")), label: label)])
        #expect(model.actions.map(\.label) == [label])
        #expect(model.handle(.tick(Fixture.t0 + 2_000)).isEmpty, "sent once")
        model.press(.char("R"))
        #expect(model.screen.contains { $0.contains("Reply rules: 1 (1 hit)") })
        #expect(try #require(Self.ruleLine(model, "nfc.*#1")).contains("next 2"))
    }

    @Test("A new rule is offered the requests already pending, as \"remember\" does")
    func answersPending() throws {
        var model = journeyModel()  // nfc-1 (nfc.read) is pending
        model.press(.char("R"), .char("n"))
        Self.fill(&model, action: "nfc.read", times: "1", delay: "250")
        #expect(model.press(.enter).isEmpty)
        #expect(model.rules.rules.first?.hits == 1)
        #expect(try #require(Self.ruleLine(model, "nfc.read#1")).contains("used up"))
        #expect(model.handle(.tick(Fixture.t0 + 249)).isEmpty)
        #expect(
            model.handle(.tick(Fixture.t0 + 250)) == [
                .send(
                    .respond(.init(correlationId: "nfc-1", status: .success, data: [:], error: nil, rule: "nfc.read#1")),
                    label: "rule nfc.read#1: respond success to nfc.read nfc-1")
            ])
    }

    @Test("\"every\" answers every matching request at once, with the response set in the form", arguments: ["every", "EVERY", " always "])
    func every(times: String) throws {
        var model = Self.formModel()
        Self.fill(&model, action: "camera.*", times: times, delay: "")
        model.press(.tab)  // status: success → error
        model.press(.right)
        model.press(.tab, .ctrl("u"), .tab)  // no data; error code
        model.type("PERMISSION_DENIED")
        model.press(.tab)
        model.type("No camera for you")
        #expect(model.screen.contains { $0.contains("✓ ready: Enter adds it: every camera.* request → error") })
        model.press(.enter)
        let rule = try #require(model.rules.rules.first)
        #expect(rule.times == nil)
        #expect(rule.delayMs == 0)
        #expect(try #require(Self.ruleLine(model, "camera.*#1")).contains("every"))
        model.press(.escape)
        let error = BridgeErrorPayload(code: "PERMISSION_DENIED", message: "No camera for you", recoverable: false)
        for index in 1...4 {
            // No delay: answered as the request arrives.
            let effects = model.handle(
                .frame(.event(seq: index, event: .pendingAdded(Fixture.pending("cam-\(index)", "camera.document.capture", since: Fixture.t0)))))
            #expect(
                effects == [
                    .send(
                        .respond(.init(correlationId: "cam-\(index)", status: .error, data: nil, error: error, rule: "camera.*#1")),
                        label: "rule camera.*#1: respond error to camera.document.capture cam-\(index)")
                ])
        }
        #expect(model.rules.rules[0].hits == 4)
        #expect(model.rules.rules[0].isActive)
    }

    @Test("Bad JSON is shown as it is typed and refused; nothing is created")
    func badJSON() throws {
        var model = Self.formModel()
        Self.fill(&model, action: "nfc.read", times: "2", delay: "0")
        model.press(.tab, .tab, .ctrl("u"))  // the data field
        model.type(#"{"uid": "04A2",}"#)
        #expect(model.screen.contains { $0.contains("✗ JSON line 1, column 16") })
        #expect(model.screen.contains { $0.contains("(fix the fields above to see the message)") })
        #expect(model.press(.enter).isEmpty)
        #expect(ruleDialog(model) != nil, "the form stays, to fix the mistake")
        #expect(model.footer.contains("line 1, column 16"))
        #expect(model.rules.isEmpty)
        model.press(.backspace, .backspace)
        model.type("}")
        #expect(model.screen.contains { $0.contains("✓ ready") })
        model.press(.enter)
        #expect(model.rules.rules.first?.response.data == ["uid": "04A2"])
    }

    @Test("Status and error must agree, as auto-respond requires: error needs a code, success carries none")
    func statusErrorAgreement() throws {
        var model = Self.formModel()
        Self.fill(&model, action: "nfc.read", times: "1", delay: "0")
        model.press(.tab, .right)  // status error, no code
        #expect(try #require(ruleDialog(model)).fields.status == .error)
        #expect(model.screen.contains { $0.contains("✗ an error response needs an error code") })
        #expect(model.press(.enter).isEmpty)
        #expect(model.footer.contains("an error response needs an error code"))
        #expect(model.rules.isEmpty)
        // success with an error code
        model.press(.left, .tab, .tab)
        model.type("BUSY")
        #expect(try #require(ruleDialog(model)).fields.status == .success)
        #expect(model.screen.contains { $0.contains("✗ a success response carries no error") })
        #expect(model.press(.enter).isEmpty)
        #expect(model.rules.isEmpty)
        #expect(ruleDialog(model) != nil)
        // cancelled may carry one
        model.press(.backTab, .backTab, .right, .right)
        #expect(try #require(ruleDialog(model)).fields.status == .cancelled)
        model.press(.enter)
        #expect(model.rules.rules.first?.response.error?.code == "BUSY")
    }

    @Test("Bad patterns, counts and delays are refused with a message", arguments: [
        ("", "1", "0", "the action pattern is empty"),
        ("nfc read", "1", "0", "the action pattern has a space"),
        ("nfc.read", "", "0", "how many: a whole number from 1, or every"),
        ("nfc.read", "0", "0", "how many: a whole number from 1, or every"),
        ("nfc.read", "three", "0", "how many: a whole number from 1, or every"),
        ("nfc.read", "1", "-5", "delay: whole milliseconds from 0 to 3600000"),
        ("nfc.read", "1", "3600001", "delay: whole milliseconds from 0 to 3600000"),
    ])
    func badFields(action: String, times: String, delay: String, message: String) {
        var model = Self.formModel()
        Self.fill(&model, action: action, times: times, delay: delay)
        #expect(model.screen.contains { $0.contains("✗ " + message) })
        #expect(model.press(.enter).isEmpty)
        #expect(model.footer.contains(message))
        #expect(model.rules.isEmpty)
        #expect(ruleDialog(model) != nil)
    }

    @Test("Esc cancels the form: back to the rules view, nothing created")
    func escapeCancels() {
        var model = journeyModel()
        model.press(.char("R"), .char("n"))
        Self.fill(&model, action: "nfc.*", times: "every", delay: "0")
        #expect(model.press(.escape).isEmpty)
        guard model.topOverlay is RulesView else {
            Issue.record("not back in the rules view")
            return
        }
        #expect(model.rules.isEmpty)
        #expect(model.screen.contains { $0.contains("No reply rules yet.") })
        #expect(model.handle(.tick(Fixture.t0 + 10_000)).isEmpty)
        #expect(model.actions.isEmpty)
    }

    @Test("Ctrl-T fills the response from the respond dialog's templates; Ctrl-E edits the data in $EDITOR")
    func templatesAndEditor() throws {
        var model = Self.formModel()
        model.type("camera.*")
        model.press(.ctrl("t"), .ctrl("t"))
        #expect(model.screen.contains { $0.contains("template: capture success (synthetic 32×24 PNG)") })
        model.press(.ctrl("t"))
        let dialog = try #require(ruleDialog(model))
        #expect(dialog.fields.status == .unsupported)
        #expect(dialog.fields.errorPayload == BridgeErrorCode.unsupported.payload())
        #expect(model.press(.ctrl("e")) == [.openEditor(text: "{}", purpose: .responseData)])
        model.handle(.editorFinished(purpose: .responseData, text: "{\"reason\": \"none\"}\n"))
        #expect(try #require(ruleDialog(model)).fields.data.text == "{\"reason\": \"none\"}")
        model.press(.tab)
        model.type("every")
        model.press(.enter)
        #expect(model.rules.rules.first?.response.data == ["reason": "none"])
    }

    @Test("In a recording, n refuses at once: no rule could answer")
    func readOnly() {
        var model = InspectorModel(recording: [Fixture.emptySnapshot()], size: Size(width: 120, height: 40), path: "session.jsonl")
        model.press(.char("R"), .char("n"))
        #expect(ruleDialog(model) == nil)
        #expect(model.footer.contains("this is a recording"))
    }

    @Test("Help lists n in the rules view")
    func help() {
        var model = makeModel(width: 120, height: 60)
        model.press(.char("?"))
        #expect(model.screen.contains { $0.contains("n (in R)") && $0.contains("new rule") })
    }
}
