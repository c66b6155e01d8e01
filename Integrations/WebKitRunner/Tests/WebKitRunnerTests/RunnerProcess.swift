import Foundation
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Whether the end-to-end tests can run: the built runner next to the test bundle and Xvfb.
///
/// Without them the tests skip with the reason, unless BRIDGE_INSPECTOR_REQUIRE_WEBKIT=1 (then they
/// run and fail, saying what is missing).
enum WebKitAvailability {
    static let runnerName = "bridge-inspector-webkit"

    /// The built executable: beside the test bundle (`.build/<triple>/debug/`), or named by
    /// BRIDGE_INSPECTOR_WEBKIT_RUNNER.
    static let runnerPath: String? = {
        if let given = ProcessInfo.processInfo.environment["BRIDGE_INSPECTOR_WEBKIT_RUNNER"] {
            return access(given, X_OK) == 0 ? given : nil
        }
        var candidates: [String] = []
        if let bundle = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent() {
            candidates.append(bundle.appendingPathComponent(runnerName).path)
        }
        if let self_ = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: self_).deletingLastPathComponent().appendingPathComponent(runnerName).path)
        }
        if let first = CommandLine.arguments.first {
            candidates.append(URL(fileURLWithPath: first).deletingLastPathComponent().appendingPathComponent(runnerName).path)
        }
        return candidates.first { access($0, X_OK) == 0 }
    }()

    static let xvfbPath: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/Xvfb" }.first { access($0, X_OK) == 0 }
    }()

    /// Why the tests cannot run here, or nil.
    static let problem: String? = {
        if runnerPath == nil { return "\(runnerName) was not built next to the test bundle (WebKitGTK missing?)" }
        if xvfbPath == nil { return "Xvfb is not in PATH (apt-get install xvfb xauth)" }
        return nil
    }()

    static let required = ProcessInfo.processInfo.environment["BRIDGE_INSPECTOR_REQUIRE_WEBKIT"] == "1"
    static var shouldRun: Bool { problem == nil || required }
    static var skipComment: Comment { Comment(rawValue: problem ?? "") }
}

/// A test's failure with the runner's recent output, so a failed wait explains itself.
struct RunnerTestFailure: Error, CustomStringConvertible {
    let description: String
}

/// A running `bridge-inspector-webkit`, spawned with pipes: commands go to its standard input,
/// its events are read (by a thread) from its standard output, its standard error is kept.
///
/// Waits are bounded polls for a condition (never fixed sleeps): the bound is generous (120 s) so
/// a loaded two-core machine only makes a test slower, never fail.
final class RunnerProcess: Sendable {
    struct Event: Sendable, CustomStringConvertible {
        let line: String
        let fields: [String: String]
        var kind: String { fields["kind"] ?? "" }
        subscript(_ name: String) -> String? { fields[name] }
        var description: String { line }
    }

    private struct State {
        var events: [Event] = []
        var partialLine: [UInt8] = []
        var standardError = ""
        var outputClosed = false
        var exitStatus: Int32? = nil
    }

    static let defaultTimeout: Duration = .seconds(120)

    let processID: pid_t
    private let input: Int32
    private let state = Mutex(State())

    /// Starts the runner with `arguments`; `environment` entries override (nil removes) the test's own.
    init(arguments: [String] = ["--headless"], environment: [String: String?] = [:]) throws {
        guard let path = WebKitAvailability.runnerPath else {
            throw RunnerTestFailure(description: WebKitAvailability.problem ?? "no runner")
        }
        signal(SIGPIPE, SIG_IGN)
        var inputPipe: [Int32] = [-1, -1], outputPipe: [Int32] = [-1, -1], errorPipe: [Int32] = [-1, -1]
        guard pipe(&inputPipe) == 0, pipe(&outputPipe) == 0, pipe(&errorPipe) == 0 else {
            throw RunnerTestFailure(description: "pipe failed")
        }
        // Close-on-exec, so no other child inherits them (dup2 in the child clears it for 0-2).
        for fd in inputPipe + outputPipe + errorPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)

