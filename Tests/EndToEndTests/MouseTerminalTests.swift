import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The mouse in a real terminal: the inspector turns mouse reporting on unless `--no-mouse`
/// (tmux's `mouse_any_flag` says whether the program in the pane asked for it), and a click the
/// terminal reports (an SGR mouse sequence, as xterm sends it) focuses the pane clicked.
@Suite("The mouse in a terminal", .serialized, .timeLimit(.minutes(10)), .requires(.tmux))
struct MouseTerminalTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    /// `demo` in tmux under an xterm's terminal type (whose terminfo entry has SGR mouse
    /// reporting), with `extra` arguments; waits until its panes are drawn.
    private func startDemo(_ extra: [String], socket: String) async throws -> TmuxSession {
        let terminal = try TmuxSession([binary, "demo", "--socket", socket] + extra, environment: ["TERM": "xterm-256color"])
        await terminal.waitForEach("connected", "Pending", timeout: .seconds(240))
        return terminal
    }

    /// Whether the program in the pane has asked the terminal to report the mouse.
    private func mouseReported(_ terminal: TmuxSession) throws -> Bool {
        try terminal.command("display-message", "-p", "-t", "main", "#{mouse_any_flag}").trimmingCharacters(in: .whitespacesAndNewlines) == "1"
    }

    @Test("demo reports the mouse by default, and a click on the Pending pane's title focuses it")
    func clickFocusesPane() async throws {
        let directory = try TemporaryDirectory()
        let socket = directory.file("m.sock")
        let terminal = try await startDemo([], socket: socket)
        defer {
            terminal.kill()
            for pid in hostProcesses(mentioning: socket) { sendSignal(SIGKILL, to: pid) }
        }
        #expect(await waitUntil(timeout: .seconds(30)) { (try? mouseReported(terminal)) == true })
        let rows = terminal.screen().components(separatedBy: "\n")
        let y = try #require(rows.firstIndex { $0.contains("Pending ") }, "\(rows.joined(separator: "\n"))")
        let x = try #require(rows[y].range(of: "Pending ").map { rows[y].distance(from: rows[y].startIndex, to: $0.lowerBound) })
        #expect(!rows[y].contains("▶ Pending"))
        // SGR coordinates count from 1: press, then release, on the title's first letter.
        try terminal.type("\u{1B}[<0;\(x + 1);\(y + 1)M\u{1B}[<0;\(x + 1);\(y + 1)m")
        await terminal.waitFor("▶ Pending")
        try terminal.press("q")
        #expect(await terminal.exitStatus() == 0)
    }

    @Test("demo --no-mouse leaves the mouse to the terminal")
    func noMouse() async throws {
        let directory = try TemporaryDirectory()
        let socket = directory.file("n.sock")
        let terminal = try await startDemo(["--no-mouse"], socket: socket)
        defer {
            terminal.kill()
            for pid in hostProcesses(mentioning: socket) { sendSignal(SIGKILL, to: pid) }
        }
        #expect(try !mouseReported(terminal))
        try terminal.press("q")
        #expect(await terminal.exitStatus() == 0)
    }
}
