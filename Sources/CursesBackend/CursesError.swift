/// Why a ``CursesScreen`` could not start.
public enum CursesError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Neither stdin/stdout nor `/dev/tty` is a terminal (e.g. running under a pipe or in CI):
    /// fall back to a non-interactive mode instead.
    case notATerminal
    /// Another ``CursesScreen`` is still running in this process; curses state is global, so
    /// call ``CursesScreen/end()`` on the first one before starting another.
    case alreadyActive
    /// ncurses refused to start, typically because the terminal type is unknown (`$TERM`).
    case startFailed(String)

    /// A one-line explanation suitable for printing to stderr.
    public var description: String {
        switch self {
        case .notATerminal: "not running in a terminal (stdin/stdout and /dev/tty are not terminals)"
        case .alreadyActive: "a curses screen is already active in this process"
        case .startFailed(let reason): "could not start curses: \(reason)"
        }
    }
}
