import BridgeCore
import Foundation
@testable import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

@Suite("Filter and search on screen")
struct FilterScreenTests {
    @Test("action: patterns mean what reply rules' patterns mean, on ASCII and beyond", arguments: [
        ("camera.*", "camera.document.capture", true), ("*.capture", "camera.selfie.capture", true),
        ("camera.*.capture", "camera.document.capture", true), ("*", "", true), ("a*a", "a", false),
        ("nfc.read", "NFC.read", false), ("nfc.read", "nfc.read", true), ("*é*", "caméra", true), ("cam*ü", "camera", false),
    ])
    func actionPatternAgreesWithRules(pattern: String, text: String, expected: Bool) {
        #expect(LogFilter.glob(pattern, text) == expected)
        #expect(ActionPattern.matches(pattern, text) == expected)
    }

    @Test("f, a filter and Enter narrow the rows; the title counts shown/total")
    func filterNarrows() {
        var model = journeyModel()
        model.press(.char("f"))
        #expect(model.prompt?.kind == .filter)
        model.type("type:request")
        #expect(model.footer.hasPrefix("filter: type:request"))
        model.press(.enter)
        #expect(model.prompt == nil)
        #expect(model.visible.count == 5)
        #expect(model.messagesTitle.contains("Messages 5/10"))
        let rows = model.messageLines.filter { !$0.isEmpty }
        #expect(rows.count == 5)
        #expect(rows.allSatisfy { $0.contains(" IN  req ") })
        #expect(model.footer.contains("filter: type:request (5 rows)"))
    }

    @Test("The filter applies to rows that arrive later")
    func filterAppliesToNewRows() {
        var model = journeyModel()
        model.press(.char("f"))
        model.type("action:nfc.*")
        model.press(.enter)
        #expect(model.visible.count == 1)
        model.feed(12, .traffic(Fixture.response(seq: 12, id: "nfc-1", action: "nfc.read", at: Fixture.t0)))
        model.feed(13, .traffic(Fixture.request(seq: 13, id: "cap-3", action: "capability.query", at: Fixture.t0)))
        #expect(model.visible.count == 2)
        #expect(model.selectedEntry?.correlationId == "nfc-1")
        #expect(model.selectedEntry?.type == .response)
    }

    @Test("A bad filter shows its parse error in the prompt as it is typed")
    func parseErrorWhileTyping() {
        var model = journeyModel()
        model.press(.char("f"))
        model.type("type:bogus")
        #expect(model.prompt?.error != nil)
        #expect(model.footer.contains("'type:bogus' at column 1: type is request, response or event"))
        for _ in 0..<5 { model.press(.backspace) }
        model.type("event")
        #expect(model.prompt?.error == nil)
        #expect(!model.footer.contains("type is"))
        model.type(" colour:red")
        #expect(model.footer.contains("unknown key"))
        // Enter on a bad filter keeps the prompt open with what was typed; nothing is applied.
        model.press(.enter)
        #expect(model.prompt?.input.text == "type:event colour:red")
        #expect(model.filter.isEmpty)
        #expect(model.visible.count == 10)
    }

    @Test("A filter error too long for the prompt line is shown whole, wrapped between words, never cut mid-word")
    func longErrorShownWhole() throws {
        var model = journeyModel(width: 60, height: 20)
        model.press(.char("f"))
        model.type("type:request colour:red")
        let error = try #require(model.prompt?.error)
        #expect(error == "'colour:red' at column 14: unknown key; use type: dir: action: status: code: id: is: body:")
        let screen = model.screen
        // Every word of the error is on screen, in order, across the rows above the prompt.
        let shown = screen.suffix(4).joined(separator: " ").split(separator: " ").joined(separator: " ")
        #expect(shown.contains(error), "\(screen.suffix(4))")
        // The prompt keeps the whole line for what is being typed.
        #expect(model.footer.contains("type:request colour:red"))
        // A short error still fits beside the input on a wide screen.
        var wide = journeyModel(width: 160)
        wide.press(.char("f"))
        wide.type("type:request |")
        #expect(wide.footer.contains("'|' at column 14: '|' needs a term on each side"))
    }

