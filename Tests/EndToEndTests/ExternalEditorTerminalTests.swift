import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `Ctrl-E` opens `$EDITOR` on a dialog's data (issue 24, point 2). Started from an interactive
/// shell, as people start it, the inspector's process group alone had the terminal: the editor,
/// in a group of its own, was stopped by the kernel the moment it set the terminal's modes, the
/// screen stayed blank and only `kill -9` got the session back. These tests start the demo from
/// a real `bash -i` in tmux (job control on) and use editors that touch the terminal.
@Suite(
    "$EDITOR from the inspector, started from an interactive shell",
    .serialized,
    .timeLimit(.minutes(10)),
    .requires(.tmux))
struct ExternalEditorTerminalTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    /// An interactive bash (job control on, as in a person's terminal) in tmux, which starts the
    /// demo on `socket` with `editor` as `$EDITOR`, and the demo's event dialog opened.
    private func demoFromShell(editor: String, socket: String) async throws -> TmuxSession {
        let terminal = try TmuxSession(["bash", "--norc", "--noprofile", "-i"], environment: ["PS1": "shell$ ", "EDITOR": editor, "VISUAL": ""])
        await terminal.waitFor("shell$")
        try terminal.type("\(binary) demo --socket \(socket)")
        try terminal.press("Enter")
        await terminal.waitForEach("connected", "Pending")
        try terminal.press("e")
        await terminal.waitFor("Fire a host event")
        return terminal
    }

    /// Whether the shell shows a second prompt: the inspector has ended (the first prompt, with
    /// the command typed after it, shows whenever curses is left, the editor's time included).
    static func promptAgain(_ screen: String) -> Bool {
        screen.components(separatedBy: "shell$").count - 1 >= 2
    }

    /// A shell script at `path` that stands in for an editor: `body`, with the file as `$1`.
    private func script(_ path: String, _ body: String) throws {
        try Data("#!/bin/sh\n\(body)\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(chmod(path, 0o755) == 0)
    }

    @Test("An editor that sets the terminal's modes runs, and the dialog comes back with what it wrote")
    func editorRunsAndReturns() async throws {
        let directory = try TemporaryDirectory()
        let socket = directory.file("d.sock")
        let editor = directory.file("editor.sh")
        // `stty` sets the terminal's modes: a process group without the terminal is stopped by it.
        try script(editor, #"stty -echo </dev/tty && stty echo </dev/tty && printf '{"edited":"by-the-editor"}' > "$1""#)
        let terminal = try await demoFromShell(editor: editor, socket: socket)
        defer {
            terminal.kill()
            for pid in hostProcesses(mentioning: socket) { sendSignal(SIGKILL, to: pid) }
        }
        try terminal.press("C-e")
        let back = await terminal.waitFor("Fire a host event", "by-the-editor", timeout: .seconds(20))
        #expect(back != nil)
        #expect(!hostProcesses(mentioning: socket).isEmpty, "the demo host is still running")
        // The inspector has the terminal again: keys reach it.
        try terminal.press("Escape", "q")
        #expect(await terminal.waitFor("the shell's next prompt", timeout: .seconds(20), Self.promptAgain) != nil)
        #expect(await waitUntil(timeout: .seconds(60)) { hostProcesses(mentioning: socket).isEmpty })
    }

    @Test("Ctrl-C in the editor ends the editor only: the inspector and the demo's host carry on")
    func interruptReachesTheEditorOnly() async throws {
        let directory = try TemporaryDirectory()
        let socket = directory.file("d.sock")
        let editor = directory.file("editor.sh")
        // Says it waits, then reads a line from the terminal until Ctrl-C ends it.
        try script(editor, #"printf 'editor-waiting\n' >/dev/tty; read line </dev/tty; printf '{"edited":"never"}' > "$1""#)
        let terminal = try await demoFromShell(editor: editor, socket: socket)
        defer {
            terminal.kill()
            for pid in hostProcesses(mentioning: socket) { sendSignal(SIGKILL, to: pid) }
        }
        try terminal.press("C-e")
        await terminal.waitFor("editor-waiting")
        try terminal.press("C-c")
        let back = await terminal.waitFor("Fire a host event", timeout: .seconds(20))
        #expect(back?.contains("never") == false, "\(back ?? "")")
        #expect(!hostProcesses(mentioning: socket).isEmpty, "Ctrl-C in the editor stopped the demo host")
        try terminal.press("Escape")
        await terminal.waitFor("connected")
        try terminal.press("q")
        #expect(await terminal.waitFor("the shell's next prompt", timeout: .seconds(20), Self.promptAgain) != nil)
    }
}
