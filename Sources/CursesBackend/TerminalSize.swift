import CNcurses
import TerminalUI

/// The size of the terminal a file descriptor is on, asked of the tty itself (`TIOCGWINSZ`, in
/// the C shim, where the macro is expanded on every platform), for code that prints lines
/// rather than drawing a screen: a progress line cut to the width so it can be rewritten in
/// place.
///
/// ```swift
/// let columns = TerminalSize.of(STDERR_FILENO)?.width ?? 80
/// ```
public enum TerminalSize {
    /// The terminal's size, or `nil` when `descriptor` is not a terminal (a file, a pipe) or the
    /// terminal reports no size.
    public static func of(_ descriptor: Int32) -> Size? {
        var rows: Int32 = 0
        var columns: Int32 = 0
        guard cn_tty_size(descriptor, &rows, &columns) == 0 else { return nil }
        return Size(width: Int(columns), height: Int(rows))
    }
}
