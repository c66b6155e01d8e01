import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

/// The respond dialog on top, if any.
func respondDialog(_ model: InspectorModel) -> RespondDialog? {
    model.topOverlay as? RespondDialog
}

/// The pretty-printed wire message under "the journey will receive", read from inside the dialog's box.
func previewLines(_ model: InspectorModel) -> [String] {
    let buffer = model.render()
    guard let row = row(containing: "── the journey will receive", in: buffer),
        let left = column(of: "── the journey will receive", inRow: row, of: buffer)
    else { return [] }
    var right = left
    while right < buffer.width, buffer.cell(at: Point(x: right, y: row))?.text != "│" { right += 1 }
    var lines: [String] = []
    for y in (row + 1)..<buffer.height {
        let line = text(in: Rect(x: left, y: y, width: right - left, height: 1), of: buffer)[0]
        if line.isEmpty || line.hasPrefix("─") { break }
        lines.append(line)
    }
    return lines
}

@Suite("Respond dialog")
struct RespondDialogTests {
    /// The journey with the respond dialog open on nfc-1 (from the Pending pane).
    static func dialogModel(width: Int = 120, height: Int = 40) -> InspectorModel {
        var model = journeyModel(width: width, height: height)
        model.press(.tab, .enter)
        return model
    }

    @Test("Enter in the Pending pane opens the dialog on the selected request")
    func openFromPending() throws {
        var model = journeyModel()
        model.press(.tab, .char("j"), .enter)
        #expect(try #require(respondDialog(model)).request.correlationId == "cap-2")
        #expect(model.screen.contains { $0.contains("Respond to capability.query") })
        #expect(model.screen.contains { $0.contains("request cap-2, waiting 3.0s · it sent no data") })
        model.press(.escape)
        #expect(model.overlays.isEmpty)
    }

    @Test("A request the journey gave up on: the dialog says so instead of promising the journey receives the answer (issue 27)")
    func abandonedRequest() throws {
        var model = journeyModel()
        model.press(.tab, .char("j"), .enter)  // cap-2, a capability.query pending 3 s (its timeout: 5 s)
        #expect(model.screenText.contains("✓ ready: Enter sends"))
        #expect(model.screenText.contains("the journey will receive"))
        model.handle(.tick(Fixture.t0 + 3_000))
        let screen = model.screenText
        #expect(screen.contains("! the journey gave up on this request 1.0s ago (its timeout: 5.0s); Enter still sends"), "\(screen)")
        #expect(screen.contains("the host will send (the journey no longer waits for it)"))
        #expect(!screen.contains("the journey will receive"))
        #expect(!screen.contains("✓ ready"))
    }

    @Test("r on a pending request's row opens the dialog on that request")
    func openFromRow() throws {
        var model = journeyModel()
        model.press(.char("g"), .char("j"), .char("j"), .char("j"), .char("j"), .char("j"))  // cap-2
        #expect(model.selectedEntry?.correlationId == "cap-2")
        model.press(.char("r"))
        #expect(try #require(respondDialog(model)).request.correlationId == "cap-2")
    }

    @Test("r never answers a request the person cannot see selected: on an event row or an answered request it says why")
    func noHiddenTarget() throws {
        var model = journeyModel()
        try #require(model.live.pending.count >= 2)
        model.press(.char("g"))  // host.ready, an event
        #expect(model.selectedEntry?.type == .event)
        model.press(.char("r"))
        #expect(model.overlays.isEmpty)
        #expect(model.footer.contains("requests are pending: select one"))
        model.press(.char("j"))  // cap-1, answered already
        #expect(model.selectedEntry?.correlationId == "cap-1")
        model.press(.char("r"))
        #expect(model.overlays.isEmpty)
        #expect(model.footer.contains("cap-1 is not pending"))
    }

