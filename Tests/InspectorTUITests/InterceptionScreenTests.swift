import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

/// Breakpoints, held messages, inject and replay in the inspector (issue 15): every flow, from
/// the key to the command sent, the host's answer and what the screen then shows.
@Suite("Breakpoints, held messages, inject and replay")
struct InterceptionScreenTests {
    static let t0 = Fixture.t0

    /// A document capture held at b1 two seconds ago; the host releases it as it is in 58 s.
    static let heldCapture = WireHeld(
        id: "h1", direction: .received, since: t0 - 2_000, deadline: t0 + 58_000, breakpoint: "b1", owner: "bridge-inspector tui",
        message: Fixture.message("doc-9", .request, "camera.document.capture", at: t0 - 2_000, data: ["side": "front"]))
    /// A host event held before the journey receives it.
    static let heldEvent = WireHeld(
        id: "h2", direction: .sent, since: t0 - 1_000, deadline: t0 + 29_000, breakpoint: "b2", owner: "bridge-inspector break",
        message: Fixture.message("ios-event-1", .event, "host.ready", at: t0 - 1_000))

    static let ownBreakpoint = WireBreakpoint(id: "b1", filter: "action:camera.*", owner: "bridge-inspector tui", ownerClient: 3, holdSeconds: 60, hits: 1)
    static let othersBreakpoint = WireBreakpoint(id: "b2", filter: "type:event", owner: "bridge-inspector break", ownerClient: 5, holdSeconds: 30, hits: 1)

    static func hello(clientId: Int?) -> AgentFrame {
        .hello(
            AgentHello(
                protocol: WireProtocol.version, agent: "bridge-inspector-agent", host: Fixture.host, features: [],
                limits: .init(maxFrameBytes: 1 << 20, maxClients: 8), clientId: clientId))
    }

    /// The journey, this inspector is client 3, two breakpoints (b1 ours), two held messages.
    static func heldModel(width: Int = 140, height: Int = 40) -> InspectorModel {
        var model = makeModel(width: width, height: height)
        model.handle(.frame(hello(clientId: 3)))
        model.handle(.frame(Fixture.journeySnapshot()))
        model.feed(12, .breakpoints([ownBreakpoint, othersBreakpoint]))
        model.feed(13, .held(heldCapture))
        model.feed(14, .held(heldEvent))
        return model
    }

    /// The command of the only send effect.
    static func sent(_ effects: [InspectorEffect]) -> (InspectorCommand, String)? {
        guard effects.count == 1, case .send(let command, let label) = effects[0] else { return nil }
        return (command, label)
    }

    static func reply(_ model: inout InspectorModel, label: String, id: String, error: InspectorError? = nil) {
        model.handle(.commandSent(id: id, label: label))
        model.handle(.frame(.reply(id: id, result: error.map { .failure($0) } ?? .success(.object([:])), sent: [])))
    }

    @Test("the status line counts held messages whatever view is open; H lists them with their age, which ticks")
    func heldListAndAges() {
        var model = Self.heldModel()
        #expect(model.screen[0].contains("⏸ 2 held (H)"))
        model.press(.char("R"))
        #expect(model.screen[0].contains("⏸ 2 held (H)"))
        model.press(.escape, .char("H"))
        let screen = model.screen
        #expect(screen.contains { $0.contains("Held at breakpoints: 2") })
        let row = screen.line(containing: "h1") ?? ""
        for part in ["2.0s", "in 58.0s", "IN", "request camera.document.capture", "doc-9", "b1 action:camera.*", "bridge-inspector tui"] {
            #expect(row.contains(part), "\(part) in \(row)")
        }
        #expect(screen.line(containing: "h2")?.contains("OUT") == true)
        // The selected message in full, pretty-printed.
        #expect(screen.contains { $0.contains("h1: the message as held") })
        #expect(screen.contains { $0.contains("\"side\": \"front\"") })
        model.handle(.tick(Self.t0 + 3_000))
        #expect(model.screen.line(containing: "h1")?.contains("5.0s") == true)
        #expect(model.screen.line(containing: "h1")?.contains("in 55.0s") == true)
        // j selects the event: its message is shown.
        model.press(.char("j"))
        #expect(model.screen.contains { $0.contains("h2: the message as held") })
    }

