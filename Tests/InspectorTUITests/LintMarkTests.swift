import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

/// The protocol linter's marks on screen (issue 16 part 2): `⚑ label` at the end of a marked
/// row's action column, the full reason in the detail view, and the count in the status line.
@Suite("Lint marks")
struct LintMarkTests {
    static let t0 = Fixture.t0

    /// An empty host whose document slot has been busy with doc-1 for 20 s, then a second
    /// capture request answered BUSY (seq 1 and 2).
    static func busyModel(width: Int, height: Int) -> InspectorModel {
        var model = makeModel(width: width, height: height)
        model.handle(.frame(Fixture.emptySnapshot(slots: [Fixture.slot(.document, active: "doc-1", since: t0 - 20_000), Fixture.slot(.selfie)])))
        model.feed(1, .traffic(Fixture.request(seq: 1, id: "doc-2", action: "camera.document.capture", at: t0 - 100)))
        model.feed(
            2,
            .traffic(
                Fixture.response(seq: 2, id: "doc-2", action: "camera.document.capture", at: t0 - 99, status: .error, error: BridgeErrorCode.busy.payload())))
        return model
    }

    /// An empty host, then a request for `camera.document.Capture` (a case typo) that goes to
    /// pendingRequests: a near miss of the document slot's action.
    static func nearMissModel(width: Int, height: Int, action: String = "camera.document.Capture", id: String = "typo-1") -> InspectorModel {
        var model = makeModel(width: width, height: height)
        model.handle(.frame(Fixture.emptySnapshot()))
        model.feed(1, .traffic(Fixture.request(seq: 1, id: id, action: action, at: t0 - 500)))
        model.feed(2, .pendingAdded(Fixture.pending(id, action, since: t0 - 500)))
        return model
    }

    @Test("a BUSY answer shows ⚑ beside its columns at 80 and 140, BUSY once (its status column says it), and the status line counts it")
    func busyRow() throws {
        for width in [80, 140] {
            let model = Self.busyModel(width: width, height: 24)
            let lines = model.messageLines
            let request = try #require(lines.first { $0.contains("IN  req") })
            let busy = try #require(lines.first { $0.contains("OUT resp") })
            #expect(busy.contains("⚑"), "\(width): \(busy)")
            #expect(busy.components(separatedBy: "BUSY").count == 2, "BUSY once, not `⚑ BUSY BUSY` (issue 27): \(width): \(busy)")
            #expect(!request.contains("⚑"), "\(width): \(request)")
            // The columns stay where every other row has them: the id at the right edge, the
            // status code in its column.
            let buffer = model.render()
            let y = try #require(row(containing: "OUT resp", in: buffer))
            let requestY = try #require(row(containing: "IN  req", in: buffer))
            #expect(column(of: "doc-2", inRow: y, of: buffer) == column(of: "doc-2", inRow: requestY, of: buffer))
            #expect(column(of: "BUSY ", inRow: y, of: buffer).map { $0 > (column(of: "⚑", inRow: y, of: buffer) ?? 0) } == true, "\(busy)")
            #expect(model.screen[0].contains("⚑ 1 lint"), "\(width): \(model.screen[0])")
        }
    }

    @Test("the mark is drawn in the warning style")
    func markStyle() throws {
        let model = Self.busyModel(width: 80, height: 24)
        let buffer = model.render()
        let y = try #require(row(containing: "OUT resp", in: buffer))
        let x = try #require(column(of: "⚑", inRow: y, of: buffer))
        // The busy row is the newest, so it is selected: move up to see its own style.
        var reading = model
        reading.press(.char("k"))
        let unselected = reading.render()
        #expect(unselected.style(at: Point(x: x, y: y)) == Theme.warning)
        #expect(buffer.style(at: Point(x: x, y: y)) == Theme.selection)
    }

    @Test("a near-miss action keeps its whole name and shows ⚑ action typo?; the detail view gives the reason")
    func nearMissAndDetail() throws {
        let line = try #require(Self.nearMissModel(width: 80, height: 24).messageLines.first { $0.contains("IN  req") })
        #expect(line.contains("camera.document.Capture"), "\(line)")
        #expect(line.contains("⚑ action typo?"), "\(line)")
        var model = Self.nearMissModel(width: 140, height: 30)
        model.press(.enter)
        #expect(model.screenText.contains("lint: nobody handles camera.document.Capture: did you mean camera.document.capture?"), "\(model.screenText)")
    }