    @Test("r with nothing pending says so and opens nothing")
    func nothingPending() {
        var model = makeModel()
        model.handle(.frame(Fixture.emptySnapshot()))
        #expect(model.press(.char("r")).isEmpty)
        #expect(model.overlays.isEmpty)
        #expect(model.footer.contains("no pending request to answer"))
    }

    @Test("A JSON mistake in the data is reported with its line and column as it is typed")
    func dataMistake() throws {
        var model = Self.dialogModel()
        model.type(#"{"tag": "04A1",}"#)
        #expect(model.screen.contains { $0.contains("✗ JSON line 1, column 16") })
        #expect(previewLines(model) == ["(fix the fields above to see the message)"])
        // Enter does not send: it says why, and the dialog stays.
        #expect(model.press(.enter).isEmpty)
        #expect(respondDialog(model) != nil)
        #expect(model.footer.contains("line 1, column 16"))
        model.press(.backspace, .backspace)
        model.type("}")
        #expect(model.screen.contains { $0.contains("✓ ready: Enter sends") })
        #expect(previewLines(model).contains(#"      "tag": "04A1""#))
    }

    @Test("Data that is JSON but not an object is refused")
    func dataNotObject() {
        var model = Self.dialogModel()
        model.type("[1, 2]")
        #expect(model.screen.contains { $0.contains("data must be a JSON object") })
        #expect(model.press(.enter).isEmpty)
    }

    @Test("Enter sends exactly the fields set, with a label for the action log")
    func sendsExactly() throws {
        var model = Self.dialogModel()
        model.type(#"{"tag": "04A1", "count": 2}"#)
        let effects = model.press(.enter)
        let label = "respond success to nfc.read nfc-1"
        #expect(
            effects.first == .send(.respond(.init(correlationId: "nfc-1", status: .success, data: ["tag": "04A1", "count": 2], error: nil)), label: label))
        #expect(model.overlays.isEmpty)
        #expect(model.actions.map(\.label) == [label])
        #expect(model.actions[0].outcome == nil)
    }

    @Test("Empty data sends no data at all")
    func emptyData() {
        var model = Self.dialogModel()
        model.press(.backspace)  // clears the untouched {}
        #expect(!previewLines(model).contains { $0.contains("\"data\"") })
        let effects = model.press(.enter)
        #expect(effects.first == .send(.respond(.init(correlationId: "nfc-1", status: .success, data: nil, error: nil)), label: "respond success to nfc.read nfc-1"))
    }

    @Test("An error status needs an error code")
    func errorNeedsCode() throws {
        var model = Self.dialogModel()
        model.press(.backTab, .right)  // from the data field back to the status
        #expect(try #require(respondDialog(model)).status == .error)
        #expect(model.screen.contains { $0.contains("an error response needs an error code") })
        #expect(model.press(.enter).isEmpty)
        model.press(.tab, .tab)
        model.type("NFC_OFF")
        model.press(.tab)
        model.type("NFC is switched off")
        model.press(.tab, .char(" "))
        let effects = model.press(.enter)
        #expect(
            effects.first
                == .send(
                    .respond(.init(correlationId: "nfc-1", status: .error, data: [:], error: BridgeErrorPayload(code: "NFC_OFF", message: "NFC is switched off", recoverable: true))),
                    label: "respond error to nfc.read nfc-1"))
    }

    /// Template names, error codes and recoverable flags as Ctrl-T cycles.
    static func cycle(_ model: inout InspectorModel, times: Int) -> [(template: String, status: String, code: String, recoverable: String)] {
        var seen: [(String, String, String, String)] = []
        for _ in 0..<times {
            model.press(.ctrl("t"))
            let screen = model.screen
            func value(_ label: String) -> String {
                guard let line = screen.line(containing: "│" + label) else { return "?" }
                let after = line.components(separatedBy: "│" + label)[1]
                var value = after.components(separatedBy: "│")[0].trimmingCharacters(in: .whitespaces)
                if let close = value.firstIndex(of: "›") { value = String(value[...close]) }
                return value
            }
            seen.append((value("template: "), value("status  "), value("error code  "), value("recoverable  ")))
        }
        return seen
    }