    @Test("Enter releases the selected message; it leaves the list when the host says it was resolved")
    func release() throws {
        var model = Self.heldModel()
        model.press(.char("H"))
        let (command, label) = try #require(Self.sent(model.press(.enter)))
        #expect(command == .release(.init(id: "h1")))
        Self.reply(&model, label: label, id: "c-1")
        #expect(model.footer.contains("✓ release held request camera.document.capture doc-9 (h1)"))
        model.feed(15, .heldResolved(WireHeldResolution(id: "h1", correlationId: "doc-9", direction: .received, outcome: .released, reason: .command, time: Self.t0)))
        #expect(!model.screenText.contains("in 58.0s"))
        #expect(model.screen.line(containing: "h2")?.contains("in 29.0s") == true)
        #expect(model.screen[0].contains("⏸ 1 held"))
    }

    @Test("a late action's already_resolved shows in the status line, and the item goes for everyone")
    func firstActionWins() throws {
        var model = Self.heldModel()
        model.press(.char("H"))
        let (_, label) = try #require(Self.sent(model.press(.enter)))
        Self.reply(&model, label: label, id: "c-2", error: InspectorError(code: "already_resolved", message: "h1 was already dropped"))
        #expect(model.footer.contains("h1 was already dropped"))
        model.feed(15, .heldResolved(WireHeldResolution(id: "h1", correlationId: "doc-9", direction: .received, outcome: .dropped, reason: .command, by: "other", time: Self.t0)))
        #expect(!model.screenText.contains("in 58.0s"))
        #expect(model.screen[0].contains("⏸ 1 held"))
    }

    @Test("e edits the message's JSON, prefilled over several lines; the host's refusal keeps the dialog and the text; success closes it")
    func editAndRelease() throws {
        var model = Self.heldModel()
        model.press(.char("H"), .char("e"))
        guard let dialog = model.topOverlay as? HeldEditDialog else { Issue.record("no edit dialog"); return }
        #expect(dialog.text.contains("\"correlationId\" : \"doc-9\""))
        #expect(dialog.editor.area.lineCount > 5, "pretty-printed, one member a line")
        #expect(model.screenText.contains("Edit and release h1"))
        // Change the correlation id (written in $EDITOR): the text is a message, the host refuses the change.
        let edited = #"{"version":"1.0","correlationId":"doc-X","type":"request","timestamp":1,"payload":{"action":"camera.document.capture"}}"#
        model.handle(.editorFinished(purpose: .heldMessage, text: edited))
        let (command, label) = try #require(Self.sent(model.press(.enter)))
        guard case .release(let args) = command else { Issue.record("not a release"); return }
        #expect(args.id == "h1" && args.message?.correlationId == "doc-X")
        let refusal = "an edit must keep correlationId, type and action (correlationId changed)"
        Self.reply(&model, label: label, id: "c-3", error: InspectorError(code: "invalid_arguments", message: refusal))
        guard let kept = model.topOverlay as? HeldEditDialog else { Issue.record("the dialog closed"); return }
        #expect(kept.text == edited)
        #expect(model.screenText.contains("✗ " + refusal))
        // Fixed: released, and the dialog closes.
        model.handle(.editorFinished(purpose: .heldMessage, text: edited.replacingOccurrences(of: "doc-X", with: "doc-9")))
        let (_, label2) = try #require(Self.sent(model.press(.enter)))
        Self.reply(&model, label: label2, id: "c-4")
        guard model.topOverlay is HeldView else { Issue.record("not back in the list"); return }
    }

    @Test("text that is no message is reported as typed, with the line and column of a JSON mistake, and Enter sends nothing")
    func editInvalid() {
        var model = Self.heldModel()
        model.press(.char("H"), .char("e"))
        // The cursor starts before the opening brace: a letter there is no JSON.
        model.type("x")
        #expect(model.screenText.contains("✗ not a message: JSON line 1, column 1"))
        #expect(model.press(.enter).isEmpty)
    }

