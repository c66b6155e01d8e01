import Foundation
import TestSupport
import Testing

/// With the demo profile: the document slot is held by its manual camera UI, so a second
/// capture is refused with BUSY (and a third, the journey's retry, too); location.get fails with
/// PERMISSION_DENIED; nfc.read waits until the test answers it `cancelled` by hand, and the
/// journey then sends journey.cancel. The journey waits 600 s for its requests (`timeoutMs`),
/// so `stats` is told so (`--journey-timeout 600`): on a busy machine the hand-typed answer can
/// come more than the web SDK's 30 s after the request. One request's action carries terminal control characters.
private let coverageScenario = """
    {"name": "coverage", "steps": [
      {"send": {"payload": {"action": "capability.query"}, "correlationId": "cap-1", "label": "cap"}},
      {"awaitResponse": {"label": "cap"}},
      {"send": {"payload": {"action": "camera.document.capture", "data": {"side": "front"}}, "correlationId": "doc-1", "timeoutMs": 600000}},
      {"wait": 200},
      {"send": {"payload": {"action": "camera.document.capture", "data": {"side": "back"}}, "correlationId": "doc-2", "label": "d2"}},
      {"awaitResponse": {"label": "d2"}},
      {"wait": 400},
      {"send": {"payload": {"action": "camera.document.capture", "data": {"side": "back"}}, "correlationId": "doc-3", "label": "d3"}},
      {"awaitResponse": {"label": "d3"}},
      {"send": {"payload": {"action": "location.get"}, "correlationId": "loc-1", "label": "loc"}},
      {"awaitResponse": {"label": "loc"}},
      {"send": {"payload": {"action": "evil\\u001b]0;pwned\\u0007"}, "correlationId": "evil-1", "timeoutMs": 600000}},
      {"send": {"payload": {"action": "nfc.read"}, "correlationId": "nfc-1", "label": "nfc", "timeoutMs": 600000}},
      {"awaitResponse": {"label": "nfc", "timeoutMs": 600000}},
      {"event": {"name": "journey.cancel", "data": {"reason": "the user cancelled"}}},
      {"wait": 600000}
    ]}
    """

/// `bridge-inspector stats --coverage` against a real host and a recording of it (issue 29,
/// item 4: "which documented actions, statuses, error codes and host events the journey has
/// met and how it answered ... and which it never met; in the TUI, `stats`, and JSON").
@Suite("Scripting: stats --coverage", .serialized)
struct ScriptingCoverageTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    static func paths(_ root: [String: Any]) -> [String: [String: Any]] {
        var byId: [String: [String: Any]] = [:]
        for path in root["unhappyPaths"] as? [[String: Any]] ?? [] {
            if let id = path["correlationId"] as? String { byId[id] = path }
        }
        return byId
    }

    @Test("live and recorded: BUSY retried, PERMISSION_DENIED met, a hand-typed CANCELLED (✎) answered with journey.cancel, the never-met lists; the table is safe")
    func liveAndRecorded() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: coverageScenario)
        defer { host.stop() }
        #expect(await waitUntil(timeout: .seconds(30)) { (try? host.state())?.pending.contains { $0.correlationId == "nfc-1" } == true })
        let answered = try await host.run(["respond", "nfc-1", "--status", "cancelled"], binary: binary)
        #expect(answered.status == 0, "\(answered)")
        #expect(await waitUntil(timeout: .seconds(30)) { (try? host.state())?.messages.contains { $0.message.payload.action == "journey.cancel" } == true })

        let live = try await host.run(["stats", "--coverage", "--json", "--journey-timeout", "600"], binary: binary)
        #expect(live.status == 0, "\(live)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(live.stdout.utf8)) as? [String: Any], "\(live)")
        #expect(root["version"] as? Int == 1)
        let paths = Self.paths(root)
        // doc-2's BUSY: the journey sent doc-3 about 400 ms later, a retry.
        let busy = try #require(paths["doc-2"], "\(root)")
        #expect(busy["errorCode"] as? String == "BUSY")
        #expect(busy["reaction"] as? String == "retried")
        let retryAfter = try #require(busy["retryAfterMs"] as? Double)
        #expect(retryAfter >= 350 && retryAfter < 30_000, "\(retryAfter)")
        #expect(paths["loc-1"]?["errorCode"] as? String == "PERMISSION_DENIED")
        let cancelled = try #require(paths["nfc-1"], "\(root)")
        #expect(cancelled["met"] as? String == "cancelled")
        #expect(cancelled["inspectorMade"] as? Bool == true)
        #expect(cancelled["journeyCancelAfterMs"] is Double, "\(cancelled)")
        let never = try #require(root["neverMet"] as? [String: Any])
        #expect(never["statuses"] as? [String] == ["unsupported"])
        #expect((never["errorCodes"] as? [String])?.contains("BUSY") == false)
        #expect((never["errorCodes"] as? [String])?.contains("INTERNAL_ERROR") == true)
        #expect((never["actions"] as? [String])?.contains("camera.selfie.capture") == true)
        #expect((never["journeyEvents"] as? [String]) == [])
        #expect(!live.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })

        let text = try await host.run(["stats", "--coverage", "--journey-timeout", "600"], binary: binary)
        #expect(text.status == 0, "\(text)")
        #expect(text.lines.contains { $0.contains("doc-2") && $0.contains("BUSY") && $0.contains("retried after") }, "\(text)")
        #expect(text.lines.contains { $0.contains("nfc-1") && $0.contains("cancelled ✎") && $0.contains("sent journey.cancel after") }, "\(text)")
        #expect(text.lines.contains { $0.hasPrefix("evil\\x1B]0;pwned\\x07") }, "\(text)")
        #expect(text.lines.contains("statuses: unsupported"), "\(text)")
        #expect(!text.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })

        let file = host.directory.file("session.jsonl")
        let recorded = try await host.run(["record", file, "--duration", "1"], binary: binary)
        #expect(recorded.status == 0, "\(recorded)")
        let fromFile = try await runCLI(["stats", "--coverage", "--json", "--journey-timeout", "600", file], binary: binary)
        #expect(fromFile.status == 0, "\(fromFile)")
        let recordedRoot = try #require(try JSONSerialization.jsonObject(with: Data(fromFile.stdout.utf8)) as? [String: Any], "\(fromFile)")
        let recordedPaths = Self.paths(recordedRoot)
        #expect(recordedPaths["doc-2"]?["reaction"] as? String == "retried")
        #expect(recordedPaths["doc-2"]?["retryAfterMs"] as? Double == retryAfter)
        #expect(recordedPaths["nfc-1"]?["journeyCancelAfterMs"] as? Double == cancelled["journeyCancelAfterMs"] as? Double)
    }
}
