import Foundation
import InspectorClient
import InspectorProtocol
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `bridge-inspector host --serve examples/web-journey` with the example's profile, on the socket
/// `socket`, once it serves: the process (the caller kills it) and the journey's URL, which holds
/// the run's token (opening it gives the browser the cookie the bridge WebSocket carries).
func startServedExampleJourney(binary: String, socket: String) async throws -> (host: BinaryProcess, url: String) {
    let host = try BinaryProcess([
        "host", "--serve", examplePath("web-journey"), "--profile", examplePath("web-journey/host-profile.json"),
        "--socket", socket, "--port", "0",
    ], binary: binary)
    guard await host.waitForLine(prefix: "socket: ") == socket, let url = await host.waitForLine(prefix: "serving: ") else {
        host.kill()
        throw HostStartFailure(description: "the served journey did not start: \(host.standardError)")
    }
    return (host, url)
}

/// A snapshot of the host through the agent, polled (bounded) until `condition` holds; the last
/// one taken when it never does.
func webSnapshot(_ session: InspectorSession, timeout: Duration = .seconds(20), until condition: (WireState) -> Bool) async throws -> WireState {
    var last: WireState?
    let matched = try await waitUntil(timeout: timeout, every: .milliseconds(50)) { () throws -> WireState? in
        _ = try session.run(.snapshot)
        var state: WireState?
        while state == nil, let frame = try session.nextFrame(timeout: 5) {
            if case .snapshot(_, let snapshot) = frame { state = snapshot }
        }
        let current = try #require(state, "the agent sent no snapshot")
        last = current
        return condition(current) ? current : nil
    }
    return try #require(matched ?? last, "the agent sent no snapshot")
}