    @Test("Esc in the prompt leaves the filter as it was; Esc on the main screen clears it")
    func escapeClears() {
        var model = journeyModel()
        model.press(.char("f"))
        model.type("dir:out")
        model.press(.enter)
        #expect(model.visible.count == 4)
        model.press(.char("f"))
        #expect(model.prompt?.input.text == "dir:out")
        model.type(" is:manual")
        model.press(.escape)
        #expect(model.prompt == nil)
        #expect(model.filter.source == "dir:out")
        #expect(model.visible.count == 4)
        model.press(.escape)
        #expect(model.filter.isEmpty)
        #expect(model.visible.count == 10)
        #expect(!model.screen[0].contains("filter:"))
        #expect(model.footer.contains("filter cleared"))
    }

    @Test("An empty filter clears it")
    func emptyFilterClears() {
        var model = journeyModel()
        model.press(.char("f"))
        model.type("is:error")
        model.press(.enter)
        #expect(model.visible.count == 2)  // the INVALID_REQUEST response and the malformed input
        model.press(.char("f"), .ctrl("u"), .enter)
        #expect(model.filter.isEmpty)
        #expect(model.visible.count == 10)
    }

    @Test("A filter that matches nothing says so and how to clear it")
    func nothingMatches() {
        var model = journeyModel()
        model.press(.char("f"))
        model.type("nothing-has-this")
        model.press(.enter)
        #expect(model.messageLines[0] == "no message matches the filter (Esc clears it)")
        #expect(model.selectedEntry == nil)
        model.press(.enter, .char("j"), .char("k"), .char("G"))  // nothing to open or move to
        #expect(model.overlays.isEmpty)
    }

    @Test("Markers stay visible whatever the filter")
    func markersStay() {
        var model = journeyModel()
        model.handle(.frame(.gap(from: 12, to: 15)))
        model.press(.char("f"))
        model.type("is:manual")
        model.press(.enter)
        #expect(model.visible.count == 2)
        #expect(model.messageLines[0].contains("host.ping"))
        #expect(model.messageLines[1].contains("gap: missed events 12–15"))
    }

    @Test("/ searches: the cursor moves to the first match, n and N move between matches, matches are highlighted")
    func search() {
        var model = journeyModel()
        model.press(.char("/"))
        #expect(model.prompt?.kind == .search)
        model.type("action:capability.query")
        model.press(.enter)
        #expect(model.search?.source == "action:capability.query")
        #expect(model.screen[0].contains("search: action:capability.query"))
        #expect(model.selectedEntry?.seq == 2)
        model.press(.char("n"))
        #expect(model.selectedEntry?.seq == 3)
        model.press(.char("n"))
        #expect(model.selectedEntry?.seq == 6)
        model.press(.char("n"))
        #expect(model.selectedEntry?.seq == 2)  // wraps
        model.press(.char("N"))
        #expect(model.selectedEntry?.seq == 6)
        // Search does not narrow the rows.
        #expect(model.visible.count == 10)

        let buffer = model.render()
        let inner = model.layout.messages.inset(1)
        func background(row: Int) -> Style? { buffer.style(at: Point(x: inner.x + 2, y: inner.y + row)) }
        #expect(background(row: 1) == Theme.highlight)  // cap-1 request
        #expect(background(row: 2) == Theme.highlight)  // cap-1 response
        #expect(background(row: 5) == Theme.selection)  // cap-2, selected
        #expect(background(row: 0) != Theme.highlight)  // host.ready
        #expect(background(row: 4) != Theme.highlight)  // nfc.read
    }

    @Test("Search never highlights markers, and n skips them")
    func searchSkipsMarkers() {
        var model = journeyModel()
        model.handle(.frame(.gap(from: 12, to: 15)))
        model.press(.char("/"))
        model.type("nfc")
        model.press(.enter)
        #expect(model.selectedEntry?.correlationId == "nfc-1")
        let buffer = model.render()
        let inner = model.layout.messages.inset(1)
        let gapRow = inner.y + 10
        #expect(text(in: Rect(x: inner.x, y: gapRow, width: inner.width, height: 1), of: buffer)[0].contains("gap"))
        #expect(buffer.style(at: Point(x: inner.x + 3, y: gapRow)) != Theme.highlight)
        model.press(.char("n"))
        #expect(model.selectedEntry?.correlationId == "nfc-1")
    }

