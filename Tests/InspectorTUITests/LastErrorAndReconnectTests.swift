import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

@Suite("lastError")
struct LastErrorTests {
    @Test("E opens the history, newest first, with a mark on errors that have a cause")
    func history() {
        var model = journeyModel()
        model.press(.char("E"))
        let screen = model.screen
        #expect(screen[1].contains("lastError history: 2 errors (newest first)"))
        #expect(screen[2].hasPrefix("│22:13:19.000  → Failed to decode message: missing required field 'payload.action'  "))
        #expect(screen[3].hasPrefix("│22:13:00.000    WebView not attached"))
        #expect(model.footer.contains("Enter jump to cause"))
        model.press(.char("E"))
        #expect(model.overlays.isEmpty)
    }

    @Test("Enter in the history jumps to the message that caused the error")
    func jumpFromHistory() {
        var model = journeyModel()
        model.press(.char("g"), .char("E"), .enter)
        #expect(model.overlays.isEmpty)
        #expect(model.selectedEntry?.seq == 10)
        #expect(model.selectedEntry?.kind == .malformed)
        #expect(model.focus == .messages)
    }

    @Test("Enter on an error without a cause says so")
    func noCauseInHistory() {
        var model = journeyModel()
        model.press(.char("E"), .char("j"), .enter)
        #expect(model.overlays.count == 1)
        #expect(model.footer.contains("no message is linked to this error"))
    }

    @Test("J jumps to the cause, clearing a filter that hides it; the cursor row shows it")
    func jumpClearsFilter() {
        var model = journeyModel()
        model.press(.tab)  // focus elsewhere: J brings it back to the messages
        model.press(.char("f"))
        model.type("type:request")
        model.press(.enter)
        #expect(model.visible.count == 5)
        model.press(.char("J"))
        #expect(model.filter.isEmpty)
        #expect(model.visible.count == 10)
        #expect(model.selectedEntry?.seq == 10)
        #expect(model.focus == .messages)
        #expect(model.footer.contains("filter cleared to show the message"))
        let buffer = model.render()
        let inner = model.layout.messages.inset(1)
        let y = inner.y + (model.cursor - model.scroll)
        #expect(text(in: Rect(x: inner.x, y: y, width: inner.width, height: 1), of: buffer)[0].contains("malformed: missing required field"))
        #expect(buffer.style(at: Point(x: inner.x + 1, y: y))?.reverse == true)
    }

    @Test("J follows a new lastError to its cause; without a cause it says so")
    func newError() {
        var model = journeyModel()
        model.feed(12, .lastError(WireError(seq: 12, time: Fixture.t0 + 500, text: "evaluateJavaScript failed: ReferenceError", cause: 3)))
        #expect(model.screen[1].contains("⚠ lastError (3) 22:13:20.500 evaluateJavaScript failed: ReferenceError"))
        model.press(.char("J"))
        #expect(model.selectedEntry?.seq == 3)
        #expect(!model.following)
        model.feed(13, .lastError(WireError(seq: 13, time: Fixture.t0 + 600, text: "WebView not attached", cause: nil)))
        #expect(!model.screen[1].contains("J:jump"))
        model.press(.char("J"))
        #expect(model.footer.contains("lastError has no message to jump to"))
    }

    @Test("A cause that is no longer in the log says so")
    func causeGone() {
        var model = journeyModel()
        model.feed(12, .lastError(WireError(seq: 12, time: Fixture.t0, text: "Failed to decode message: x", cause: 999)))
        model.press(.char("J"))
        #expect(model.footer.contains("no longer in the log"))
    }

    @Test("C asks before clearing lastError; y sends clearError")
    func clear() {
        var model = journeyModel()
        #expect(model.press(.char("C")).isEmpty)
        #expect(model.screen.contains { $0.contains("Clear lastError on the host?") })
        #expect(model.press(.char("y")) == [.send(.clearError, label: "clear lastError")])
        model.feed(12, .lastError(WireError(seq: 12, time: Fixture.t0, text: nil, cause: nil)))
        #expect(model.press(.char("C")).isEmpty)
        #expect(model.overlays.isEmpty)
        #expect(model.footer.contains("already clear"))
    }

    @Test("L asks before clearing the host's log; the inspector keeps its rows")
    func clearLog() {
        var model = journeyModel()
        model.press(.char("L"))
        #expect(model.press(.char("y")) == [.send(.clearLog, label: "clear the host's message log")])
        model.feed(12, .logCleared)
        #expect(model.visible.count == 10)
    }
}

@Suite("Disconnect and reattach")
struct ReconnectTests {
    @Test("Disconnected: the status says so, every row stays, a marker shows where")
    func disconnected() {
        var model = journeyModel()
        model.handle(.tick(Fixture.t0 + 1_000))
        model.handle(.disconnected)
        model.handle(.tick(Fixture.t0 + 4_000))
        #expect(model.screen[0].contains("✗ DISCONNECTED 3.0s ago"))
        #expect(model.live.log.count == 11)
        let rows = model.messageLines
        #expect(rows[0].contains("host.ready"))
        #expect(rows[9].contains("malformed"))
        #expect(rows[10] == "┄┄ 22:13:21.000 disconnected from the host ┄┄")
        // A second notice adds nothing.
        model.handle(.disconnected)
        #expect(model.live.log.count == 11)
    }

