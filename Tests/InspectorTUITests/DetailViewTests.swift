import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

/// The text of PrettyJSON lines.
func plain(_ lines: [[Span]]) -> [String] {
    lines.map { $0.map(\.text).joined() }
}

/// The detail view on top, if any.
func detailView(_ model: InspectorModel) -> DetailView? {
    model.topOverlay as? DetailView
}

@Suite("Detail view")
struct DetailViewTests {
    @Test("PrettyJSON keeps the keys in their original order and indents nested values")
    func originalOrder() {
        let json = Data(#"{"zeta":1,"alpha":{"b":true,"a":[1,"x",null]},"empty":{},"list":[]}"#.utf8)
        let output = PrettyJSON.format(json)
        #expect(!output.truncated)
        #expect(
            plain(output.lines) == [
                "{",
                "  \"zeta\": 1,",
                "  \"alpha\": {",
                "    \"b\": true,",
                "    \"a\": [",
                "      1,",
                "      \"x\",",
                "      null",
                "    ]",
                "  },",
                "  \"empty\": {},",
                "  \"list\": []",
                "}",
            ])
        // Keys, strings, numbers and literals are told apart by style.
        let alphaLine = output.lines[2]
        #expect(alphaLine.contains { $0.text == "\"alpha\"" && $0.style == Theme.jsonKey })
        #expect(output.lines[1].contains { $0.text == "1" && $0.style == Theme.jsonNumber })
        #expect(output.lines[3].contains { $0.text == "true" && $0.style == Theme.jsonLiteral })
        #expect(output.lines[6].contains { $0.text == "\"x\"" && $0.style == Theme.jsonString })
    }

