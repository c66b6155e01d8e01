import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The benchmark is not a timed test: this only checks that `bridge-inspector-bench --smoke --json`
// runs to the end on a tiny workload and reports every figure docs/performance.md describes.

/// The built `bridge-inspector-bench` executable: next to the test bundle, else in `.build/debug/`.
private func benchmarkBinary() -> String? {
    var directories: [URL] = []
    if let first = CommandLine.arguments.first {
        var directory = URL(fileURLWithPath: first).deletingLastPathComponent()
        // On macOS the runner's argument can be inside the .xctest bundle.
        while directory.path.contains(".xctest") { directory.deleteLastPathComponent() }
        directories.append(directory)
    }
    for argument in CommandLine.arguments where argument.hasSuffix(".xctest") {
        directories.append(URL(fileURLWithPath: argument).deletingLastPathComponent())
    }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    directories.append(root.appendingPathComponent(".build/debug"))
    return directories.map { $0.appendingPathComponent("bridge-inspector-bench").path }
        .first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// Runs `binary` with `arguments`, waiting at most `timeout` seconds; kills it after that.
private func runBounded(_ binary: String, _ arguments: [String], timeout: Double) throws -> (status: Int32?, stdout: Data, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    let collected = OutputCollector()
    try process.run()
    collected.collect(output.fileHandleForReading, isError: false)
    collected.collect(errors.fileHandleForReading, isError: true)
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    if process.isRunning {
        process.terminate()
        Thread.sleep(forTimeInterval: 0.5)
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        collected.waitForEnd(timeout: 5)
        return (nil, collected.stdout, collected.stderr)
    }
    process.waitUntilExit()
    collected.waitForEnd(timeout: 5)
    return (process.terminationStatus, collected.stdout, collected.stderr)
}

/// Reads a process's output on background threads so that a full pipe never blocks it.
private final class OutputCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()
    private var ended = 0

    func collect(_ handle: FileHandle, isError: Bool) {
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                lock.lock()
                if isError { err.append(chunk) } else { out.append(chunk) }
                lock.unlock()
            }
            lock.lock()
            ended += 1
            lock.unlock()
        }
    }

    func waitForEnd(timeout: Double) {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            lock.lock()
            let done = ended == 2
            lock.unlock()
            if done { return }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    var stdout: Data {
        lock.lock()
        defer { lock.unlock() }
        return out
    }

    var stderr: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: err, as: UTF8.self)
    }
}

@Suite("bridge-inspector-bench smoke run")
struct BenchmarkSmokeTests {
    /// Every figure docs/performance.md names.
    static let requiredKeys = [
        "host_msgs_per_s_no_agent", "host_msgs_per_s_following_client", "host_msgs_per_s_stalled_client",
        "ratio_following", "ratio_stalled", "agent_bytes_held_stalled_client",
        "latency_us_p50", "latency_us_p99", "latency_us_p999",
        "raw_socket_msgs_per_s", "print_logging_msgs_per_s",
        "ratio_following_over_raw_socket", "ratio_following_over_print_logging",
        "large_payload_ms", "large_payload_raw_socket_ms",
        "tui_frame_ms_1m", "tui_bytes_per_message_1m", "tui_filter_ms_1m",
    ]

    @Test("--smoke --json finishes and reports every figure as a number")
    func smokeRunReportsEveryFigure() async throws {
        let binary = try #require(benchmarkBinary(), "build the bridge-inspector-bench product first (swift build)")
        // Waiting for the run blocks, so it happens on a thread of its own, never on the
        // cooperative pool that every other test shares.
        let run = try await scriptingOnThread { try runBounded(binary, ["--smoke", "--json"], timeout: 120) }
        #expect(run.status == 0, "exit status \(run.status.map(String.init) ?? "none (killed after 120 s)"); stderr:\n\(run.stderr)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any],
            "stdout is not one JSON object: \(String(decoding: run.stdout, as: UTF8.self))")
        for key in Self.requiredKeys {
            let value = object[key]
            #expect((value as? NSNumber)?.doubleValue.isFinite == true, "\(key) is \(String(describing: value))")
        }
        let machine = object["machine"] as? [String: Any]
        #expect(machine?["cores"] is NSNumber, "the machine is reported")
        // The table goes to stderr alongside the JSON.
        #expect(run.stderr.contains("Host throughput"))
    }
}
