import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

/// The journey's coverage inside the statistics view (`S`, then `c`; issue 29 item 4): what
/// the session met and never met, and how the journey answered, computed when shown and on `r`.
@Suite("Statistics view: the journey's coverage")
struct StatsCoverageViewTests {
    static let t0 = Fixture.t0

    @Test("c shows the coverage of the fixture's journey: its summary, the upload's INVALID_REQUEST, what was never met; c again goes back")
    func showsCoverage() {
        var model = journeyModel(width: 120, height: 60)
        model.press(.char("S"))
        #expect(model.footer.contains("c coverage"))
        model.press(.char("c"))
        let screen = model.screen
        #expect(screen[1].contains("Journey coverage (c: per action, r: recompute)"), "\(screen[1])")
        // Fixture.journeyState: two capability queries and a document capture (documented), an
        // nfc.read and an upload (not declared); one success, one INVALID_REQUEST; host.ready
        // and a host.ping an inspector sent.
        #expect(screen.contains { $0.contains("2 of 3 actions, 2 of 4 statuses, 1 of 8 error codes, 2 of 6 events met; 1 unhappy path (0 retried, 0 findings)") }, "\(screen)")
        #expect(screen.contains { $0.contains("camera.selfie.capture") && $0.contains("–") })
        #expect(screen.contains { $0.contains("host.ping") && $0.contains("1 (✎ 1)") })
        #expect(screen.contains { $0.contains("document.upload") && $0.contains("INVALID_REQUEST") && $0.contains("up-1") && $0.contains("no retry yet") })
        #expect(screen.contains { $0.contains("statuses: cancelled, unsupported") })
        #expect(model.footer.contains("r recompute"))
        model.press(.char("c"))
        #expect(model.screen[1].contains("Statistics per action, live"))
    }

    @Test("the coverage is not recounted while drawing: new traffic shows as 'new since' until r computes it again")
    func computedOnRequest() {
        var model = journeyModel(width: 120, height: 60)
        model.press(.char("S"), .char("c"))
        model.feed(12, .traffic(Fixture.request(seq: 12, id: "doc-8", action: "camera.document.capture", at: Self.t0 + 100)))
        model.feed(13, .traffic(Fixture.response(
            seq: 13, id: "doc-8", action: "camera.document.capture", at: Self.t0 + 110, status: .error, error: BridgeErrorCode.busy.payload())))
        #expect(model.screen[1].contains("2 new since"), "\(model.screen[1])")
        #expect(model.screen.contains { $0.contains("1 of 8 error codes") })
        model.press(.char("r"))
        #expect(!model.screen[1].contains("new since"))
        #expect(model.screen.contains { $0.contains("2 of 8 error codes") && $0.contains("2 unhappy paths") }, "\(model.screen)")
        #expect(model.screen.contains { $0.contains("doc-8") && $0.contains("BUSY") })
    }

    @Test("hostile ids and actions are drawn with visible escapes; nothing reaches the terminal raw")
    func hostileText() {
        var model = journeyModel(width: 120, height: 60)
        model.feed(12, .traffic(Fixture.request(seq: 12, id: "id\u{1B}[2J", action: "evil\u{1B}]0;pwned\u{07}", at: Self.t0)))
        model.feed(13, .traffic(Fixture.response(
            seq: 13, id: "id\u{1B}[2J", action: "evil\u{1B}]0;pwned\u{07}", at: Self.t0 + 5, status: .error,
            error: BridgeErrorPayload(code: "X\u{1B}[31m", message: "", recoverable: false))))
        model.press(.char("S"), .char("c"))
        let buffer = model.render()
        #expect(forbiddenCells(buffer).isEmpty, "\(forbiddenCells(buffer))")
        #expect(model.screen.contains { $0.contains("evil\\x1B]0;pwned\\x07") }, "\(model.screen)")
    }

    @Test("a long coverage scrolls; Esc closes the view")
    func scrolls() {
        var model = journeyModel(width: 120, height: 20)
        model.press(.char("S"), .char("c"))
        #expect(model.screen[1].contains("1-16/48"), "\(model.screen[1])")
        model.press(.char("G"))
        #expect(model.screen.contains { $0.contains("journey timeout:") })
        model.press(.escape)
        #expect(model.overlays.isEmpty)
    }
}