    @Test("a answers a held request in the respond dialog with answer; an event cannot be answered")
    func answer() throws {
        var model = Self.heldModel()
        model.press(.char("H"), .char("a"))
        let dialog = try #require(respondDialog(model))
        #expect(dialog.heldId == "h1")
        #expect(model.screenText.contains("Answer held camera.document.capture (h1)"))
        #expect(!model.screenText.contains("remember"))
        let (command, label) = try #require(Self.sent(model.press(.enter)))
        #expect(command == .answer(.init(id: "h1", status: .success, data: [:])))
        #expect(label.hasPrefix("answer success to held camera.document.capture doc-9"))
        guard model.topOverlay is HeldView else { Issue.record("the respond dialog stayed"); return }
        // The held event: a explains instead.
        model.press(.char("j"), .char("a"))
        guard model.topOverlay is HeldView else { Issue.record("opened a dialog for an event"); return }
        #expect(model.footer.contains("only a held request can be answered"))
    }

    @Test("d drops after a confirmation; n backs out")
    func dropWithConfirm() throws {
        var model = Self.heldModel()
        model.press(.char("H"), .char("d"))
        #expect(model.screenText.contains("Drop held request camera.document.capture doc-9 (h1)?"))
        model.press(.char("n"))
        guard model.topOverlay is HeldView else { Issue.record("no longer in the list"); return }
        model.press(.char("d"))
        let (command, _) = try #require(Self.sent(model.press(.char("y"))))
        #expect(command == .drop(.init(id: "h1")))
    }

    @Test("H and b switch between the held list and the breakpoints without piling one on the other; Esc closes")
    func switchBetweenLists() {
        var model = Self.heldModel()
        model.press(.char("H"), .char("b"), .char("H"), .char("b"), .char("H"))
        #expect(model.overlays.count == 1)
        guard model.overlays.last is HeldView else {
            Issue.record("the held list is not on top: \(model.overlays)")
            return
        }
        model.press(.escape)
        #expect(model.overlays.isEmpty)
    }

    @Test("b lists every inspector's breakpoints, yours marked; d removes yours and explains another's")
    func breakpointList() throws {
        var model = Self.heldModel()
        model.press(.char("b"))
        let screen = model.screen
        #expect(screen.contains { $0.contains("Breakpoints: 2 (2 held)") })
        #expect(screen.line(containing: "action:camera.*")?.contains("● you") == true)
        #expect(screen.line(containing: "type:event")?.contains("bridge-inspector break (inspector 5): not yours") == true)
        let (command, label) = try #require(Self.sent(model.press(.char("d"))))
        #expect(command == .removeBreakpoint(.init(id: "b1")))
        Self.reply(&model, label: label, id: "c-5")
        #expect(model.footer.contains("✓ remove breakpoint b1"))
        model.press(.char("j"))
        #expect(model.press(.char("d")).isEmpty)
        #expect(model.footer.contains("b2 is bridge-inspector break's (inspector 5): only it can remove it"))
    }

    @Test("the agent's not_owner refusal shows in the status line")
    func removeRefused() throws {
        var model = makeModel()
        model.handle(.frame(Fixture.journeySnapshot()))  // no hello: ownership unknown, the agent decides
        model.feed(12, .breakpoints([Self.othersBreakpoint]))
        model.press(.char("b"))
        let (_, label) = try #require(Self.sent(model.press(.char("d"))))
        Self.reply(&model, label: label, id: "c-6", error: InspectorError(code: "not_owner", message: "b2 belongs to another inspector"))
        #expect(model.footer.contains("b2 belongs to another inspector"))
    }

    @Test("n adds a breakpoint: a syntax error shows as typed; the agent's refusal keeps the form; success closes it")
    func addBreakpoint() throws {
        var model = Self.heldModel()
        model.press(.char("b"), .char("n"))
        model.type("action:(")
        #expect(model.screenText.contains("✗ "))
        #expect(model.press(.enter).isEmpty)
        model.press(.ctrl("u"))
        model.type("is:pending")
        let (command, label) = try #require(Self.sent(model.press(.enter)))
        #expect(command == .addBreakpoint(.init(filter: "is:pending", holdSeconds: nil)))
        let refusal = "is:pending cannot apply before a message is routed (column 1): use type:request"
        Self.reply(&model, label: label, id: "c-7", error: InspectorError(code: "invalid_arguments", message: refusal))
        guard let form = model.topOverlay as? BreakpointDialog else { Issue.record("the form closed"); return }
        #expect(form.filter.text == "is:pending")
        #expect(model.screenText.contains("column 1"))
        model.press(.ctrl("u"))
        model.type("action:nfc.*")
        model.press(.tab)
        model.type("5")
        let (command2, label2) = try #require(Self.sent(model.press(.enter)))
        #expect(command2 == .addBreakpoint(.init(filter: "action:nfc.*", holdSeconds: 5)))
        Self.reply(&model, label: label2, id: "c-8")
        guard model.topOverlay is BreakpointsView else { Issue.record("not back in the list"); return }
        // A hold time out of range is refused before sending.
        model.press(.char("n"))
        model.type("type:event")
        model.press(.tab)
        model.type("9999")
        #expect(model.press(.enter).isEmpty)
        #expect(model.footer.contains("hold seconds: a number from 0.05 to 3600"))
    }

