import BridgeCore
import FilterLanguage
import Foundation
import InspectorClient
import InspectorProtocol
import TestSupport
import Testing

@Suite("InFlightMessageFilter")
struct InFlightMessageFilterTests {
    /// A message in flight: what it is, which way it goes and its bytes as they cross the bridge.
    struct InFlight {
        var name: String
        var message: BridgeMessage
        var direction: TrafficRecord.Direction
        var json: Data { (try? BridgeMessageCodec().encode(message)) ?? Data() }

        /// The log's row for the same message, made the way the client makes it.
        var logEntry: LogEntry {
            LogEntry(TrafficFixture.traffic(seq: 1, direction, message, at: message.timestamp), json: json)
        }
    }

    static let capture = InFlight(
        name: "capture", message: TrafficFixture.message("Doc-7A", .request, "camera.document.capture", at: 0, data: ["side": "front"]),
        direction: .received)
    static let query = InFlight(name: "query", message: TrafficFixture.message("cap-1", .request, "capability.query", at: 0), direction: .received)
    static let success = InFlight(
        name: "success", message: TrafficFixture.message("cap-1", .response, "capability.query", at: 1, status: .success), direction: .sent)
    static let busy = InFlight(
        name: "busy",
        message: TrafficFixture.message("doc-8", .response, "camera.document.capture", at: 1, status: .error, error: BridgeErrorCode.busy.payload()),
        direction: .sent)
    static let cancelled = InFlight(
        name: "cancelled", message: TrafficFixture.message("nfc-2", .response, "nfc.read", at: 2, status: .cancelled), direction: .sent)
    static let event = InFlight(name: "event", message: TrafficFixture.message("ios-event-1", .event, "host.ping", at: 2), direction: .sent)
    static let journeyEvent = InFlight(
        name: "journeyEvent", message: TrafficFixture.message("web-1", .event, "journey.step", at: 3, data: ["step": "intro"]),
        direction: .received)
    static let accented = InFlight(name: "accented", message: TrafficFixture.message("Réf-9", .request, "caméra.capture", at: 4), direction: .received)
    static let all = [capture, query, success, busy, cancelled, event, journeyEvent, accented]

    /// The names of the messages `text` holds.
    static func matching(_ text: String) throws -> [String] {
        let filter = try InFlightMessageFilter(parsing: text)
        return all.filter { filter.matches($0.message, direction: $0.direction, json: $0.json) }.map(\.name)
    }

    @Test("type: and dir:")
    func typeAndDirection() throws {
        #expect(try Self.matching("type:request") == ["capture", "query", "accented"])
        #expect(try Self.matching("type:resp") == ["success", "busy", "cancelled"])
        #expect(try Self.matching("type:event") == ["event", "journeyEvent"])
        #expect(try Self.matching("dir:in") == ["capture", "query", "journeyEvent", "accented"])
        #expect(try Self.matching("dir:out") == ["success", "busy", "cancelled", "event"])
    }

    @Test("action: a case-sensitive pattern on payload.action, ASCII or not")
    func action() throws {
        #expect(try Self.matching("action:camera.document.capture") == ["capture", "busy"])
        #expect(try Self.matching("action:*.capture") == ["capture", "busy", "accented"])
        #expect(try Self.matching("action:caméra.*") == ["accented"])
        #expect(try Self.matching("action:Camera.*") == [])
        #expect(try Self.matching("action:camera") == [])
    }

    @Test("status:, code: (any case) and is:error")
    func statusCodeAndError() throws {
        #expect(try Self.matching("status:success") == ["success"])
        #expect(try Self.matching("status:error") == ["busy"])
        #expect(try Self.matching("status:cancelled") == ["cancelled"])
        #expect(try Self.matching("code:busy") == ["busy"])
        #expect(try Self.matching("code:TIMEOUT") == [])
        #expect(try Self.matching("is:error") == ["busy"])
    }

    @Test("id: part of the correlation id, any case")
    func id() throws {
        #expect(try Self.matching("id:DOC") == ["capture", "busy"])
        #expect(try Self.matching("id:cap-1") == ["query", "success"])
        #expect(try Self.matching("id:réf") == ["accented"])
    }

