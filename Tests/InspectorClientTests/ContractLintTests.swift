import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import TestSupport
import Testing

/// Where contract violations show in an inspector's state: a lint mark on a row no other rule
/// marked (`is:lint` finds it), and the tally the doctor and `open --check` read.
@Suite("GBGBridge contract in the log")
struct ContractLintTests {
    static let t0 = DiagnosisFixture.t0
    static let readyId = "ios-event-3f2a9c1e-8b7d-4e6f-a5c4-2d1b0e9f8a7c"

    static func state(_ messages: [WireTraffic], malformed: [WireMalformed] = []) -> LiveState {
        var state = LiveState()
        state.apply(.snapshot(seq: 100, state: DiagnosisFixture.state(messages: messages, malformed: malformed)), at: t0 + 100)
        return state
    }

    @Test("a row that breaks only the contract is marked with the rule, its reason and its page; is:lint finds it")
    func marksTheRow() throws {
        let state = Self.state([
            Fixture.hostEvent(seq: 1, id: Self.readyId, name: "host.ready", at: Self.t0, data: ["timestamp": .number(Self.t0)]),
            Fixture.hostEvent(seq: 2, id: Self.readyId.replacingOccurrences(of: "3f2a", with: "4f2a"), name: "host.ready", at: Self.t0 + 1,
                              data: ["timestamp": .number(Self.t0), "version": .string("1.0.0")]),
        ])
        #expect(state.log[0].lint == .contract)
        let reason = try #require(state.lintReasons[0])
        #expect(reason.hasPrefix("event.host-ready-data: host.ready has no data.version"), "\(reason)")
        #expect(reason.contains("Two-Way Communication"), "the page it comes from: \(reason)")
        #expect(state.log[1].lint == nil, "a host.ready with its data follows the contract")
        #expect(state.lintedRows == [0])
        let filter = try LogFilter.parse("is:lint")
        #expect(state.log.indices.filter { filter.matches(state.log[$0], pending: []) } == [0])
        #expect(state.contract.summary == "1 violation (event.host-ready-data: 1)")
    }

    @Test("an existing mark keeps its place on the row; the contract still counts the violation")
    func existingMarksWin() {
        // A BUSY answer is marked `busy`; its recoverable flag is also wrong.
        let state = Self.state([
            Fixture.request(seq: 1, id: "doc-2", action: "camera.document.capture", at: Self.t0),
            Fixture.response(seq: 2, id: "doc-2", action: "camera.document.capture", at: Self.t0 + 1, status: .error,
                             error: BridgeErrorPayload(code: "BUSY", message: "busy", recoverable: false)),
        ])
        #expect(state.log[1].lint == .busy)
        #expect(state.contract.entries["error.recoverable-matches-code"]?.count == 1)
        #expect(state.contract.entries["error.recoverable-matches-code"]?.firstIndex == 1)
    }

    @Test("a message an inspector made shows its mark, but is not counted")
    func inspectorMadeNotCounted() {
        let state = Self.state([
            Fixture.hostEvent(seq: 1, id: "evt-1", name: "host.ping", at: Self.t0, data: ["timestamp": .number(1)], origin: .inspector),
        ])
        #expect(state.log[0].lint == .contract)
        #expect(state.lintedRows.isEmpty)
        #expect(state.inspectorMadeLintRows == [0])
        #expect(state.contract.total == 0)
        #expect(state.contract.notCounted == 1)
        #expect(state.contract.summary == "no violations")
    }

    @Test("malformed input keeps its decode-failure mark and is not counted twice; its value breaks the envelope rule the reason names")
    func malformedEnvelope() throws {
        let raw = #"{"version":"1.0","correlationId":"r-1","type":"request","timestamp":"1732240000000","payload":{"action":"device.info"}}"#
        let state = Self.state([], malformed: [
            WireMalformed(seq: 1, time: Self.t0, raw: raw, bytes: raw.utf8.count, reason: "field 'timestamp' must be a number"),
        ])
        #expect(state.log[0].lint == .malformed)
        #expect(state.contract.total == 0, "malformed-input reports it")
        let value = try #require(JSONParser.parse(Data(raw.utf8)))
        #expect(GBGBridgeContract.check(envelope: value, direction: .journeyToHost).map(\.line)
            == [#"envelope.timestamp-number: timestamp is the string "1732240000000", not a number (Troubleshooting, "Message Decoding Failures")"#])
    }

    @Test("a near-miss action replaces a contract mark, as it replaces not-reported")
    func nearMissReplacesContract() {
        // A request of version 2.0 for a typo of a known action, left pending.
        let request = BridgeMessage(
            version: "2.0", correlationId: "r-1", type: .request, timestamp: Self.t0, payload: .init(action: "camera.document.Capture"))
        var state = LiveState()
        state.apply(.snapshot(seq: 1, state: DiagnosisFixture.state(
            messages: [Fixture.traffic(seq: 1, .received, request, at: Self.t0)], slots: [DiagnosisFixture.slot(.document)])), at: Self.t0)
        #expect(state.log[0].lint == .contract)
        state.apply(.event(seq: 2, event: .pendingAdded(WirePending(correlationId: "r-1", action: "camera.document.Capture", since: Self.t0, message: request))), at: Self.t0 + 1)
        #expect(state.log[0].lint == .unhandledNearMiss)
        #expect(state.lintedRows == [0])
        #expect(state.contract.entries["envelope.version-value"]?.count == 1)
    }
}
