import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

/// Issue 27, traps 4 and 6 on screen: what an inspector made or caused is marked ✎ and nothing
/// else is; a host answer held and let go unchanged is marked held, not edited.
@Suite("Inspector-made marks in the Messages pane and the lastError banner")
struct InspectorMadeMarksTests {
    static let t0 = Fixture.t0

    @Test("injected text that fails to decode: its row is marked ✎, it is not in ⚑ N, and the lastError it caused is shown as the inspector's")
    func injectedBadText() throws {
        var model = journeyModel()
        let lintsBefore = model.live.lintCount
        model.feed(12, .malformed(WireMalformed(seq: 12, time: Self.t0, raw: "{not json", bytes: 9, reason: "invalid JSON at line 1", origin: .inspector, command: "c7")))
        model.feed(13, .lastError(WireError(seq: 13, time: Self.t0, text: "Failed to decode message: invalid JSON at line 1", cause: 12)))
        #expect(model.live.lintCount == lintsBefore)
        let row = try #require(model.screen.last { $0.contains("BAD") }, "\(model.screenText)")
        #expect(row.contains("BAD  ✎ malformed:"), "\(row)")
        #expect(model.screen.contains { $0.contains("⚠ lastError (3) 22:13:20.000 ✎ inspector's: Failed to decode message") }, "\(model.screenText)")
    }

    @Test("the journey's bad text and the lastError it caused carry no ✎")
    func journeysBadText() throws {
        let model = journeyModel()
        let row = try #require(model.screen.line(containing: "missing required field 'payload.action'"))
        #expect(!row.contains("✎"), "\(row)")
        #expect(!model.screenText.contains("inspector's:"))
    }

    @Test("a host answer held and released as it was shows ⏸ held and no ✎; one edited shows ✎ edited")
    func heldAnswerMarks() throws {
        var model = journeyModel()
        var released = Fixture.response(seq: 12, id: "nfc-1", action: "nfc.read", at: Self.t0)
        released.hold = HoldMark(id: "h4", outcome: .released)
        model.feed(12, .traffic(released))
        let row = try #require(model.screen.last { $0.contains("nfc.read") && $0.contains("resp") }, "\(model.screenText)")
        #expect(row.contains("⏸ held"), "\(row)")
        #expect(!row.contains("✎"), "\(row)")
    }
}