    @Test("body: the bytes of the JSON; plain text: action, id or error code in any case")
    func bodyAndText() throws {
        #expect(try Self.matching("body:front") == ["capture"])
        #expect(try Self.matching("body:\"side\"") == ["capture"])
        #expect(try Self.matching("body:FRONT") == [])
        #expect(try Self.matching("body:Another") == ["busy"])  // the error's message
        #expect(try Self.matching("CAPTURE") == ["capture", "busy", "accented"])
        #expect(try Self.matching("busy") == ["busy"])
        #expect(try Self.matching("ios-event") == ["event"])
        #expect(try Self.matching("front") == [])  // data is body:, not plain text
    }

    @Test("!, & and | combine terms as in the log")
    func combinations() throws {
        #expect(try Self.matching("type:request !action:capability.*") == ["capture", "accented"])
        #expect(try Self.matching("action:nfc.* | type:event dir:out") == ["cancelled", "event"])
        #expect(try Self.matching("!(dir:in | status:success)") == ["busy", "cancelled", "event"])
        #expect(try InFlightMessageFilter(parsing: "  dir:in  type:request ").source == "dir:in  type:request")
    }

    @Test(
        "Terms that cannot apply in flight are refused, at their column, saying what to use",
        arguments: [
            ("is:pending", "is:pending", 1, "has not reached pendingRequests yet"),
            ("type:request !is:pending", "is:pending", 15, "use type:request dir:in"),
            ("  dir:in | is:malformed", "is:malformed", 12, "never routed, so it cannot be held"),
            ("(action:x (is:manual))", "is:manual", 12, "messages an inspector makes are never held"),
            ("dir:out is:handmade", "is:handmade", 9, "messages an inspector makes are never held"),
            ("type:response & is:rule", "is:rule", 17, "never held"),
            ("dir:out is:lint", "is:lint", 9, "the linter marks a row once it is in the log"),
            ("action:camera.* | is:marked", "is:marked", 19, "marks are made in an inspector's log once a message is there"),
            ("!is:mark", "is:mark", 2, "use action:, id: or type:"),
        ])
    func refusals(text: String, term: String, column: Int, reason: String) {
        do {
            _ = try InFlightMessageFilter(parsing: text)
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.term == term)
            #expect(error.column == column)
            #expect(error.reason.contains(reason), "\(error.reason)")
        }
    }

    @Test("An empty filter is refused with an example; mistakes in the language are reported as in the log")
    func emptyAndMistakes() {
        for text in ["", "   "] {
            do {
                _ = try InFlightMessageFilter(parsing: text)
                Issue.record("'\(text)' parsed")
            } catch {
                #expect(error.reason == "a breakpoint needs a filter, such as action:camera.document.capture")
                #expect(error.column == 1)
            }
        }
        for text in ["type:bogus", "dir:in |", "a (b", "\"open"] {
            do {
                _ = try InFlightMessageFilter(parsing: text)
                Issue.record("\(text) parsed")
            } catch {
                #expect(throws: error) { try LogFilter.parse(text) }
            }
        }
    }

    static let agreementFilters = [
        "type:request", "type:response", "type:event", "dir:in", "dir:out", "action:camera.*", "action:*.capture", "action:caméra.*",
        "action:*", "action:host.ping", "status:success", "status:error", "status:cancelled", "status:unsupported", "code:BUSY",
        "code:busy", "id:doc", "id:CAP", "id:réf", "is:error", "body:front", "body:\"side\"", "body:Another", "body:é", "capture",
        "CAPTURE", "busy", "ios", "caméra", "\"cap-1\"", "!type:request", "type:request !action:capability.*",
        "action:nfc.* | type:event dir:out", "!(dir:in | status:success)", "(id:doc | id:cap) !type:response", "is:error | dir:in",
        "is:pending", "is:malformed", "is:manual", "is:rule", "is:lint", "is:marked",
    ]

    @Test("Every filter a breakpoint accepts holds exactly the messages the log's filter shows")
    func agreesWithLogFilter() throws {
        var accepted = 0
        for text in Self.agreementFilters {
            guard let inFlight = try? InFlightMessageFilter(parsing: text) else { continue }
            accepted += 1
            let logFilter = try LogFilter.parse(text)
            #expect(inFlight.expression == logFilter.expression)
            for item in Self.all {
                #expect(
                    inFlight.matches(item.message, direction: item.direction, json: item.json)
                        == logFilter.matches(item.logEntry, pending: []), "\(text) on \(item.name)")
            }
        }
        #expect(accepted == Self.agreementFilters.count - 6)  // all but the six refused is: terms
    }
}
