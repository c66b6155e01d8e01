import Foundation

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
        var environment = ProcessInfo.processInfo.environment
        environment[environmentVariable] = filter
        let result = try SpawnedProcess.run(
            [bundle, "--testing-library", "swift-testing", "--filter", filter], environment: environment, timeout: timeout)
        return IsolatedTestRun(status: result.status, output: result.output + result.errors)
    }
}

/// Why a test could not be started again in a process of its own.
public struct IsolatedTestRunError: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String
}
