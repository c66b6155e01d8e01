import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import TestSupport
import Testing

/// Issue 16, "A protocol linter in the log: rows that break a rule above are marked inline with
/// a short reason, counted in the status line, and filterable (`is:lint`)". Each rule is an item
/// of GBGBridge's Troubleshooting page.
@Suite("Protocol linter")
struct ProtocolLinterTests {
    static let t0 = DiagnosisFixture.t0

    /// Troubleshooting, "Handler Not Called for Requests": "Check for typos and case sensitivity."
    @Test func suggestsTheKnownActionForACaseOrTypoDifference() {
        let known = ["camera.document.capture", "camera.selfie.capture", "device.info", "capability.query"]
        #expect(ActionSuggestion.closest(to: "camera.document.Capture", among: known) == "camera.document.capture")
        #expect(ActionSuggestion.closest(to: "camera.documnet.capture", among: known) == "camera.document.capture")  // swapped letters
        #expect(ActionSuggestion.closest(to: "camera.document.captur", among: known) == "camera.document.capture")
        #expect(ActionSuggestion.closest(to: "device.inf", among: known) == "device.info")
        #expect(ActionSuggestion.closest(to: "DEVICE.INFO", among: known) == "device.info")
        // Too far, or exactly known: no suggestion.
        #expect(ActionSuggestion.closest(to: "nfc.read", among: known) == nil)
        #expect(ActionSuggestion.closest(to: "device.xyzw", among: known) == nil)
        #expect(ActionSuggestion.closest(to: "", among: known) == nil)
        #expect(ActionSuggestion.closest(to: "device.info", among: ["device.info"]) == nil)
        // Short actions allow one edit only; ties go to the alphabetically first.
        #expect(ActionSuggestion.closest(to: "a.bc", among: ["a.bd", "a.be"]) == "a.bd")
        #expect(ActionSuggestion.closest(to: "a.bc", among: ["a.xy"]) == nil)
        #expect(ActionSuggestion.closest(to: String(repeating: "x", count: 10_000), among: known) == nil)
    }

    @Test func marksEachRuleOnTheRowThatBreaksIt() throws {
        let t0 = Self.t0
        let query = Fixture.message("q-1", .response, "capability.query", at: t0 + 2, data: [
            "capabilities": .object([
                "camera.document": .object(["supported": .bool(true), "version": "1.0"]),
                "camera.selfie": .object(["supported": .bool(false), "version": "1.0"]),
                "device.info": .object(["supported": .bool(true), "version": "1.0"]),
            ]),
            "environment": "ios", "hostVersion": "1.0.0",
        ], status: .success)
        let big = Fixture.request(seq: 12, id: "big-1", action: "device.info", at: t0 + 40, data: ["imageBase64": .string(String(repeating: "A", count: ProtocolLinter.largePayloadBytes + 1))])
        let messages: [WireTraffic] = [
            Fixture.request(seq: 1, id: "q-1", action: "capability.query", at: t0),
            Fixture.traffic(seq: 2, .sent, query, at: t0 + 2),
            Fixture.request(seq: 3, id: "doc-1", action: "camera.document.capture", at: t0 + 10),
            Fixture.request(seq: 4, id: "doc-2", action: "camera.document.capture", at: t0 + 11),
            Fixture.response(seq: 5, id: "doc-2", action: "camera.document.capture", at: t0 + 12, status: .error, error: BridgeErrorCode.busy.payload()),
            Fixture.request(seq: 6, id: "self-1", action: "camera.selfie.capture", at: t0 + 20),
            Fixture.request(seq: 7, id: "nfc-1", action: "nfc.read", at: t0 + 21),
            Fixture.traffic(seq: 8, .received, Fixture.message("who-1", .response, "device.info", at: t0 + 22, status: .success), at: t0 + 22),
            Fixture.request(seq: 9, id: "nfc-1", action: "nfc.read", at: t0 + 23),
            Fixture.hostEvent(seq: 10, id: "ev-1", name: "host.ping", at: t0 + 30).delivered(error: "WebView not attached: event 'host.ping' (ev-1) was not delivered"),
            Fixture.request(seq: 11, id: "dev-1", action: "device.info", at: t0 + 31),
            big,
        ]
        let malformed = [WireMalformed(seq: 13, time: t0 + 50, raw: "{\"type\":\"request\"}", bytes: 18, reason: "missing required field 'correlationId'")]
        let slots = [DiagnosisFixture.slot(.document, active: "doc-1", since: t0 + 10), DiagnosisFixture.slot(.selfie, handler: false, permission: .notDetermined)]
        var state = LiveState()
        state.apply(.snapshot(seq: 13, state: DiagnosisFixture.state(messages: messages, malformed: malformed, slots: slots)), at: t0 + 60)

        func mark(_ seq: Int) -> (LintRule?, String?) {
            guard let index = state.logIndex(ofSeq: seq) else { return (nil, nil) }
            return (state.log[index].lint, state.lintReasons[index])
        }
        #expect(mark(1).0 == nil)
        #expect(mark(3).0 == nil)  // the document slot has a handler and permission
        #expect(mark(5).0 == .busy)
        #expect(mark(5).1?.contains("doc-1") == true)  // names the request holding the slot
        #expect(mark(6).0 == .slotNoHandler)
        #expect(mark(7).0 == .notReported)  // nfc.read was not in the query's answer
        #expect(mark(8).0 == .unknownResponse)
        #expect(mark(9).0 == .duplicateId)  // nfc-1 still waits for its answer
        #expect(mark(10).0 == .notDelivered)
        #expect(mark(10).1 == "sent while no journey was attached: lost")
        #expect(mark(11).0 == nil)
        #expect(mark(12).0 == .largePayload)
        #expect(mark(13).0 == .malformed)
        #expect(mark(13).1 == "missing required field 'correlationId'")
        #expect(state.lintCount == 8)
        #expect(state.lintedRows == state.lintedRows.sorted())

        // `is:lint` finds exactly the marked rows.
        let filter = try LogFilter.parse("is:lint")
        let matched = state.log.filter { filter.matches($0, pending: []) }.map(\.seq)
        #expect(matched == [5, 6, 7, 8, 9, 10, 12, 13])
        #expect(matched.count == state.lintCount)
    }

