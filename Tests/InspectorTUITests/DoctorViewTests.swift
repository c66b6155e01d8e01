import BridgeCore
import Foundation
import HostDiagnosis
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

/// The doctor view (`D`, issue 16 part 1 in the TUI): every check of GBGBridge's troubleshooting
/// checklist on the live state, the selected one opened with its evidence, fix and guide heading.
@Suite("Doctor view")
struct DoctorViewTests {
    static let t0 = Fixture.t0

    /// The row of the check titled `title` on `screen`.
    static func checkLine(_ title: String, in screen: [String]) -> String? {
        screen.first { $0.contains("│✗ \(title)") || $0.contains("│! \(title)") || $0.contains("│✓ \(title)") || $0.contains("│– \(title)") }
    }

    @Test("D opens on the first failure: lastError with its evidence, fix and guide; the summary counts every status")
    func lastErrorFailure() throws {
        var model = journeyModel(width: 120, height: 40)
        model.press(.char("D"))
        let screen = model.screen
        #expect(screen[1].contains("Doctor: GBGBridge's troubleshooting checklist, live"))
        #expect(!screen[1].contains("j/k"), "every check fits at 120x40: \(screen[1])")
        let report = DoctorView.report(context: model.overlayContext)
        // Worked out by hand for Fixture.journeyState: lastError set and a malformed input (two
        // failures); the journey's cap-1 answer reported no capabilities, so three later requests
        // were not reported, and two requests are pending (two warnings); the agent does not
        // report receivedMessages' size (not run).
        #expect(report.failures == 2 && report.warnings == 2, "\(report.checks.map { "\($0.id) \($0.status)" })")
        #expect(screen.contains { $0.contains("2 failures, 2 warnings, 12 ok, 1 not run") }, "\(screen)")
        let head = try #require(Self.checkLine("lastError", in: screen))
        #expect(head.contains("✗ lastError  lastError: a message failed to decode (missing required field 'payload.action')."), "\(head)")
        let text = model.screenText
        #expect(text.contains("→ 22:13:19.000  Failed to decode message: missing required field 'payload.action'"), "\(text)")
        #expect(text.contains("• 1 earlier error in lastError's history"), "\(text)")
        #expect(text.contains("fix: Validate the message on the web side before sending"), "\(text)")
        #expect(text.contains("guide: Message Decoding Failures"), "\(text)")
        // Other checks are one line each, their status first.
        #expect(Self.checkLine("Pending requests", in: screen)?.contains("! Pending requests  2 requests waiting in pendingRequests") == true, "\(screen)")
        #expect(Self.checkLine("Correlation ids are unique", in: screen)?.contains("✓ Correlation ids are unique") == true)
        #expect(Self.checkLine("receivedMessages does not pile up", in: screen)?.contains("– receivedMessages does not pile up  Cannot run") == true)
        // The failure's glyph is drawn in the danger style.
        let buffer = model.render()
        let y = try #require(row(containing: "✗ lastError", in: buffer))
        let x = try #require(column(of: "✗ lastError", inRow: y, of: buffer))
        #expect(buffer.style(at: Point(x: x, y: y)) == Theme.selection, "the cursor's check is highlighted")
        model.press(.char("j"))
        #expect(model.render().style(at: Point(x: x, y: y)) == Theme.danger)
        #expect(model.footer.contains("Enter jump to evidence"))
    }

    @Test("a BUSY slot: the check fails with the stuck slot and the BUSY answer as evidence, and Enter jumps to that answer")
    func busySlotAndJump() throws {
        var model = LintMarkTests.busyModel(width: 120, height: 40)
        model.press(.char("k"))  // read the request, so the jump has to move the cursor
        model.press(.char("D"))
        let text = model.screenText
        let head = try #require(Self.checkLine("Typed slots are not stuck busy", in: model.screen))
        #expect(head.contains("✗ Typed slots are not stuck busy  1 slot busy for longer than 10.0s; 1 capture request answered BUSY."), "\(head)")
        #expect(text.contains("• 22:13:00.000  id doc-1  document slot busy for 20.0s with camera.document.capture"), "\(text)")
        #expect(text.contains("→ 22:13:19.901  id doc-2  response camera.document.capture: slot busy with doc-1"), "\(text)")
        #expect(text.contains("fix: Call host.documentCapture.complete(...)"), "\(text)")
        #expect(text.contains("guide: Typed Slot Returns \"BUSY\" Error"), "\(text)")
        #expect(model.selectedEntry?.seq == 1)
        model.press(.enter)
        #expect(model.overlays.isEmpty)
        #expect(model.selectedEntry?.seq == 2)
    }

