import BridgeCore
import Foundation
import HostDiagnosis
import InspectorClient
import InspectorProtocol
import TestSupport
import Testing

/// Issue 27, trap 4: text an inspector injected that fails to decode, and a lastError an
/// inspector caused, are the inspector's: shown, marked, and kept out of the doctor's verdicts.
@Suite("Diagnosis: injected bad text and the lastError an inspector caused")
struct InspectorCausedErrorTests {
    static let t0 = DiagnosisFixture.t0
    static let decodeError = "Failed to decode message: invalid JSON at line 1, column 2"

    static func state(_ wire: WireState) -> LiveState {
        var state = LiveState()
        state.apply(.snapshot(seq: 100, state: wire), at: t0)
        return state
    }

    static func badText(seq: Int, origin: MessageOrigin?) -> WireMalformed {
        WireMalformed(seq: seq, time: t0, raw: "{not json", bytes: 9, reason: "invalid JSON at line 1, column 2", origin: origin, command: origin == nil ? nil : "c7")
    }

    @Test("inject --raw that fails to decode: the row is the inspector's; neither the decode check nor lastError fails")
    func injectedBadText() throws {
        let cause = WireError(seq: 2, time: Self.t0, text: Self.decodeError, cause: 1)
        let state = Self.state(DiagnosisFixture.state(malformed: [Self.badText(seq: 1, origin: .inspector)], lastError: cause))
        let row = try #require(state.log.first)
        #expect(row.origin == .inspector && row.command == "c7")
        #expect(row.lint == .malformed, "the mark is still shown")
        #expect(state.lintCount == 0)
        #expect(state.isInspectorMade(cause))
        let report = Doctor().examine(state, hostNow: Self.t0 + 1_000)
        let decode = try #require(report.check(.malformedInput))
        #expect(decode.status == .ok, "\(decode.summary)")
        #expect(decode.summary.contains("Not counted: 1 message made by an inspector"))
        let lastError = try #require(report.check(.lastError))
        #expect(lastError.status == .ok, "\(lastError.summary)")
        #expect(lastError.summary.contains("caused by an inspector (✎): not counted"), "\(lastError.summary)")
        #expect(lastError.evidence.first?.text.contains(Self.decodeError) == true, "still shown, with the error")

        // The same text from the journey is the app's problem, as before.
        let fromJourney = Self.state(DiagnosisFixture.state(malformed: [Self.badText(seq: 1, origin: nil)], lastError: cause))
        #expect(fromJourney.log.first?.origin == .journey)
        #expect(fromJourney.lintCount == 1)
        #expect(!fromJourney.isInspectorMade(cause))
        let journeyReport = Doctor().examine(fromJourney, hostNow: Self.t0 + 1_000)
        #expect(journeyReport.check(.malformedInput)?.status == .failure)
        #expect(journeyReport.check(.lastError)?.status == .failure)
    }

    @Test("a lastError caused by an inspector's injected response (unknown correlationId) is the inspector's; the journey's is not")
    func injectedResponse() throws {
        let message = TrafficFixture.message("nobody", .response, "device.info", at: Self.t0)
        let error = WireError(seq: 2, time: Self.t0, text: "Received a response for unknown correlationId 'nobody'", cause: 1)
        for (origin, counted) in [(MessageOrigin.inspector, false), (.journey, true)] {
            let traffic = TrafficFixture.traffic(seq: 1, .received, message, at: Self.t0, origin: origin)
            let state = Self.state(DiagnosisFixture.state(messages: [traffic], lastError: error))
            #expect(state.isInspectorMade(error) == !counted)
            #expect(Doctor().examine(state, hostNow: Self.t0 + 1_000).check(.lastError)?.status == (counted ? .failure : .ok))
        }
    }

    @Test("a lastError caused by the host's answer to a request an inspector injected (a BUSY, a failed delivery) is the inspector's")
    func answerToInjectedRequest() throws {
        let request = TrafficFixture.traffic(
            seq: 1, .received, TrafficFixture.message("inspector-1", .request, "camera.document.capture", at: Self.t0), at: Self.t0, origin: .inspector)
        let busy = TrafficFixture.response(
            seq: 2, id: "inspector-1", action: "camera.document.capture", at: Self.t0 + 1, status: .error, error: BridgeErrorCode.busy.payload())
        let error = WireError(seq: 3, time: Self.t0 + 1, text: "evaluateJavaScript failed: the page went away", cause: 2)
        let state = Self.state(DiagnosisFixture.state(messages: [request, busy], lastError: error))
        #expect(state.log[1].origin == .host, "the answer itself is the host's")
        #expect(state.isInspectorMade(error))
        #expect(Doctor().examine(state, hostNow: Self.t0 + 1_000).check(.lastError)?.status == .ok)
    }

    @Test("earlier errors an inspector caused are not counted in the history either; an unknown cause counts")
    func history() throws {
        let injected = Self.badText(seq: 1, origin: .inspector)
        var wire = DiagnosisFixture.state(malformed: [injected])
        let inspectors = WireError(seq: 2, time: Self.t0, text: Self.decodeError, cause: 1)
        let unknown = WireError(seq: 3, time: Self.t0 + 1, text: "WebView not attached", cause: nil)
        let cleared = WireError(seq: 4, time: Self.t0 + 2, text: nil, cause: nil)
        wire.errorHistory = [inspectors, unknown, cleared]
        let state = Self.state(wire)
        #expect(!state.isInspectorMade(unknown))
        let check = try #require(Doctor().examine(state, hostNow: Self.t0 + 1_000).check(.lastError))
        #expect(check.status == .ok)
        #expect(check.summary == "lastError is empty now (1 earlier error in its history). Not counted: 1 earlier error an inspector caused (✎).", "\(check.summary)")
    }
}