    @Test("While disconnected nothing is sent, and the reason is given")
    func noSendWhileDisconnected() {
        var model = journeyModel()
        model.handle(.disconnected)
        model.press(.tab, .enter)
        #expect(model.press(.enter).isEmpty)
        #expect(model.footer.contains("not connected to the host"))
        #expect(model.actions.isEmpty)
    }

    @Test("A snapshot from the same agent adds only newer rows and a 'reattached' marker")
    func reattachSameHost() {
        var model = journeyModel()
        model.handle(.disconnected)
        model.handle(.tick(Fixture.t0 + 5_000))
        var state = Fixture.journeyState()
        state.messages.append(Fixture.request(seq: 12, id: "after-1", action: "nfc.read", at: Fixture.t0 + 4_000))
        state.messages.append(Fixture.response(seq: 13, id: "after-1", action: "nfc.read", at: Fixture.t0 + 4_010))
        model.handle(.frame(.snapshot(seq: 13, state: state)))
        #expect(model.screen[0].contains("● connected"))
        let rows = model.messageLines.filter { !$0.isEmpty }
        #expect(rows.count == 14)
        #expect(rows[10].contains("disconnected from the host"))
        #expect(rows[11] == "┄┄ 22:13:25.000 reattached to the same host ┄┄")
        #expect(rows[12].contains("IN  req  nfc.read") && rows[12].contains("after-1"))
        #expect(rows[13].hasSuffix(" after-1") && rows[13].contains(" success ") && rows[13].contains(" 10ms "))
        #expect(rows.count(containing: "cap-1") == 2)
        #expect(model.live.errorHistory.count == 2)
        // Jumping still works across the reattach.
        model.press(.char("J"))
        #expect(model.selectedEntry?.seq == 10)
    }

    @Test("A snapshot from a restarted host marks 'host restarted' and keeps the old rows")
    func reattachRestartedHost() {
        var model = journeyModel()
        model.handle(.disconnected)
        model.handle(.tick(Fixture.t0 + 6_000))
        let state = Fixture.state(
            host: Fixture.restartedHost,
            messages: [
                Fixture.hostEvent(seq: 1, id: "ios-event-99999999-0000", name: "host.ready", at: Fixture.t0 + 5_500),
                Fixture.request(seq: 2, id: "cap-1", action: "capability.query", at: Fixture.t0 + 5_600),
            ],
            pending: [Fixture.pending("cap-1", "capability.query", since: Fixture.t0 + 5_600)])
        model.handle(.frame(.snapshot(seq: 2, state: state)))
        #expect(model.screen[0].contains("pid 5151"))
        #expect(model.screen[0].contains("● connected"))
        let rows = model.messageLines.filter { !$0.isEmpty }
        #expect(rows.count == 14)
        #expect(rows[0].contains("host.ready"))
        #expect(rows[11].hasPrefix("── 22:13:26.000 demo-app restarted: pid 4242 ended, pid 5151 attached ──"))
        #expect(rows[12].contains("ios…999-0000"))
        #expect(rows[13].contains("capability.query") && rows[13].contains("cap-1"))
        MainScreenTests.expectPending(model.pendingLines.first, "capability.query", "cap-1", age: "400ms")
        #expect(model.pendingLines[1] == "")
        #expect(model.screen[1] == " lastError: none (2 earlier, E for history)")
        // The new host's cap-1 is answered: it threads with the new request, not the old one.
        model.feed(3, .traffic(Fixture.response(seq: 3, id: "cap-1", action: "capability.query", at: Fixture.t0 + 5_650)))
        #expect(model.messageLines[14].contains(" 50ms ") && model.messageLines[14].hasSuffix(" cap-1"))
    }

    @Test("A restarted host without a disconnect first is still marked")
    func restartWithoutDisconnect() {
        var model = journeyModel()
        model.handle(.frame(.snapshot(seq: 0, state: Fixture.state(host: Fixture.restartedHost))))
        #expect(model.messageLines[10].contains("demo-app restarted: pid 4242 ended, pid 5151 attached"))
    }

    @Test("A gap shows a marker with the exact range; the resynchronising snapshot adds only newer rows")
    func gap() {
        var model = journeyModel()
        model.handle(.frame(.gap(from: 12, to: 57)))
        #expect(model.messageLines[10] == "┄┄ gap: missed events 12–57 (inspector fell behind); state resynchronised ┄┄")
        #expect(model.live.gaps == [12...57])
        var state = Fixture.journeyState()
        state.messages.append(Fixture.request(seq: 40, id: "in-gap", action: "nfc.read", at: Fixture.t0 + 100))
        model.handle(.frame(.snapshot(seq: 58, state: state)))
        let rows = model.messageLines.filter { !$0.isEmpty }
        #expect(rows.count == 12)
        #expect(rows[11].contains("in-gap"))
        #expect(!rows.contains { $0.contains("reattached") })
    }

    @Test("The gap marker fits narrow screens")
    func gapNarrow() {
        var model = journeyModel(width: 80, height: 24)
        model.handle(.frame(.gap(from: 12, to: 57)))
        #expect(model.messageLines.last?.hasPrefix("┄┄ gap: missed events 12–57") == true)
    }
}
