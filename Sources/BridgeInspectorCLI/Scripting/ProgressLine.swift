import CursesBackend
import Foundation
import TerminalUI
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A line on standard error that a long-running command rewrites in place to say how far it
/// got (`record`: messages and bytes so far), only when standard error is a terminal: in a file
/// or a pipe each version would stay, so there nothing is written at all.
///
/// The line is cut to the terminal's width: a line that wrapped could not be rewritten in place
/// (the carriage return goes back to the start of its last row only).
///
/// Lines printed meanwhile go through ``note(_:)``, which clears the progress line first, so a
/// note never ends up glued to it and the progress line comes back below the note at the next
/// ``show(_:now:)``.
struct ProgressLine {
    /// Whether anything is shown: standard error is a terminal and the command was not asked to
    /// be quiet.
    let enabled: Bool
    /// The least time between two updates, in seconds (a busy host would otherwise redraw the
    /// line for every message).
    static let interval = 0.2
    private var shown = false
    private var lastUpdate: Double?

    /// A progress line, shown unless `quiet` or standard error is not a terminal.
    init(quiet: Bool) {
        enabled = !quiet && isatty(STDERR_FILENO) == 1
    }

    /// Shows `text` in place of the line's last text; at most every ``interval`` seconds unless
    /// `force` (`now` is the time in seconds, from any clock that goes forward).
    mutating func show(_ text: String, now: Double, force: Bool = false) {
        guard enabled else { return }
        if !force, let lastUpdate, now - lastUpdate < Self.interval { return }
        lastUpdate = now
        let safe = Sanitizer.sanitize(text)
        StandardStreams.printErrorInPlace(TextWidth.truncate(safe, to: max(1, (Self.terminalColumns() ?? 80) - 1)))
        shown = true
    }

    /// The width of the terminal standard error is on, in columns, if it says.
    static func terminalColumns() -> Int? {
        TerminalSize.of(STDERR_FILENO)?.width
    }

    /// Clears the line, if one is shown.
    mutating func clear() {
        guard shown else { return }
        StandardStreams.printErrorInPlace("")
        shown = false
        lastUpdate = nil
    }

    /// Prints `text` as a line of its own on standard error, clearing the progress line first.
    mutating func note(_ text: String) {
        clear()
        StandardStreams.printError(text)
    }
}