    @Test("Ctrl-T cycles success, unsupported, cancelled and every documented error code with its recoverable flag")
    func templates() throws {
        var model = Self.dialogModel()
        let seen = Self.cycle(&model, times: 10)
        let expected: [(String, String, String, String)] = [
            ("success, no data", "‹ success ›", "BUSY, PERMISSION_DENIED, … or empty", "‹ no ›"),
            ("unsupported", "‹ unsupported ›", "UNSUPPORTED", "‹ no ›"),
            ("cancelled", "‹ cancelled ›", "CANCELLED", "‹ yes ›"),
            ("error PERMISSION_DENIED", "‹ error ›", "PERMISSION_DENIED", "‹ yes ›"),
            ("error TIMEOUT", "‹ error ›", "TIMEOUT", "‹ yes ›"),
            ("error BUSY", "‹ error ›", "BUSY", "‹ yes ›"),
            ("error INVALID_REQUEST", "‹ error ›", "INVALID_REQUEST", "‹ no ›"),
            ("error INTERNAL_ERROR", "‹ error ›", "INTERNAL_ERROR", "‹ no ›"),
            ("error VERSION_MISMATCH", "‹ error ›", "VERSION_MISMATCH", "‹ no ›"),
            ("success, no data", "‹ success ›", "BUSY, PERMISSION_DENIED, … or empty", "‹ no ›"),
        ]
        #expect(seen.count == expected.count)
        for (got, want) in zip(seen, expected) {
            #expect(got.template == want.0)
            #expect(got.status == want.1, "\(want.0)")
            #expect(got.code == want.2, "\(want.0)")
            #expect(got.recoverable == want.3, "\(want.0)")
        }
        // Every documented code is offered with the SDK's recoverable flag.
        let dialog = try #require(respondDialog(model))
        for code in BridgeErrorCode.allCases {
            let template = dialog.templates.first { $0.error?.code == code.rawValue }
            #expect(template?.error?.recoverable == code.isRecoverable, "\(code)")
        }
    }

    @Test("camera.* actions also offer a capture success template; F2 cycles too")
    func captureTemplate() throws {
        var model = makeModel()
        let state = Fixture.state(pending: [Fixture.pending("sel-1", "camera.selfie.capture", since: Fixture.t0)])
        model.handle(.frame(.snapshot(seq: 1, state: state)))
        model.press(.char("r"), .ctrl("t"), .function(2))
        let dialog = try #require(respondDialog(model))
        #expect(dialog.templates.count == 10)
        #expect(model.screen.contains { $0.contains("template: capture success (synthetic 32×24 PNG)") })
        let preview = previewLines(model)
        #expect(preview.contains(#"      "imageHeight": 24,"#))
        #expect(preview.contains(#"      "imageWidth": 32,"#))
        #expect(preview.contains(#"      "mimeType": "image/png""#))
        #expect(preview.contains { $0.hasPrefix(#"      "imageBase64": "iVBORw0KGgo"#) })
        guard case .send(.respond(let args), _)? = model.press(.enter).first else {
            Issue.record("nothing sent")
            return
        }
        #expect(args.status == .success)
        #expect(args.data?["imageWidth"] == 32)
        #expect(args.data?["imageHeight"] == 24)
        guard case .string(let base64)? = args.data?["imageBase64"], let png = Data(base64Encoded: base64) else {
            Issue.record("no image")
            return
        }
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    }

