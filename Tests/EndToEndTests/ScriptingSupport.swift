import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
import ThreadSupport
#endif

// Helpers for the scripting subcommands' end-to-end tests: the real `bridge-inspector` binary,
// run with a chosen environment and standard input. Every wait is bounded.

/// How a finished command went.
struct CLIResult: CustomStringConvertible {
    var status: Int32?
    var stdout: String
    var stderr: String

    var description: String { "status \(status.map(String.init) ?? "none (still running)")\nstdout: \(stdout)\nstderr: \(stderr)" }

    /// Standard output's non-empty lines.
    var lines: [String] { stdout.split(separator: "\n").map(String.init) }
}

/// Runs `bridge-inspector` with `arguments` to the end (at most `timeout`).
func runCLI(
    _ arguments: [String], binary: String, environment: [String: String?] = [:], stdin: String? = nil, timeout: Duration = .seconds(120)
) async throws -> CLIResult {
    let process = try BinaryProcess(arguments, binary: binary, environment: environment, stdin: stdin.map { .text($0) } ?? .closed)
    defer { process.kill() }
    let status = await process.waitForExit(timeout: timeout)
    return CLIResult(status: status, stdout: process.standardOutput, stderr: process.standardError)
}

/// A `bridge-inspector host` for a test: the demo profile (a manual document slot, nfc.read
/// pending) or another, and a scenario written to a temporary file.
final class ScriptedHost {
    let directory: TemporaryDirectory
    let socket: String
    let journeyLog: String
    let process: BinaryProcess

    init(binary: String, scenario: String, profile: String = examplePath("profiles/demo.json"), extra: [String] = []) async throws {
        directory = try TemporaryDirectory()
        socket = directory.file("h.sock")
        journeyLog = directory.file("journey.jsonl")
        let scenarioPath = directory.file("scenario.json")
        try scenario.write(toFile: scenarioPath, atomically: true, encoding: .utf8)
        process = try BinaryProcess(
            ["host", "--profile", profile, "--scenario", scenarioPath, "--socket", socket, "--journey-log", journeyLog] + extra, binary: binary, stdin: .closed)
        let started = await waitUntil(timeout: .seconds(20)) { self.process.standardOutput.hasPrefix("socket: ") || !self.process.isRunning }
        guard started, process.isRunning || process.standardOutput.hasPrefix("socket: ") else {
            process.kill()
            throw HostStartFailure(description: "the host did not start: \(process.standardError)")
        }
    }

    /// `bridge-inspector ARGS --socket <this host>`.
    func run(_ arguments: [String], binary: String, stdin: String? = nil, timeout: Duration = .seconds(120)) async throws -> CLIResult {
        try await runCLI(arguments + ["--socket", socket], binary: binary, stdin: stdin, timeout: timeout)
    }

    /// Starts `bridge-inspector ARGS --socket <this host>` in the background.
    func start(_ arguments: [String], binary: String) throws -> BinaryProcess {
        try BinaryProcess(arguments + ["--socket", socket], binary: binary, stdin: .closed)
    }

    /// Sends `host.ping` until `follower` (a `tail --until action:host.ping`, attached at some
    /// point) has seen one and exited, at most `attempts` times, half a second apart at most.
    func ping(until follower: BinaryProcess, attempts: Int, binary: String) async throws {
        for _ in 0..<attempts where follower.isRunning {
            #expect(try await run(["event", "host.ping", "--quiet"], binary: binary).status == 0)
            _ = await waitUntil(timeout: .milliseconds(500)) { !follower.isRunning }
        }
    }

    /// The host's state now, through a session of the test's own.
    func state() throws -> WireState {
        let session = try InspectorSession(socketPath: socket, subscribe: false, clientName: "scripting-tests")
        defer { session.close() }
        _ = try session.run(.snapshot)
        while let frame = try session.nextFrame(timeout: 10) {
            if case .snapshot(_, let state) = frame { return state }
        }
        throw HostStartFailure(description: "no snapshot")
    }

    /// A host running `scriptingHeldScenario` (cap-1 holding the document slot, nfc-1 and nfc-2
    /// pending), once its requests are pending.
    static func held(binary: String) async throws -> ScriptedHost {
        let host = try await ScriptedHost(binary: binary, scenario: scriptingHeldScenario)
        let ready = await host.waitForPending { $0.contains("nfc-1") && $0.contains("nfc-2") }
        try #require(ready, "the scenario's requests never became pending")
        return host
    }

    /// Waits until the ids pending on the host satisfy `condition`.
    func waitForPending(timeout: Duration = .seconds(120), _ condition: @escaping ([String]) -> Bool) async -> Bool {
        await waitUntil(timeout: timeout) { ((try? self.state())?.pending.map(\.correlationId)).map(condition) ?? false }
    }

    /// The journey log's entries.
    var journeyEntries: [[String: Any]] { (try? jsonLines(journeyLog)) ?? [] }

    /// The response the journey received for `correlationId`, if any.
    func receivedResponse(_ correlationId: String) -> [String: Any]? {
        journeyEntries.first {
            $0["kind"] as? String == "received" && $0["correlationId"] as? String == correlationId
                && ($0["message"] as? [String: Any])?["type"] as? String == "response"
        }
    }

    func stop() {
        process.kill()
    }
}

struct HostStartFailure: Error, CustomStringConvertible {
    var description: String
}

/// Leaves a socket file at `path` that nobody serves, as a crashed host would.
func scriptingStaleSocket(at path: String) throws {
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw POSIXError(.EIO) }
    defer { close(descriptor) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
        for (index, byte) in bytes.enumerated() where index < buffer.count - 1 { buffer[index] = byte }
    }
    let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard result == 0 else { throw POSIXError(.EADDRINUSE) }
}

/// Parses one line of JSON into an object.
func scriptingJSON(_ text: some StringProtocol) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
}

/// A value handed to a thread of its own: the test does not touch it again until that thread
/// is done with it, so there is never more than one user at a time.
struct ScriptingHandOver<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Follows a subscribed session on a thread of its own until the agent closes it (or nothing
/// arrives for 30 s), and returns the state it built; `onSnapshot` runs after each snapshot.
func scriptingFollow(_ attached: ScriptingHandOver<InspectorSession>, onSnapshot: @escaping @Sendable () -> Void = {}) async throws -> LiveState {
    try await onThread { () -> LiveState in
        let session = attached.value
        defer { session.close() }
        var state = LiveState()
        while true {
            do {
                guard let frame = try session.nextFrame(timeout: 30) else { break }
                state.apply(frame, at: 0)
                if case .snapshot = frame { onSnapshot() }
            } catch InspectorClientError.closed {
                break
            }
        }
        return state
    }
}

/// A flag one thread sets and another polls.
final class ScriptingFlag: Sendable {
    private let value = Locked(false)

    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.current }
}

