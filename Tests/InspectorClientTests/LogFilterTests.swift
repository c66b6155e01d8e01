import BridgeCore
import Foundation
@testable import InspectorClient
@testable import InspectorProtocol
import Testing

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

    @Test("is:marked: the rows marked in the inspector, read from the row (the inspector's, not the host's)")
    func isMarked() throws {
        var marked = Self.busy
        marked.marked = true
        var markedMalformed = Self.malformed
        markedMalformed.marked = true
        let filter = try LogFilter.parse("is:marked")
        #expect(try LogFilter.parse("is:mark").expression == filter.expression)
        #expect(filter.matches(marked, pending: []))
        #expect(filter.matches(markedMalformed, pending: []))
        #expect(!filter.matches(Self.busy, pending: []))
        #expect(try Self.matching("is:marked") == [], "no fixture row is marked")
        #expect(try LogFilter.parse("!is:marked dir:in").matches(Self.request, pending: []))
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
            ("is:weird", "is: takes pending, error, malformed, manual, rule, lint, marked or fault"), ("colour:red", "unknown key; use type: dir:"),
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
