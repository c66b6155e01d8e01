import Foundation
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

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The editor talks to the terminal even when our standard streams are redirected.
        for descriptor: Int32 in [0, 1] where terminal >= 0 && isatty(descriptor) == 0 {
            posix_spawn_file_actions_adddup2(&actions, terminal, descriptor)
        }
        #if os(Linux)
        let inherited = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap { Int32($0) }
        for descriptor in inherited where descriptor > 2 && descriptor != terminal { posix_spawn_file_actions_addclose(&actions, descriptor) }
        var attributes = posix_spawnattr_t()
        #else
        var attributes: posix_spawnattr_t? = nil
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var flags = Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        if handOver {
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        // While the terminal belongs to another group, our own `tcsetpgrp` to take it back
        // would stop us with SIGTTOU: ignore it for that long, as shells do.
        let previousTTOU = handOver ? signal(SIGTTOU, SIG_IGN) : nil
        defer { if handOver { signal(SIGTTOU, previousTTOU) } }

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        guard posix_spawn(&child, program, &actions, &attributes, argv, envp) == 0 else { return nil }

        func giveTerminal() {
            guard handOver else { return }
            tcsetpgrp(terminal, child)
            // If the program touched the terminal before it was its own, it was stopped: go on.
            kill(-child, SIGCONT)
        }
        giveTerminal()
        defer { if handOver { tcsetpgrp(terminal, getpgrp()) } }

        var status: Int32 = 0
        while true {
            let waited = waitpid(child, &status, handOver ? WUNTRACED : 0)
            if waited == -1 {
                if errno == EINTR { continue }
                return nil
            }
            // Stopped (Ctrl-Z, or a terminal signal before the hand-over): continue it in front.
            if status & 0xff == 0x7f {
                giveTerminal()
                continue
            }
            // A normal exit has nothing in the low seven bits and its status in bits 8 to 15.
            return status & 0x7f == 0 ? (status >> 8) & 0xff : nil
        }
    }
}