        var environmentValues = ProcessInfo.processInfo.environment
        for (name, value) in environment { environmentValues[name] = value }
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environmentValues.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var processID: pid_t = 0
        let result = posix_spawn(&processID, path, &actions, nil, argv, envp)
        close(inputPipe[0])
        close(outputPipe[1])
        close(errorPipe[1])
        guard result == 0 else {
            [inputPipe[1], outputPipe[0], errorPipe[0]].forEach { close($0) }
            throw RunnerTestFailure(description: "posix_spawn \(path): \(String(cString: strerror(result)))")
        }
        self.processID = processID
        self.input = inputPipe[1]
        let output = outputPipe[0], errors = errorPipe[0]
        Thread.detachNewThread { [self] in readLoop(output, isStandardError: false) }
        Thread.detachNewThread { [self] in readLoop(errors, isStandardError: true) }
    }

    private func readLoop(_ fd: Int32, isStandardError: Bool) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            let chunk = Array(buffer[0..<count])
            state.withLock { state in
                if isStandardError {
                    state.standardError += String(decoding: chunk, as: UTF8.self)
                    if state.standardError.utf8.count > 200_000 { state.standardError = String(state.standardError.suffix(100_000)) }
                    return
                }
                for byte in chunk {
                    if byte == 10 {
                        state.events.append(Self.parse(state.partialLine))
                        state.partialLine = []
                    } else {
                        state.partialLine.append(byte)
                    }
                }
            }
        }
        close(fd)
        if !isStandardError { state.withLock { $0.outputClosed = true } }
    }

    private static func parse(_ bytes: [UInt8]) -> Event {
        let line = String(decoding: bytes, as: UTF8.self)
        var fields: [String: String] = [:]
        if let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] {
            for (key, value) in object {
                if let text = value as? String { fields[key] = text } else { fields[key] = "\(value)" }
            }
        } else {
            fields["kind"] = "<not JSON>"
        }
        return Event(line: line, fields: fields)
    }

    // MARK: Talking to it

    /// Writes one line (a newline is added).
    func send(_ line: String) throws {
        try sendBytes(Array((line + "\n").utf8))
    }

    func sendBytes(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(input, $0.baseAddress! + offset, bytes.count - offset) }
            if written > 0 { offset += written; continue }
            if written < 0 && errno == EINTR { continue }
            throw RunnerTestFailure(description: "writing to the runner failed: \(String(cString: strerror(errno)))\n\(diagnostics())")
        }
    }

    func closeInput() { close(input) }

    var events: [Event] { state.withLock { $0.events } }
    var standardError: String { state.withLock { $0.standardError } }

    func diagnostics() -> String {
        let (events, errors) = state.withLock { ($0.events, $0.standardError) }
        return "events so far:\n" + events.map(\.line).joined(separator: "\n")
            + "\nstandard error (end):\n" + String(errors.suffix(3000))
    }

    /// Waits for the first event at or after `start` that matches; returns it and its index.
    @discardableResult
    func waitForEvent(
        _ what: String, from start: Int = 0, timeout: Duration = defaultTimeout,
        where match: (Event) -> Bool
    ) async throws -> (index: Int, event: Event) {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (events, closed) = state.withLock { ($0.events, $0.outputClosed) }
            if start < events.count, let index = events[start...].firstIndex(where: match) {
                return (index, events[index])
            }
            if closed || ContinuousClock.now > deadline {
                throw RunnerTestFailure(description: "no \(what) (\(closed ? "the runner closed its output" : "waited \(timeout)"))\n\(diagnostics())")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Waits for an event of `kind` whose fields include `fields`.
    @discardableResult
    func waitFor(_ kind: String, _ fields: [String: String] = [:], from start: Int = 0) async throws -> (index: Int, event: Event) {
        try await waitForEvent("\(kind) \(fields)", from: start) { event in
            event.kind == kind && fields.allSatisfy { event[$0.key] == $0.value }
        }
    }

    /// Waits for the process to exit; returns its exit status (128 + signal when killed).
    func waitForExit(timeout: Duration = defaultTimeout) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let status = state.withLock({ $0.exitStatus }) { return status }
            var status: Int32 = 0
            let result = waitpid(processID, &status, WNOHANG)
            if result == processID {
                let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
                state.withLock { $0.exitStatus = code }
                return code
            }
            if ContinuousClock.now > deadline {
                throw RunnerTestFailure(description: "the runner did not exit within \(timeout)\n\(diagnostics())")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Ends the runner if it still runs (SIGKILL) and reaps it: every test calls this in a defer.
    func stop() {
        if state.withLock({ $0.exitStatus }) == nil {
            kill(processID, SIGKILL)
            var status: Int32 = 0
            while waitpid(processID, &status, 0) < 0 && errno == EINTR {}
            state.withLock { $0.exitStatus = 128 + SIGKILL }
        }
        close(input)
    }

    // MARK: Processes

    /// The live (not zombie) direct children of `parent`: (pid, command name).
    static func children(of parent: pid_t) -> [(pid: pid_t, name: String)] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { entry -> (pid_t, String)? in
            guard let pid = pid_t(entry), let status = processStatus(pid), status.parent == parent, status.state != "Z" else { return nil }
            return (pid, status.name)
        }
    }

    /// Whether `pid` exists and is not a zombie.
    static func isAlive(_ pid: pid_t) -> Bool {
        guard let status = processStatus(pid) else { return false }
        return status.state != "Z"
    }

    private static func processStatus(_ pid: pid_t) -> (name: String, state: Character, parent: pid_t)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")") else { return nil }
        let name = String(text[text.index(after: open)..<close])
        let rest = text[text.index(after: close)...].split(separator: " ")
        guard rest.count > 2, let state = rest[0].first, let parent = pid_t(rest[1]) else { return nil }
        return (name, state, parent)
    }

    /// Waits until none of `pids` is alive.
    static func waitUntilGone(_ pids: [pid_t], timeout: Duration = defaultTimeout) async throws {
        let deadline = ContinuousClock.now + timeout
        while true {
            let alive = pids.filter(isAlive)
            if alive.isEmpty { return }
            if ContinuousClock.now > deadline {
                throw RunnerTestFailure(description: "still running after \(timeout): \(alive)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}

/// A temporary directory of test pages, removed at the end.
struct TestPages: ~Copyable {
    let directory: URL

    init(_ files: [String: String]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("webkit-runner-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, text) in files {
            try Data(text.utf8).write(to: directory.appendingPathComponent(name))
        }
    }

    func uri(_ name: String) -> String { directory.appendingPathComponent(name).absoluteString }

    deinit { try? FileManager.default.removeItem(at: directory) }
}

/// A JavaScript string literal for `text` (JSON is valid JavaScript for strings).
func javaScriptString(_ text: String) -> String {
    let data = (try? JSONSerialization.data(withJSONObject: [text], options: [])) ?? Data("[\"\"]".utf8)
    let array = String(decoding: data, as: UTF8.self)
    return String(array.dropFirst().dropLast())
}

/// A `start` command line.
func startLine(uri: String, userScripts: [String] = [bootstrapScript], extraHandlers: [String] = []) -> String {
    let object: [String: Any] = ["kind": "start", "handler": "gbgBridge", "extraHandlers": extraHandlers,
                                 "userScripts": userScripts, "uri": uri]
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [])) ?? Data()
    return String(decoding: data, as: UTF8.self)
}

/// A command line from a dictionary.
func commandLine(_ object: [String: Any]) -> String {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [])) ?? Data()
    return String(decoding: data, as: UTF8.self)
}

