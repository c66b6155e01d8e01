import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `--host NAME` stays attached across runs (issue 12): every run of an app is a new process
/// with a new socket, `<name>.<pid>.sock`. The inspector, `tail --follow` and `record` are
/// started first, then a real `bridge-inspector host` of that name; it is stopped and another
/// of the same name started, and each must attach to the new one and mark the restart with both
/// pids. The sockets live in a private directory named by BRIDGE_INSPECTOR_SOCKET_DIR, as in
/// an Xcode scheme. Every wait is bounded and waits for a condition.
@Suite("Staying attached across runs", .serialized, .timeLimit(.minutes(10)))
struct FollowAcrossRunsTests {
    let binary: String
    let directory: TemporaryDirectory
    var environment: [String: String] { ["BRIDGE_INSPECTOR_SOCKET_DIR": directory.path] }

    init() throws {
        binary = try requireBridgeInspectorBinary()
        directory = try TemporaryDirectory()
    }

    /// Starts `bridge-inspector host --name my-app` (the held journey) in the test's directory and
    /// waits until it serves its socket.
    private func startHost(_ name: String = "my-app") async throws -> BinaryProcess {
        let scenario = directory.file("scenario.json")
        if !FileManager.default.fileExists(atPath: scenario) {
            try scriptingHeldScenario.write(toFile: scenario, atomically: true, encoding: .utf8)
        }
        let host = try BinaryProcess(
            ["host", "--name", name, "--profile", examplePath("profiles/demo.json"), "--scenario", scenario],
            binary: binary, environment: environment, stdin: .closed)
        let socket = directory.file("\(name).\(host.pid).sock")
        let started = await waitUntil(timeout: .seconds(20)) { host.standardOutput.contains(socket) || !host.isRunning }
        guard started, host.isRunning else {
            host.kill()
            throw HostStartFailure(description: "the host did not start: \(host.standardOutput) \(host.standardError)")
        }
        return host
    }

    /// Stops `host` the way Xcode stops an app it runs again, and waits until it has gone.
    private func stop(_ host: BinaryProcess) async {
        host.signal(SIGTERM)
        #expect(await host.waitForExit() != nil)
    }

    @Test("tail --follow --host NAME waits for the first run, then prints a marker with both pids and the new run's messages")
    func tailFollows() async throws {
        let tail = try BinaryProcess(["tail", "--follow", "--host", "my-app"], binary: binary, environment: environment, stdin: .closed)
        defer { tail.kill() }
        #expect(await waitUntil(timeout: .seconds(20)) { tail.standardError.contains("waiting for a host named my-app…") }, "\(tail.standardError)")

        let first = try await startHost()
        defer { first.kill() }
        #expect(await waitUntil(timeout: .seconds(20)) { tail.standardOutput.contains("nfc-1") }, "\(tail.standardOutput)\n\(tail.standardError)")
        await stop(first)

        let second = try await startHost()
        defer { second.kill() }
        let marker = "my-app restarted: pid \(first.pid) ended, pid \(second.pid) attached"
        #expect(await waitUntil(timeout: .seconds(30)) { tail.standardOutput.components(separatedBy: "nfc-1").count == 3 }, "\(tail.standardOutput)\n\(tail.standardError)")
        let lines = tail.standardOutput.split(separator: "\n").map(String.init)
        let markerIndex = try #require(lines.firstIndex { $0.contains(marker) }, "\(tail.standardOutput)")
        #expect(lines[markerIndex - 1].hasSuffix("-- disconnected from the host"))
        #expect(lines[..<markerIndex].contains { $0.contains("nfc-1") })
        #expect(lines[(markerIndex + 1)...].contains { $0.contains("nfc-1") })
        #expect(tail.isRunning)
    }

    @Test("tail --json --follow --host NAME: the restart is a JSON object of its own kind with both pids")
    func tailJSONMarker() async throws {
        let first = try await startHost()
        defer { first.kill() }
        let tail = try BinaryProcess(["tail", "--json", "--follow", "--host", "my-app"], binary: binary, environment: environment, stdin: .closed)
        defer { tail.kill() }
        #expect(await waitUntil(timeout: .seconds(20)) { tail.standardOutput.contains("nfc-1") }, "\(tail.standardError)")
        await stop(first)
        let second = try await startHost()
        defer { second.kill() }
        #expect(await waitUntil(timeout: .seconds(30)) { tail.standardOutput.contains("hostRestarted") }, "\(tail.standardOutput)\n\(tail.standardError)")
        let marker = try #require(tail.standardOutput.split(separator: "\n").compactMap { scriptingJSON($0) }.first { $0["marker"] as? String == "hostRestarted" })
        #expect(marker["kind"] as? String == "marker")
        #expect(marker["host"] as? String == "my-app")
        #expect(marker["endedPid"] as? Int == Int(first.pid))
        #expect(marker["attachedPid"] as? Int == Int(second.pid))
        #expect(marker["time"] is Double || marker["time"] is Int)
    }