/// The example page's `#journey-state` JSON, polled (bounded) until `condition` holds.
func pageState(
    _ browser: HeadlessChromium, _ tab: String, timeout: Duration = .seconds(20), until condition: ([String: Any]) -> Bool
) async throws -> [String: Any] {
    var last = (text: "{}", state: [String: Any]())
    let matched = try await waitUntil(timeout: timeout, every: .milliseconds(50)) { () async throws -> [String: Any]? in
        let text = try await browser.evaluate(tab, "(document.getElementById('journey-state') || {}).textContent || '{}'") as? String ?? "{}"
        let state = (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
        last = (text, state)
        return condition(state) ? state : nil
    }
    if let matched { return matched }
    Issue.record("the page did not reach the expected state; it shows: \(last.text)")
    return last.state
}

extension HeadlessChromium {
    // The DevTools calls block while the browser works (seconds, when it starts or loads a
    // page), so they run on a thread of their own: a test that blocks the cooperative pool
    // holds up every other test in the run.
    private func offPool<T>(_ body: @escaping (HeadlessChromium) throws -> T) async throws -> T {
        let work = ScriptingHandOver((self, body))
        return try await onThread { ScriptingHandOver(try work.value.1(work.value.0)) }.value
    }

    /// Opens a new page and returns the session id that drives it.
    func openPage() async throws -> String {
        try await offPool { try $0.openPageBlocking() }
    }

    /// Navigates the page and waits (bounded) until its document has loaded.
    func navigate(_ session: String, to url: String) async throws {
        try await offPool { try $0.navigateBlocking(session, to: url) }
    }

    /// Reloads the page and waits (bounded) until the new document has loaded.
    func reload(_ session: String) async throws {
        try await offPool { try $0.reloadBlocking(session) }
    }

    /// Evaluates `expression` in the page (awaiting a promise) and returns its value.
    func evaluate(_ session: String, _ expression: String) async throws -> Any? {
        try await offPool { try $0.evaluateBlocking(session, expression) }
    }
}

/// Debian's headless Chromium, driven over the DevTools protocol on a pipe
/// (`--remote-debugging-pipe`: the browser reads commands on descriptor 3 and writes on 4,
/// each message a JSON object ended by a NUL byte). Every wait is bounded.
final class HeadlessChromium {
    struct ProtocolError: Error, CustomStringConvertible {
        var description: String
    }

    private let pid: pid_t
    private let commands: Int32
    private let replies: Int32
    private var buffer: [UInt8] = []
    private var nextId = 0
    private var closed = false
    private let stderrPath: String

    /// Starts the browser with a fresh profile under `directory`.
    init(executable: String, directory: TemporaryDirectory) throws {
        var toBrowser: [Int32] = [0, 0]
        var fromBrowser: [Int32] = [0, 0]
        guard pipe(&toBrowser) == 0, pipe(&fromBrowser) == 0 else { throw POSIXError(.EMFILE) }
        for descriptor in toBrowser + fromBrowser { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        // The child's ends are moved above 4 first, so the dup2s below cannot clobber each other.
        let childRead = fcntl(toBrowser[0], F_DUPFD_CLOEXEC, 10)
        let childWrite = fcntl(fromBrowser[1], F_DUPFD_CLOEXEC, 10)
        Glibc.close(toBrowser[0])
        Glibc.close(fromBrowser[1])
        stderrPath = directory.file("chromium.log")
        let arguments = [
            executable, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--no-default-browser-check", "--disable-extensions", "--remote-debugging-pipe",
            "--user-data-dir=\(directory.file("chromium-profile"))", "about:blank",
        ]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, childRead, 3)
        posix_spawn_file_actions_adddup2(&actions, childWrite, 4)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // Nothing else of the test runner's: a browser holding the descriptors Foundation's
        // Process watches would keep other tests' waitUntilExit waiting (see SpawnedProcess).
        let inherited = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap { Int32($0) }
        for descriptor in inherited where descriptor > 4 { posix_spawn_file_actions_addclose(&actions, descriptor) }
        let argv = arguments.map { strdup($0) } + [nil]
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            environment.forEach { free($0) }
        }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, nil, argv, environment)
        Glibc.close(childRead)
        Glibc.close(childWrite)
        guard status == 0 else {
            Glibc.close(toBrowser[1])
            Glibc.close(fromBrowser[0])
            throw ProtocolError(description: "cannot start \(executable): error \(status)")
        }
        pid = child
        commands = toBrowser[1]
        replies = fromBrowser[0]
    }

    deinit {
        close()
    }

    /// Sends a command and waits (bounded) for its result; throws the browser's error.
    @discardableResult
    func call(_ method: String, _ params: [String: Any] = [:], session: String? = nil, timeout: Double = 20) throws -> [String: Any] {
        nextId += 1
        let id = nextId
        var message: [String: Any] = ["id": id, "method": method, "params": params]
        if let session { message["sessionId"] = session }
        var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
        bytes.append(0)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(commands, $0.baseAddress, $0.count) }
            guard written > 0 else { throw ProtocolError(description: "the browser stopped reading commands (\(method)); its log: \(log)") }
            offset += written
        }
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            while let end = buffer.firstIndex(of: 0) {
                let line = Data(buffer[..<end])
                buffer.removeSubrange(...end)
                guard let reply = try? JSONSerialization.jsonObject(with: line) as? [String: Any], reply["id"] as? Int == id else { continue }
                if let error = reply["error"] as? [String: Any] {
                    throw ProtocolError(description: "\(method): \(error["message"] ?? error)")
                }
                return reply["result"] as? [String: Any] ?? [:]
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw ProtocolError(description: "no answer to \(method) within \(timeout) s") }
            var descriptor = pollfd(fd: replies, events: Int16(POLLIN), revents: 0)
            guard Glibc.poll(&descriptor, 1, Int32(remaining * 1000)) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { read(replies, $0.baseAddress, $0.count) }
            guard count > 0 else { throw ProtocolError(description: "the browser closed the protocol pipe (\(method)); its log: \(log)") }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    /// Opens a new page and returns the session id that drives it.
    func openPageBlocking() throws -> String {
        let target = try call("Target.createTarget", ["url": "about:blank"])
        guard let targetId = target["targetId"] as? String else { throw ProtocolError(description: "no targetId") }
        let attached = try call("Target.attachToTarget", ["targetId": targetId, "flatten": true])
        guard let session = attached["sessionId"] as? String else { throw ProtocolError(description: "no sessionId") }
        try call("Page.enable", session: session)
        return session
    }

    /// Navigates the page and waits (bounded) until its document has loaded.
    func navigateBlocking(_ session: String, to url: String) throws {
        let result = try call("Page.navigate", ["url": url], session: session)
        if let error = result["errorText"] as? String { throw ProtocolError(description: "cannot open \(url): \(error)") }
        try waitForLoad(session)
    }

    /// Reloads the page and waits (bounded) until the new document has loaded.
    func reloadBlocking(_ session: String) throws {
        let before = try evaluateBlocking(session, "window.__reloadMarker = Math.random(); window.__reloadMarker") as? Double
        try call("Page.reload", session: session)
        let reloaded = waitUntilBlocking(timeout: .seconds(20), every: .milliseconds(50)) { () -> Bool? in
            let marker = try? evaluateBlocking(session, "window.__reloadMarker === undefined ? null : window.__reloadMarker")
            return !(marker is Double) || (marker as? Double) != before ? true : nil
        }
        guard reloaded != nil else { throw ProtocolError(description: "the page did not reload") }
        try waitForLoad(session)
    }

    private func waitForLoad(_ session: String) throws {
        let loaded = waitUntilBlocking(timeout: .seconds(20), every: .milliseconds(50)) { () -> Bool? in
            (try? evaluateBlocking(session, "document.readyState")) as? String == "complete" ? true : nil
        }
        guard loaded != nil else { throw ProtocolError(description: "the page did not finish loading") }
    }

    /// Evaluates `expression` in the page (awaiting a promise) and returns its value.
    func evaluateBlocking(_ session: String, _ expression: String) throws -> Any? {
        let result = try call("Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true], session: session)
        if let exception = result["exceptionDetails"] as? [String: Any] {
            throw ProtocolError(description: "the page threw: \(exception["text"] ?? exception)")
        }
        return (result["result"] as? [String: Any])?["value"]
    }

    /// The browser's standard error so far.
    var log: String {
        (try? String(contentsOfFile: stderrPath, encoding: .utf8))?.suffix(4000).description ?? ""
    }

    /// Closes the browser (bounded: killed if it does not exit within ten seconds).
    func close() {
        guard !closed else { return }
        closed = true
        _ = try? call("Browser.close", timeout: 5)
        Glibc.close(commands)
        Glibc.close(replies)
        var status: Int32 = 0
        let pid = pid
        let exited = waitUntilBlocking(timeout: .seconds(10), every: .milliseconds(50)) { () -> Bool? in
            var status: Int32 = 0
            return waitpid(pid, &status, WNOHANG) == pid ? true : nil
        }
        guard exited == nil else { return }
        Glibc.kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
    }
}
