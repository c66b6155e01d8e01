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
        guard let program = arguments.first else { throw SpawnError(description: "nothing to run") }
        let outputPath = NSTemporaryDirectory() + "spawned-\(UUID().uuidString).out"
        let errorPath = outputPath + ".err"
        defer {
            try? FileManager.default.removeItem(atPath: outputPath)
            try? FileManager.default.removeItem(atPath: errorPath)
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

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
        // ignores EBADF for close actions).
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

/// Why a program could not be started.
public struct SpawnError: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String
}
