import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ThreadSupport

/// Runs a program to its end with `posix_spawn` and `waitpid`, its output in files, within
/// a time limit, and starts it clean: no signals blocked or ignored, no descriptors but 0-2.
///
/// Not Foundation's `Process` (it can crash in `run()` on Linux: ThreadSupport's `ChildProcess`), and not a
/// bare `posix_spawn`, for what tests run into:
/// - A program that leaves a daemon behind (tmux starting its server) hands that daemon every
///   descriptor it inherited. `Process` watches some of its own, so it waits for the daemon
///   too, and other tests' `Process` objects can hang the same way: descriptors above 2
///   are closed in the child.
/// - A child inherits the signal mask of the thread that starts it, and the test runner's
///   threads block almost every signal: a tmux server started that way never sees SIGCHLD
///   and cannot be stopped with `kill-server`. Signals are unblocked in the child.
/// - SwiftNIO sets SIGPIPE to "ignore" in the test process, and an ignored signal stays
///   ignored across exec: every signal gets its default disposition back.
///
/// ```swift
/// let result = try SpawnedProcess.run(["/usr/bin/tmux", "-L", "t", "kill-server"], timeout: 10)
/// #expect(result.status == 0, "\(result.errors)")
/// ```
public enum SpawnedProcess {
    /// How a run ended.
    public struct Result: Sendable {
        /// The exit status; nil when the program was killed by a signal or after the time limit.
        public var status: Int32?
        /// Standard output.
        public var output: String
        /// Standard error.
        public var errors: String
    }

    /// Runs `arguments` (the first is the program's path) with `environment`, standard input
    /// from /dev/null, and waits at most `timeout` seconds (then kills it).
    public static func run(
        _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment, timeout: Double
    ) throws -> Result {
        let outputPath = NSTemporaryDirectory() + "spawned-\(UUID().uuidString).out"
        let errorPath = outputPath + ".err"
        defer {
            try? FileManager.default.removeItem(atPath: outputPath)
            try? FileManager.default.removeItem(atPath: errorPath)
        }
        let output = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let errors = open(errorPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer {
            if output >= 0 { close(output) }
            if errors >= 0 { close(errors) }
        }
        guard output >= 0, errors >= 0 else { throw SpawnError(description: "cannot write \(outputPath): \(String(cString: strerror(errno)))") }

        let child = try spawnClean(
            arguments, environment: environment, standardInput: .nullDevice, standardOutput: .descriptor(output), standardError: .descriptor(errors))
        let ending = child.waitForExit(timeout: .milliseconds(Int64(timeout * 1000)))
        if ending == nil {
            child.signal(SIGKILL)
            _ = child.waitUntilExit()
        }
        let status: Int32? = if case .exited(let status) = ending { status } else { nil }
        return Result(
            status: status,
            output: (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "",
            errors: (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "")
    }
}

extension SpawnedProcess {
    /// Starts `arguments` with `environment` as described on ``SpawnedProcess``: signals back
    /// to their defaults and unblocked, and no descriptor above 2 inherited (ThreadSupport's `ChildProcess`,
    /// not Foundation's `Process`, which can crash in `run()` on Linux).
    static func spawnClean(
        _ arguments: [String], environment: [String: String], standardInput: ChildProcess.Stream, standardOutput: ChildProcess.Stream,
        standardError: ChildProcess.Stream
    ) throws -> ChildProcess {
        guard let program = arguments.first else { throw SpawnError(description: "nothing to run") }
        do {
            return try ChildProcess(
                executable: program, arguments: Array(arguments.dropFirst()), environment: environment, standardInput: standardInput,
                standardOutput: standardOutput, standardError: standardError, signals: .defaults)
        } catch {
            throw SpawnError(description: "\(error)")
        }
    }

    /// A program left running: its standard input is a pipe the test writes to, its output goes
    /// to /dev/null (it writes where its input tells it to). Started clean, as ``run(_:environment:timeout:)``
    /// starts a program, so nothing it leaves behind holds a descriptor of the test runner's (a
    /// background job of a shell holding one of the pipes Foundation's `Process` watches would
    /// keep other tests' `waitUntilExit` waiting forever).
    public final class Running: @unchecked Sendable {
        /// The child's pid.
        public var pid: pid_t { child.processIdentifier }
        private let child: ChildProcess
        private let input: FileHandle

        init(child: ChildProcess, input: FileHandle) {
            self.child = child
            self.input = input
        }

        /// Writes `text` to the program's standard input; false when it has gone.
        @discardableResult
        public func write(_ text: String) -> Bool {
            let bytes = Array(text.utf8)
            let descriptor = input.fileDescriptor
            var written = 0
            while written < bytes.count {
                let result = bytes[written...].withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
                if result <= 0 { return false }
                written += result
            }
            return true
        }

        /// Whether it has ended (and is reaped).
        public var hasExited: Bool { !child.isRunning }

        /// Sends `signal`, unless it has already ended.
        public func signal(_ signal: Int32) {
            child.signal(signal)
        }
    }

    /// Starts `arguments` with `environment`, its standard input a pipe (``Running/write(_:)``).
    public static func start(_ arguments: [String], environment: [String: String]) throws -> Running {
        let child = try spawnClean(arguments, environment: environment, standardInput: .pipe, standardOutput: .nullDevice, standardError: .nullDevice)
        guard let input = child.standardInput else { throw SpawnError(description: "no pipe to \(arguments[0])") }
        return Running(child: child, input: input)
    }
}

#if canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
#endif

/// Why a program could not be started.
public struct SpawnError: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String
}
