import Foundation
import TestSupport
import InspectorClient
import InspectorProtocol
import Testing

/// A journey with an answered request, one never answered, malformed input and an event.
private let exportScenario = """
    {"name": "export", "steps": [
      {"send": {"payload": {"action": "nfc.read"}, "correlationId": "nfc-1", "timeoutMs": 600000}},
      {"sendRaw": "{oops \\u001b[2J"},
      {"send": {"payload": {"action": "device.info"}, "correlationId": "dev-1", "label": "dev"}},
      {"awaitResponse": {"label": "dev"}},
      {"event": {"name": "journey.step", "data": {"step": "</script>\\u2028"}}},
      {"wait": 600000}
    ]}
    """

/// `bridge-inspector export --har` on a recording made by `record` from a real host, and on the
/// live host (issue 15: "Export the session in a format other tools read").
@Suite("Scripting: export --har", .serialized)
struct ScriptingExportTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    static func entries(_ text: String) throws -> [[String: Any]] {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not JSON: \(text.prefix(300))")
        let log = try #require(root["log"] as? [String: Any])
        #expect(log["version"] as? String == "1.2")
        return try #require(log["entries"] as? [[String: Any]])
    }

    static func entry(_ entries: [[String: Any]], id: String) -> [String: Any]? {
        entries.first { ($0["_bridge"] as? [String: Any])?["correlationId"] as? String == id }
    }

    @Test("a recording and the live host export the same HAR entries: the answered request threaded with its response, the pending one, the event and the malformed input")
    func exportRecordingAndLive() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: exportScenario)
        defer { host.stop() }
        #expect(await waitUntil(timeout: .seconds(30)) { (try? host.state())?.messages.contains { $0.message.payload.action == "journey.step" } == true })
        let file = host.directory.file("session.jsonl")
        let recorded = try await host.run(["record", file, "--duration", "1"], binary: binary)
        #expect(recorded.status == 0, "\(recorded)")

        let fromFile = try await runCLI(["export", "--har", file], binary: binary)
        #expect(fromFile.status == 0, "\(fromFile)")
        let live = try await host.run(["export", "--har"], binary: binary)
        #expect(live.status == 0, "\(live)")
        for result in [fromFile, live] {
            let entries = try Self.entries(result.stdout)
            let answered = try #require(Self.entry(entries, id: "dev-1"), "\(result.stdout)")
            let request = try #require(answered["request"] as? [String: Any])
            let response = try #require(answered["response"] as? [String: Any])
            #expect(request["url"] as? String == "gbgbridge://host/device.info")
            #expect(response["status"] as? Int == 200)
            #expect(((response["content"] as? [String: Any])?["text"] as? String)?.contains("\"correlationId\":\"dev-1\"") == true)
            let time = try #require(answered["time"] as? Double)
            #expect(time >= 0)
            #expect((answered["timings"] as? [String: Any])?["wait"] as? Double == time)
            let pending = try #require(Self.entry(entries, id: "nfc-1"))
            #expect((pending["response"] as? [String: Any])?["status"] as? Int == 0)
            let event = try #require(entries.first { ($0["request"] as? [String: Any])?["url"] as? String == "gbgbridge://host/journey.step" })
            #expect((event["response"] as? [String: Any])?["status"] as? Int == 204)
            let eventBody = try #require(((event["request"] as? [String: Any])?["postData"] as? [String: Any])?["text"] as? String)
            #expect(eventBody.contains("</script>\u{2028}"))
            #expect(entries.contains { ($0["_bridge"] as? [String: Any])?["type"] as? String == "malformed" })
            // Nothing that could act on a terminal reaches standard output.
            #expect(!result.stdout.unicodeScalars.contains { $0.value == 0x1B })
        }

        let recordedCount = try Self.entries(fromFile.stdout).count
        let out = host.directory.file("session.har")
        let toFile = try await runCLI(["export", "--har", file, "-o", out], binary: binary)
        #expect(toFile.status == 0, "\(toFile)")
        #expect(toFile.stdout.isEmpty)
        #expect(toFile.stderr.contains("wrote \(recordedCount) entries to \(out)"), "\(toFile)")
        #expect(try Self.entries(String(contentsOfFile: out, encoding: .utf8)).count == recordedCount)

        // A file cut off: what was readable is exported, exit 5, the line named.
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let cut = host.directory.file("cut.jsonl")
        try Data(Array(text.utf8).dropLast(10)).write(to: URL(fileURLWithPath: cut))
        let partial = try await runCLI(["export", "--har", cut], binary: binary)
        #expect(partial.status == 5, "\(partial)")
        #expect(partial.stderr.contains("the last line is cut off"), "\(partial)")
        #expect(try Self.entries(partial.stdout).count <= recordedCount)

        let missing = try await runCLI(["export", "--har", host.directory.file("missing.jsonl")], binary: binary)
        #expect(missing.status == 5, "\(missing)")
        let both = try await runCLI(["export", "--har", file, "--socket", host.socket], binary: binary)
        #expect(both.status == 64, "\(both)")
        #expect(both.stderr.contains("not both"))
    }
}