    @Test("A search without matches says so; Esc ends the search")
    func searchNoMatch() {
        var model = journeyModel()
        model.press(.char("/"))
        model.type("zzz")
        model.press(.enter)
        #expect(model.footer.contains("no match for zzz"))
        #expect(model.selectedEntry?.seq == 10)
        model.press(.escape)
        #expect(model.search == nil)
        model.press(.char("n"))
        #expect(model.footer.contains("no search"))
    }
}

@Suite("LogFilter")
struct LogFilterTests {
    static let request = LogEntry(Fixture.request(seq: 1, id: "Doc-7A", action: "camera.document.capture", at: 0, data: ["side": "front"]))
    static let query = LogEntry(Fixture.request(seq: 2, id: "cap-1", action: "capability.query", at: 0))
    static let success = LogEntry(Fixture.response(seq: 3, id: "cap-1", action: "capability.query", at: 1))
    static let busy = LogEntry(
        Fixture.response(seq: 4, id: "doc-8", action: "camera.document.capture", at: 1, status: .error, error: BridgeErrorCode.busy.payload()))
    static let event = LogEntry(Fixture.hostEvent(seq: 5, id: "ios-event-1", name: "host.ping", at: 2, origin: .inspector))
    static let undelivered = LogEntry(
        Fixture.traffic(seq: 6, .sent, Fixture.message("ios-event-2", .event, "host.ready", at: 3), at: 3, deliveryError: "WebView not attached"))
    static let malformed = LogEntry(WireMalformed(seq: 7, time: 4, raw: "{oops", bytes: 5, reason: "invalid JSON at line 1, column 2"))
    static let all = [request, query, success, busy, event, undelivered, malformed]

    /// The sequence numbers of the rows `text` lets through.
    static func matching(_ text: String, pending: Set<String> = []) throws -> [Int] {
        let filter = try LogFilter.parse(text)
        return all.filter { filter.matches($0, pending: pending) }.map(\.seq)
    }

    @Test("type: request, response, event and their short forms")
    func type() throws {
        #expect(try Self.matching("type:request") == [1, 2])
        #expect(try Self.matching("type:req") == [1, 2])
        #expect(try Self.matching("type:response") == [3, 4])
        #expect(try Self.matching("t:resp") == [3, 4])
        #expect(try Self.matching("type:EVENT") == [5, 6])
        #expect(try Self.matching("type:evt") == [5, 6])
    }

    @Test("dir: in and out")
    func direction() throws {
        #expect(try Self.matching("dir:in") == [1, 2, 7])
        #expect(try Self.matching("dir:out") == [3, 4, 5, 6])
        #expect(try Self.matching("d:sent") == [3, 4, 5, 6])
    }

    @Test("action: exact, and globs with *")
    func action() throws {
        #expect(try Self.matching("action:capability.query") == [2, 3])
        #expect(try Self.matching("action:camera.*") == [1, 4])
        #expect(try Self.matching("action:*.capture") == [1, 4])
        #expect(try Self.matching("action:camera.*.capture") == [1, 4])
        #expect(try Self.matching("action:*query*") == [2, 3])
        #expect(try Self.matching("action:host.*") == [5, 6])
        #expect(try Self.matching("action:*") == [1, 2, 3, 4, 5, 6])  // not malformed input: it has no action
        #expect(try Self.matching("action:camera") == [])  // exact without *
        #expect(try Self.matching("action:Camera.*") == [])  // case-sensitive, like routing
    }

    @Test("status: and code:")
    func statusAndCode() throws {
        #expect(try Self.matching("status:success") == [3])
        #expect(try Self.matching("status:error") == [4])
        #expect(try Self.matching("s:cancelled") == [])
        #expect(try Self.matching("code:BUSY") == [4])
        #expect(try Self.matching("code:busy") == [4])
        #expect(try Self.matching("code:TIMEOUT") == [])
    }

    @Test("id: part of the correlation id, any case")
    func id() throws {
        #expect(try Self.matching("id:cap-1") == [2, 3])
        #expect(try Self.matching("id:doc-7a") == [1])
        #expect(try Self.matching("id:DOC") == [1, 4])
        #expect(try Self.matching("id:ios-event") == [5, 6])
    }

