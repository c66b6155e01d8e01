import BridgeCore
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

/// The mouse (issue 27, "Mouse: click a row or a pane, wheel scrolls"): clicks and the wheel
/// fed to the model as ``InspectorInput/mouse(_:)``, hit-tested against the layout it draws.
@Suite("Mouse")
struct MouseTests {
    // MARK: Helpers

    /// A left click at `x`, `y`; returns its effects.
    @discardableResult
    static func click(_ model: inout InspectorModel, x: Int, y: Int) -> [InspectorEffect] {
        model.handle(.mouse(MouseEvent(kind: .press(.left), position: Point(x: x, y: y))))
    }

    /// A left click on the first row of `pane` that shows `text`.
    @discardableResult
    static func click(_ model: inout InspectorModel, on text: String, in pane: Pane) -> [InspectorEffect] {
        let rect = model.layout.rect(of: pane)
        let rows = InspectorTUITests.text(in: rect, of: model.render())
        guard let row = rows.firstIndex(where: { $0.contains(text) }) else {
            Issue.record("no row of the \(pane) pane shows \(text):\n\(model.screenText)")
            return []
        }
        return click(&model, x: rect.x + 2, y: rect.y + row)
    }

    /// One notch of the wheel at `x`, `y`.
    static func wheel(_ model: inout InspectorModel, down: Bool, x: Int, y: Int) {
        model.handle(.mouse(MouseEvent(kind: down ? .scrollDown : .scrollUp, position: Point(x: x, y: y))))
    }

    /// Whether `effects` send anything to the host (or quit).
    static func sendsOrQuits(_ effects: [InspectorEffect]) -> Bool {
        effects.contains {
            switch $0 {
            case .send, .quit, .loadFaultRules: true
            case .openEditor, .copyToClipboard, .saveRecording, .loadComparison, .saveFaultRules: false
            }
        }
    }

    /// A model whose host has `count` pending requests, ids p0, p1, …
    static func manyPending(_ count: Int, width: Int = 80, height: Int = 24) -> InspectorModel {
        var model = makeModel(width: width, height: height)
        let requests = (0..<count).map { Fixture.request(seq: $0 + 1, id: "p\($0)", action: "nfc.read", at: Fixture.t0 - Double(1000 * (count - $0))) }
        let pending = (0..<count).map { Fixture.pending("p\($0)", "nfc.read", since: Fixture.t0 - Double(1000 * (count - $0))) }
        model.handle(.frame(.snapshot(seq: count, state: Fixture.state(messages: requests, pending: pending))))
        return model
    }

    // MARK: Panes and rows

    @Test("A click on a pane focuses it; a click on the status line, the banner or the footer changes nothing")
    func clickFocusesPane() {
        var model = journeyModel()
        #expect(model.focus == .messages)
        Self.click(&model, x: model.layout.pending.x + 1, y: model.layout.pending.y)
        #expect(model.focus == .pending)
        #expect(model.messagesTitle.contains("Messages") && !model.messagesTitle.contains("▶ Messages"))
        #expect(model.screen[model.layout.pending.y].contains("▶ Pending"), "the focused pane's title is marked")
        Self.click(&model, x: model.layout.slots.maxX - 2, y: model.layout.slots.maxY - 1)
        #expect(model.focus == .slots)
        for y in [model.layout.status.y, model.layout.errorBanner.y, model.layout.footer.y] {
            Self.click(&model, x: 5, y: y)
            #expect(model.focus == .slots)
            #expect(model.overlays.isEmpty)
        }
    }

    @Test("A click on a row selects the row drawn there, in every pane")
    func clickSelectsRow() {
        var model = journeyModel()
        Self.click(&model, on: "nfc-1", in: .messages)
        #expect(model.selectedEntry?.correlationId == "nfc-1")
        #expect(!model.following, "a row clicked is being read")
        #expect(model.overlays.isEmpty, "a first click only selects")

        Self.click(&model, on: "cap-2", in: .pending)
        #expect(model.focus == .pending)
        #expect(model.selectedPending?.correlationId == "cap-2")
        #expect(model.overlays.isEmpty)

        // Slots take two lines each: the second (the flags line) selects the same slot.
        let selfie = model.screen.index(containing: "selfie") ?? 0
        Self.click(&model, x: model.layout.slots.x + 3, y: selfie + 1)
        #expect(model.focus == .slots)
        #expect(model.selectedSlot?.kind == .selfie)
    }

