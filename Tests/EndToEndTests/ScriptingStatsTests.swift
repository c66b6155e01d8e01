import Foundation
import TestSupport
import Testing

/// The demo profile answers device.info after 120 ms and fails location.get; nfc.read is never
/// answered; one action's name carries terminal control characters.
private let statsScenario = """
    {"name": "stats", "steps": [
      {"send": {"payload": {"action": "device.info"}, "correlationId": "dev-1", "label": "d1"}},
      {"awaitResponse": {"label": "d1"}},
      {"send": {"payload": {"action": "device.info"}, "correlationId": "dev-2", "label": "d2"}},
      {"awaitResponse": {"label": "d2"}},
      {"send": {"payload": {"action": "location.get"}, "correlationId": "loc-1", "label": "l1"}},
      {"awaitResponse": {"label": "l1"}},
      {"send": {"payload": {"action": "nfc.read"}, "correlationId": "nfc-1", "timeoutMs": 600000}},
      {"send": {"payload": {"action": "evil\\u001b]0;pwned\\u0007"}, "correlationId": "evil-1", "timeoutMs": 600000}},
      {"event": {"name": "journey.step", "data": {"step": "x"}}},
      {"wait": 600000}
    ]}
    """

/// `bridge-inspector stats` against a real host and a recording of it (issue 16, part 3:
/// "count, error rate and latency percentiles per action ... as `stats --json`").
@Suite("Scripting: stats", .serialized)
struct ScriptingStatsTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    static func row(_ root: [String: Any], _ action: String) -> [String: Any]? {
        (root["actions"] as? [[String: Any]])?.first { $0["action"] as? String == action }
    }

    @Test("stats --json and the table: device.info error rate 0, location.get 100%, nfc.read unanswered; a recording gives the same")
    func liveAndRecorded() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: statsScenario)
        defer { host.stop() }
        #expect(await waitUntil(timeout: .seconds(30)) { (try? host.state())?.messages.contains { $0.message.payload.action == "journey.step" } == true })

        let live = try await host.run(["stats", "--json"], binary: binary)
        #expect(live.status == 0, "\(live)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(live.stdout.utf8)) as? [String: Any], "\(live)")
        let device = try #require(Self.row(root, "device.info"))
        #expect(device["requests"] as? Int == 2)
        #expect(device["answered"] as? Int == 2)
        #expect(device["errorRate"] as? Double == 0)
        // The demo answers device.info after 120 ms: the inspector sees at least that.
        let latency = try #require(device["latencyMs"] as? [String: Double])
        #expect((latency["p50"] ?? 0) >= 120)
        #expect(latency["max"] ?? 0 >= latency["p95"] ?? .infinity)
        let location = try #require(Self.row(root, "location.get"))
        #expect(location["errorRate"] as? Double == 1)
        #expect((location["statuses"] as? [String: Int])?["error"] == 1)
        let nfc = try #require(Self.row(root, "nfc.read"))
        #expect(nfc["unanswered"] as? Int == 1)
        #expect(nfc["errorRate"] is NSNull)
        #expect(nfc["latencyMs"] is NSNull)
        #expect(Self.row(root, "journey.step")?["events"] as? Int == 1)
        #expect((root["total"] as? [String: Any])?["requests"] as? Int == 5)
        #expect(!live.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })

        let text = try await host.run(["stats"], binary: binary)
        #expect(text.status == 0, "\(text)")
        #expect(text.lines.first?.hasPrefix("5 requests for 4 actions: 3 answered, 2 unanswered; error rate 33.3%") == true, "\(text)")
        let header = try #require(text.lines.first { $0.hasPrefix("ACTION") })
        #expect(header.contains("ERROR RATE"))
        let locationLine = try #require(text.lines.first { $0.hasPrefix("location.get") })
        #expect(locationLine.contains("100%"))
        let deviceLine = try #require(text.lines.first { $0.hasPrefix("device.info") })
        #expect(deviceLine.contains(" 0% "))
        // The hostile action name is shown with its control characters as escapes.
        #expect(text.lines.contains { $0.hasPrefix("evil\\x1B]0;pwned\\x07") }, "\(text)")
        #expect(!text.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        // Columns line up: every row is as wide as the header up to its last column.
        let tableLines = text.lines.drop { !$0.hasPrefix("ACTION") }
        #expect(Set(tableLines.map(\.count)).count == 1, "\(tableLines)")

        let file = host.directory.file("session.jsonl")
        let recorded = try await host.run(["record", file, "--duration", "1"], binary: binary)
        #expect(recorded.status == 0, "\(recorded)")
        let fromFile = try await runCLI(["stats", "--json", file], binary: binary)
        #expect(fromFile.status == 0, "\(fromFile)")
        let recordedRoot = try #require(try JSONSerialization.jsonObject(with: Data(fromFile.stdout.utf8)) as? [String: Any], "\(fromFile)")
        #expect(Self.row(recordedRoot, "location.get")?["errorRate"] as? Double == 1)
        #expect(Self.row(recordedRoot, "device.info")?["answered"] as? Int == 2)

        let both = try await host.run(["stats", file], binary: binary)
        #expect(both.status == 64, "\(both)")
    }

    @Test("no host: exit 3 with the error on standard error")
    func noHost() async throws {
        let directory = try TemporaryDirectory()
        let result = try await runCLI(["stats", "--socket", directory.file("none.sock")], binary: binary)
        #expect(result.status == 3, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("Error: "))
    }
}
