import Foundation
import TestSupport
import Testing

/// `fault-scenario` against a real `bridge-inspector host` whose simulated journey waits for the
/// inspector (issue 29, item 3): the run exits 6 when the journey mishandles a fault and 0 when it
/// handles it, with the report saying why; the JSON verdict; the examples against the demo host;
/// a bad file refused before anything reaches the host; hostile text made safe. Every wait is
/// bounded; no duration is asserted.
@Suite("Scripting: fault-scenario", .serialized)
struct ScriptingFaultScenarioTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    /// A journey that asks for device.info once and moves on, whatever the answer.
    static let givesUp = #"""
        {"name": "gives-up", "loop": false, "steps": [
          {"send": {"payload": {"action": "device.info"}, "label": "info"}},
          {"awaitResponse": {"label": "info", "timeoutMs": 10000}},
          {"wait": 300},
          {"event": {"name": "journey.complete", "data": {}}}
        ]}
        """#

    /// A journey that asks for device.info again after the first answer.
    static let retries = #"""
        {"name": "retries", "loop": false, "steps": [
          {"send": {"payload": {"action": "device.info"}, "label": "info"}},
          {"awaitResponse": {"label": "info", "timeoutMs": 10000}},
          {"wait": 300},
          {"send": {"payload": {"action": "device.info"}, "label": "again"}},
          {"awaitResponse": {"label": "again", "timeoutMs": 10000}},
          {"event": {"name": "journey.complete", "data": {}}}
        ]}
        """#

    /// BUSY once on device.info; the journey must ask again within 5 s; the app goes to the
    /// background just after the request.
    static func scenario(name: String = "device-info-busy") -> String {
        #"""
        {"version": 1, "name": "\#(name)",
         "faults": [{"filter": "action:device.info", "firing": {"kind": "sequence", "steps": [{"kind": "error", "code": "BUSY"}, {"kind": "pass"}]}}],
         "steps": [{"when": "action:device.info", "after": "50ms", "do": "background"}],
         "until": "action:journey.complete", "duration": "60s", "settle": "500ms",
         "expect": [{"after": "BUSY", "action": "device.info", "journey": "retries", "within": "5s"}]}
        """#
    }

    /// Writes `text` to a scenario file in `directory`.
    func file(_ text: String, in directory: TemporaryDirectory, name: String = "busy.json") throws -> String {
        let path = directory.file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("a journey that gives up after BUSY: exit 6, and the report names the expectation and what the journey did")
    func mishandledExitsNonZero() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: Self.givesUp, extra: ["--wait-for-inspector"])
        defer { host.stop() }
        let directory = try TemporaryDirectory()
        let result = try await host.run(["fault-scenario", try file(Self.scenario(), in: directory)], binary: binary)
        #expect(result.status == 6, "\(result)")
        #expect(result.lines.contains("✓ faults: every rule fired (f1 1×)"), "\(result)")
        #expect(result.lines.contains("✓ steps: 1 of 1 step done"), "\(result)")
        #expect(result.lines.contains { $0.hasPrefix("✓ until: the journey reached action:journey.complete (#") }, "\(result)")
        #expect(result.lines.contains("✗ expect[0]: after BUSY on device.info the journey retries within 5.0s: met 1 time, 1 not as expected"), "\(result)")
        #expect(result.lines.contains { $0.hasPrefix("    · device.info ") && $0.contains(": no retry in the ") }, "\(result)")
        #expect(result.lines.last?.hasPrefix("fault scenario device-info-busy FAILED: 1 of ") == true, "\(result)")
        #expect(result.stderr.contains("FAULT f1  IN   request device.info"), "\(result)")
        #expect(result.stderr.contains("step 0 host.background (50ms after action:device.info): sent host.background"), "\(result)")
        #expect(result.stderr.contains("Error: fault scenario device-info-busy failed"), "\(result)")
        // The rules went with the run.
        let faults = try await host.run(["faults", "--json"], binary: binary)
        #expect(faults.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "\(faults)")
    }

    @Test("--quiet: only the failed checks on standard output, no progress on standard error, the same exit status")
    func quietPrintsOnlyFailures() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: Self.givesUp, extra: ["--wait-for-inspector"])
        defer { host.stop() }
        let directory = try TemporaryDirectory()
        let result = try await host.run(["fault-scenario", try file(Self.scenario(), in: directory), "--quiet"], binary: binary)
        #expect(result.status == 6, "\(result)")
        #expect(result.lines.first == "✗ expect[0]: after BUSY on device.info the journey retries within 5.0s: met 1 time, 1 not as expected", "\(result)")
        #expect(result.lines.dropFirst().allSatisfy { $0.hasPrefix("    · ") }, "only the failed check and its evidence: \(result)")
        #expect(!result.lines.isEmpty && !result.lines.contains { $0.hasPrefix("✓") || $0.hasPrefix("doctor:") || $0.hasPrefix("fault scenario") }, "\(result)")
        let progress = result.stderr.split(separator: "\n").filter { !$0.hasPrefix("Error:") && !$0.hasPrefix("hint:") && !$0.isEmpty }
        #expect(progress.isEmpty, "no progress lines: \(result)")
        #expect(result.stderr.contains("Error: fault scenario device-info-busy failed"), "\(result)")
    }

    /// A journey that asks for device.info every 100 ms, whoever watches.
    static let keepsAsking = #"""
        {"name": "keeps-asking", "loop": true, "steps": [
          {"send": {"payload": {"action": "device.info"}, "label": "info"}},
          {"awaitResponse": {"label": "info", "timeoutMs": 10000}},
          {"wait": 100}
        ]}
        """#

    @Test("against a journey already running: each message the rule changed has exactly one FAULT line, whether it came before the watch subscribed or after")
    func faultLinesBeforeSubscribing() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: Self.keepsAsking)
        defer { host.stop() }
        let directory = try TemporaryDirectory()
        // The run ends at the faulted answer: its request and its answer are the rule's one hit.
        let scenario = #"""
            {"version": 1, "name": "busy-once",
             "faults": [{"filter": "action:device.info", "firing": {"kind": "sequence", "steps": [{"kind": "error", "code": "BUSY"}, {"kind": "pass"}]}}],
             "until": "is:fault type:response", "duration": "60s", "settle": "0s"}
            """#
        let result = try await host.run(["fault-scenario", try file(scenario, in: directory, name: "once.json")], binary: binary)
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.contains("✓ faults: every rule fired (f1 1×)"), "\(result)")
        let faultLines = result.stderr.split(separator: "\n").filter { $0.contains("FAULT f1") }
        #expect(faultLines.count == 2, "the faulted request and its BUSY answer, whenever they came: \(result)")
        #expect(faultLines.first?.contains("IN   request device.info") == true, "\(result)")
    }

    @Test("a journey that retries after BUSY: exit 0; --json holds the verdict, the steps and the coverage")
    func handledExitsZero() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: Self.retries, extra: ["--wait-for-inspector"])
        defer { host.stop() }
        let directory = try TemporaryDirectory()
        let recording = directory.file("run.jsonl")
        let result = try await host.run(["fault-scenario", try file(Self.scenario(), in: directory), "--json", "--record", recording], binary: binary)
        #expect(result.status == 0, "\(result)")
        let verdict = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
        #expect(verdict["passed"] as? Bool == true)
        #expect(verdict["scenario"] as? String == "device-info-busy")
        #expect(verdict["end"] as? String == "reachedUntil")
        let checks = try #require(verdict["checks"] as? [[String: Any]])
        #expect(checks.map { $0["id"] as? String } == ["faults", "steps", "until", "expect[0]"])
        #expect(checks.allSatisfy { $0["passed"] as? Bool == true }, "\(checks)")
        let steps = try #require(verdict["steps"] as? [[String: Any]])
        #expect(steps.first?["outcome"] as? String == "done")
        #expect(steps.first?["detail"] as? String == "sent host.background")
        #expect((verdict["coverage"] as? [String: Any])?["unhappyPaths"] != nil, "\(verdict.keys)")
        #expect((verdict["doctor"] as? [String: Any])?["checks"] != nil)
        // The session was kept as a recording that `open --check` reads.
        let check = try await runCLI(["open", "--check", recording], binary: binary)
        #expect(check.status == 0, "\(check)")
    }

    @Test("the examples against the demo host: demo-busy-retry passes, demo-internal-error exits 6 naming the retry")
    func examplesAgainstTheDemo() async throws {
        let directory = try TemporaryDirectory()
        let socket = directory.file("demo.sock")
        let host = try BinaryProcess(["host", "--socket", socket], binary: binary, stdin: .closed)
        defer { host.kill() }
        #expect(await waitUntil(timeout: .seconds(20)) { host.standardOutput.hasPrefix("socket: ") || !host.isRunning })
        let passing = try await runCLI(["fault-scenario", examplePath("fault-scenarios/demo-busy-retry.json"), "--socket", socket], binary: binary)
        #expect(passing.status == 0, "\(passing)")
        #expect(passing.lines.last?.hasPrefix("fault scenario demo-busy-retry passed") == true, "\(passing)")
        let failing = try await runCLI(["fault-scenario", examplePath("fault-scenarios/demo-internal-error.json"), "--socket", socket], binary: binary)
        #expect(failing.status == 6, "\(failing)")
        #expect(failing.lines.contains { $0.hasPrefix("    · device.info ") && $0.contains("retried after") && $0.hasSuffix("(not recoverable)") }, "\(failing)")
    }

    @Test("through GBGBridge's public API: a scenario of event steps runs; one with fault rules is refused before it starts (exit 2)")
    func publicAPIPath() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: Self.givesUp, extra: ["--inspect-via", "public-api"])
        defer { host.stop() }
        let directory = try TemporaryDirectory()
        let events = try file(
            #"{"name": "events-only", "steps": [{"at": "0s", "do": "background"}, {"at": "300ms", "do": "foreground"}], "duration": "1s", "doctor": {"failOn": "never"}}"#,
            in: directory, name: "events.json")
        let ran = try await host.run(["fault-scenario", events], binary: binary)
        #expect(ran.status == 0, "\(ran)")
        #expect(ran.lines.contains("✓ steps: 2 of 2 steps done"), "\(ran)")
        let faulty = try file(Self.scenario(), in: directory, name: "faulty.json")
        let refused = try await host.run(["fault-scenario", faulty], binary: binary)
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.stderr.contains("cannot fault its handling of messages"), "\(refused)")
        #expect(!refused.stderr.contains("rule f1"), "nothing was set: \(refused)")
    }

    @Test("a bad file is refused with its place before anything reaches the host (exit 64); hostile text is made safe")
    func badFileAndHostileText() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: Self.givesUp, extra: ["--wait-for-inspector"])
        defer { host.stop() }
        let directory = try TemporaryDirectory()
        let bad = try file(#"{"name": "n", "steps": [{"at": "1s", "do": "sleep"}]}"#, in: directory, name: "bad.json")
        let refused = try await host.run(["fault-scenario", bad], binary: binary)
        #expect(refused.status == 64, "\(refused)")
        #expect(refused.stderr.contains("steps[0].do: unknown lifecycle step: sleep"), "\(refused)")
        let rules = try await host.run(["faults", "--json"], binary: binary)
        #expect(rules.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "\(rules)")

        let hostile = try file(Self.scenario(name: #"evil\u001b]52;c;aGk=\u0007\u001b[2J"#), in: directory, name: "hostile.json")
        let result = try await host.run(["fault-scenario", hostile], binary: binary)
        #expect(result.status == 6, "\(result)")
        for output in [result.stdout, result.stderr] {
            #expect(!output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(result)")
        }
        #expect(result.stderr.contains("fault scenario evil"), "\(result)")
    }
}
