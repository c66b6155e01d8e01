import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import JourneySimulation
import TestSupport
import Testing
import ThreadSupport

/// GBG's documented contract where a person meets it from the command line: `contract`, the
/// `contract` line of `open --check`, and the demo host, which follows the contract it ships.
@Suite("GBGBridge contract: CLI and the demo host")
struct ContractTests {
    /// The demo's journey without its pacing: every kind of request the demo makes, the BUSY
    /// answer, a failing custom capability and `journey.cancel`.
    static let scenario = """
        {"name": "contract", "steps": [
          {"send": {"payload": {"action": "capability.query"}, "label": "capabilities"}},
          {"awaitResponse": {"label": "capabilities"}},
          {"send": {"payload": {"action": "camera.document.capture", "data": {"side": "front"}}, "label": "front", "timeoutMs": 120000}},
          {"send": {"payload": {"action": "camera.document.capture", "data": {"side": "back"}}, "label": "back"}},
          {"awaitResponse": {"label": "back", "timeoutMs": 20000}},
          {"send": {"payload": {"action": "camera.selfie.capture"}}},
          {"send": {"payload": {"action": "nfc.read", "data": {"documentType": "passport"}}}},
          {"send": {"payload": {"action": "device.info"}, "label": "device"}},
          {"awaitResponse": {"label": "device", "timeoutMs": 20000}},
          {"send": {"payload": {"action": "location.get"}, "label": "location"}},
          {"awaitResponse": {"label": "location", "timeoutMs": 20000}},
          {"event": {"name": "analytics.track", "data": {"event": "heartbeat"}}},
          {"event": {"name": "journey.cancel", "data": {"reason": "The demo journey starts again"}}}
        ]}
        """

    @MainActor
    @Test("the demo host's own traffic, both ways, breaks no rule of the contract")
    func demoHostFollowsTheContract() async throws {
        let host = BuiltInDemo.profile.makeHost()
        let records = Locked<[TrafficRecord]>([])
        let token = host.addObserver { change in
            if case .traffic(let record) = change { records.withLock { $0.append(record) } }
        }
        defer { host.removeObserver(token) }
        let journey = SimulatedJourney(host: host)
        host.sendReadyEvent()
        await journey.run(try JourneyScenario.parse(json: Self.scenario, file: "contract.json"))
        // The camera UI finishes the held capture, as the inspector's slot dialog would.
        let size = SyntheticImage.defaultSize(for: .document)
        let png = SyntheticImage.capturePNG(.document, width: size.width, height: size.height)
        #expect(host.documentCapture.complete(.document(DocumentCaptureResult(imageData: png, width: size.width, height: size.height, mimeType: "image/png"))))
        let seen = records.withLock { $0 }
        let actions = Set(seen.map { "\($0.direction.rawValue) \($0.message.type.rawValue) \($0.message.payload.action)" })
        for expected in ["sent event host.ready", "sent response capability.query", "sent response camera.document.capture", "sent response location.get",
                         "received event journey.cancel"] {
            #expect(actions.contains(expected), "\(expected) in \(actions.sorted())")
        }
        #expect(seen.contains { $0.message.payload.error?.code == "BUSY" })
        for record in seen {
            let violations = GBGBridgeContract.check(record.message, direction: record.direction == .received ? .journeyToHost : .hostToJourney)
            #expect(violations.isEmpty, "\(record.direction) \(record.message.payload.action): \(violations.map(\.line))")
        }
        _ = journey
    }

    @Test("open --check names the rules a recording breaks, with counts; contract lists every rule, as text and JSON")
    func openCheckAndContractCommand() async throws {
        let binary = try requireBridgeInspectorBinary()
        let directory = try TemporaryDirectory()
        let t0 = DiagnosisFixture.t0
        var state = LiveState()
        state.apply(.snapshot(seq: 3, state: DiagnosisFixture.state(messages: [
            TrafficFixture.request(seq: 1, id: "doc-1", action: "camera.document.capture", at: t0),
            TrafficFixture.response(seq: 2, id: "doc-1", action: "camera.document.capture", at: t0 + 5, status: .success, data: ["mimeType": .string("image/png")]),
            TrafficFixture.hostEvent(seq: 3, id: "evt-\u{1b}[31m", name: "host.foreground", at: t0 + 6),
        ])), at: t0 + 10)
        let file = directory.file("violations.jsonl")
        try Data(state.recording(header: Recording.Header(socket: "/tmp/none.sock", startedAt: t0))).write(to: URL(fileURLWithPath: file))
        let check = try await runCLI(["open", "--check", file], binary: binary)
        #expect(check.status == 0, "\(check)")
        #expect(check.stdout.contains("contract   2 violations (event.host-id-form: 1, capture.result-shape: 1)"), "in the contract's order: \(check)")
        #expect(!check.stdout.contains("\u{1b}"), "nothing the host sent reaches the terminal raw")

        let text = try await runCLI(["contract"], binary: binary)
        #expect(text.status == 0, "\(text)")
        #expect(text.stdout.hasPrefix("GBGBridge contract \(GBGBridgeContract.version)"))
        #expect(text.stdout.contains("error.recoverable-matches-code  [documented]  host-to-journey"))
        let json = try await runCLI(["contract", "--json"], binary: binary)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((object["rules"] as? [[String: Any]])?.count == GBGBridgeContract.rules.count)
    }
}
