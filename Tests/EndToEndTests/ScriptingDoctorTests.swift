import Foundation
import TestSupport
import Testing

/// One nfc.read nobody answers, and one request whose action carries terminal controls: the
/// pending-requests check warns, and nothing fails.
private let doctorWarningScenario = """
    {"name": "doctor-warning", "steps": [
      {"send": {"payload": {"action": "nfc.read"}, "correlationId": "nfc-1", "timeoutMs": 600000}},
      {"send": {"payload": {"action": "evil\\u001b]0;pwned\\u0007\\u009b31m"}, "correlationId": "evil\\u001b[2J", "timeoutMs": 600000}},
      {"wait": 600000}
    ]}
    """

/// `bridge-inspector doctor` against real hosts (issue 16: "`bridge-inspector doctor` (with
/// `--host`/`--socket`, `--json`, `--watch`) ... Exit status non-zero when any check fails").
/// The problem each check finds is pinned per scenario in DoctorScenarioTests; these pin the
/// command: its output, its exit status, its options, and the demo's own problems.
@Suite("Scripting: doctor", .serialized)
struct ScriptingDoctorTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    /// The check `id` of a `doctor --json` document.
    static func check(_ root: [String: Any], _ id: String) -> [String: Any]? {
        (root["checks"] as? [[String: Any]])?.first { $0["id"] as? String == id }
    }

    @Test("the demo host's own problems (the BUSY slot, the malformed message, unhandled requests) show in the doctor, which exits 6")
    func demoProblems() async throws {
        let directory = try TemporaryDirectory()
        let socket = directory.file("demo.sock")
        let host = try BinaryProcess(["host", "--socket", socket], binary: binary, stdin: .closed)
        defer { host.kill() }
        #expect(await host.waitForLine(prefix: "socket: ", timeout: .seconds(30)) == socket, "\(host.standardError)")

        // The demo journey makes its problems within its first seconds: wait (bounded) until the
        // doctor sees all three.
        var last: (status: Int32?, root: [String: Any]?) = (nil, nil)
        let seen = await waitUntil(timeout: .seconds(60), every: .milliseconds(250)) { () async -> Bool? in
            guard let result = try? await runCLI(["doctor", "--json", "--socket", socket], binary: self.binary) else { return nil }
            last = (result.status, scriptingJSON(result.stdout))
            guard let root = last.root else { return nil }
            let all = ["slot-busy", "malformed-input", "pending-requests"].allSatisfy {
                ["failure", "warning"].contains(Self.check(root, $0)?["status"] as? String)
            }
            return all ? true : nil
        } ?? false
        let root = try #require(last.root, "doctor --json printed no JSON")
        #expect(seen, "the demo's problems never all showed: \(root)")
        #expect(Self.check(root, "malformed-input")?["status"] as? String == "failure")
        #expect(Self.check(root, "malformed-input")?["guideHeading"] as? String == "Message Decoding Failures")
        let busy = try #require(Self.check(root, "slot-busy"))
        let busyEvidence = (busy["evidence"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
        #expect(busyEvidence.contains { $0.contains("slot busy with") }, "the BUSY answer names the request holding the slot: \(busyEvidence)")
        #expect((busy["fix"] as? String)?.contains("complete") == true)
        #expect(root["status"] as? String == "failure")
        #expect(last.status == 6, "a failing check exits 6")
        #expect((root["failures"] as? Int ?? 0) >= 1)
        #expect((root["host"] as? [String: Any])?["name"] as? String == "demo")

        let text = try await runCLI(["doctor", "--socket", socket], binary: binary)
        #expect(text.status == 6, "\(text)")
        let lines = text.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first?.hasPrefix("doctor: demo (pid \(host.pid))") == true, "\(text.stdout)")
        #expect(lines.contains { $0.hasPrefix("✗ Messages decode [malformed-input]: ") }, "\(text.stdout)")
        #expect(lines.contains { $0 == "    guide: Message Decoding Failures" }, "\(text.stdout)")
        #expect(lines.contains { $0.hasPrefix("    fix: Validate the message on the web side") }, "\(text.stdout)")
        // Worst first: every failure before every ok check.
        let lastFailure = try #require(lines.lastIndex { $0.hasPrefix("✗ ") })
        let firstOK = try #require(lines.firstIndex { $0.hasPrefix("✓ ") })
        #expect(lastFailure < firstOK)
    }

    @Test("a warning alone exits 0; --fail-on warning exits 6; --skip leaves a check out; hostile text is escaped")
    func warningsSkipAndSafety() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: doctorWarningScenario)
        defer { host.stop() }
        #expect(await host.waitForPending { $0.count == 2 })

        let json = try await host.run(["doctor", "--json"], binary: binary)
        let root = try #require(scriptingJSON(json.stdout), "\(json)")
        #expect(Self.check(root, "pending-requests")?["status"] as? String == "warning", "\(root)")
        // Whatever else the host shows, the exit status follows the worst check.
        #expect(json.status == (root["status"] as? String == "failure" ? 6 : 0), "\(json)")
        #expect(!json.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B || $0.value == 0x07 }, "raw controls in JSON output")
        #expect(json.stdout.contains(#"\u001b]0;pwned\u0007\u009b31m"#), "\(json.stdout)")

        let strict = try await host.run(["doctor", "--fail-on", "warning"], binary: binary)
        #expect(strict.status == 6, "\(strict)")
        #expect(!strict.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B || $0.value == 0x07 }, "raw controls in text output")
        #expect(strict.stdout.contains(#"evil\x1B]0;pwned\x07\u{9B}31m"#), "\(strict.stdout)")
        #expect(strict.stdout.contains("! Pending requests [pending-requests]: 2 requests waiting in pendingRequests"), "\(strict.stdout)")
        #expect(strict.stdout.contains("id nfc-1"), "\(strict.stdout)")

        let skipped = try await host.run(["doctor", "--json", "--skip", "pending-requests"], binary: binary)
        let skippedRoot = try #require(scriptingJSON(skipped.stdout), "\(skipped)")
        #expect(Self.check(skippedRoot, "pending-requests") == nil)
        #expect((skippedRoot["checks"] as? [Any])?.count == 16)

        let bad = try await host.run(["doctor", "--skip", "pending"], binary: binary)
        #expect(bad.status == 64, "\(bad)")
        #expect(bad.stderr.contains("no check is called 'pending'") && bad.stderr.contains("pending-requests"), "\(bad)")
        let badInterval = try await host.run(["doctor", "--interval", "2"], binary: binary)
        #expect(badInterval.status == 64 && badInterval.stderr.contains("--interval applies only with --watch"), "\(badInterval)")
    }

    @Test("doctor --watch reports the first state, then the check that changes when the test answers the request; Ctrl-C exits with the last report's status")
    func watch() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: doctorWarningScenario)
        defer { host.stop() }
        #expect(await host.waitForPending { $0.count == 2 })

        let watcher = try host.start(["doctor", "--watch", "--interval", "0.2"], binary: binary)
        defer { watcher.kill() }
        let first = await waitUntil(timeout: .seconds(30)) { watcher.standardOutput.contains("! Pending requests [pending-requests]: 2 requests") }
        #expect(first, "no first report: \(watcher.standardOutput) \(watcher.standardError)")

        #expect(try await host.run(["respond", "nfc-1", "--data", "{}"], binary: binary).status == 0)
        let changed = await waitUntil(timeout: .seconds(30)) { watcher.standardOutput.contains("[pending-requests]: 1 request waiting") }
        #expect(changed, "no change reported: \(watcher.standardOutput)")
        let changeLine = watcher.standardOutput.split(separator: "\n").first { $0.contains("[pending-requests]: 1 request waiting") }
        #expect(changeLine.map { $0.range(of: #"^\d\d:\d\d:\d\d\.\d\d\d ! Pending requests"#, options: .regularExpression) != nil } == true, "\(String(describing: changeLine))")
        #expect(watcher.standardOutput.contains(" now: "), "a change ends with the new tally")

        watcher.signal(SIGINT)
        let status = await watcher.waitForExit(timeout: .seconds(30))
        let failing = watcher.standardOutput.split(separator: "\n").last { $0.contains(" now: ") }?.contains(" 0 failures") == false
        #expect(status == (failing ? 6 : 0), "\(watcher.standardOutput)")
    }

    @Test("through GBGBridge's public API the doctor says which checks it cannot run", arguments: InspectedVia.allCases)
    func publicAPI(path: InspectedVia) async throws {
        let host = try await ScriptedHost(binary: binary, scenario: doctorWarningScenario, extra: path.hostOptions)
        defer { host.stop() }
        #expect(await host.waitForPending { $0.count == 2 })
        let result = try await host.run(["doctor", "--json"], binary: binary)
        let root = try #require(scriptingJSON(result.stdout), "\(result)")
        let notRun = (root["checks"] as? [[String: Any]] ?? []).filter { $0["status"] as? String == "not-run" }.compactMap { $0["id"] as? String }
        if path.isPublicAPI {
            #expect(notRun.contains("lost-messages"), "\(notRun)")
            let text = try await host.run(["doctor"], binary: binary)
            #expect(text.stdout.contains("via GBGBridge public API"), "\(text)")
            #expect(text.stdout.contains("– Messages reach the journey [lost-messages]: Cannot run: "), "\(text)")
        } else {
            #expect(notRun.isEmpty, "\(notRun)")
        }
        // Both paths see the unanswered requests.
        #expect(Self.check(root, "pending-requests")?["status"] as? String == "warning", "\(root)")
    }

    @Test("doctor without a host exits 3 and says how to start one")
    func noHost() async throws {
        let directory = try TemporaryDirectory()
        let result = try await runCLI(["doctor", "--socket", directory.file("none.sock")], binary: binary)
        #expect(result.status == 3, "\(result)")
        #expect(result.stderr.hasPrefix("Error: "), "\(result)")
    }
}
