import ArgumentParser
import CursesBackend
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether the interactive inspector can run: standard input and output are a terminal, and
/// the terminal can show a full-screen interface.
enum TerminalCheck {
    static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    /// Why this terminal cannot show the inspector (`TERM=dumb`, an unknown type), or `nil`
    /// when it can. Asked before curses starts, so nothing is drawn on such a terminal.
    static var unusableReason: String? {
        if case .unusable(let reason) = TerminalCapability.check() { return reason }
        return nil
    }

    /// Refuses to start the inspector on a terminal that cannot show it: prints one line that
    /// says so and names the `tail --follow` command (with `selection`, the options that pick
    /// the same host) that works there instead, and exits ``ExitCodes/usage``, as without a
    /// terminal at all.
    static func requireFullScreen(selection: String) throws {
        let command = (["bridge-inspector tail --follow"] + (selection.isEmpty ? [] : [selection])).joined(separator: " ")
        try requireFullScreen(instead: "use `\(command)` to follow the traffic as lines")
    }

    /// Refuses to start a full-screen command (the inspector, `demo`, `open`) on a terminal that
    /// cannot show it, before it starts anything: prints one line that says why and, `instead`,
    /// what works there, and exits ``ExitCodes/usage``.
    static func requireFullScreen(instead: String) throws {
        guard let reason = unusableReason else { return }
        StandardStreams.printFailure("this terminal cannot show the inspector (\(reason)); \(instead)")
        throw ExitCode(ExitCodes.usage)
    }
}
