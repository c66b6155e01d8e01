import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

/// Held and edited messages, round two (issue 27, trap 5): an edited request shows as delivered,
/// the edit is a multi-line JSON editor, release all, edit-then-replay, and `q` asks while this
/// inspector's breakpoints would go.
@Suite("Held and edited messages: what was delivered, release all, edit and replay, quitting")
struct HeldEditTests {
    static let t0 = Fixture.t0

    /// The held document capture of ``InterceptionScreenTests/heldModel(width:height:)``, whose
    /// traffic record is seq 12 (the journey posted it, then b1 held it).
    static func modelWithHeldRequestLogged() -> InspectorModel {
        var model = InterceptionScreenTests.heldModel()
        model.feed(15, .traffic(Fixture.request(seq: 15, id: "doc-9", action: "camera.document.capture", at: t0 - 2_000, data: ["side": "front"])))
        return model
    }

    @Test("a request released edited: its row and detail show what the host routed, marked edited, with the journey's original")
    func editedRequestShowsDelivered() throws {
        var model = Self.modelWithHeldRequestLogged()
        var edited = InterceptionScreenTests.heldCapture.message
        edited.payload.data = ["side": "back"]
        model.feed(16, .heldResolved(WireHeldResolution(
            id: "h1", correlationId: "doc-9", direction: .received, outcome: .edited, reason: .command, by: "bridge-inspector tui",
            message: edited, record: 15, time: Self.t0)))
        let index = try #require(model.live.log.firstIndex { $0.seq == 15 })
        #expect(model.live.log[index].message?.payload.data == ["side": "back"])
        #expect(model.screen.line(containing: "doc-9")?.contains("✎ edited") == true)
        model.press(.char("G"), .enter)
        let detail = model.screenText
        #expect(detail.contains("held at a breakpoint (h1) and edited by an inspector before release"))
        #expect(detail.contains("as delivered (edited by an inspector):"))
        #expect(detail.contains("original, before the edit (as the journey posted it):"))
        let delivered = try #require(model.screen.index(containing: "as delivered"))
        let original = try #require(model.screen.index(containing: "original, before the edit"))
        let back = try #require(model.screen.index(containing: "\"back\""))
        let front = try #require(model.screen.index(containing: "\"front\""))
        #expect(delivered < back && back < original && original < front, "the delivered data first, the original below")
    }

    @Test("a snapshot's record with delivered shows the same: a late inspector sees the edit")
    func snapshotDelivered() throws {
        var record = Fixture.request(seq: 12, id: "doc-9", action: "camera.document.capture", at: Self.t0, data: ["side": "front"])
        var edited = record.message
        edited.payload.data = ["side": "back"]
        record.hold = HoldMark(id: "h1", outcome: .edited)
        record.delivered = edited
        var model = makeModel()
        model.handle(.frame(.snapshot(seq: 12, state: Fixture.state(messages: [record]))))
        #expect(model.live.log.first?.message?.payload.data == ["side": "back"])
        #expect(model.live.log.first?.original != nil)
        #expect(model.screen.line(containing: "doc-9")?.contains("✎ edited") == true)
    }

    @Test("the edit dialog is a multi-line editor: arrows move between lines, Ctrl-O breaks a line, a JSON mistake is marked on its line")
    func multiLineEditor() throws {
        var model = InterceptionScreenTests.heldModel()
        model.press(.char("H"), .char("e"))
        let before = try #require(model.topOverlay as? HeldEditDialog)
        let lines = before.text.components(separatedBy: "\n")
        let dataLine = try #require(lines.firstIndex { $0.contains("\"side\"") })
        // Several lines of the message are on the screen at once, numbered.
        #expect(model.screen.count(containing: "\"correlationId\" : \"doc-9\"") >= 1)
        #expect(model.screenText.contains("\"side\" : \"front\""))
        // Down to the data line, to its end, and change the value.
        for _ in 0..<dataLine { model.press(.down) }
        model.press(.end, .backspace, .backspace, .backspace, .backspace, .backspace, .backspace, .backspace)
        model.type("\"back\"")
        var dialog = try #require(model.topOverlay as? HeldEditDialog)
        #expect(dialog.text.components(separatedBy: "\n")[dataLine].hasSuffix("\"side\" : \"back\""))
        #expect(dialog.editor.area.row == dataLine)
        #expect(model.screenText.contains("✓ ready: Enter releases this  ·  line \(dataLine + 1), column"))
        // A line break inside the JSON is still JSON.
        model.press(.home, .ctrl("o"))
        dialog = try #require(model.topOverlay as? HeldEditDialog)
        #expect(dialog.editor.area.lineCount == lines.count + 1)
        #expect(model.screenText.contains("✓ ready"))
        // A stray character: the mistake's line and column, and its line marked in the gutter.
        model.type("?")
        let mistakeLine = dataLine + 2
        #expect(model.screenText.contains("✗ not a message: JSON line \(mistakeLine), column 1"))
        #expect(model.screen.contains { $0.contains("\(mistakeLine)✗") })
        #expect(model.press(.enter).isEmpty, "nothing is sent while the text is no message")
        // Backspace removes it; Backspace at the start of a line joins it to the one above.
        model.press(.backspace, .backspace)
        dialog = try #require(model.topOverlay as? HeldEditDialog)
        #expect(dialog.editor.area.lineCount == lines.count)
        let (command, _) = try #require(InterceptionScreenTests.sent(model.press(.enter)))
        guard case .release(let args) = command else { Issue.record("not a release"); return }
        #expect(args.message?.payload.data == ["side": "back"])
    }