/// GBG's documented default bootstrap script.
let bootstrapScript = "window.GBGBridge = window.GBGBridge || {}; window.GBGBridge.receive = window.GBGBridge.receive || function(){};"

/// An Xvfb the test starts itself, for running the runner without `--headless`.
final class TestXServer: Sendable {
    let processID: pid_t
    let display: String

    init() throws {
        guard let xvfb = WebKitAvailability.xvfbPath else { throw RunnerTestFailure(description: "no Xvfb") }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw RunnerTestFailure(description: "pipe failed") }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        defer { close(fds[0]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd in [Int32(0), 1, 2] { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_RDWR, 0) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noneBlocked = sigset_t()
        sigemptyset(&noneBlocked)
        posix_spawnattr_setsigmask(&attributes, &noneBlocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let arguments: [String] = [xvfb, "-displayfd", String(fds[1]), "-screen", "0", "1024x768x24", "-nolisten", "tcp"]
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var processID: pid_t = 0
        let result = posix_spawn(&processID, xvfb, &actions, &attributes, argv, environ)
        close(fds[1])
        guard result == 0 else { throw RunnerTestFailure(description: "posix_spawn Xvfb: \(result)") }
        self.processID = processID
        var text = ""
        var byte: UInt8 = 0
        while read(fds[0], &byte, 1) == 1, byte != 10 { text.append(Character(UnicodeScalar(byte))) }
        guard !text.isEmpty else {
            kill(processID, SIGKILL)
            throw RunnerTestFailure(description: "Xvfb gave no display")
        }
        display = ":" + text
    }

    func stop() {
        kill(processID, SIGTERM)
        var status: Int32 = 0
        while waitpid(processID, &status, 0) < 0 && errno == EINTR {}
    }
}