    @Test("an unhandled near-miss request fails the action check with its reason, and Enter jumps to the request")
    func nearMiss() throws {
        var model = LintMarkTests.nearMissModel(width: 160, height: 40)
        model.press(.char("D"))
        // Pending requests only warn; the near miss is the first failure.
        let head = try #require(Self.checkLine("Action strings match exactly", in: model.screen))
        #expect(head.contains("✗ Action strings match exactly  1 request for an action nobody handles, close to one that is handled."), "\(head)")
        #expect(
            model.screenText.contains("→ 22:13:19.500  id typo-1  request camera.document.Capture: nobody handles camera.document.Capture: did you mean camera.document.capture?"),
            "\(model.screenText)")
        #expect(model.screenText.contains("fix: Make the handler's action match the request's payload.action exactly (case-sensitive)."))
        model.press(.enter)
        #expect(model.overlays.isEmpty)
        #expect(model.selectedEntry?.correlationId == "typo-1")
    }

    @Test("Enter on a check without a message flashes and stays; j/k/g/G move the opened check; Esc, q and D close")
    func movingAndClosing() throws {
        var model = journeyModel(width: 120, height: 40)
        model.press(.char("D"))
        model.press(.char("G"))
        // Failures first, as `doctor` prints them: the last line is the check that cannot run.
        #expect(model.screenText.contains("guide: Memory Warnings or Crashes"), "the last check (receivedMessages, not run) is open")
        #expect(!model.screenText.contains("guide: Message Decoding Failures"))
        model.press(.enter)
        #expect(model.overlays.count == 1)
        #expect(model.footer.contains("this check has no message to jump to"))
        model.press(.char("g"))
        #expect(model.screenText.contains("→ 22:13:19.000  Failed to decode message"), "the first check (lastError) is open")
        model.press(.down)
        #expect(model.screenText.contains("→ 22:13:19.000  malformed input: missing required field 'payload.action'"), "the second failure (messages decode) is open")
        #expect(!model.screenText.contains("→ 22:13:19.000  Failed to decode message"))
        model.press(.down)
        #expect(model.screenText.contains("guide: Pending Request Inspection"), "then the first warning, pending requests")
        model.press(.up)
        #expect(model.screenText.contains("guide: Message Decoding Failures"), "back on messages decode")
        for close: Key in [.escape, .char("q"), .char("D")] {
            var closing = model
            closing.press(close)
            #expect(closing.overlays.isEmpty)
            #expect(!closing.quitting)
        }
    }

    @Test("the view follows the traffic: a BUSY answer arriving while it is open turns its check red")
    func liveUpdate() throws {
        var model = makeModel(width: 120, height: 40)
        model.handle(.frame(Fixture.emptySnapshot(slots: [Fixture.slot(.document, active: "doc-1", since: Self.t0 - 1_000), Fixture.slot(.selfie)])))
        model.press(.char("D"))
        #expect(Self.checkLine("Typed slots are not stuck busy", in: model.screen)?.contains("✓") == true)
        model.feed(1, .traffic(Fixture.request(seq: 1, id: "doc-2", action: "camera.document.capture", at: Self.t0)))
        model.feed(
            2,
            .traffic(Fixture.response(seq: 2, id: "doc-2", action: "camera.document.capture", at: Self.t0 + 1, status: .error, error: BridgeErrorCode.busy.payload())))
        #expect(Self.checkLine("Typed slots are not stuck busy", in: model.screen)?.contains("! Typed slots are not stuck busy  1 capture request answered BUSY.") == true, "\(model.screen)")
        // Time passes (ticks): the slot has now been busy too long, a failure.
        model.handle(.tick(Self.t0 + 10_000))
        #expect(Self.checkLine("Typed slots are not stuck busy", in: model.screen)?.contains("✗ Typed slots are not stuck busy  1 slot busy for longer") == true, "\(model.screen)")
    }

    // Issue 27, trap 7: the view listed the checks in the checklist's order, not failures first
    // as `bridge-inspector doctor` documents and prints them.
    @Test("the checks are listed failures first, then warnings, ok and not run; the cursor stays on its check when it moves")
    func failuresFirst() throws {
        var model = journeyModel(width: 120, height: 40)
        model.press(.char("D"))
        let glyphs = model.screen.compactMap { line -> Character? in
            guard let first = line.dropFirst().first, line.hasPrefix("│"), "✗!✓–".contains(first) else { return nil }
            return first
        }
        #expect(glyphs.count == DoctorCheckID.allCases.count, "\(model.screen)")
        let rank: [Character: Int] = ["✗": 0, "!": 1, "✓": 2, "–": 3]
        #expect(glyphs.map { rank[$0] ?? 9 } == glyphs.map { rank[$0] ?? 9 }.sorted(), "\(glyphs)")
        #expect(String(glyphs) == "✗✗!!✓✓✓✓✓✓✓✓✓✓✓✓–", "\(glyphs)")

        // The cursor on an ok check that turns into a warning: the check moves up, the cursor with it.
        var live = makeModel(width: 120, height: 40)
        live.handle(.frame(Fixture.emptySnapshot(slots: [Fixture.slot(.document, active: "doc-1", since: Self.t0 - 1_000), Fixture.slot(.selfie)])))
        live.press(.char("D"))
        for _ in 0..<DoctorCheckID.allCases.count where (live.overlays.last as? DoctorView)?.selected != .slotBusy { live.press(.char("j")) }
        #expect((live.overlays.last as? DoctorView)?.selected == .slotBusy)
        live.feed(1, .traffic(Fixture.request(seq: 1, id: "doc-2", action: "camera.document.capture", at: Self.t0)))
        live.feed(
            2,
            .traffic(Fixture.response(seq: 2, id: "doc-2", action: "camera.document.capture", at: Self.t0 + 1, status: .error, error: BridgeErrorCode.busy.payload())))
        #expect((live.overlays.last as? DoctorView)?.selected == .slotBusy, "the cursor follows its check")
        let screen = live.screen
        let busy = try #require(screen.firstIndex { $0.contains("! Typed slots are not stuck busy") }, "\(screen)")
        #expect(!screen[..<busy].contains { $0.hasPrefix("│✓") }, "the warning is above every ok check: \(screen)")
        #expect(live.screenText.contains("fix: Call host.documentCapture.complete(...)"), "and stays open: \(live.screenText)")
    }

    @Test("hostile text in an action, a correlation id, lastError and the host's name never reaches the buffer raw, on any check")
    func hostileText() throws {
        let evil = "\u{1B}]0;pwned\u{07}\u{9B}2J\u{202E}\u{2066}"
        let host = WireHostInfo(name: "app\(evil)", pid: 7, hostVersion: "1.0", environment: "ios", startedAt: Self.t0 - 60_000)
        var model = makeModel(width: 160, height: 40)
        model.handle(
            .frame(
                .snapshot(
                    seq: 0,
                    state: Fixture.state(
                        host: host, pending: [Fixture.pending("id\(evil)", "nfc.read\(evil)", since: Self.t0 - 40_000)],
                        lastError: WireError(seq: 0, time: Self.t0, text: "Failed to decode message: \(evil)", cause: nil)))))
        model.feed(1, .traffic(Fixture.request(seq: 1, id: "typo\(evil)", action: "camera.document.Captur\u{1B}", at: Self.t0)))
        model.feed(2, .pendingAdded(Fixture.pending("typo\(evil)", "camera.document.Captur\u{1B}", since: Self.t0)))
        #expect(model.live.lintCount == 1, "the near miss must be marked for the test to reach its evidence")
        model.press(.char("D"))
        model.press(.char("g"))
        var seen = ""
        for _ in 0..<DoctorCheckID.allCases.count {
            let buffer = model.render()
            #expect(forbiddenCells(buffer).isEmpty, "\(forbiddenCells(buffer))")
            seen += buffer.rendered()
            model.press(.char("j"))
        }
        // What was hostile is shown, escaped: host name, lastError, pending action and id, near-miss action.
        #expect(seen.contains("app\\x1B]0;pwned\\x07\\u{9B}2J\\u{202E}\\u{2066}"), "\(seen)")
        #expect(seen.contains("Failed to decode message: \\x1B]0;pwned"))
        #expect(seen.contains("id id\\x1B]0;pwned"))
        #expect(seen.contains("nfc.read\\x1B]0;pwned"))
        #expect(seen.contains("nobody handles camera.document.Captur\\x1B:"))
    }

    @Test("a host seen through GBGBridge's public API: the checks that cannot run say why")
    func publicAPIHost() throws {
        var model = makeModel(width: 120, height: 40)
        model.handle(.frame(Fixture.journeySnapshot(host: PublicAPIHostScreenTests.host)))
        model.press(.char("D"))
        let screen = model.screen
        #expect(screen.contains { $0.contains("seen through GBGBridge's public API: some checks cannot run") }, "\(screen)")
        let lost = try #require(Self.checkLine("Messages reach the journey", in: screen))
        #expect(lost.contains("– Messages reach the journey  Cannot run: GBGBridge's public API does not say whether a message reached"), "\(lost)")
        #expect(screen.contains { $0.contains("2 not run") })
    }

    @Test("80x24: the frame, the summary and the opened check fit; a long check scrolls so the cursor's check stays in view")
    func smallScreen() throws {
        var model = journeyModel(width: 80, height: 24)
        // An event sent while no journey was attached: the last check fails, with evidence.
        let lost = Fixture.message("ios-event-lost-1", .event, "host.ping", at: Self.t0)
        model.feed(12, .traffic(Fixture.traffic(seq: 12, .sent, lost, at: Self.t0, deliveryError: "WebView not attached")))
        model.press(.char("D"))
        var buffer = model.render()
        #expect(buffer.lines.allSatisfy { TextWidth.width(of: $0) <= 80 })
        #expect(buffer.lines[1].hasPrefix("┌") && buffer.lines[1].hasSuffix("┐"), "\(buffer.lines[1])")
        #expect(buffer.lines[22].hasPrefix("└") && buffer.lines[22].hasSuffix("┘"), "\(buffer.lines[22])")
        #expect(buffer.lines[2...21].allSatisfy { $0.hasPrefix("│") && $0.hasSuffix("│") }, "\(buffer.lines)")
        #expect(buffer.rendered().contains("4 failures, 2 warnings"), "\(buffer.rendered())")
        #expect(buffer.rendered().contains("guide: Message Decoding Failures"), "opens on the first failure")
        #expect(buffer.lines[1].contains("(1/17, j/k)"), "\(buffer.lines[1])")
        // Failures first: the lost message is the third line, right under the other two failures
        // (its id, not <environment>-event-<uuid>, also fails the contract check, listed after it).
        model.press(.char("j"), .char("j"))
        buffer = model.render()
        var text = buffer.rendered()
        #expect(buffer.lines[1].contains("(3/17, j/k)"), "\(buffer.lines[1])")
        #expect(text.contains("✗ Messages reach the journey  1 message the host sent not delivered."), "\(text)")
        #expect(text.contains("→ 22:13:20.000  id ios-event-lost-1  event host.ping: sent while no"), "\(text)")
        #expect(text.contains("guide: Messages Not Being Received by the Web Journey"), "\(text)")
        // The last check, opened, is below what fits: the list scrolls so all of it shows, the
        // first checks going out of view.
        model.press(.char("G"))
        buffer = model.render()
        text = buffer.rendered()
        #expect(buffer.lines[1].contains("(17/17, j/k)"), "\(buffer.lines[1])")
        #expect(text.contains("guide: Memory Warnings or Crashes"), "\(text)")
        #expect(!text.contains("lastError  lastError"), "scrolled past the first check: \(text)")
        #expect(text.contains("2 failures") == false && text.contains("4 failures, 2 warnings"), "the summary stays put")
        #expect(forbiddenCells(buffer).isEmpty)
        model.press(.char("g"))
        #expect(model.screenText.contains("✗ lastError  lastError"))
    }

    @Test("the footer offers D when lastError is set or a row has a lint mark; the help lists D, the marks and is:lint")
    func footerAndHelp() {
        var quiet = makeModel(width: 200, height: 40)
        quiet.handle(.frame(Fixture.emptySnapshot()))
        #expect(!quiet.footer.contains("D doctor"))
        #expect(journeyModel(width: 200, height: 40).footer.contains("D doctor"))
        #expect(LintMarkTests.busyModel(width: 200, height: 40).footer.contains("D doctor"))
        let keys = HelpView.sections.flatMap(\.keys)
        #expect(keys.contains { $0.0 == "D" && $0.1.hasPrefix("doctor: GBGBridge's troubleshooting checklist") })
        #expect(keys.contains { $0.0.contains("⚑ BUSY") && $0.1.contains("f is:lint") })
        #expect(keys.contains { $0.0.contains("is:pending/error/malformed/manual/rule/lint") })
    }
}