    @Test("i injects a message built from the form; the host's answer threads to it as usual")
    func inject() throws {
        var model = journeyModel()
        model.press(.char("i"))
        guard model.topOverlay is InjectDialog else { Issue.record("no inject dialog"); return }
        model.press(.tab)
        model.type("nfc.read")
        model.press(.tab, .ctrl("u"))
        model.type("inj-1")
        model.press(.tab)
        model.type("{\"tag\": 1}")
        let (command, label) = try #require(Self.sent(model.press(.enter)))
        guard case .inject(let args) = command, let message = args.message else { Issue.record("not an inject"); return }
        #expect(message.correlationId == "inj-1" && message.type == .request && message.payload.action == "nfc.read")
        #expect(message.payload.data == ["tag": .number(1)])
        Self.reply(&model, label: label, id: "c-9")
        #expect(model.overlays.isEmpty)
        // The injected request and its answer: marked as made by an inspector, threaded.
        var injected = Fixture.traffic(seq: 12, .received, message, at: Self.t0, origin: .inspector)
        injected.command = "inject"
        model.feed(12, .traffic(injected))
        model.feed(13, .traffic(Fixture.response(seq: 13, id: "inj-1", action: "nfc.read", at: Self.t0 + 20)))
        let row = model.screen.line(containing: "IN  req  ✎ nfc.read") ?? ""
        #expect(row.contains("inj-1"))
        #expect(model.live.log.last?.partner != nil)
    }

    @Test("a send that fails before reaching the host keeps the form and says so")
    func injectNotSent() throws {
        var model = journeyModel()
        model.press(.char("i"), .tab)
        model.type("nfc.read")
        let (_, label) = try #require(Self.sent(model.press(.enter)))
        model.handle(.commandFailed(label: label, error: "broken pipe"))
        guard let form = model.topOverlay as? InjectDialog else { Issue.record("the form closed"); return }
        #expect(form.action.text == "nfc.read")
        #expect(model.screenText.contains("✗ not sent (broken pipe): Enter tries again"))
    }

    @Test("I replays the selected IN row with a new id (s: the same id), after asking")
    func replay() throws {
        var model = journeyModel()
        model.press(.char("g"), .char("j"), .char("j"), .char("j"))  // doc-7, the document capture
        #expect(model.selectedEntry?.correlationId == "doc-7")
        model.openReplay(suffix: "beef")
        #expect(model.screenText.contains("Replay request camera.document.capture doc-7 as doc-7-replay-beef?"))
        let (command, _) = try #require(Self.sent(model.press(.char("y"))))
        guard case .inject(let args) = command, let message = args.message else { Issue.record("not an inject"); return }
        #expect(message.correlationId == "doc-7-replay-beef")
        #expect(message.payload.data == ["side": "front"])
        #expect(message.timestamp == Self.t0)
        let (same, _) = try #require(Self.sent(model.press(.char("I"), .char("s"))))
        guard case .inject(let sameArgs) = same else { Issue.record("not an inject"); return }
        #expect(sameArgs.message?.correlationId == "doc-7")
        // An event the host sent (an OUT row) is not the journey's to replay.
        model.press(.char("g"))
        #expect(model.selectedEntry?.direction == .sent)
        model.press(.char("I"))
        #expect(model.overlays.isEmpty)
        #expect(model.footer.contains("only what the journey sent"))
    }

