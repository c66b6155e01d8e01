import Foundation
import ThreadSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens `$VISUAL` or `$EDITOR` (else `vi`) on a temporary file holding `text`, as git and
/// mitmproxy do, and returns the saved text (`nil` when the editor failed or was interrupted).
///
/// The caller leaves curses first (`CursesScreen.end()`) and starts it again afterwards; the
/// editor runs in the foreground of the terminal (``ForegroundCommand``), so it can read keys and
/// set the terminal's modes even when the inspector was started from a shell with job control.
enum ExternalEditor {
    static func edit(_ text: String) -> String? {
        let environment = ProcessInfo.processInfo.environment
        let editor = environment["VISUAL"].flatMap { $0.isEmpty ? nil : $0 } ?? environment["EDITOR"].flatMap { $0.isEmpty ? nil : $0 } ?? "vi"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bridge-inspector-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        do {
            try Data(text.utf8).write(to: file)
        } catch {
            return nil
        }
        // The path is passed as an argument, never spliced into the command text.
        guard ForegroundCommand.run(["/bin/sh", "-c", editor + " \"$1\"", "editor", file.path]) == 0,
            let data = FileManager.default.contents(atPath: file.path)
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}

/// Runs a program that uses the terminal (an editor) in the terminal's foreground, as a shell
/// runs a job, and waits for it.
///
/// A shell with job control gives the terminal to the inspector's process group only; a child
/// in any other group that sets the terminal's modes or reads a key is stopped by the kernel
/// (SIGTTOU, SIGTTIN), and the inspector waiting for it hangs. So the program gets a process
/// group of its own and the terminal is handed to that group (`tcsetpgrp`) until it ends, then
/// taken back. Keys that make signals then reach only the program: Ctrl-C interrupts the editor
/// and never the inspector or the demo's host (which has a group of its own too). Ctrl-Z
/// stops the editor's group, not the inspector's, and no shell knows that group, so the editor
/// is given the terminal again and continued at once. Without a controlling terminal (nothing
/// to hand over, nothing to be stopped by), the program simply runs.
///
/// The program starts clean: default signal dispositions (the demo ignores SIGINT and SIGTERM
/// to watch them, and ignoring is inherited across exec), no signal blocked, and no descriptor
/// of ours beyond the terminal on 0, 1 and 2.
enum ForegroundCommand {
    /// Runs `arguments` (the first is the program's path) and returns its exit status; `nil`
    /// when it could not start or was ended by a signal.
    static func run(_ arguments: [String]) -> Int32? {
        guard let program = arguments.first else { return nil }
        let terminal = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        defer { if terminal >= 0 { close(terminal) } }
        // Hand the terminal over only when it is ours to hand: our group is its foreground.
        let handOver = terminal >= 0 && tcgetpgrp(terminal) == getpgrp()

        // While the terminal belongs to another group, our own `tcsetpgrp` to take it back
        // would stop us with SIGTTOU: ignore it for that long, as shells do.
        let previousTTOU = handOver ? signal(SIGTTOU, SIG_IGN) : nil
        defer { if handOver { signal(SIGTTOU, previousTTOU) } }

        // The editor talks to the terminal even when our standard streams are redirected.
        func stream(_ descriptor: Int32) -> ChildProcess.Stream {
            terminal >= 0 && isatty(descriptor) == 0 ? .descriptor(terminal) : .inherit
        }
        let child: ChildProcess
        do {
            child = try ChildProcess(
                executable: program, arguments: Array(arguments.dropFirst()),
                standardInput: stream(0), standardOutput: stream(1),
                newProcessGroup: handOver, signals: .defaults)
        } catch {
            return nil
        }

        func giveTerminal() {
            guard handOver else { return }
            tcsetpgrp(terminal, child.processIdentifier)
            // If the program touched the terminal before it was its own, it was stopped: go on.
            child.signalGroup(SIGCONT)
        }
        giveTerminal()
        defer { if handOver { tcsetpgrp(terminal, getpgrp()) } }

        // Stopped (Ctrl-Z, or a terminal signal before the hand-over): continue it in front.
        let ended = handOver ? child.waitUntilExit(whenStopped: giveTerminal) : child.waitUntilExit()
        guard case .exited(let status) = ended else { return nil }
        return status
    }
}
