import Foundation
import TestSupport

/// One bash process that runs commands one after another, as a person's shell does: variables
/// (`id=$(…)`), `export`s and background jobs (`&`, `kill %1`) carry over from one command to the
/// next. Job control is on (`set -m`), so a background job is a process group of its own and
/// `kill -INT %%` is what Ctrl-C would be for it.
///
/// Each command's output goes to files in `directory`, and its exit status to a file the test
/// waits for (bounded), so nothing here depends on how fast the machine is.
final class ShellSession: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// What one command printed, and how it ended.
    struct Result: CustomStringConvertible {
        var status: Int32?
        var standardOutput: String
        var standardError: String
        var description: String {
            "status \(status.map(String.init) ?? "none (still running)")\nstdout: \(standardOutput.prefix(2000))\nstderr: \(standardError.prefix(2000))"
        }
    }

    private let shell: SpawnedProcess.Running
    private let directory: String
    private var counter = 0
    /// Process group ids of every background job ever started, to end them in ``stop()``.
    private var jobGroups: Set<Int32> = []
    private var stopped = false

    /// Starts bash in `workingDirectory` with exactly `environment`. Started clean
    /// (``SpawnedProcess/start(_:environment:)``), not with Foundation's `Process`: the hosts
    /// this shell leaves running in the background must not hold the descriptors `Process`
    /// watches, or other tests' `waitUntilExit` would wait for them forever.
    init(workingDirectory: String, environment: [String: String], directory: String) throws {
        self.directory = directory
        shell = try SpawnedProcess.start(["/bin/bash", "--norc", "--noprofile"], environment: environment)
        try write("set -m")
        try write("cd \(Self.quote(workingDirectory)) || exit 1")
    }

    deinit { stop() }

    /// Runs `command` in the foreground and waits (bounded) for it to end.
    func run(_ command: String, timeout: Duration = .seconds(300)) async throws -> Result {
        let files = nextFiles()
        try write("{ \(command)\n} > \(files.out) 2> \(files.err) < /dev/null; echo $? > \(files.status); \(Self.listJobs(into: files.jobs))")
        return await finish(files, timeout: timeout)
    }

    /// Starts `command` as a background job, waits (bounded) until its output satisfies `ready`,
    /// then sends it SIGINT, as Ctrl-C would, and waits for it to end.
    func runUntilInterrupted(
        _ command: String, timeout: Duration = .seconds(300), ready: @escaping (Result) -> Bool
    ) async throws -> (result: Result, becameReady: Bool) {
        let files = nextFiles()
        try write("{ \(command)\n} > \(files.out) 2> \(files.err) < /dev/null &\n\(Self.listJobs(into: files.jobs))")
        let becameReady = await waitUntil(timeout: timeout, every: .milliseconds(50)) { ready(self.partial(files)) }
        try write("kill -INT %%; wait %%; echo $? > \(files.status)")
        return (await finish(files, timeout: timeout), becameReady)
    }

    /// Ends every background job still running (SIGTERM, then SIGKILL) and the shell.
    func stop() {
        guard !stopped else { return }
        stopped = true
        // Only the jobs the shell still has: a group id seen earlier may belong to someone else
        // by now. (When the shell cannot say, the ones seen earlier.)
        let final = "\(directory)/final.jobs"
        if shell.write(Self.listJobs(into: final) + "\n"),
            waitUntilBlocking(timeout: .seconds(5), every: .milliseconds(10), { FileManager.default.fileExists(atPath: final) ? true : nil }) != nil
        {
            let text = (try? String(contentsOfFile: final, encoding: .utf8)) ?? ""
            jobGroups = Set(text.split(separator: "\n").compactMap { Int32($0) })
        }
        for group in jobGroups { kill(-group, SIGTERM) }
        shell.write("exit\n")
        let ended = waitUntilBlocking(timeout: .seconds(10), every: .milliseconds(20)) { shell.hasExited ? true : nil } ?? false
        for group in jobGroups { kill(-group, SIGKILL) }
        if !ended {
            shell.signal(SIGKILL)
            _ = waitUntilBlocking(timeout: .seconds(10), every: .milliseconds(20)) { shell.hasExited ? true : nil }
        }
        jobGroups = []
    }

    private static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    private struct Files {
        var out: String
        var err: String
        var status: String
        var jobs: String
    }

    private func nextFiles() -> Files {
        counter += 1
        return files(counter)
    }

    private func files(_ number: Int) -> Files {
        let base = "\(directory)/cmd\(number)"
        return Files(out: base + ".out", err: base + ".err", status: base + ".status", jobs: base + ".jobs")
    }

    /// What the last command started has written so far: for a background job (`host &`), what
    /// it keeps writing after the command itself has ended.
    func outputOfLastCommand() -> Result {
        partial(files(counter))
    }

    /// Lists the jobs' process groups into `path` whole (written aside, then moved), so a reader
    /// never sees half a list.
    private static func listJobs(into path: String) -> String {
        "jobs -p > \(path).part; mv \(path).part \(path)"
    }

    private func write(_ line: String) throws {
        guard !shell.hasExited, shell.write(line + "\n") else { throw Failure(description: "the shell has ended") }
    }

    private func partial(_ files: Files) -> Result {
        Result(status: nil, standardOutput: Self.read(files.out), standardError: Self.read(files.err))
    }

    private func finish(_ files: Files, timeout: Duration) async -> Result {
        let status = await waitUntil(timeout: timeout, every: .milliseconds(20)) { () -> Int32? in
            let text = Self.read(files.status)
            guard text.hasSuffix("\n") else { return nil }
            return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        // The job list is written right after the status: wait for it too (bounded).
        _ = await waitUntil(timeout: .seconds(10), every: .milliseconds(20)) { FileManager.default.fileExists(atPath: files.jobs) }
        for line in Self.read(files.jobs).split(separator: "\n") {
            if let group = Int32(line) { jobGroups.insert(group) }
        }
        return Result(status: status, standardOutput: Self.read(files.out), standardError: Self.read(files.err))
    }

    private static func read(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }
}
