import CNcurses
import TerminalUI

/// Turns a ``Cell`` into what ncurses can store: one or more `cchar_t` groups (a spacing
/// character plus up to four zero-width marks each) whose widths, as ncurses measures them
/// with the C library's `wcwidth`, add up to exactly the cell's width.
///
/// TerminalUI measures with Unicode's tables; ncurses and the terminal use `wcwidth`. Where they
/// disagree (emoji ZWJ sequences, VS16 sequences such as ❤️, characters newer than the C
/// library), the cell is drawn as its first character padded with spaces, or as U+FFFD, so the
/// cursor position ncurses assumes always matches the layout and the screen never shifts.
enum CursesGlyphs {
    /// Characters per `cchar_t` (ncurses' CCHARW_MAX).
    static let maximumPerGroup = 5

    /// Groups of wide characters, each drawn in its own curses cell starting at the cell's column.
    static func groups(for cell: Cell) -> [[wchar_t]] {
        guard !cell.isContinuation else { return [] }
        var groups: [[wchar_t]] = []
        var total = 0
        var consistent = true
        for scalar in cell.text.unicodeScalars {
            let wide = wchar_t(truncatingIfNeeded: Int(scalar.value))
            let w = Int(wcwidth(wide))
            if w < 0 {
                consistent = false
                break
            }
            if w == 0 {
                guard !groups.isEmpty else {
                    consistent = false
                    break
                }
                if groups[groups.count - 1].count < maximumPerGroup, scalar != "\u{200D}" {
                    groups[groups.count - 1].append(wide)
                }
            } else {
                groups.append([wide])
                total += w
            }
        }
        if consistent, total == cell.width { return groups }
        return fallback(for: cell)
    }

    private static func fallback(for cell: Cell) -> [[wchar_t]] {
        let space: [wchar_t] = [wchar_t(truncatingIfNeeded: 0x20)]
        if let first = cell.text.unicodeScalars.first {
            let wide = wchar_t(truncatingIfNeeded: Int(first.value))
            let w = Int(wcwidth(wide))
            if w >= 1, w <= cell.width {
                return [[wide]] + Array(repeating: space, count: cell.width - w)
            }
        }
        let replacement = wchar_t(truncatingIfNeeded: 0xFFFD)
        let mark: [wchar_t] = wcwidth(replacement) == 1 ? [replacement] : [wchar_t(truncatingIfNeeded: 0x3F)]
        return [mark] + Array(repeating: space, count: max(0, cell.width - 1))
    }
}
