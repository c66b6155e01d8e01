import BridgeCore
import Foundation
@testable import InspectorClient
import InspectorProtocol
import Testing

/// The client's side of fault rules: `is:fault` in the log's filter, the marks and rules a
/// `LiveState` keeps, the rules file a person shares, and the short forms `fault` takes.
@Suite("Fault rules in the client")
struct FaultRuleClientTests {
    static let mark = FaultMark(rule: "f1", effect: .errored, detail: "BUSY")

    @Test("is:fault finds the rows a fault rule changed, read from the agent's record")
    func isFault() throws {
        var record = Fixture.request(seq: 1, id: "r1", action: "device.info", at: 0)
        record.fault = Self.mark
        let faulted = LogEntry(record)
        let plain = LogEntry(Fixture.request(seq: 2, id: "r2", action: "device.info", at: 0))
        let filter = try LogFilter.parse("is:fault")
        #expect(faulted.fault == Self.mark)
        #expect(filter.matches(faulted, pending: []))
        #expect(!filter.matches(plain, pending: []))
        #expect(try LogFilter.parse("is:faulted").expression == filter.expression)
    }

    @Test("A fault's BUSY is shown with its lint mark but never held against the app, nor its contract violations")
    func faultedRowsAreTheInspectors() {
        var state = LiveState()
        state.apply(.event(seq: 1, event: .traffic(Fixture.request(seq: 1, id: "r1", action: "device.info", at: 0))))
        var busy = Fixture.response(
            seq: 2, id: "r1", action: "device.info", at: 10, status: .error,
            error: BridgeErrorPayload(code: "BUSY", message: "Another native operation is in progress", recoverable: false))
        busy.fault = Self.mark
        state.apply(.event(seq: 2, event: .traffic(busy)))
        let row = state.log[1]
        #expect(row.lint == .busy)
        #expect(row.isInspectorCaused)
        #expect(!row.countsAsLint)
        #expect(state.lintCount == 0)
        // recoverable: false with BUSY breaks GBG's contract, but a fault rule sent it.
        #expect(state.contract.total == 0)
        #expect(state.contract.notCounted == 1)
    }

    @Test("A row a fault rule kept from the journey: a dropped or swallowed message the host sent, nothing else")
    func withheldFromJourney() {
        func row(_ record: WireTraffic, _ effect: FaultMark.Effect?) -> LogEntry {
            var record = record
            record.fault = effect.map { FaultMark(rule: "f1", effect: $0) }
            return LogEntry(record)
        }
        let answer = Fixture.response(seq: 2, id: "r1", action: "device.info", at: 10)
        let event = Fixture.hostEvent(seq: 3, id: "ios-event-1", name: "host.background", at: 20)
        let request = Fixture.request(seq: 1, id: "r1", action: "device.info", at: 0)
        #expect(row(answer, .neverAnswered).withheldFromJourney)
        #expect(row(answer, .dropped).withheldFromJourney)
        #expect(row(event, .dropped).withheldFromJourney)
        // What the journey did receive, late, twice or out of order, and what it sent itself.
        for effect in [FaultMark.Effect.delayed, .errored, .duplicated, .reordered] {
            #expect(!row(answer, effect).withheldFromJourney, "\(effect)")
        }
        #expect(!row(answer, nil).withheldFromJourney)
        #expect(!row(request, .dropped).withheldFromJourney, "a request the journey sent was met by the journey")
    }

    @Test("LiveState keeps every inspector's rules from snapshots and faults events")
    func liveStateRules() {
        var state = LiveState()
        let fault = WireFault(
            id: "f1", rule: WireFaultRule(filter: "action:device.info", effect: .drop), owner: "bridge-inspector fault", ownerClient: 2, hits: 3)
        state.apply(.event(seq: 1, event: .faults([fault])))
        #expect(state.faults == [fault])
        state.apply(.event(seq: 2, event: .faults([])))
        #expect(state.faults.isEmpty)
    }

    @Test("A rules file reads its rules, and says where a bad one is and what is wrong")
    func rulesFile() throws {
        let good = #"{"version":1,"faults":[{"filter":"action:device.info","effect":{"kind":"error","code":"BUSY"},"firing":{"kind":"times","count":2}}]}"#
        let file = try FaultRuleFile.decode(Data(good.utf8))
        #expect(file.faults.first?.firing == .times(2))
        let again = try FaultRuleFile.decode(try file.encoded())
        #expect(again == file)

        func problem(_ text: String) -> FaultRuleFileError? {
            do {
                _ = try FaultRuleFile.decode(Data(text.utf8))
                return nil
            } catch {
                return error
            }
        }
        #expect(problem(#"{"version":1,"faults":[]}"#)?.place == "faults")
        #expect(problem(#"{"version":2,"faults":[]}"#)?.reason.contains("newer than this bridge-inspector reads") == true)
        #expect(problem("{\n  \"faults\": [,]}")?.place.hasPrefix("line 2") == true)
        let undocumented = problem(#"{"faults":[{"filter":"x","effect":{"kind":"error","code":"MINE"}}]}"#)
        #expect(undocumented?.place == "faults[0]")
        #expect(undocumented?.reason.contains("give recoverable") == true)
        let badFilter = problem(#"{"faults":[{"filter":"is:pending","effect":{"kind":"drop"}}]}"#)
        #expect(badFilter?.place == "faults[0].filter")
        let unknownKind = problem(#"{"faults":[{"filter":"x","effect":{"kind":"explode"}}]}"#)
        #expect(unknownKind?.reason.contains("use delay, error") == true, "\(String(describing: unknownKind))")
    }

    @Test("Delays and sequence steps as a person types them")
    func syntax() throws {
        #expect(try FaultRuleSyntax.delay("2s") == (2000, 2000))
        #expect(try FaultRuleSyntax.delay("1.5s") == (1500, 1500))
        #expect(try FaultRuleSyntax.delay("500ms") == (500, 500))
        #expect(try FaultRuleSyntax.delay("1s..3s") == (1000, 3000))
        #expect(throws: FaultRuleSyntaxError.self) { try FaultRuleSyntax.delay("3s..1s") }
        #expect(throws: FaultRuleSyntaxError.self) { try FaultRuleSyntax.delay("soon") }
        #expect(try FaultRuleSyntax.steps("error:busy, error:BUSY,pass,delay:2s,never-answer")
            == [.fault(.error(code: "BUSY", message: nil, recoverable: nil)), .fault(.error(code: "BUSY", message: nil, recoverable: nil)), .pass,
                .fault(.delay(minMs: 2000, maxMs: 2000)), .fault(.neverAnswer)])
        #expect(throws: FaultRuleSyntaxError.self) { try FaultRuleSyntax.steps("error") }
        #expect(throws: FaultRuleSyntaxError.self) { try FaultRuleSyntax.steps("explode") }
    }
}
