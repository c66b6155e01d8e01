import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import ThreadSupport

// Running the real `bridge-inspector` binary from tests. Every wait is bounded.

/// The built `bridge-inspector` executable: next to the test bundle, else in `.build/debug/`.
func bridgeInspectorBinary() -> String? {
    builtProduct("bridge-inspector")
}

/// The built `bridge-inspector` executable, or a failed requirement that says to build it: how a
/// test that runs the command finds it.
func requireBridgeInspectorBinary(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
    try #require(bridgeInspectorBinary(), "build the bridge-inspector product first (swift build)", sourceLocation: sourceLocation)
}

/// A built executable product of this package: next to the test bundle, else in `.build/debug/`.
func builtProduct(_ name: String) -> String? {
    var candidates: [String] = []
    if let first = CommandLine.arguments.first {
        var directory = URL(fileURLWithPath: first).deletingLastPathComponent()
        // On macOS the runner's argument can be inside the .xctest bundle.
        while directory.path.contains(".xctest") { directory.deleteLastPathComponent() }
        candidates.append(directory.appendingPathComponent(name).path)
    }
    for argument in CommandLine.arguments where argument.hasSuffix(".xctest") {
        candidates.append(URL(fileURLWithPath: argument).deletingLastPathComponent().appendingPathComponent(name).path)
    }
    candidates.append(packageRoot.appendingPathComponent(".build/debug/\(name)").path)
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// The package's root directory (found from this file's path).
let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// `examples/<relative>` as a path.
func examplePath(_ relative: String) -> String {
    packageRoot.appendingPathComponent("examples").appendingPathComponent(relative).path
}

/// A `bridge-inspector` process started by a test, with its output collected in the background.
final class BinaryProcess: @unchecked Sendable {
    /// What the process reads on standard input.
    enum StandardInput {
        /// A pipe the test keeps open and never writes (the process sees no end of input).
        case open
        /// End of input at once.
        case closed
        /// This text, then end of input.
        case text(String)
    }

    /// The child, started as Foundation's `Process` started it (a process group of its own,
    /// signals as the starting thread has them), without `Process`'s crash (``ChildProcess``).
    let process: ChildProcess
    /// What the process wrote so far, and how many of its two pipes were read to the end.
    private struct Output {
        var standardOutput = Data()
        var standardError = Data()
        var readersDone = 0
    }

    private let output = Locked(Output())

    /// Starts the binary with `arguments`; `environment` entries are added to (or, with `nil`,
    /// removed from) this process's environment. `BRIDGE_INSPECTOR_SOCKET` is never inherited.
    init(_ arguments: [String], binary: String, environment: [String: String?] = [:], stdin: StandardInput = .open) throws {
        var env = ProcessInfo.processInfo.environment
        env["BRIDGE_INSPECTOR_SOCKET"] = nil
        for (key, value) in environment { env[key] = value }
        process = try ChildProcess(
            executable: binary, arguments: arguments, environment: env, standardInput: .pipe, standardOutput: .pipe, standardError: .pipe,
            newProcessGroup: true)
        let input = process.standardInput
        switch stdin {
        case .open: break
        case .closed: try? input?.close()
        case .text(let text):
            input?.write(Data(text.utf8))
            try? input?.close()
        }
        if let out = process.standardOutput { collect(out, isError: false) }
        if let err = process.standardError { collect(err, isError: true) }
    }

    private func collect(_ handle: FileHandle, isError: Bool) {
        DedicatedThread.start(name: "test-process-output") { [output] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                output.withLock { output in
                    if isError { output.standardError.append(chunk) } else { output.standardOutput.append(chunk) }
                }
            }
            output.withLock { $0.readersDone += 1 }
        }
    }

    var standardOutput: String {
        String(decoding: output.current.standardOutput, as: UTF8.self)
    }

    var standardError: String {
        String(decoding: output.current.standardError, as: UTF8.self)
    }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }

    /// Waits (bounded) for a stdout line starting with `prefix`; returns the rest of the line.
    func waitForLine(prefix: String, timeout: Duration = .seconds(120)) async -> String? {
        let found = await waitUntil(timeout: timeout) {
            self.standardOutput.split(separator: "\n").contains { $0.hasPrefix(prefix) } || !self.isRunning
        }
        guard found else { return nil }
        return standardOutput.split(separator: "\n").first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    /// Waits (bounded) for the process to exit and its output to be read; returns its status.
    func waitForExit(timeout: Duration = .seconds(120)) async -> Int32? {
        let exited = await waitUntil(timeout: timeout) {
            guard !self.isRunning else { return false }
            return self.output.current.readersDone == 2
        }
        // The exit status, or the signal's number, as Foundation's `terminationStatus` said.
        return exited ? process.termination?.statusOrSignal : nil
    }

    /// Whether the process ended because of a signal.
    var diedFromSignal: Bool {
        if case .signalled = process.termination { return true }
        return false
    }

    func signal(_ number: Int32) {
        process.signal(number)
    }

    /// Makes sure the process is gone (for cleanup after a failed test). The wait is bounded,
    /// so a process that cannot be killed never blocks this thread (and with it every test
    /// sharing the two threads of a 2-core machine) forever.
    func kill() {
        if process.isRunning {
            process.signal(SIGKILL)
            _ = process.waitForExit(timeout: .seconds(10))
        }
    }
}

/// Sends `signal` to process `pid`.
func sendSignal(_ signal: Int32, to pid: Int32) {
    _ = kill(pid, signal)
}

/// Process ids of live `bridge-inspector host` processes whose command line mentions `text`
/// (Linux: read from /proc).
func hostProcesses(mentioning text: String) -> [Int32] {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
    var found: [Int32] = []
    for entry in entries {
        guard let pid = Int32(entry),
            let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"), !data.isEmpty
        else { continue }
        let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        if arguments.contains("host"), arguments.contains(text) { found.append(pid) }
    }
    return found
}

/// Parses a JSON Lines file into objects.
func jsonLines(_ path: String) throws -> [[String: Any]] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    return try text.split(separator: "\n").map { line in
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw POSIXError(.EINVAL)
        }
        return object
    }
}