    @Test("The preview is the exact wire message: correlationId, action, status and error")
    func exactPreview() {
        var model = Self.dialogModel()
        _ = Self.cycle(&model, times: 6)  // error BUSY
        #expect(
            previewLines(model) == [
                "{",
                #"  "correlationId": "nfc-1","#,
                #"  "payload": {"#,
                #"    "action": "nfc.read","#,
                #"    "error": {"#,
                #"      "code": "BUSY","#,
                #"      "message": "Another native operation is in progress","#,
                #"      "recoverable": true"#,
                "    },",
                #"    "status": "error""#,
                "  },",
                #"  "timestamp": 1700000000000,"#,
                #"  "type": "response","#,
                #"  "version": "1.0""#,
                "}",
            ])
        let effects = model.press(.enter)
        #expect(
            effects == [
                .send(
                    .respond(.init(correlationId: "nfc-1", status: .error, data: nil, error: BridgeErrorCode.busy.payload())),
                    label: "respond error to nfc.read nfc-1")
            ])
    }

    @Test("The host's refusal is shown verbatim in the footer and in the action log")
    func hostRefusal() throws {
        var model = Self.dialogModel()
        _ = Self.cycle(&model, times: 3)  // cancelled
        let effects = model.press(.enter)
        let label = "respond cancelled to nfc.read nfc-1"
        #expect(effects.count == 1)
        model.handle(.commandSent(id: "c-17", label: label))
        #expect(model.actions.last?.commandId == "c-17")
        let message = "request nfc-1 was already answered by the app"
        model.handle(.frame(.reply(id: "c-17", result: .failure(InspectorError(code: "already_answered", message: message)), sent: [])))
        #expect(model.actions.last?.outcome == .refused(message))
        #expect(model.flash?.isError == true)
        #expect(model.footer == " ✗ \(label): \(message)")
        model.press(.char("A"))
        #expect(model.screen.contains { $0.contains("Action log: what this inspector did (1)") })
        #expect(model.screen.contains { $0.contains("22:13:20.000  ✗ \(label): \(message)") })
        model.press(.escape)
        #expect(model.overlays.isEmpty)
        // The error flash lasts 8 s.
        model.handle(.tick(Fixture.t0 + 7_999))
        #expect(model.footer.contains(message))
        model.handle(.tick(Fixture.t0 + 8_000))
        #expect(!model.footer.contains(message))
    }

    @Test("A success reply is ticked in the footer and the action log")
    func hostSuccess() {
        var model = Self.dialogModel()
        model.press(.enter)
        let label = "respond success to nfc.read nfc-1"
        model.handle(.commandSent(id: "c-1", label: label))
        #expect(model.actions.last?.outcome == nil)
        model.press(.char("A"))
        #expect(model.screen.contains { $0.contains("… \(label)") })
        model.press(.escape)
        model.handle(.frame(.reply(id: "c-1", result: .success(.object([:])), sent: [])))
        #expect(model.actions.last?.outcome == .done)
        #expect(model.footer == " ✓ \(label)")
        model.press(.char("A"))
        #expect(model.screen.contains { $0.contains("✓ \(label)") })
    }

    @Test("A command that could not be sent is reported and logged")
    func commandFailed() {
        var model = Self.dialogModel()
        model.press(.enter)
        let label = "respond success to nfc.read nfc-1"
        model.handle(.commandFailed(label: label, error: "broken pipe"))
        #expect(model.actions.last?.outcome == .refused("broken pipe"))
        #expect(model.footer.contains("\(label): broken pipe"))
    }

    @Test("Replies to unknown commands change nothing; errors without an id are shown")
    func strayReplies() {
        var model = journeyModel()
        model.handle(.frame(.reply(id: "nobody", result: .success(.null), sent: [])))
        #expect(model.flash == nil)
        model.handle(.frame(.reply(id: nil, result: .failure(InspectorError(.malformedFrame, "line 3 is not JSON")), sent: [])))
        #expect(model.footer.contains("host: line 3 is not JSON"))
    }

    @Test("Ctrl-E asks for $EDITOR on the data; its text comes back into the field")
    func editor() throws {
        var model = Self.dialogModel()
        let effects = model.press(.ctrl("e"))
        #expect(effects == [.openEditor(text: "{}", purpose: .responseData)])
        model.handle(.editorFinished(purpose: .responseData, text: "{\n  \"tag\": \"X\"\n}\n"))
        let dialog = try #require(respondDialog(model))
        #expect(dialog.data.text == "{  \"tag\": \"X\"}")
        #expect(model.screen.contains { $0.contains("✓ ready") })
        model.handle(.editorFinished(purpose: .responseData, text: nil))
        #expect(model.footer.contains("the editor did not save"))
    }

    // MARK: The first hour (issue 13, trap 1)

    /// One pending nfc.read (its request carries data), so `r` opens the dialog from anywhere.
    static func onePendingModel(width: Int = 120, height: Int = 40) -> InspectorModel {
        var model = makeModel(width: width, height: height)
        let request = Fixture.message("nfc-9", .request, "nfc.read", at: Fixture.t0 - 1_000, data: ["timeoutMs": 5000, "purpose": "passport"])
        let pending = WirePending(correlationId: "nfc-9", action: "nfc.read", since: Fixture.t0 - 1_000, message: request)
        model.handle(.frame(.snapshot(seq: 1, state: Fixture.state(pending: [pending]))))
        return model
    }

    @Test("r then typing the data sends exactly what was typed: the dialog opens on the data field and typing replaces its {}")
    func typingReplacesTheDefault() throws {
        var model = Self.onePendingModel()
        model.press(.char("r"))
        model.type(#"{"uid":"04A2"}"#)
        #expect(try #require(respondDialog(model)).data.text == #"{"uid":"04A2"}"#)
        #expect(model.screen.contains { $0.contains("✓ ready: Enter sends") })
        let effects = model.press(.enter)
        #expect(effects.first == .send(.respond(.init(correlationId: "nfc-9", status: .success, data: ["uid": "04A2"], error: nil)), label: "respond success to nfc.read nfc-9"))
    }

    @Test("Once edited, typing appends; a template's values are replaced by the first character typed")
    func editedFieldsAppend() throws {
        var model = Self.onePendingModel()
        model.press(.char("r"))
        model.type(#"{"a":1"#)
        model.type("}")
        #expect(try #require(respondDialog(model)).data.text == #"{"a":1}"#)
        // ←/→ on the untouched {} start editing it instead of replacing it.
        model.press(.escape, .char("r"), .left)
        model.type(#""k":2"#)
        #expect(try #require(respondDialog(model)).data.text == #"{"k":2}"#)
        // error BUSY, then Tab to the error code: typing replaces BUSY.
        model.press(.escape, .char("r"))
        for _ in 0..<6 { model.press(.ctrl("t")) }
        model.press(.tab)
        model.type("NFC_OFF")
        let dialog = try #require(respondDialog(model))
        #expect(dialog.fields.errorCode.text == "NFC_OFF")
        #expect(dialog.fields.errorMessage.text == BridgeErrorCode.busy.defaultMessage)
    }

    @Test("The footer lists the editing keys of the focused field")
    func footerListsEditingKeys() {
        var model = Self.onePendingModel()
        model.press(.char("r"))
        #expect(model.footer.contains("type replaces it"))
        model.type("{")
        #expect(model.footer.contains("Ctrl-U clear"))
        #expect(model.footer.contains("Ctrl-W word"))
        model.press(.backTab)
        #expect(model.footer.contains("←→ change"))
        // At 80 columns the keys most needed still fit.
        var narrow = Self.onePendingModel(width: 80, height: 24)
        narrow.press(.char("r"), .char("{"))
        #expect(narrow.footer.contains("Enter send  Esc cancel  Ctrl-U clear  Ctrl-W word"))
    }

    @Test("The dialog shows the request's own data")
    func showsRequestData() {
        var model = Self.onePendingModel()
        model.press(.char("r"))
        #expect(model.screen.contains { $0.contains(#"request nfc-9, waiting 1.0s · its data: {"purpose":"passport","timeoutMs":5000}"#) })
        #expect(Self.dialogModel().screen.contains { $0.contains("request nfc-1, waiting 4.0s · it sent no data") })
    }
}
