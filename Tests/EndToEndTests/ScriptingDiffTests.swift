import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A journey that asks the demo host's custom capabilities (device.info answers, location.get
/// fails), leaves nfc.read pending, sends an event and then waits, so the recorder has it all
/// before the test stops the host.
private let diffedScenario = """
    {"name": "diffed", "steps": [
      {"send": {"payload": {"action": "device.info"}, "label": "dev"}},
      {"awaitResponse": {"label": "dev"}},
      {"send": {"payload": {"action": "location.get"}, "label": "loc"}},
      {"awaitResponse": {"label": "loc"}},
      {"send": {"payload": {"action": "nfc.read"}, "timeoutMs": 600000}},
      {"event": {"name": "journey.done", "data": {"step": "done"}}},
      {"wait": 600000}
    ]}
    """

/// Issue 28, part 3, end to end: `diff` of real recordings of the demo host, one run with the
/// demo profile and one with a profile whose handlers answer differently.
@Suite("Scripting: diff", .serialized)
struct ScriptingDiffTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    /// Latency on a busy two-core machine varies run to run; these tests are about content, so
    /// the latency tolerance is out of their way (latency is pinned by the unit tests).
    static let calmLatency = ["--latency-min-ms", "60000"]

    /// Records one run of the scenario against `profile` into `file`.
    private func record(profile: String, into file: String) async throws {
        let host = try await ScriptedHost(binary: binary, scenario: diffedScenario, profile: profile, extra: ["--wait-for-inspector"])
        defer { host.stop() }
        let recorder = try host.start(["record", file], binary: binary)
        defer { recorder.kill() }
        #expect(await waitUntil(timeout: .seconds(60)) {
            ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").contains("journey.done")
        }, "the recorder never got the journey's last event: \(recorder.standardError) \(host.process.standardError)")
        host.process.signal(SIGTERM)
        #expect(await host.process.waitForExit() == 0, "\(host.process.standardError)")
        #expect(await recorder.waitForExit() == 0, "\(recorder.standardError)")
    }

    /// The demo profile with device.info answering another system version and location.get
    /// failing with another code.
    private func changedProfile(in directory: TemporaryDirectory) throws -> String {
        var text = try String(contentsOfFile: examplePath("profiles/demo.json"), encoding: .utf8)
        text = text.replacingOccurrences(of: "\"systemVersion\": \"17.5\"", with: "\"systemVersion\": \"18.0\"")
        text = text.replacingOccurrences(of: "\"code\": \"PERMISSION_DENIED\"", with: "\"code\": \"TIMEOUT\"")
        try #require(text.contains("18.0") && text.contains("TIMEOUT"), "the demo profile changed shape: \(text)")
        let path = directory.file("changed.json")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("Two runs of the same profile are the same (exit 0); a changed profile's differences are printed with paths (exit 7), also as JSON; a cut-off file warns (exit 5)")
    func diffRecordings() async throws {
        let directory = try TemporaryDirectory()
        let first = directory.file("first.jsonl")
        let second = directory.file("second.jsonl")
        let changed = directory.file("changed.jsonl")
        try await record(profile: examplePath("profiles/demo.json"), into: first)
        try await record(profile: examplePath("profiles/demo.json"), into: second)
        try await record(profile: try changedProfile(in: directory), into: changed)

        let same = try await runCLI(["diff", first, second] + Self.calmLatency, binary: binary)
        #expect(same.status == 0, "\(same)")
        #expect(same.lines.last?.hasPrefix("no differences (") == true, "\(same)")
        #expect(same.lines.first?.hasPrefix("left   \(first): host demo, ") == true, "\(same)")

        let different = try await runCLI(["diff", first, changed] + Self.calmLatency, binary: binary)
        #expect(different.status == 7, "\(different)")
        #expect(different.stdout.contains("field changed: the answer to device.info"), "\(different)")
        #expect(different.stdout.contains("  answer data.systemVersion: \"17.5\" → \"18.0\""), "\(different)")
        #expect(different.stdout.contains("error code changed: the answer to location.get"), "\(different)")
        #expect(different.stdout.contains("  error.code: PERMISSION_DENIED → TIMEOUT"), "\(different)")
        #expect(different.lines.last == "2 differences: 1 field changed, 1 error code changed", "\(different)")

        let json = try await runCLI(["diff", "--json", first, changed] + Self.calmLatency, binary: binary)
        #expect(json.status == 7, "\(json)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json)")
        #expect(root["same"] as? Bool == false)
        let differences = try #require(root["differences"] as? [[String: Any]])
        #expect(differences.map { $0["kind"] as? String } == ["fieldChanged", "errorCodeChanged"], "\(json)")
        #expect(differences.first?["path"] as? String == "data.systemVersion")
        #expect((differences.first?["left"] as? [String: Any])?["action"] as? String == "device.info")

        // What a person names is ignored; what differs then is only the error code.
        let ignoring = try await runCLI(["diff", first, changed, "--ignore", "data.systemVersion"] + Self.calmLatency, binary: binary)
        #expect(ignoring.lines.last == "1 difference: 1 error code changed", "\(ignoring)")

        // Cut off in its last line: compared up to where it broke, with a warning, exit 5.
        let bytes = Array(try String(contentsOfFile: first, encoding: .utf8).utf8)
        let cut = directory.file("cut.jsonl")
        try Data(bytes[0..<(bytes.count - 25)]).write(to: URL(fileURLWithPath: cut))
        let truncated = try await runCLI(["diff", cut, second] + Self.calmLatency, binary: binary)
        #expect(truncated.status == 5, "\(truncated)")
        #expect(truncated.stderr.contains("the last line is cut off"), "\(truncated)")
        #expect(truncated.stderr.contains("hint: compared the "), "\(truncated)")
        #expect(truncated.lines.first?.hasPrefix("left   \(cut)") == true, "\(truncated)")

        // Command-line mistakes are 64.
        let badIgnore = try await runCLI(["diff", first, second, "--ignore", "data..x"], binary: binary)
        #expect(badIgnore.status == 64, "\(badIgnore)")
        let missing = try await runCLI(["diff", first, directory.file("nothing.jsonl")], binary: binary)
        #expect(missing.status == 5, "\(missing)")
    }

    @Test("A recording against a running host's log now: the host's differences, named as the host; a second recording and --socket together is 64")
    func diffAgainstRunningHost() async throws {
        let directory = try TemporaryDirectory()
        let recorded = directory.file("recorded.jsonl")
        try await record(profile: examplePath("profiles/demo.json"), into: recorded)
        let host = try await ScriptedHost(binary: binary, scenario: diffedScenario, profile: try changedProfile(in: directory))
        defer { host.stop() }
        // The journey runs on its own; the host's log holds all of it once the last event is in.
        let result = try await waitUntil(timeout: .seconds(60), every: .milliseconds(200)) { () async throws -> CLIResult? in
            let result = try await host.run(["diff", recorded] + Self.calmLatency, binary: binary)
            return result.lines.last == "2 differences: 1 field changed, 1 error code changed" ? result : nil
        }
        let found = try #require(result, "the diff against the running host never showed the two differences")
        #expect(found.status == 7, "\(found)")
        #expect(found.lines.dropFirst().first?.hasPrefix("right  running host (pid \(host.process.pid)): host demo, ") == true, "\(found)")
        let both = try await host.run(["diff", recorded, recorded], binary: binary)
        #expect(both.status == 64, "\(both)")
        #expect(both.stderr.contains("not both"), "\(both)")
    }
}
