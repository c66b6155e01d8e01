import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a program to its end with `posix_spawn` and `waitpid`, its output in files, within
/// a time limit, and starts it clean: no signals blocked or ignored, no descriptors but 0-2.
///
/// Not Foundation's `Process`, and not a bare `posix_spawn`, for what tests run into:
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

        let child = try spawnClean(arguments, environment: environment) { actions in
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }

        var status: Int32 = 0
        let finished = waitUntilBlocking(timeout: .milliseconds(Int64(timeout * 1000)), every: .milliseconds(5)) { () -> Bool? in
            waitpid(child, &status, WNOHANG) == child ? true : nil
        } ?? false
        if !finished {
            kill(child, SIGKILL)
            waitpid(child, &status, 0)
        }
        // A normal exit has nothing in the low seven bits and its status in bits 8 to 15.
        let exited = finished && (status & 0x7f) == 0
        return Result(
            status: exited ? (status >> 8) & 0xff : nil,
            output: (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "",
            errors: (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "")
    }
}

extension SpawnedProcess {
    /// Starts `arguments` with `environment` as described on ``SpawnedProcess``: signals back
    /// to their defaults and unblocked, and no descriptor above 2 inherited. `setUp` opens or
    /// duplicates the child's descriptors 0 to 2 first. Returns the child's pid.
    static func spawnClean(
        _ arguments: [String], environment: [String: String], setUp: (inout posix_spawn_file_actions_t) -> Void
    ) throws -> pid_t {
        guard let program = arguments.first else { throw SpawnError(description: "nothing to run") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        setUp(&actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        #if os(Linux)
        // Every descriptor above 2 that is open now (one closed meanwhile is skipped: glibc
        // ignores EBADF for close actions), after `setUp` has duplicated what it needs.
        let inherited = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap { Int32($0) }
        for descriptor in inherited where descriptor > 2 { posix_spawn_file_actions_addclose(&actions, descriptor) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        #else
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_CLOEXEC_DEFAULT))
        #endif

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, program, &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            throw SpawnError(description: "cannot start \(program): \(String(cString: strerror(spawned)))")
        }
        return child
    }

    /// A program left running: its standard input is a pipe the test writes to, its output goes
    /// to /dev/null (it writes where its input tells it to). Started clean, as ``run(_:environment:timeout:)``
    /// starts a program, so nothing it leaves behind holds a descriptor of the test runner's (a
    /// background job of a shell holding one of the pipes Foundation's `Process` watches would
    /// keep other tests' `waitUntilExit` waiting forever).
    public final class Running: @unchecked Sendable {
        /// The child's pid.
        public let pid: pid_t
        private let input: Int32
        private var reaped = false

        init(pid: pid_t, input: Int32) {
            self.pid = pid
            self.input = input
        }

        deinit { close(input) }

        /// Writes `text` to the program's standard input; false when it has gone.
        @discardableResult
        public func write(_ text: String) -> Bool {
            let bytes = Array(text.utf8)
            var written = 0
            while written < bytes.count {
                let result = bytes[written...].withUnsafeBytes { systemWrite(input, $0.baseAddress, $0.count) }
                if result <= 0 { return false }
                written += result
            }
            return true
        }

        /// Whether it has ended (and is reaped).
        public var hasExited: Bool {
            if reaped { return true }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { reaped = true }
            return reaped
        }

        /// Sends `signal`, unless it has already ended.
        public func signal(_ signal: Int32) {
            if !hasExited { kill(pid, signal) }
        }
    }

    /// Starts `arguments` with `environment`, its standard input a pipe (``Running/write(_:)``).
    public static func start(_ arguments: [String], environment: [String: String]) throws -> Running {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { throw SpawnError(description: "cannot make a pipe: \(String(cString: strerror(errno)))") }
        // Neither end leaks into programs other tests start meanwhile.
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        let readEnd = descriptors[0]
        let writeEnd = descriptors[1]
        do {
            let child = try spawnClean(arguments, environment: environment) { actions in
                posix_spawn_file_actions_adddup2(&actions, readEnd, 0)
                posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
                posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            }
            close(readEnd)
            return Running(pid: child, input: writeEnd)
        } catch {
            close(readEnd)
            close(writeEnd)
            throw error
        }
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
