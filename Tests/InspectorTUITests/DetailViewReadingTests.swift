import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

/// Reading one message in the detail view at any terminal size: long lines, what is left out,
/// search, and text that is copied off the screen (issue 13, trap 4).
@Suite("Detail view: reading a message")
struct DetailViewReadingTests {
    /// A journey model with one more request holding `data`, opened in the detail view.
    static func opened(_ data: [String: JSONValue], width: Int, height: Int) throws -> InspectorModel {
        var model = journeyModel(width: width, height: height)
        model.feed(12, .traffic(Fixture.request(seq: 12, id: "big-1", action: "document.upload", at: Fixture.t0, data: data)))
        model.press(.char("G"), .enter)
        let view = try #require(detailView(model))
        #expect(model.live.log[view.logIndex].correlationId == "big-1")
        return model
    }

    /// The rows inside the detail view's frame.
    static func inside(_ model: InspectorModel) -> [String] {
        text(in: Rect(x: 1, y: 2, width: model.size.width - 2, height: model.size.height - 4), of: model.render())
    }

    @Test("At 80x24 a long string wraps instead of running off the edge; the note of what is left out is on screen; m shows more")
    func longStringWrapsAndMoreShowsMore() throws {
        let blob = String(repeating: "QUJD", count: 1_250)  // 5000 characters, no spaces, like base64
        var model = try Self.opened(["image": .string(blob)], width: 80, height: 24)
        // The title says that part is left out, whatever is scrolled into view.
        #expect(model.screen[1].contains("part not shown: m for more"), "\(model.screen[1])")
        let view = try #require(detailView(model))
        let shown = view.shownLines(width: 78)
        for line in shown { #expect(TextWidth.width(of: line.map(\.text).joined()) <= 78) }
        // Every shown character of the string is on screen somewhere, wrapped.
        let joined = plain(shown).map { $0.trimmingCharacters(in: .whitespaces) }.joined()
        #expect(joined.contains(String(blob.prefix(300))))
        model.press(.char("G"))
        #expect(Self.inside(model).joined(separator: " ").contains("4700 characters not"))
        let before = plain(shown).joined()
        // m: more of the string, visibly (more rows of it, a smaller "not shown" count).
        model.press(.char("m"))
        let after = try #require(detailView(model)).shownLines(width: 78)
        #expect(after.count > shown.count)
        #expect(plain(after).map { $0.trimmingCharacters(in: .whitespaces) }.joined().contains(String(blob.prefix(2_400))))
        #expect(plain(after).joined() != before)
    }

    @Test("w switches to scrolling sideways: → shows the columns past the right edge, ← comes back")
    func sidewaysScrolling() throws {
        let long = "start-" + String(repeating: "x", count: 200) + "-THE-END"
        var model = try Self.opened(["note": .string(long)], width: 80, height: 24)
        model.press(.char("w"))
        #expect(!Self.inside(model).joined().contains("THE-END"))
        for _ in 0..<30 { model.press(.right) }
        #expect(Self.inside(model).joined().contains("THE-END"))
        for _ in 0..<30 { model.press(.left) }
        #expect(Self.inside(model).joined().contains("start-"))
    }

    @Test("? and F1 open the help from the detail view; Esc comes back to the message")
    func helpFromDetail() throws {
        for key: Key in [.char("?"), .function(1)] {
            var model = try Self.opened(["a": 1], width: 80, height: 24)
            model.press(key)
            guard model.topOverlay is HelpView else {
                Issue.record("\(key) did not open the help over the detail view")
                continue
            }
            model.press(.escape)
            #expect(detailView(model) != nil)
        }
        // In a form, ? is text: only F1 opens the help there.
        var model = journeyModel()
        model.press(.char("e"))
        model.press(.function(1))
        guard model.topOverlay is HelpView else {
            Issue.record("F1 did not open the help over the event dialog")
            return
        }
    }

    @Test("/ searches the message: the title counts the matching lines, n and N move between them")
    func searchInsideMessage() throws {
        let data: [String: JSONValue] = ["first": "needle one", "filler": .array((0..<40).map { .number(Double($0)) }), "last": "needle two"]
        var model = try Self.opened(data, width: 80, height: 24)
        model.press(.char("/"))
        model.type("NEEDLE")
        model.press(.enter)
        #expect(model.screen[1].contains("“NEEDLE”: 1/2 lines"), "\(model.screen[1])")
        #expect(Self.inside(model).first?.contains("needle one") == true)
        model.press(.char("n"))
        #expect(Self.inside(model).first?.contains("needle two") == true)
        #expect(model.screen[1].contains("2/2 lines"))
        model.press(.char("N"))
        #expect(Self.inside(model).first?.contains("needle one") == true)
    }

    @Test("Escapes in the pretty JSON are JSON escapes: the text copied off the screen parses to the same values")
    func copiedJSONIsValid() throws {
        let tricky = "bidi \u{202E}txt.exe esc \u{1B}[2J c1 \u{9B} line \u{2028} tag \u{E0041}\u{E0042}\u{E0043} end"
        var model = try Self.opened(["text": .string(tricky)], width: 200, height: 50)
        model.press(.char("w"))
        let rows = Self.inside(model)
        let start = try #require(rows.firstIndex { $0 == "{" })
        let end = try #require(rows[start...].firstIndex { $0 == "}" })
        let copied = rows[start...end].joined(separator: "\n")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(copied.utf8)) as? [String: Any], "\(copied)")
        let payload = try #require(parsed["payload"] as? [String: Any])
        #expect((payload["data"] as? [String: Any])?["text"] as? String == tricky)
        #expect(JSONParser.parse(Data(copied.utf8)) != nil)
        #expect(forbiddenCells(model.render()).isEmpty)
    }
}