    @Test("hostile text in a held message, its owner and a breakpoint's filter reaches the screen made safe")
    func hostileHeld() {
        var model = Self.heldModel()
        let hostile = "evil\u{1b}]52;c;AAAA\u{07}\u{1b}[2J"
        model.feed(15, .held(WireHeld(
            id: "h3", direction: .received, since: Self.t0, deadline: nil, breakpoint: "b9", owner: hostile,
            message: Fixture.message(hostile, .request, hostile, at: Self.t0, data: [hostile: .string(hostile)]))))
        model.feed(16, .breakpoints([WireBreakpoint(id: "b9", filter: hostile, owner: hostile, ownerClient: 9, holdSeconds: 1, hits: 1)]))
        for keys in [[Key.char("H"), .char("G")], [.char("e")], [.escape, .escape, .char("b")]] {
            for key in keys { model.handle(.key(key)) }
            #expect(forbiddenCells(model.render()).isEmpty, "\(keys)")
        }
    }

    @Test("a host seen through the public API explains why b, H, i and I do nothing")
    func unsupportedHost() {
        let host = WireHostInfo(
            name: "MyApp", pid: 901, hostVersion: "3.0.0", environment: "ios", startedAt: Self.t0 - 60_000, inspection: HostFeature.publicAPIPath,
            unsupported: [HostFeature.intercept.rawValue: "the public API cannot hold messages", HostFeature.inject.rawValue: "the public API cannot inject"])
        var model = makeModel()
        model.handle(.frame(Fixture.journeySnapshot(host: host)))
        for key in ["b", "H"] {
            model.press(.char(Character(key)))
            #expect(model.overlays.isEmpty)
            #expect(model.footer.contains("not available for this host: the public API cannot hold messages"))
        }
        for key in ["i", "I"] {
            model.press(.char(Character(key)))
            #expect(model.overlays.isEmpty)
            #expect(model.footer.contains("not available for this host: the public API cannot inject"))
        }
    }

    @Test("sent rows that were held carry their mark in the log and the detail view")
    func holdMarks() {
        var model = journeyModel()
        var edited = Fixture.response(seq: 12, id: "nfc-1", action: "nfc.read", at: Self.t0)
        edited.hold = HoldMark(id: "h4", outcome: .edited)
        var dropped = Fixture.hostEvent(seq: 13, id: "ios-event-2", name: "host.bye", at: Self.t0 + 1)
        dropped.hold = HoldMark(id: "h5", outcome: .dropped)
        model.feed(12, .traffic(edited))
        model.feed(13, .traffic(dropped))
        #expect(model.screen.line(containing: "host.bye")?.contains("✗ dropped") == true)
        #expect(model.screen.line(containing: "✎ edited")?.contains("resp") == true)
        model.press(.char("k"), .enter)
        #expect(model.screenText.contains("held at a breakpoint (h4) and edited by an inspector before release"))
    }

    @Test("the held view counts matches let through because the host held its most (holdSkipped); a held event counts as its breakpoint's hit")
    func holdSkippedCounted() {
        var model = Self.heldModel()
        #expect(model.live.breakpoints.map(\.hits) == [2, 2], "each breakpoint's hit from the list, and one from its held event")
        model.feed(
            15,
            .holdSkipped(WireHoldSkipped(
                breakpoint: "b1", correlationId: "doc-10", action: "camera.document.capture", direction: .received, reason: .heldCount,
                limit: 2, bytes: 120, time: Self.t0)))
        model.press(.char("H"))
        #expect(model.screen.contains { $0.contains("Held at breakpoints: 2 · 1 let through, not held") }, "\(model.screenText)")
        #expect(model.live.holdSkippedCount == 1)
        #expect(model.live.lastHoldSkipped?.correlationId == "doc-10")
    }
}

@Suite("Held messages in the main screen's footer")
struct HeldFooterTests {
    @Test("while something is held, the footer offers H with the count")
    func footerOffersHeld() {
        var model = InterceptionScreenTests.heldModel()
        #expect(model.footer.contains("H 2 held"))
        model.feed(15, .heldResolved(WireHeldResolution(id: "h1", correlationId: "doc-9", direction: .received, outcome: .released, reason: .timeLimit, time: Fixture.t0)))
        model.feed(16, .heldResolved(WireHeldResolution(id: "h2", correlationId: "ios-event-1", direction: .sent, outcome: .released, reason: .timeLimit, time: Fixture.t0)))
        #expect(!model.footer.contains("held"))
        #expect(!model.screen[0].contains("held"))
    }
}