    /// A request nobody handles is marked when it turns out to be pending, and only when its
    /// action is a near miss of one the host knows.
    @Test func marksAPendingRequestWhoseActionIsANearMiss() {
        let t0 = Self.t0
        var state = LiveState()
        state.apply(.snapshot(seq: 0, state: DiagnosisFixture.state(
            slots: [DiagnosisFixture.slot(.document)], capabilities: [WireCapability(id: "nfc.read", version: "1.0", hasHandler: false, shadowedBySlot: false)])), at: t0)
        state.apply(.event(seq: 1, event: .traffic(Fixture.request(seq: 1, id: "a-1", action: "camera.document.Capture", at: t0 + 1))), at: t0 + 1)
        state.apply(.event(seq: 2, event: .traffic(Fixture.request(seq: 2, id: "a-2", action: "nfc.read", at: t0 + 2))), at: t0 + 2)
        state.apply(.event(seq: 3, event: .traffic(Fixture.request(seq: 3, id: "a-3", action: "totally.else", at: t0 + 3))), at: t0 + 3)
        #expect(state.lintCount == 0)
        state.apply(.event(seq: 4, event: .pendingAdded(DiagnosisFixture.pending("a-1", "camera.document.Capture", since: t0 + 1))), at: t0 + 4)
        state.apply(.event(seq: 5, event: .pendingAdded(DiagnosisFixture.pending("a-2", "nfc.read", since: t0 + 2))), at: t0 + 5)
        state.apply(.event(seq: 6, event: .pendingAdded(DiagnosisFixture.pending("a-3", "totally.else", since: t0 + 3))), at: t0 + 6)
        #expect(state.lintCount == 1)
        let index = state.logIndex(ofSeq: 1) ?? -1
        #expect(state.log[index].lint == .unhandledNearMiss)
        #expect(state.lintReasons[index] == "nobody handles camera.document.Capture: did you mean camera.document.capture?")
    }

    /// After a `capability.query`, a typo of a reported action is also "not reported": the near
    /// miss says why ("did you mean ...?"), so it replaces that mark, and the row counts once.
    @Test func aNearMissReplacesNotReported() {
        let t0 = Self.t0
        var state = LiveState()
        state.apply(.snapshot(seq: 0, state: DiagnosisFixture.state(slots: [DiagnosisFixture.slot(.document)])), at: t0)
        let answer = Fixture.message("q-1", .response, "capability.query", at: t0 + 2, data: [
            "capabilities": .object(["camera.document": .object(["supported": .bool(true), "version": "1.0"])]),
            "environment": "ios", "hostVersion": "1.0.0",
        ], status: .success)
        state.apply(.event(seq: 1, event: .traffic(Fixture.request(seq: 1, id: "q-1", action: "capability.query", at: t0 + 1))), at: t0 + 1)
        state.apply(.event(seq: 2, event: .traffic(Fixture.traffic(seq: 2, .sent, answer, at: t0 + 2))), at: t0 + 2)
        state.apply(.event(seq: 3, event: .traffic(Fixture.request(seq: 3, id: "typo-1", action: "camera.document.Capture", at: t0 + 3))), at: t0 + 3)
        let index = state.logIndex(ofSeq: 3) ?? -1
        #expect(state.log[index].lint == .notReported)
        state.apply(.event(seq: 4, event: .pendingAdded(DiagnosisFixture.pending("typo-1", "camera.document.Capture", since: t0 + 3))), at: t0 + 4)
        #expect(state.log[index].lint == .unhandledNearMiss)
        #expect(state.lintReasons[index] == "nobody handles camera.document.Capture: did you mean camera.document.capture?")
        #expect(state.lintedRows == [index])
    }

    /// The host's `receivedMessages` size follows received messages up to its cap, and a clear.
    @Test func followsTheSizeOfReceivedMessagesUpToItsCap() {
        let t0 = Self.t0
        var state = LiveState()
        state.apply(.snapshot(seq: 0, state: DiagnosisFixture.state(receivedMessagesCap: 2)), at: t0)
        #expect(state.counts.receivedMessages == 0)
        for seq in 1...3 {
            state.apply(.event(seq: seq, event: .traffic(Fixture.request(seq: seq, id: "r-\(seq)", action: "device.info", at: t0))), at: t0)
        }
        #expect(state.counts.receivedMessages == 2)
        state.apply(.event(seq: 4, event: .logCleared), at: t0)
        #expect(state.counts.receivedMessages == 0)
    }
}

extension WireTraffic {
    /// This record, not delivered for `error`.
    func delivered(error: String) -> WireTraffic {
        var copy = self
        copy.deliveryError = error
        return copy
    }
}
