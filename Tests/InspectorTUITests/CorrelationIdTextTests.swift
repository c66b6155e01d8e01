import BridgeCore
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

/// Correlation ids a person can tell apart (issue 24, point 4): ids over 12 characters were cut
/// to their first 8 without an ellipsis, so every injected request read `inspecto`, every replay
/// `web-4fd7`, and the Slots pane turned `web-4fd7-91` into `web-4fd7-9`, another real id. One
/// rule now shortens ids everywhere: a few characters of the start, `…`, and the end.
@Suite("Correlation ids shortened so they stay apart")
struct CorrelationIdTextTests {
    static let injected = [
        "inspector-3f0c2a9e-5b1d-4c7a-9e2f-0a1b9a41c07e",
        "inspector-3f0c2a9e-5b1d-4c7a-9e2f-0a1b77d2e615",
    ]

    @Test("An id that fits is whole; one that does not keeps its start, an ellipsis and its end")
    func rule() {
        #expect(CorrelationIdText.shortened("web-4fd7-91", to: 12) == "web-4fd7-91")
        #expect(CorrelationIdText.shortened("web-8ed6-1234", to: 12) == "web…ed6-1234")
        #expect(CorrelationIdText.shortened("web-4fd7-91", to: 10) == "we…4fd7-91")
        #expect(CorrelationIdText.shortened(Self.injected[0], to: 12) == "ins…9a41c07e")
        #expect(CorrelationIdText.shortened(Self.injected[0], to: 36) == "insp…" + String(Self.injected[0].suffix(31)))
        // Very narrow: the end only, after the ellipsis; nothing at all in no room.
        #expect(CorrelationIdText.shortened("web-4fd7-91", to: 4) == "…-91")
        #expect(CorrelationIdText.shortened("web-4fd7-91", to: 0) == "")
    }