    @Test("is: pending, error, malformed, manual")
    func isKeys() throws {
        #expect(try Self.matching("is:pending", pending: ["cap-1"]) == [2])
        #expect(try Self.matching("is:pending", pending: []) == [])
        #expect(try Self.matching("is:error") == [4, 6, 7])
        #expect(try Self.matching("is:err") == [4, 6, 7])
        #expect(try Self.matching("is:malformed") == [7])
        #expect(try Self.matching("is:manual") == [5])
        #expect(try Self.matching("is:handmade") == [5])
    }

    @Test("is:rule: answered by a reply rule")
    func isRule() throws {
        var answered = Self.success
        answered.answeredByRule = true
        let filter = try LogFilter.parse("is:rule")
        #expect(filter.matches(answered, pending: []))
        #expect(!filter.matches(Self.success, pending: []))
        #expect(try LogFilter.parse("!is:rule").matches(Self.success, pending: []))
    }

    @Test("body: text anywhere in the JSON, as sent")
    func body() throws {
        #expect(try Self.matching("body:front") == [1])
        #expect(try Self.matching("body:\"side\"") == [1])
        #expect(try Self.matching("body:oops") == [7])  // the raw malformed text
        #expect(try Self.matching("body:FRONT") == [])
        #expect(try Self.matching("body:Another") == [4])  // the error message
    }

    @Test("Free text: action, id or error code, any case")
    func freeText() throws {
        #expect(try Self.matching("capture") == [1, 4])
        #expect(try Self.matching("CAPTURE") == [1, 4])
        #expect(try Self.matching("cap-1") == [2, 3])
        #expect(try Self.matching("busy") == [4])
        #expect(try Self.matching("invalid") == [7])  // the reason of malformed input
    }

    @Test("! negates a term; terms combine with AND")
    func negationAndConjunction() throws {
        #expect(try Self.matching("!type:request") == [3, 4, 5, 6, 7])
        #expect(try Self.matching("!!type:request") == [1, 2])
        #expect(try Self.matching("type:request !action:capability.*") == [1])
        #expect(try Self.matching("dir:out !is:error") == [3, 5])
        #expect(try Self.matching("  dir:out   is:manual ") == [5])
        #expect(try LogFilter.parse("  dir:out   is:manual ").source == "dir:out   is:manual")
        #expect(try Self.matching("") == [1, 2, 3, 4, 5, 6, 7])
        #expect(try LogFilter.parse("").isEmpty)
    }

    @Test("Markers always match, even a filter that rejects everything")
    func markersAlwaysMatch() throws {
        let markers: [LogEntry] = [
            .marker(.gap(from: 1, to: 2), time: 0), .marker(.disconnected, time: 0), .marker(.reattached(hostRestarted: true), time: 0),
        ]
        for text in ["type:request", "!type:request !type:response !type:event", "nothing", "is:pending", "body:zzz"] {
            let filter = try LogFilter.parse(text)
            #expect(markers.allSatisfy { filter.matches($0, pending: []) }, "\(text)")
        }
    }