    @Test("a message held without its data (too large) cannot be edited: releasing the edit would lose the data")
    func truncatedNotEditable() {
        var model = InterceptionScreenTests.heldModel()
        var large = InterceptionScreenTests.heldCapture
        large.id = "h3"
        large.truncated = true
        large.message.payload.data = nil
        model.feed(15, .held(large))
        model.press(.char("H"), .char("G"), .char("e"))
        #expect(model.topOverlay is HeldView)
        #expect(model.footer.contains("h3 is too large to hold here in full"))
    }

    @Test("A in the held view releases everything held after a confirmation that says how many")
    func releaseAll() throws {
        var model = InterceptionScreenTests.heldModel()
        model.press(.char("H"), .char("A"))
        let question = (model.topOverlay as? ConfirmDialog)?.question ?? ""
        #expect(question.hasPrefix("Release all 2 held messages as they are?"))
        #expect(question.contains("1 of them is held at another inspector's breakpoint"))
        #expect(model.screenText.contains("Release all 2 held messages"))
        let effects = model.press(.char("y"))
        let released = effects.compactMap { effect -> String? in
            guard case .send(.release(let args), _) = effect, args.message == nil else { return nil }
            return args.id
        }
        #expect(released == ["h1", "h2"])
        #expect(model.topOverlay is HeldView, "back in the list, which empties as the host resolves each")
        #expect(model.actions.suffix(2).map(\.label).allSatisfy { $0.hasPrefix("release held") })
        // n backs out, sending nothing.
        model.press(.char("A"))
        #expect(model.press(.char("n")).isEmpty)
        #expect(model.topOverlay is HeldView)
    }

    @Test("A with nothing held says so and asks nothing")
    func releaseAllNothingHeld() {
        var model = journeyModel()
        model.press(.char("H"), .char("A"))
        #expect(model.topOverlay is HeldView)
        #expect(model.footer.contains("nothing is held"))
    }

    @Test("I then e edits the replay's JSON, prefilled with its new id; Enter injects what was edited; the answer closes the editor")
    func editThenReplay() throws {
        var model = journeyModel()
        model.press(.char("g"), .char("j"), .char("j"), .char("j"))  // doc-7, the document capture
        model.openReplay(suffix: "beef")
        #expect((model.topOverlay as? ConfirmDialog)?.question.hasSuffix("e: edit the message first") == true)
        #expect(model.screenText.contains("e: edit first"))
        model.press(.char("e"))
        let dialog = try #require(model.topOverlay as? ReplayEditDialog)
        #expect(dialog.text.contains("\"correlationId\" : \"doc-7-replay-beef\""))
        #expect(model.screenText.contains("Edit and replay doc-7"))
        #expect(!model.overlays.contains { $0 is ConfirmDialog }, "the editor takes the question's place")
        let edited = #"{"version":"1.0","correlationId":"doc-7-replay-beef","type":"request","timestamp":1,"payload":{"action":"camera.document.capture","data":{"side":"back"}}}"#
        model.handle(.editorFinished(purpose: .replayMessage, text: edited))
        let (command, label) = try #require(InterceptionScreenTests.sent(model.press(.enter)))
        guard case .inject(let args) = command else { Issue.record("not an inject"); return }
        #expect(args.message?.payload.data == ["side": "back"])
        #expect(args.message?.correlationId == "doc-7-replay-beef")
        InterceptionScreenTests.reply(&model, label: label, id: "c-9")
        #expect(model.overlays.isEmpty)
    }

    @Test("q asks first while this inspector has breakpoints, saying they go and what they hold is released; y quits")
    func quitAsksWithBreakpoints() {
        var model = InterceptionScreenTests.heldModel()
        #expect(model.press(.char("q")).isEmpty)
        #expect((model.topOverlay as? ConfirmDialog)?.question == "Quit? Your 1 breakpoint will be removed and the 1 message it holds released as it is.")
        #expect(model.screenText.contains("Quit? Your 1 breakpoint will be removed"))
        #expect(!model.quitting)
        #expect(model.press(.char("y")) == [.quit])
        #expect(model.quitting)
    }

    @Test("q with breakpoints but nothing held still asks; with only another inspector's breakpoints it quits at once")
    func quitOwnOnly() {
        var ours = makeModel()
        ours.handle(.frame(InterceptionScreenTests.hello(clientId: 3)))
        ours.handle(.frame(Fixture.journeySnapshot()))
        ours.feed(12, .breakpoints([InterceptionScreenTests.ownBreakpoint]))
        ours.press(.char("q"))
        #expect((ours.topOverlay as? ConfirmDialog)?.question == "Quit? Your 1 breakpoint will be removed.")
        ours.press(.char("n"))
        #expect(!ours.quitting && ours.overlays.isEmpty)

        var theirs = makeModel()
        theirs.handle(.frame(InterceptionScreenTests.hello(clientId: 3)))
        theirs.handle(.frame(Fixture.journeySnapshot()))
        theirs.feed(12, .breakpoints([InterceptionScreenTests.othersBreakpoint]))
        theirs.feed(13, .held(InterceptionScreenTests.heldEvent))
        #expect(theirs.press(.char("q")) == [.quit])
    }
}
