import BridgeCore
import Foundation
import HostDiagnosis
import InspectorClient
import InspectorProtocol
import TestSupport
import Testing

/// The doctor's `contract` check: "Messages follow GBG's documented contract", listing the
/// violations by rule with counts and the first example.
@Suite("Doctor: GBG's documented contract")
struct DoctorContractTests {
    static let t0 = DiagnosisFixture.t0

    static func check(_ messages: [WireTraffic]) throws -> DoctorCheck {
        var state = LiveState()
        state.apply(.snapshot(seq: 100, state: DiagnosisFixture.state(messages: messages)), at: t0)
        return try #require(Doctor().examine(state, hostNow: t0 + 1000).check(.contract))
    }

    @Test("ok when every message follows the contract, naming its version")
    func ok() throws {
        let check = try Self.check([
            TrafficFixture.request(seq: 1, id: "dev-1", action: "device.info", at: Self.t0),
            TrafficFixture.response(seq: 2, id: "dev-1", action: "device.info", at: Self.t0 + 3),
        ])
        #expect(check.status == .ok)
        #expect(check.title == "Messages follow GBG's documented contract")
        #expect(check.summary.contains(GBGBridgeContract.version))
        #expect(check.evidence.isEmpty && check.fix.isEmpty)
    }

    @Test("fails for a documented rule: by rule, with the count, the first example and its page")
    func failsByRule() throws {
        let wrongBusy = BridgeErrorPayload(code: "BUSY", message: "busy", recoverable: false)
        let check = try Self.check([
            TrafficFixture.response(seq: 1, id: "a-1", action: "nfc.read", at: Self.t0, status: .error, error: wrongBusy),
            TrafficFixture.response(seq: 2, id: "a-2", action: "nfc.read", at: Self.t0 + 1, status: .error, error: wrongBusy),
            TrafficFixture.hostEvent(seq: 3, id: "evt-1", name: "host.background", at: Self.t0 + 2),
        ])
        #expect(check.status == .failure)
        #expect(check.summary.hasPrefix("3 violations (error.recoverable-matches-code: 2, event.host-id-form: 1)"), "\(check.summary)")
        #expect(check.evidence.count == 2)
        let first = try #require(check.evidence.first)
        #expect(first.text.hasPrefix("error.recoverable-matches-code ×2: recoverable is false for BUSY: the web SDK expects true (web SDK"), "\(first.text)")
        #expect(first.seq == 1 && first.correlationId == "a-1")
        #expect(check.evidence[1].text.contains(#"correlationId "evt-1" is not <environment>-event-<uuid>"#))
        #expect(check.fix.contains("docs/gbgbridge-contract.md"))
    }

    @Test("only warns when every rule broken is this project's choice")
    func warnsForChoices() throws {
        let check = try Self.check([TrafficFixture.response(seq: 1, id: "a-1", action: "nfc.read", at: Self.t0).withoutStatus()])
        #expect(check.status == .warning)
        #expect(check.summary.contains("response.status-present: 1"))
        #expect(check.summary.contains("all of them this project's choices"))
    }
}

extension WireTraffic {
    /// The same response with no `payload.status`.
    fileprivate func withoutStatus() -> WireTraffic {
        var copy = self
        copy.message.payload.status = nil
        return copy
    }
}