    @Test("A click below the last row focuses the pane and keeps its selection")
    func clickBelowRows() {
        var model = journeyModel()
        Self.click(&model, on: "nfc-1", in: .messages)
        let inner = model.layout.pending.inset(1)
        Self.click(&model, x: inner.x + 1, y: inner.maxY - 1)
        #expect(model.focus == .pending)
        #expect(model.pendingCursor == 0)
        #expect(model.overlays.isEmpty)
    }

    @Test("A click on the selected row of the focused pane opens it, as Enter does; nothing is sent")
    func secondClickOpens() {
        var model = journeyModel()
        // The selected message's row, but the pane had no focus: the first click only focuses.
        model.press(.tab)
        Self.click(&model, on: "malformed", in: .messages)
        #expect(model.focus == .messages)
        #expect(model.overlays.isEmpty)
        let effects = Self.click(&model, on: "malformed", in: .messages)
        #expect(model.topOverlay is DetailView)
        #expect(effects.isEmpty)

        // A double-click on a pending request opens the respond dialog: nothing is sent until Enter.
        var pending = journeyModel()
        let first = Self.click(&pending, on: "cap-2", in: .pending)
        let second = Self.click(&pending, on: "cap-2", in: .pending)
        #expect(!Self.sendsOrQuits(first + second))
        #expect((pending.topOverlay as? RespondDialog)?.request.correlationId == "cap-2")
    }

    @Test("A double-click on a pending request of a scrolled list opens the request clicked (the list does not move under the pointer)")
    func pendingListStaysUnderPointer() {
        var model = Self.manyPending(10)
        Self.click(&model, x: model.layout.pending.x + 1, y: model.layout.pending.y)
        model.press(.char("G"))
        #expect(model.selectedPending?.correlationId == "p9")
        let top = model.layout.pending.inset(1).y
        let shown = model.pendingLines[0]
        let clicked = model.item(of: .pending, atRow: top).map { model.live.pending[$0].correlationId }
        #expect(clicked.map { shown.contains($0) } == true, "\(shown)")
        Self.click(&model, x: model.layout.pending.x + 2, y: top)
        #expect(model.selectedPending?.correlationId == clicked)
        #expect(model.pendingLines[0] == shown, "the row clicked is still the first one shown")
        Self.click(&model, x: model.layout.pending.x + 2, y: top)
        #expect((model.topOverlay as? RespondDialog)?.request.correlationId == clicked)
    }

    @Test("Zoomed, the pane fills the body and a click lands on its rows")
    func zoomedHitTest() {
        var model = Self.manyPending(10)
        model.press(.tab, .char("z"))
        #expect(model.focus == .pending && model.zoomed)
        // Unzoomed, this row is inside the Messages pane; zoomed, it is the Pending pane's.
        let y = model.layout.pending.y + 6
        #expect(model.layout.pane(at: Point(x: 3, y: y)) == .pending)
        let drawn = model.screen[y]
        Self.click(&model, x: 3, y: y)
        #expect(model.focus == .pending, "the panes the zoom hides cannot be clicked")
        #expect(model.zoomed)
        guard let id = model.selectedPending?.correlationId else {
            Issue.record("nothing selected")
            return
        }
        #expect(drawn.contains(id), "\(drawn) / \(id)")
        #expect(model.selectedPending?.correlationId == "p5")
    }

    // MARK: The wheel

    @Test("The wheel moves three rows in the log, down to the newest row (which follows again)")
    func wheelScrollsLog() {
        var model = journeyModel(width: 80, height: 24)
        FollowAndPauseTests.feedRequests(&model, count: 30)
        let inside = Point(x: 4, y: model.layout.messages.y + 3)
        let before = model.cursor
        Self.wheel(&model, down: false, x: inside.x, y: inside.y)
        #expect(model.cursor == before - 3)
        #expect(!model.following)
        let top = model.messageLines.first
        for _ in 0..<5 { Self.wheel(&model, down: false, x: inside.x, y: inside.y) }
        #expect(model.cursor == before - 18)
        #expect(model.messageLines.first != top, "the rows shown scrolled")
        for _ in 0..<6 { Self.wheel(&model, down: true, x: inside.x, y: inside.y) }
        #expect(model.cursor == before)
        #expect(model.following)
    }

