import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

@Suite("Follow mode and pause")
struct FollowAndPauseTests {
    /// Feeds `count` new requests, ids "new-<seq>", from seq 12 on (or `from`).
    static func feedRequests(_ model: inout InspectorModel, count: Int, from first: Int = 12) {
        for seq in first..<(first + count) {
            model.feed(seq, .traffic(Fixture.request(seq: seq, id: "new-\(seq)", action: "late.action", at: Fixture.t0 + Double(seq))))
        }
    }

    @Test("Following: the cursor stays on the newest row, and the newest row stays on screen")
    func follows() {
        var model = journeyModel(width: 80, height: 24)
        #expect(model.following)
        #expect(model.selectedEntry?.seq == 10)
        #expect(model.messagesTitle.contains("· follow"))
        Self.feedRequests(&model, count: 30)
        #expect(model.following)
        #expect(model.selectedEntry?.correlationId == "new-41")
        #expect(model.cursor == model.visible.count - 1)
        let rows = model.messageLines
        #expect(rows.last?.contains("new-41") == true)
        #expect(!rows.contains { $0.contains("new-31") })  // scrolled: 10 rows fit
    }

    @Test("After k the cursor stays on the row being read while rows arrive; G follows again")
    func readingDoesNotMove() {
        var model = journeyModel(width: 80, height: 24)
        model.press(.char("k"), .char("k"))
        #expect(!model.following)
        #expect(model.selectedEntry?.seq == 8)
        #expect(model.messagesTitle.contains("· reading"))
        Self.feedRequests(&model, count: 25)
        #expect(model.selectedEntry?.seq == 8)
        #expect(!model.following)
        // The row being read is still on screen, and still selected.
        #expect(model.messageLines.contains { $0.contains("document.upload") && $0.contains("up-1") })
        model.press(.char("G"))
        #expect(model.following)
        #expect(model.selectedEntry?.correlationId == "new-36")
        Self.feedRequests(&model, count: 1, from: 40)
        #expect(model.selectedEntry?.correlationId == "new-40")
    }

    @Test("Moving back down to the newest row follows again; g goes to the first row")
    func downToEndFollows() {
        var model = journeyModel()
        model.press(.char("g"))
        #expect(model.selectedEntry?.seq == 1)
        #expect(!model.following)
        model.press(.end)
        #expect(model.following)
        model.press(.up, .down)
        #expect(model.following)
        model.press(.pageUp)
        #expect(model.selectedEntry?.seq == 1)
        model.press(.pageDown)
        #expect(model.following)
    }

    @Test("Pause: new rows are counted, not shown; resume shows them and follows again")
    func pause() {
        var model = journeyModel()
        model.press(.char(" "))
        #expect(model.pausedAt != nil)
        Self.feedRequests(&model, count: 3)
        #expect(model.messagesTitle.contains("(+3 new)"))
        #expect(model.visible.count == 10)
        #expect(!model.screenText.contains("new-12"))
        #expect(model.selectedEntry?.seq == 10)
        model.press(.char(" "))
        #expect(model.pausedAt == nil)
        #expect(!model.messagesTitle.contains("new)"))
        #expect(model.visible.count == 13)
        #expect(model.messageLines[10].contains("new-12"))
        #expect(model.messageLines[12].contains("new-14"))
        // The cursor was on the newest row when paused: it follows again.
        #expect(model.following)
        #expect(model.selectedEntry?.correlationId == "new-14")
        Self.feedRequests(&model, count: 1, from: 20)
        #expect(model.selectedEntry?.correlationId == "new-20")
    }

    @Test("Resuming after reading an older row keeps the cursor there")
    func resumeWhileReading() {
        var model = journeyModel()
        model.press(.char("k"), .char(" "))
        Self.feedRequests(&model, count: 2)
        model.press(.char("p"))
        #expect(model.visible.count == 12)
        #expect(model.selectedEntry?.seq == 9)
        #expect(!model.following)
    }

    @Test("F leaves pause and jumps to the newest row")
    func followKey() {
        var model = journeyModel()
        model.press(.char("g"), .char(" "))
        Self.feedRequests(&model, count: 2)
        model.press(.char("F"))
        #expect(model.pausedAt == nil)
        #expect(model.following)
        #expect(model.selectedEntry?.correlationId == "new-13")
    }

    @Test("The selected row is drawn reversed")
    func selectionStyle() {
        var model = journeyModel()
        model.press(.char("g"))
        let buffer = model.render()
        let first = model.layout.messages.inset(1)
        #expect(buffer.style(at: Point(x: first.x + 1, y: first.y))?.reverse == true)
        #expect(buffer.style(at: Point(x: first.x + 1, y: first.y + 1))?.reverse == false)
    }
}
