import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// An inspector attached over the socket steers the real `bridge-inspector host`, and the
/// simulated journey receives what the inspector made the host send.
@Suite("Inspector attached to bridge-inspector host", .serialized)
struct InspectorAttachTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    @Test("completing the held capture and answering a pending request from the inspector reaches the journey")
    func steerFromInspector() async throws {
        let directory = try TemporaryDirectory()
        let scenario = directory.file("held.json")
        // The journey's timeouts are far longer than the test: on a loaded machine a 60 s one
        // passed before the inspector acted, the journey ended and the host with it.
        try """
            {"name": "held", "steps": [
              {"send": {"payload": {"action": "camera.document.capture"}, "label": "doc", "timeoutMs": 600000}},
              {"send": {"payload": {"action": "nfc.read"}, "label": "nfc", "timeoutMs": 600000}},
              {"awaitResponse": {"label": "doc"}},
              {"awaitResponse": {"label": "nfc"}}
            ]}
            """.write(toFile: scenario, atomically: true, encoding: .utf8)
        let socket = directory.file("h.sock")
        let logPath = directory.file("journey.jsonl")
        // The demo profile: a manual document slot and a declared, unhandled nfc.read.
        let host = try BinaryProcess([
            "host", "--profile", examplePath("profiles/demo.json"), "--scenario", scenario,
            "--socket", socket, "--journey-log", logPath, "--exit-when-done",
        ], binary: binary)
        defer { host.kill() }
        #expect(await host.waitForLine(prefix: "socket: ") == socket)

        // Both requests have been sent (the journey log is written as things happen).
        func sentId(_ label: String) -> String? {
            (try? jsonLines(logPath))?.first { $0["kind"] as? String == "sent" && $0["label"] as? String == label }?["correlationId"] as? String
        }
        #expect(await waitUntil(timeout: .seconds(20)) { sentId("nfc") != nil })
        let nfcId = try #require(sentId("nfc"))

        let session = try InspectorSession(socketPath: socket, subscribe: false, clientName: "end-to-end-tests")
        defer { session.close() }
        #expect(session.hello.host.name == "demo")
        let ping = try session.run(.sendEvent(.init(name: "host.ping", data: ["from": "inspector"])))
        #expect((try? ping.result.get()) != nil)
        let complete = try session.run(.completeSlot(.init(slot: .document, result: .success(imageBase64: nil, width: 4, height: 3, mimeType: nil))))
        #expect((try? complete.result.get()) != nil)
        let respond = try session.run(.respond(.init(correlationId: nfcId, status: .success, data: ["uid": "04A2"])))
        #expect((try? respond.result.get()) != nil)
        #expect(respond.sent.first?.correlationId == nfcId)

        #expect(await host.waitForExit() == 0, "stderr: \(host.standardError)")
        let log = try jsonLines(logPath)
        func received(_ label: String) -> [String: Any]? {
            log.first { $0["kind"] as? String == "received" && $0["label"] as? String == label }?["message"] as? [String: Any]
        }
        let doc = try #require(received("doc")?["payload"] as? [String: Any])
        #expect(doc["status"] as? String == "success")
        #expect((doc["data"] as? [String: Any])?["imageWidth"] as? Int == 4)
        let nfc = try #require(received("nfc")?["payload"] as? [String: Any])
        #expect(nfc["status"] as? String == "success")
        #expect((nfc["data"] as? [String: Any])?["uid"] as? String == "04A2")
        let pingEvent = log.first { ($0["message"] as? [String: Any])?["payload"].flatMap { ($0 as? [String: Any])?["action"] as? String } == "host.ping" }
        #expect(pingEvent?["kind"] as? String == "received")
        #expect(log.filter { $0["kind"] as? String == "timeout" }.isEmpty)
    }
}