    @Test("Enter on a request opens it with its response threaded below and the latency")
    func requestAndResponse() throws {
        var model = journeyModel()
        model.press(.char("g"), .char("j"), .enter)  // cap-1 request
        let view = try #require(detailView(model))
        #expect(model.live.log[view.logIndex].seq == 2)
        let lines = plain(view.lines)
        let request = try #require(lines.firstIndex { $0.contains("REQUEST") })
        let response = try #require(lines.firstIndex { $0.contains("RESPONSE") })
        #expect(request < response)
        #expect(lines[request].hasPrefix("▶ REQUEST  IN request capability.query  id cap-1  22:13:11.000"))
        #expect(lines[response].hasPrefix("  RESPONSE after 42ms  OUT response capability.query  id cap-1  22:13:11.042"))
        #expect(lines[(request + 1)...].prefix(9).map { $0 } == [
            "{",
            "  \"correlationId\": \"cap-1\",",
            "  \"payload\": {",
            "    \"action\": \"capability.query\"",
            "  },",
            "  \"timestamp\": 1699999991000,",
            "  \"type\": \"request\",",
            "  \"version\": \"1.0\"",
            "}",
        ])
        #expect(lines[response...].contains("    \"status\": \"success\""))
        let screen = model.screen
        #expect(screen[1].contains("Message detail"))
        #expect(screen.contains { $0.contains("RESPONSE after 42ms") })
        #expect(model.footer.contains("Esc back"))
    }

    @Test("Enter on a response shows its request first; Tab moves between the two")
    func responseFirst() throws {
        var model = journeyModel()
        model.press(.char("k"), .enter)  // the INVALID_REQUEST response
        var view = try #require(detailView(model))
        var lines = plain(view.lines)
        let request = try #require(lines.firstIndex { $0.contains("REQUEST") })
        let response = try #require(lines.firstIndex { $0.contains("RESPONSE after 120ms") })
        #expect(request < response)
        #expect(lines[response].hasPrefix("▶"))
        #expect(lines[request].hasPrefix("  "))
        #expect(lines.contains("      \"code\": \"INVALID_REQUEST\","))
        model.press(.tab)
        view = try #require(detailView(model))
        lines = plain(view.lines)
        #expect(model.live.log[view.logIndex].type == .request)
        #expect(lines.first { $0.hasPrefix("▶") }?.contains("REQUEST") == true)
        model.press(.escape)
        #expect(model.overlays.isEmpty)
        #expect(model.selectedEntry?.seq == 9)
    }

    @Test("A pending request says so, and r in the detail view answers it")
    func pendingRequest() throws {
        var model = journeyModel()
        model.press(.char("g"))
        for _ in 0..<4 { model.press(.char("j")) }
        model.press(.enter)
        let lines = plain(try #require(detailView(model)).lines)
        #expect(lines[0].contains("pending, no response yet (r to respond)"))
        model.press(.char("r"))
        guard let dialog = model.topOverlay as? RespondDialog else {
            Issue.record("no respond dialog")
            return
        }
        #expect(dialog.request.correlationId == "nfc-1")
        #expect(model.overlays.count == 2)
        model.press(.escape)
        #expect(detailView(model) != nil)
    }

    @Test("r in the detail view of a message that is not pending says so")
    func notPending() {
        var model = journeyModel()
        model.press(.char("g"), .enter, .char("r"))
        #expect(model.overlays.count == 1)
        #expect(model.footer.contains("not a pending request"))
    }

    @Test("Malformed input shows the reason and the raw text")
    func malformed() throws {
        var model = journeyModel()
        model.press(.enter)
        let lines = plain(try #require(detailView(model)).lines)
        #expect(lines.contains("reason: missing required field 'payload.action'"))
        #expect(lines.contains("{\"version\":\"1.0\"}"))
        #expect(lines[0].contains("malformed"))
    }

    @Test("Markers do not open a detail view")
    func markerHasNoDetail() {
        var model = journeyModel()
        model.handle(.frame(.gap(from: 12, to: 13)))
        #expect(model.selectedEntry?.kind == .gap(from: 12, to: 13))
        model.press(.enter)
        #expect(model.overlays.isEmpty)
    }

    @Test("j/k, g/G scroll the detail view within its lines")
    func scrolls() throws {
        var model = journeyModel(width: 80, height: 24)
        model.press(.char("g"), .char("j"), .enter)
        // Counted as shown: wrapped to the 78 columns inside the frame.
        let count = try #require(detailView(model)).shownLines(width: 78).count
        #expect(model.screen[1].contains("(1/\(count))"))
        model.press(.char("j"), .char("j"))
        #expect(model.screen[1].contains("(3/\(count))"))
        model.press(.char("G"))
        #expect(try #require(detailView(model)).offset == count - (24 - 6))
        for _ in 0..<50 { model.press(.char("j")) }
        #expect(try #require(detailView(model)).offset == count - (24 - 6))
        model.press(.char("g"))
        #expect(model.screen[1].contains("(1/\(count))"))
    }

    /// A message holding a 10 MB base64 string.
    static func hugeModel() -> InspectorModel {
        var model = journeyModel()
        let base64 = String(repeating: "QUJD", count: 10 * 1024 * 1024 / 4)
        let message = Fixture.message(
            "big-1", .request, "camera.document.capture", at: Fixture.t0,
            data: ["imageBase64": .string(base64), "imageWidth": 4000, "imageHeight": 3000, "mimeType": "image/jpeg"])
        model.feed(12, .traffic(Fixture.traffic(seq: 12, .received, message, at: Fixture.t0)))
        return model
    }

    @Test("A 10 MB payload opens in part: bounded lines and text, 'not shown' and 'm for more'")
    func hugePayload() throws {
        var model = Self.hugeModel()
        #expect(model.messageLines[10].contains("camera.document.c"))
        model.press(.enter)
        let view = try #require(detailView(model))
        #expect(view.truncated)
        #expect(view.lines.count < 40)
        let characters = view.lines.reduce(0) { $0 + $1.reduce(0) { $0 + $1.text.count } }
        #expect(characters < 3_000)
        let lines = plain(view.lines)
        #expect(lines.contains { $0.contains("\"imageBase64\": \"QUJD") && $0.contains("10.0 MB string") && $0.contains("not shown") })
        #expect(lines.last?.contains("m for more") == true)
        let screen = model.screenText
        #expect(screen.contains("not shown"))
        #expect(screen.contains("m for more"))
        #expect(screen.contains("\"mimeType\": \"image/jpeg\""))

        model.press(.char("m"))
        let more = try #require(detailView(model))
        let moreCharacters = more.lines.reduce(0) { $0 + $1.reduce(0) { $0 + $1.text.count } }
        #expect(moreCharacters > characters)
        #expect(moreCharacters < 20_000)
        #expect(more.lines.count < 40)
    }

    @Test("PrettyJSON on 10 MB stays bounded: a long string, and many small values")
    func prettyJSONBounded() {
        let longString = Data(("{\"image\":\"" + String(repeating: "A", count: 10 * 1024 * 1024) + "\",\"after\":1}").utf8)
        let one = PrettyJSON.format(longString)
        #expect(one.truncated)
        #expect(one.lines.count == 4)
        let text = plain(one.lines).joined()
        #expect(text.count < 1_000)
        #expect(text.contains("10.0 MB string, \(10 * 1024 * 1024 - 400) characters not shown"))
        #expect(plain(one.lines)[2] == "  \"after\": 1")

        var many = "["
        many += String(repeating: "123456789,", count: 1_048_576)
        many += "0]"
        let output = PrettyJSON.format(Data(many.utf8), maxLines: 500)
        #expect(output.truncated)
        #expect(output.lines.count == 500)
        #expect(plain(output.lines).joined().count < 10_000)
    }

    @Test("Invalid JSON and odd bytes do not break the printer")
    func oddInput() {
        for text in ["", "{", "}", "]]]", "{\"a\":", "\"unterminated", "nul", "{\"a\" \"b\"}", "[1,,2]", "\u{1B}[2J"] {
            let output = PrettyJSON.format(Data(text.utf8))
            #expect(output.lines.count <= 10, "\(text)")
        }
        let bytes = Data([0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x3A, 0x31, 0x7D])
        #expect(plain(PrettyJSON.format(bytes).lines).joined().contains("\u{FFFD}"))
    }
}

/// The detail view follows the traffic under it, and a search that scrolls sideways shows its
/// match (issue 27, trap 6).
@Suite("Detail view follows the log")
struct DetailViewFollowsTests {
    /// Opens the detail view on the log row of `id`'s request.
    func open(_ id: String, in model: inout InspectorModel) throws {
        let index = try #require(model.live.log.firstIndex { $0.correlationId == id && $0.type == .request })
        model.press(.char("g"))
        for _ in 0..<index { model.press(.char("j")) }
        model.press(.enter)
        #expect(detailView(model)?.logIndex == index)
    }

    @Test("A response that arrives while its request is open in the detail view appears there, threaded, without reopening it")
    func responseArrives() throws {
        var model = journeyModel()
        try open("nfc-1", in: &model)
        #expect(model.screenText.contains("pending, no response yet"))
        model.handle(.frame(.event(seq: 12, event: .traffic(Fixture.response(
            seq: 12, id: "nfc-1", action: "nfc.read", at: Fixture.t0 + 100, data: ["uid": "04A2"])))))
        model.handle(.frame(.event(seq: 13, event: .pendingRemoved(correlationId: "nfc-1"))))
        let screen = model.screenText
        #expect(screen.contains("RESPONSE after 4.1s"), "\(screen)")
        #expect(screen.contains("04A2"))
        #expect(!screen.contains("no response yet"))
        // Scrolling works on the new lines too (the view's own copy was rebuilt).
        model.press(.char("G"))
        #expect(model.screenText.contains("04A2") || model.screenText.contains("}"))
    }

    @Test("A search in no-wrap mode scrolled right lands on its match, never on a blank view")
    func noWrapSearchShowsTheMatch() throws {
        var model = makeModel(width: 80, height: 24)
        let long = String(repeating: "x", count: 300)
        model.handle(.frame(.snapshot(seq: 2, state: Fixture.state(messages: [
            Fixture.request(seq: 1, id: "wide-1", action: "document.upload", at: Fixture.t0 - 1_000, data: ["blob": .string(long), "side": "front"]),
        ]))))
        try open("wide-1", in: &model)
        model.press(.char("w"))
        for _ in 0..<30 { model.press(.right) }
        #expect(!model.screenText.contains("correlationId"), "scrolled right past the short lines")
        model.press(.char("/"))
        _ = model.type("correlationId")
        model.press(.enter)
        let screen = model.screenText
        #expect(screen.contains("\"correlationId\""), "\(screen)")
    }
}