    @Test("record --host NAME waits, records both runs with a marker line between them; open --check reads it all")
    func recordFollows() async throws {
        let file = directory.file("session.jsonl")
        let record = try BinaryProcess(["record", file, "--host", "my-app"], binary: binary, environment: environment, stdin: .closed)
        defer { record.kill() }
        #expect(await waitUntil(timeout: .seconds(20)) { record.standardError.contains("waiting for a host named my-app…") }, "\(record.standardError)")
        #expect(!FileManager.default.fileExists(atPath: file))

        let first = try await startHost()
        defer { first.kill() }
        let recorded = { (try? String(contentsOfFile: file, encoding: .utf8)) ?? "" }
        #expect(await waitUntil(timeout: .seconds(20)) { recorded().contains("nfc-1") })
        await stop(first)
        let second = try await startHost()
        defer { second.kill() }
        #expect(await waitUntil(timeout: .seconds(30)) { recorded().contains("\"kind\":\"hostRestarted\"") && recorded().components(separatedBy: "\"kind\":\"snapshot\"").count == 3 }, "\(recorded())\n\(record.standardError)")
        record.signal(SIGTERM)
        #expect(await record.waitForExit() == 0, "\(record.standardError)")
        #expect(record.standardError.contains("across 2 runs"), "\(record.standardError)")
        // Issue 27, trap 7: after "waiting … to run again" it says it records again, so the last
        // thing on the screen while it records is never a stale "waiting"; and it says it waits once.
        let lines = record.standardError.split(separator: "\n").map(String.init)
        let waiting = try #require(lines.lastIndex { $0.contains("to run again") }, "\(record.standardError)")
        #expect(lines[waiting + 1].contains("my-app is running again (pid \(second.pid)); recording it"), "\(record.standardError)")
        #expect(lines.filter { $0.contains("waiting for a host named my-app") }.count == 2, "once before the first run, once between: \(record.standardError)")

        let restart = try #require(try jsonLines(file).first { $0["kind"] as? String == "hostRestarted" })
        #expect(restart["endedPid"] as? Int == Int(first.pid))
        #expect(restart["attachedPid"] as? Int == Int(second.pid))

        let check = try await runCLI(["open", "--check", file], binary: binary)
        #expect(check.status == 0, "\(check)")
        #expect(check.stdout.contains("restarted  my-app: pid \(first.pid) ended, pid \(second.pid) attached"), "\(check)")
        #expect(check.stdout.contains("status     complete"), "\(check)")

        // open shows the restart as the same marker row, the first run's rows above it.
        if ExternalTool.tmux.runs {
            let terminal = try TmuxSession([binary, "open", file])
            defer { terminal.kill() }
            await terminal.waitFor("recording (read-only)", "my-app restarted: pid \(first.pid) ended, pid \(second.pid) attached")
            try terminal.press("q")
            #expect(await terminal.exitStatus() == 0)
        }
    }

    @Test("--host NAME.PID means exactly that process: tail stops when it goes, it does not follow")
    func pinnedPidDoesNotFollow() async throws {
        let first = try await startHost()
        defer { first.kill() }
        let tail = try BinaryProcess(["tail", "--follow", "--host", "my-app.\(first.pid)"], binary: binary, environment: environment, stdin: .closed)
        defer { tail.kill() }
        #expect(await waitUntil(timeout: .seconds(20)) { tail.standardOutput.contains("nfc-1") })
        await stop(first)
        #expect(await tail.waitForExit() == 0, "\(tail.standardError)")
        #expect(tail.standardError.contains("went away"))
    }

    @Test(
        "the interactive inspector waits for the first run, then reattaches to the next run with a marker naming both pids",
        .requires(.tmux))
    func interactiveFollows() async throws {
        let terminal = try TmuxSession([binary, "--host", "my-app"], environment: environment)
        defer { terminal.kill() }
        await terminal.waitFor("waiting for a host named my-app… (q quits)")

        let first = try await startHost()
        defer { first.kill() }
        await terminal.waitFor("my-app (pid \(first.pid))", "● connected", "nfc-1")
        await stop(first)
        await terminal.waitFor("DISCONNECTED", "waiting for my-app to run again")

        let second = try await startHost()
        defer { second.kill() }
        await terminal.waitFor("my-app restarted: pid \(first.pid) ended, pid \(second.pid) attached", "my-app (pid \(second.pid))", timeout: .seconds(30))
        try terminal.press("q")
        #expect(await terminal.exitStatus() == 0)
    }
}