    @Test(
        "Mistakes name the term and say what would be right",
        arguments: [
            ("type:", "needs a value after 'type:'"), ("type:bogus", "type is request, response or event"),
            ("dir:up", "dir is in or out"), ("status:ok", "status is success, error, cancelled or unsupported"),
            ("is:weird", "is: takes pending, error, malformed, manual or rule"), ("colour:red", "unknown key; use type: dir:"),
            ("!", "'!' needs a term after it"),
        ])
    func parseErrors(text: String, reason: String) {
        do {
            _ = try LogFilter.parse("type:request " + text)
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.term == text)
            #expect(error.column == 14)  // after "type:request "
            #expect(error.description.contains(reason), "\(error.description)")
        }
    }

    // Issue 13, trap 6: `action:nfc.* | action:wallet.*` showed nothing, `|` being read as text.

    @Test("| means either; without spaces too")
    func or() throws {
        #expect(try Self.matching("action:camera.* | action:host.*") == [1, 4, 5, 6])
        #expect(try Self.matching("action:camera.*|action:host.*") == [1, 4, 5, 6])
        #expect(try Self.matching("is:malformed | status:success | code:BUSY") == [3, 4, 7])
    }

    @Test("! binds tightest, then and (& or a space), then |; parentheses group")
    func precedence() throws {
        #expect(try Self.matching("type:request action:camera.* | is:malformed") == [1, 7])
        #expect(try Self.matching("type:request & action:camera.* | is:malformed") == [1, 7])
        #expect(try Self.matching("type:request (action:camera.* | is:malformed)") == [1])
        #expect(try Self.matching("!type:request | dir:in") == [1, 2, 3, 4, 5, 6, 7])
        #expect(try Self.matching("!(type:request | type:response)") == [5, 6, 7])
        #expect(try Self.matching("!dir:in dir:out | is:malformed") == [3, 4, 5, 6, 7])
        #expect(try Self.matching("((id:cap) | (id:doc)) !type:response") == [1, 2])
        #expect(try Self.matching("!!(type:request)") == [1, 2])
    }

    @Test("A quoted or escaped | is text to find, as is anything in quotes")
    func literalOperators() throws {
        let piped = LogEntry(Fixture.request(seq: 8, id: "a|b (x)", action: "pipe.test", at: 0))
        func matches(_ text: String) throws -> Bool { try LogFilter.parse(text).matches(piped, pending: []) }
        #expect(try matches("\"|\""))
        #expect(try matches("a\\|b"))
        #expect(try matches("\"a|b (x)\""))
        #expect(try matches("id:\\(x\\)"))
        #expect(try !matches("\"type:request\""))  // quoted: plain text, not a key
        #expect(try matches("\"PIPE.\""))
        #expect(try Self.matching("body:\"side\"") == [1])  // after a key the quotes stay, as before
        #expect(try Self.matching("body:\"side\": \"front\"") == [])  // two words: the second is plain text
        #expect(try matches("body:\"a|b (x)\""))  // a quote after a key holds spaces and operators together
    }

    @Test("is:pending inside | or ( ) still asks for pendingRequests")
    func usesPending() throws {
        #expect(try LogFilter.parse("type:event | (!dir:out is:pending)").usesPending)
        #expect(try !LogFilter.parse("type:event | dir:out").usesPending)
        #expect(try Self.matching("is:pending | is:malformed", pending: ["cap-1"]) == [2, 7])
    }

    @Test(
        "Operator mistakes name the operator and its column, counted from the first character typed",
        arguments: [
            ("type:request |", "|", 14, "'|' needs a term on each side"), ("| type:request", "|", 1, "'|' needs a term on each side"),
            ("a || b", "|", 3, "'|' needs a term on each side"), ("a & | b", "&", 3, "'&' needs a term on each side"),
            ("  (type:request", "(", 3, "the group is never closed; add ')'"),
            ("type:request)", ")", 13, "no '(' before it"), ("a ( ) b", "()", 3, "the group is empty"),
            ("a !", "!", 3, "'!' needs a term after it"), ("(a !)", "!", 4, "'!' needs a term after it"),
            ("   type:bogus", "type:bogus", 4, "type is request, response or event"),
            ("a \"b c", "\"b c", 3, "the quote is never closed"), ("body:\"x", "body:\"x", 1, "the quote at column 6 is never closed"),
            ("a \"\"", "\"\"", 3, "empty quotes match nothing"),
        ])
    func operatorErrors(text: String, term: String, column: Int, reason: String) {
        do {
            _ = try LogFilter.parse(text)
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.term == term)
            #expect(error.column == column)
            #expect(error.description.contains(reason), "\(error.description)")
            #expect(error.description.contains("column \(column)"))
        }
    }

    @Test("Hostile nesting is refused, not a stack overflow")
    func hostileNesting() {
        for text in [String(repeating: "(", count: 100_000) + "a", String(repeating: "!", count: 100_000) + "a", String(repeating: "(a ", count: 100_000)] {
            #expect(throws: LogFilter.ParseError.self) { try LogFilter.parse(text) }
        }
        #expect(throws: Never.self) { try LogFilter.parse(String(repeating: "(", count: 64) + "a" + String(repeating: ")", count: 64)) }
        #expect(throws: Never.self) { try LogFilter.parse(Array(repeating: "a", count: 10_000).joined(separator: " | ")) }
    }
}