    @Test("Shortened ids of one journey stay different and never pass for another id: each has the ellipsis", arguments: [5, 8, 12, 20, 36])
    func distinct(width: Int) {
        // A journey's ids after eight minutes (web-8ed6-1000 onwards) and injected requests.
        let ids = (1000..<1100).map { "web-8ed6-\($0)" } + Self.injected
        let shown = ids.map { CorrelationIdText.shortened($0, to: width) }
        if width >= 8 { #expect(Set(shown).count == ids.count, "\(shown)") }
        for (id, text) in zip(ids, shown) {
            #expect(TextWidth.width(of: text) <= width)
            #expect(text == id || text.contains("…"), "\(id) shown as \(text)")
        }
    }

    @Test("Wide characters and escapes are measured after sanitizing, so the result fits its columns")
    func wideAndHostile() {
        let wide = CorrelationIdText.shortened("漢字漢字漢字漢字-42", to: 9)
        #expect(TextWidth.width(of: wide) <= 9 && wide.contains("…") && wide.hasSuffix("-42"), "\(wide)")
        let hostile = CorrelationIdText.shortened("id-\u{1B}[2J-\u{202E}-end-0042", to: 12)
        #expect(TextWidth.width(of: hostile) <= 12 && hostile.hasSuffix("0042"), "\(hostile)")
        #expect(!hostile.unicodeScalars.contains { isForbidden($0) }, "\(hostile)")
    }

    @Test("The id column is 12 wide up to 100 columns and widens with the pane, to 36")
    func columnWidth() {
        #expect(CorrelationIdText.columnWidth(forPaneWidth: 78) == 12)
        #expect(CorrelationIdText.columnWidth(forPaneWidth: 100) == 12)
        #expect(CorrelationIdText.columnWidth(forPaneWidth: 122) == 23)
        #expect(CorrelationIdText.columnWidth(forPaneWidth: 146) == 35)
        #expect(CorrelationIdText.columnWidth(forPaneWidth: 300) == 36)
    }

    /// Two injected requests, a journey request and its response, and one long journey id.
    static func model(width: Int) -> InspectorModel {
        var model = makeModel(width: width, height: 30)
        model.handle(.frame(Fixture.emptySnapshot()))
        model.feed(1, .traffic(Fixture.request(seq: 1, id: injected[0], action: "nfc.read", at: Fixture.t0)))
        model.feed(2, .traffic(Fixture.request(seq: 2, id: injected[1], action: "nfc.read", at: Fixture.t0 + 10)))
        model.feed(3, .traffic(Fixture.request(seq: 3, id: "web-8ed6-1234", action: "device.info", at: Fixture.t0 + 20)))
        model.feed(4, .traffic(Fixture.response(seq: 4, id: "web-8ed6-1234", action: "device.info", at: Fixture.t0 + 30)))
        return model
    }

    @Test("Messages at 80 columns: injected requests read apart, each with its ellipsis")
    func messagesAt80() {
        let lines = Self.model(width: 80).messageLines
        #expect(lines.count(containing: "ins…9a41c07e") == 1, "\(lines)")
        #expect(lines.count(containing: "ins…77d2e615") == 1, "\(lines)")
        #expect(lines.count(containing: "web…ed6-1234") == 2, "\(lines)")
        #expect(!lines.contains { $0.hasSuffix("inspecto") || $0.hasSuffix("web-8ed6") }, "\(lines)")
    }

    @Test("Messages at 200 columns: the id column is wider than 12, and a request and its response share it")
    func messagesAt200() throws {
        let model = Self.model(width: 200)
        let buffer = model.render()
        let lines = model.messageLines
        #expect(lines.count(containing: " web-8ed6-1234") == 2, "\(lines)")
        #expect(lines.count(containing: "insp…" + String(Self.injected[0].suffix(30))) == 1, "\(lines)")
        let request = try #require(row(containing: "req  device.info", in: buffer))
        let response = try #require(row(containing: "resp device.info", in: buffer))
        let requestColumn = column(of: " web-8ed6-1234", inRow: request, of: buffer)
        #expect(requestColumn != nil && requestColumn == column(of: " web-8ed6-1234", inRow: response, of: buffer))
        let injectedRow = try #require(row(containing: "9a41c07e", in: buffer))
        let idStart = try #require(column(of: " insp…", inRow: injectedRow, of: buffer))
        #expect(model.layout.messages.maxX - 1 - idStart > 13, "the id column stayed narrow:\n\(buffer.rendered())")
    }

    @Test("Pending: long ids keep their ends, at 80 and 200 columns", arguments: [80, 200])
    func pending(width: Int) {
        var model = makeModel(width: width, height: 30)
        model.handle(.frame(.snapshot(seq: 1, state: Fixture.state(pending: [
            Fixture.pending(Self.injected[0], "nfc.read", since: Fixture.t0 - 1_000),
            Fixture.pending(Self.injected[1], "nfc.read", since: Fixture.t0 - 900),
        ]))))
        let pane = text(in: model.layout.pending, of: model.render())
        #expect(pane.count(containing: "…9a41c07e") == 1, "\(pane)")
        #expect(pane.count(containing: "…77d2e615") == 1, "\(pane)")
    }

    @Test("Slots: a busy slot's request is never cut into another real id", arguments: [80, 110, 200])
    func slots(width: Int) {
        var model = makeModel(width: width, height: 30)
        model.handle(.frame(Fixture.emptySnapshot(slots: [
            Fixture.slot(.document, active: "web-4fd7-91-" + String(repeating: "x", count: 60) + "-end", since: Fixture.t0 - 2_000),
            Fixture.slot(.selfie, active: "web-4fd7-91", since: Fixture.t0 - 1_000),
        ])))
        let pane = text(in: model.layout.slots.inset(1), of: model.render())
        let document = pane.line(containing: "held by") ?? ""
        #expect(document.contains("…") && document.hasSuffix("-end"), "\(pane)")
        let selfie = pane.last { $0.contains("held by") } ?? ""
        // Whole when it fits; cut with an ellipsis when it does not (the side pane of a 110-column
        // terminal has 7 columns for it); never "web-4fd7-9".
        #expect(selfie.hasSuffix("-91") && (selfie.hasSuffix(" web-4fd7-91") || selfie.contains("…")), "\(pane)")
        if width == 110 { #expect(selfie.hasSuffix("held by w…d7-91"), "\(pane)") }
    }
}
