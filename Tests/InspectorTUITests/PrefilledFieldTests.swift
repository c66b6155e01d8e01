import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

/// Fields that open with a value (issue 13, trap 1): the event dialog's name and data, and a
/// recalled event, are replaced by the first character typed, as the respond dialog's are; every
/// dialog's footer names the focused field's editing keys.
@Suite("Prefilled fields")
struct PrefilledFieldTests {
    @Test("Event dialog: typing in the data field replaces its {} instead of appending ({}{\"a\":1})")
    func eventDataReplaced() throws {
        var model = journeyModel()
        model.press(.char("e"), .tab)
        #expect(model.footer.contains("type replaces it"))
        model.type(#"{"a":1}"#)
        #expect(try #require(eventDialog(model)).data.text == #"{"a":1}"#)
        #expect(model.footer.contains("Ctrl-U clear"))
        #expect(model.press(.enter) == [.send(.sendEvent(.init(name: "host.ping", data: ["a": 1])), label: "send event host.ping")])
    }

    @Test("Event dialog: typing a name replaces host.ping; once edited, typing appends")
    func eventNameReplaced() throws {
        var model = journeyModel()
        model.press(.char("e"))
        #expect(model.footer.contains("type replaces it"))
        #expect(model.footer.contains("↑↓ history"))
        model.type("host.back")
        model.type("ground")
        #expect(try #require(eventDialog(model)).name.text == "host.background")
    }

    @Test("Event dialog: a recalled event counts as prefilled, so typing replaces it too")
    func recalledReplaced() throws {
        var model = journeyModel()
        model.press(.char("e"), .up)
        #expect(try #require(eventDialog(model)).data.text == #"{"orientation": "landscape"}"#)
        model.press(.tab)
        model.type(#"{"orientation": "portrait"}"#)
        #expect(try #require(eventDialog(model)).data.text == #"{"orientation": "portrait"}"#)
        // Backspace on an untouched recalled value clears it.
        model.press(.tab, .up, .backspace)
        #expect(try #require(eventDialog(model)).name.text == "")
    }

    @Test("Event dialog: data written in $EDITOR is the person's, so typing edits it")
    func editorDataIsEdited() throws {
        var model = journeyModel()
        model.press(.char("e"), .tab)
        model.handle(.editorFinished(purpose: .eventData, text: #"{"a":1"#))
        model.type("}")
        #expect(try #require(eventDialog(model)).data.text == #"{"a":1}"#)
    }

    @Test("New-rule form: the footer lists the focused field's editing keys as the respond dialog's does")
    func ruleFooter() {
        var model = RuleDialogTests.formModel()
        #expect(model.footer.contains("Enter add  Esc cancel  Ctrl-U clear  Ctrl-W word"))
        #expect(!model.footer.contains("←→ status"))
        model.press(.tab, .tab, .tab)
        #expect(model.footer.contains("←→ change"))
        model.press(.tab)
        #expect(model.footer.contains("type replaces it"))
        model.type("{")
        #expect(model.footer.contains("Ctrl-U clear"))
    }

    @Test("Slot dialog: typing a width or an error code replaces the default (1280 became 12801920), and the footer says so")
    func slotFieldsReplaced() throws {
        var model = SlotActionTests.slotsModel()
        model.press(.char("c"), .tab)
        #expect(model.footer.contains("type replaces it"))
        model.type("1920")
        model.press(.tab)
        model.type("1080")
        #expect(try #require(slotDialog(model)).width.text == "1920")
        #expect(try #require(slotDialog(model)).height.text == "1080")
        #expect(model.footer.contains("Ctrl-U clear"))
        model.press(.escape, .char("c"), .right, .tab)
        model.type("CAMERA_DENIED")
        model.press(.tab)
        model.type("The camera is off")
        let effects = model.press(.enter)
        #expect(effects == [
            .send(
                .completeSlot(.init(slot: .document, result: .error(BridgeErrorPayload(code: "CAMERA_DENIED", message: "The camera is off", recoverable: true)))),
                label: "complete the document capture doc-7 with error"),
        ])
    }
}
