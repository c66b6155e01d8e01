import CNcurses
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether a terminal type can show a full-screen interface, asked of terminfo before curses
/// starts (so nothing is drawn on a terminal that cannot take it).
///
/// `TERM=dumb` (Emacs' shell buffer, some CI logs) and other types without cursor addressing
/// would get escape sequences they print as garbage; an unknown type fails in `setupterm`.
///
/// ```swift
/// if case .unusable(let reason) = TerminalCapability.check() { print(reason) }
/// ```
public enum TerminalCapability: Sendable, Equatable {
    /// The terminal can move the cursor anywhere: curses can draw on it.
    case fullScreen
    /// It cannot; `reason` says why in a few words ("TERM=dumb cannot move the cursor").
    case unusable(reason: String)

    /// Checks the terminal type `term` (default: `$TERM`) for the terminal on `descriptor`.
    public static func check(term: String? = nil, descriptor: Int32 = STDOUT_FILENO) -> TerminalCapability {
        let name = term ?? getenv("TERM").map { String(cString: $0) }
        guard let name, !name.isEmpty else { return .unusable(reason: "TERM is not set") }
        let result = name.withCString { cn_terminal_can_address_cursor($0, descriptor) }
        switch result {
        case 1: return .fullScreen
        case 0: return .unusable(reason: "TERM=\(name) cannot move the cursor")
        default: return .unusable(reason: "TERM=\(name) is not a terminal type this system knows (terminfo)")
        }
    }
}