    @Test("the status line says how to list the marks when there is room, drops that before anything else, and shows nothing without marks")
    func statusLine() {
        let wide = Self.nearMissModel(width: 140, height: 30)
        #expect(wide.screen[0].contains(" bridge-inspector │ demo-app (pid 4242) v2.1.0 ios │ ● connected │ ⚑ 1 lint (f is:lint) │ "), "\(wide.screen[0])")
        let narrow = Self.nearMissModel(width: 70, height: 24)
        #expect(narrow.screen[0].hasPrefix(" demo-app (pid 4242) v2.1.0 ios │ ● connected │ ⚑ 1 lint │ "), "\(narrow.screen[0])")
        #expect(!narrow.screen[0].contains("is:lint"), "\(narrow.screen[0])")
        // Too narrow even for that: the count gives way, the connection stays.
        let narrowest = Self.nearMissModel(width: 60, height: 24)
        #expect(narrowest.screen[0].hasPrefix(" demo-app (pid 4242) v2.1.0 ios │ ● connected │ "), "\(narrowest.screen[0])")
        #expect(!narrowest.screen[0].contains("⚑"), "\(narrowest.screen[0])")
        var clean = makeModel(width: 140, height: 30)
        clean.handle(.frame(Fixture.emptySnapshot()))
        clean.feed(1, .traffic(Fixture.request(seq: 1, id: "nfc-1", action: "nfc.read", at: Self.t0)))
        #expect(!clean.screen[0].contains("lint"), "\(clean.screen[0])")
    }

    @Test("f is:lint lists exactly the marked rows")
    func filterFindsThem() {
        var model = Self.busyModel(width: 120, height: 30)
        model.press(.char("f"))
        model.type("is:lint")
        model.press(.enter)
        #expect(model.visible.count == 1)
        #expect(model.messageLines.first?.contains("⚑") == true)
    }

    @Test("a hostile action and correlation id in a marked row reach neither the row nor the detail's lint line raw")
    func hostileText() throws {
        let action = "camera.document.Captur\u{1B}"
        var model = Self.nearMissModel(width: 140, height: 24, action: action, id: "id\u{9B}2J\u{202E}")
        #expect(model.live.lintCount == 1, "the hostile action must still be a near miss for this test to mean anything")
        #expect(forbiddenCells(model.render()).isEmpty, "\(forbiddenCells(model.render()))")
        model.press(.enter)
        let buffer = model.render()
        #expect(forbiddenCells(buffer).isEmpty, "\(forbiddenCells(buffer))")
        #expect(model.screenText.contains("lint: nobody handles camera.document.Captur\\x1B: did you mean"), "\(model.screenText)")
    }

    @Test("the mark's text for a column: whole beside a whole action, cut with … before the action is, never below a lone flag")
    func markFitting() {
        // Room beside the whole action: the label is shortened, the action is not.
        #expect(MessageRow.lintMark(.notReported, actionColumn: 43, actionWidth: 23) == " ⚑ not reported by…")
        #expect(MessageRow.lintMark(.busy, actionColumn: 43, actionWidth: 23) == " ⚑ BUSY")
        // No room: the action gives way, by at most 16 columns and down to 11.
        #expect(MessageRow.lintMark(.notReported, actionColumn: 43, actionWidth: 45) == " ⚑ not reported…")
        #expect(MessageRow.lintMark(.unhandledNearMiss, actionColumn: 43, actionWidth: 45) == " ⚑ action typo?")
        #expect(MessageRow.lintMark(.busy, actionColumn: 18, actionWidth: 23) == " ⚑ BUSY")
        #expect(MessageRow.lintMark(.busy, actionColumn: 14, actionWidth: 23) == " ⚑")
        #expect(MessageRow.lintMark(.busy, actionColumn: 2, actionWidth: 23) == "")
        // The status column already says BUSY: the flag alone, whatever the room.
        #expect(MessageRow.lintMark(.busy, actionColumn: 43, actionWidth: 23, errorCode: "BUSY") == " ⚑")
        #expect(MessageRow.lintMark(.busy, actionColumn: 43, actionWidth: 23, errorCode: "TIMEOUT") == " ⚑ BUSY")
    }
}