    @Test("The wheel over another pane focuses it and moves its selection")
    func wheelOverPending() {
        var model = Self.manyPending(10)
        Self.wheel(&model, down: true, x: model.layout.pending.x + 3, y: model.layout.pending.y + 1)
        #expect(model.focus == .pending)
        #expect(model.pendingCursor == 3)
        Self.wheel(&model, down: false, x: model.layout.pending.x + 3, y: model.layout.pending.y + 1)
        #expect(model.pendingCursor == 0)
    }

    @Test("The wheel scrolls the open view as ↑ ↓ do")
    func wheelScrollsView() {
        var model = journeyModel(width: 80, height: 24)
        model.press(.char("?"))
        let first = model.screenText
        Self.wheel(&model, down: true, x: 10, y: 10)
        #expect((model.topOverlay as? HelpView)?.offset == 3)
        #expect(model.screenText != first)
        Self.wheel(&model, down: false, x: 10, y: 10)
        #expect((model.topOverlay as? HelpView)?.offset == 0)
        #expect(model.focus == .messages, "the panes behind the view are not touched")

        var detail = journeyModel(width: 80, height: 24)
        detail.press(.char("g"), .char("j"), .enter)
        #expect(detail.topOverlay is DetailView)
        Self.wheel(&detail, down: true, x: 10, y: 10)
        #expect((detail.topOverlay as? DetailView)?.offset == 3)
    }

    @Test("Over a view that closes on any other key, or takes typed text, the wheel changes nothing")
    func wheelLeavesDialogs() {
        var model = journeyModel()
        model.press(.char("C"))
        #expect(model.topOverlay is ConfirmDialog)
        Self.wheel(&model, down: true, x: 10, y: 10)
        #expect(model.topOverlay is ConfirmDialog, "↓ would close it: the wheel does not")

        var event = journeyModel()
        event.eventHistory = [EventDraft(name: "host.earlier", dataText: "{}")]
        event.press(.char("e"))
        #expect(event.topOverlay is EventDialog)
        let shown = event.screenText
        Self.wheel(&event, down: false, x: 10, y: 10)
        #expect(event.screenText == shown, "↑ in its name field would recall host.earlier")
    }

    // MARK: Never sends

    @Test("No click or turn of the wheel anywhere sends anything or quits, over the main screen or any dialog")
    func neverSends() {
        let openers: [[Key]] = [[], [.char("r")], [.char("e")], [.char("C")], [.char("L")], [.char("b")], [.tab, .char("c")], [.char("?")]]
        for keys in openers {
            var model = journeyModel(width: 80, height: 24)
            for key in keys { model.handle(.key(key)) }
            // Every row, at the columns of the panes' edges and insides (which pane is hit
            // depends on the column; which row, on the row).
            for y in 0..<24 {
                for x in [0, 1, 2, 40, 78, 79] {
                    for kind in [MouseEvent.Kind.press(.left), .press(.left), .release(.left), .scrollDown] {
                        let effects = model.handle(.mouse(MouseEvent(kind: kind, position: Point(x: x, y: y))))
                        #expect(!Self.sendsOrQuits(effects), "\(keys) at \(x),\(y): \(effects)")
                    }
                }
            }
        }
    }

    @Test("A screen too small for the panes, or an open prompt, ignores the mouse")
    func ignoredWhenNothingToHit() {
        var small = journeyModel(width: 40, height: 10)
        Self.click(&small, x: 2, y: 5)
        #expect(small.overlays.isEmpty && small.focus == .messages)

        var prompt = journeyModel()
        prompt.press(.char("f"))
        Self.click(&prompt, x: prompt.layout.pending.x + 1, y: prompt.layout.pending.y)
        #expect(prompt.focus == .messages)
        #expect(prompt.prompt != nil)
    }

    @Test("The help lists the mouse beside the keys")
    func helpListsMouse() {
        let moving = HelpView.sections.first { $0.title == HelpSection.moving.rawValue }?.keys ?? []
        #expect(moving.contains { $0.0 == "click / wheel" }, "\(moving)")
        #expect(HelpView.readOnlySections.flatMap(\.keys).contains { $0.0 == "click / wheel" }, "a recording takes the mouse too")
    }
}
