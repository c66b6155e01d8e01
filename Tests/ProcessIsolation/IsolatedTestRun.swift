import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs one test again in a test process of its own, for the few tests that check
/// process-wide state.
///
/// `swift test` runs every suite in one process, so process-wide state is shared: SwiftNIO, for
/// one, sets SIGPIPE to "ignore" for the whole process the first time it opens a socket, and
/// a test that proves our sockets never raise SIGPIPE proves nothing after that. Such a test
/// asks for a fresh process (started with every signal at its default disposition, since an
/// ignored signal would otherwise stay ignored across `exec`) and runs its body there:
///
/// ```swift
/// @Test func noProcessWideChanges() async throws {
///     guard IsolatedTestRun.isIsolated else {
///         let run = try await IsolatedTestRun.rerun(filter: "noProcessWideChanges")
///         #expect(run.passed, "\(run.output)")
///         return
///     }
///     // ... the checks, in a process where no other test has run ...
/// }
/// ```
public struct IsolatedTestRun: Sendable {
    /// Set in the child's environment; its value is the filter the child was started with.
    public static let environmentVariable = "BRIDGE_INSPECTOR_ISOLATED_TEST"

    /// Whether this process is such a child.
    public static var isIsolated: Bool { ProcessInfo.processInfo.environment[environmentVariable] != nil }

    /// The child's exit status; nil when it was killed after the time limit.
    public var status: Int32?
    /// What the child printed (standard output and error).
    public var output: String
    /// The child ran at least one test, and every test it ran passed.
    public var passed: Bool { status == 0 && output.contains("passed") && !output.contains("with 0 tests") }

    /// Starts the test bundle again with `--filter filter` and waits (at most `timeout`
    /// seconds) for it, on a thread of its own so the cooperative pool stays free.
    public static func rerun(filter: String, timeout: Double = 120) async throws -> IsolatedTestRun {
        guard let bundle = CommandLine.arguments.first, bundle.hasSuffix(".xctest") else {
            throw IsolatedTestRunError(description: "cannot find the test bundle to start again (arguments: \(CommandLine.arguments))")
        }
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try run(bundle: bundle, filter: filter, timeout: timeout) })
            }.start()
        }
    }

    private static func run(bundle: String, filter: String, timeout: Double) throws -> IsolatedTestRun {
        let outputPath = NSTemporaryDirectory() + "isolated-test-\(UUID().uuidString).log"
        defer { try? FileManager.default.removeItem(atPath: outputPath) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)

        // Every signal back to its default disposition, and none blocked.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let arguments = [bundle, "--testing-library", "swift-testing", "--filter", filter]
        var environment = ProcessInfo.processInfo.environment
        environment[environmentVariable] = filter
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, bundle, &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            throw IsolatedTestRunError(description: "cannot start \(bundle): \(String(cString: strerror(spawned)))")
        }

        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        var finished = false
        while Date() < deadline {
            if waitpid(child, &status, WNOHANG) == child {
                finished = true
                break
            }
            usleep(20_000)
        }
        if !finished {
            kill(child, SIGKILL)
            waitpid(child, &status, 0)
        }
        // A normal exit has its status in bits 8-15 and nothing in the low seven bits.
        let exited = finished && (status & 0x7f) == 0
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        return IsolatedTestRun(status: exited ? (status >> 8) & 0xff : nil, output: text)
    }
}

/// Why a test could not be started again in a process of its own.
public struct IsolatedTestRunError: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String
}
