import Foundation
import TestSupport
import Testing

/// A real terminal for the interactive inspector: a detached tmux session of a chosen size,
/// driven with `send-keys` and read with `capture-pane`, the way a person would use it.
///
/// Each session has a tmux server of its own (`-L`), started without any user configuration,
/// so tests never see each other's windows or the developer's tmux. Every wait is bounded.
final class TmuxSession: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let tmux: String
    private let server = "bi-test-\(getpid())-\(UUID().uuidString.prefix(8))"
    private var killed = false
    /// The session's own state directory (`XDG_STATE_HOME`), so what the inspector keeps between
    /// runs never touches the real home; removed by ``kill()``. A test may pass its own instead.
    private let stateHome = FileManager.default.temporaryDirectory.appendingPathComponent("bi-state-\(UUID().uuidString)").path

    /// Starts `arguments` (the first is the program) in a `width`×`height` terminal. When the
    /// program ends, the pane prints `[exited N]` and stays, so its exit status can be read.
    init(_ arguments: [String], width: Int = 120, height: Int = 36, environment: [String: String] = [:]) throws {
        guard let tmux = ExternalTool.tmux.executable else { throw Failure(description: "tmux is not installed (apt-get install tmux)") }
        self.tmux = tmux
        let command = arguments.map(Self.quote).joined(separator: " ")
        var environment = environment
        if environment["XDG_STATE_HOME"] == nil { environment["XDG_STATE_HOME"] = stateHome }
        let exports = environment.map { "\($0.key)=\(Self.quote($0.value))" }.joined(separator: " ")
        let script = "unset BRIDGE_INSPECTOR_SOCKET; \(exports.isEmpty ? "" : "export \(exports); ")\(command); echo \"[exited $?]\"; sleep 600"
        try run(["-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", "\(width)", "-y", "\(height)", "sh", "-c", script])
    }

    deinit { kill() }

    /// What the terminal shows now, one string per row, trailing blanks trimmed.
    func screen() -> String {
        (try? run(["capture-pane", "-p", "-t", "main"])) ?? ""
    }

    /// Presses keys by tmux name (`Enter`, `Escape`, `Tab`, `C-c`, `Down`, ...), one per argument.
    func press(_ keys: String...) throws {
        for key in keys { try run(["send-keys", "-t", "main", key]) }
    }

    /// Runs a tmux command on this session's server (`set-option`, `show-buffer`) and returns
    /// what it printed.
    @discardableResult
    func command(_ arguments: String...) throws -> String {
        try run(arguments)
    }

    /// Types `text` literally.
    func type(_ text: String) throws {
        try run(["send-keys", "-t", "main", "-l", text])
    }

    /// Resizes the terminal, as a person dragging the window would.
    func resize(width: Int, height: Int) throws {
        try run(["resize-window", "-t", "main", "-x", "\(width)", "-y", "\(height)"])
    }

    /// Waits (bounded) until the screen satisfies `condition`; returns the last screen seen,
    /// or nil (after recording what it showed) when the time ran out.
    @discardableResult
    func waitFor(
        _ what: String, timeout: Duration = .seconds(120), sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: (String) -> Bool
    ) async -> String? {
        let deadline = ContinuousClock.now + timeout
        var last = ""
        // Looked at once more after the deadline: a test starved of the thread pool for longer
        // than the bound (every test shares two threads) still sees a screen that is right.
        while true {
            last = screen()
            if condition(last) { return last }
            guard ContinuousClock.now < deadline else { break }
            try? await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the terminal never showed \(what); it shows:\n\(last)", sourceLocation: sourceLocation)
        return nil
    }

    /// Waits (bounded) until the screen contains every one of `texts`.
    @discardableResult
    func waitFor(_ texts: String..., timeout: Duration = .seconds(120), sourceLocation: SourceLocation = #_sourceLocation) async -> String? {
        await waitFor(texts.map { "“\($0)”" }.joined(separator: " and "), timeout: timeout, sourceLocation: sourceLocation) { screen in
            texts.allSatisfy { screen.contains($0) }
        }
    }

    /// Waits (bounded) until each of `texts` has been on the screen, not necessarily at the same
    /// time: for a live screen where early lines scroll away while later ones arrive (on a busy
    /// machine the last can come long after the first has gone). Returns the last screen.
    @discardableResult
    func waitForEach(_ texts: String..., timeout: Duration = .seconds(240), sourceLocation: SourceLocation = #_sourceLocation) async -> String? {
        var unseen = Set(texts)
        return await waitFor(texts.map { "“\($0)”" }.joined(separator: " and ") + " (each at some time)", timeout: timeout, sourceLocation: sourceLocation) { screen in
            unseen = unseen.filter { !screen.contains($0) }
            return unseen.isEmpty
        }
    }

    /// The program's exit status once it has ended (bounded wait), else nil.
    func exitStatus(timeout: Duration = .seconds(120)) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let shown = screen()
            if let range = shown.range(of: #"\[exited (\d+)\]"#, options: .regularExpression) {
                return Int32(shown[range].dropFirst("[exited ".count).dropLast())
            }
            guard ContinuousClock.now < deadline else { return nil }
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Ends the session and its tmux server.
    func kill() {
        guard !killed else { return }
        killed = true
        try? FileManager.default.removeItem(atPath: stateHome)
        _ = try? run(["kill-server"])
    }

    /// Runs one tmux command and returns what it printed (see ``SpawnedProcess`` for why not
    /// Foundation's Process: the server `new-session` leaves running would hold it up).
    @discardableResult
    private func run(_ arguments: [String]) throws -> String {
        var environment = ProcessInfo.processInfo.environment
        environment["TMUX"] = nil
        let result = try SpawnedProcess.run([tmux, "-L", server] + arguments, environment: environment, timeout: 10)
        guard result.status == 0 else {
            throw Failure(description: "tmux \(arguments.joined(separator: " ")) failed (status \(result.status.map(String.init) ?? "none")): \(result.output)\(result.errors)")
        }
        return result.output
    }

    private static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
