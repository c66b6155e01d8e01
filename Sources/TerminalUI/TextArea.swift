/// A multi-line text editor model (a message's JSON in a dialog): lines, a cursor, the same
/// Emacs/readline editing keys as ``TextInput`` on the line the cursor is on, and moving between
/// lines, with no terminal attached.
///
/// Keep one in a dialog's state, pass it keys, and draw it in a rectangle:
///
/// ```swift
/// var editor = TextArea(text: prettyJSON)
/// editor.handle(.down)                 // moves to the next line, keeping the column
/// editor.handle(.ctrl("o"))            // breaks the line at the cursor
/// editor.visibleLines = rect.height   // how far PgDn moves, and when the view scrolls
/// editor.draw(into: &buffer, in: rect, marking: 3)   // line 3 marked (an error there)
/// ```
///
/// Keys understood by ``handle(_:)``: printable characters insert; ←/→ move, across line ends
/// too; ↑/↓ (Ctrl-P/N) move between lines; PgUp/PgDn move a page; Home/End (Ctrl-A/E) jump
/// within the line; Backspace at the start of a line joins it to the one above, Delete at the end
/// joins the next; Ctrl-O breaks the line at the cursor (Emacs's open-line: Enter is left to the
/// caller, which usually means "done"); Ctrl-K, Ctrl-U and Ctrl-W delete within the line. Enter,
/// Esc and Tab are left to the caller. Only safe characters are inserted (see ``TextInput``).
public struct TextArea: Hashable, Sendable {
    /// The lines; never empty.
    private var lines: [TextInput]
    /// The line the cursor is on (0-based).
    public private(set) var row: Int
    /// The first line shown, kept so the view scrolls only when the cursor leaves it.
    private var top = 0
    /// How many lines the caller shows: PgUp and PgDn move by it, and the view scrolls by it.
    /// Set it before passing keys when the drawing area changes size.
    public var visibleLines = 10

    /// An editor holding `text` (split at its line breaks), with the cursor at its start.
    public init(text: String = "") {
        lines = Self.split(text).map { TextInput(text: $0) }
        row = 0
        lines[0].moveToStart()
    }

    /// The text, lines joined with `\n`.
    public var text: String {
        get { lines.map(\.text).joined(separator: "\n") }
        set {
            lines = Self.split(newValue).map { TextInput(text: $0) }
            row = 0
            top = 0
            lines[0].moveToStart()
        }
    }

    /// How many lines there are.
    public var lineCount: Int { lines.count }

    /// The cursor's column on its line, in characters from the start (0-based).
    public var column: Int { lines[row].cursor }

    /// Applies an editing key and returns whether it was used.
    @discardableResult
    public mutating func handle(_ key: Key) -> Bool {
        defer { keepCursorInSight() }
        switch key {
        case .left, .ctrl("b"):
            if lines[row].cursor == 0, row > 0 {
                row -= 1
                lines[row].moveToEnd()
            } else {
                lines[row].moveLeft()
            }
        case .right, .ctrl("f"):
            if lines[row].cursor == lines[row].text.count, row < lines.count - 1 {
                row += 1
                lines[row].moveToStart()
            } else {
                lines[row].moveRight()
            }
        case .up, .ctrl("p"):
            moveRow(by: -1)
        case .down, .ctrl("n"):
            moveRow(by: 1)
        case .pageUp:
            moveRow(by: -max(1, visibleLines - 1))
        case .pageDown:
            moveRow(by: max(1, visibleLines - 1))
        case .backspace, .ctrl("h"):
            if lines[row].cursor == 0 {
                guard row > 0 else { return true }
                let rest = lines.remove(at: row).text
                row -= 1
                join(rest)
            } else {
                lines[row].deleteBackward()
            }
        case .delete, .ctrl("d"):
            if lines[row].cursor == lines[row].text.count {
                guard row < lines.count - 1 else { return true }
                join(lines.remove(at: row + 1).text)
            } else {
                lines[row].deleteForward()
            }
        case .ctrl("o"):
            let characters = Array(lines[row].text)
            let cursor = lines[row].cursor
            lines[row] = TextInput(text: String(characters[..<cursor]))
            var next = TextInput(text: String(characters[cursor...]))
            next.moveToStart()
            lines.insert(next, at: row + 1)
            row += 1
        case .char, .home, .end, .ctrl("a"), .ctrl("e"), .ctrl("k"), .ctrl("u"), .ctrl("w"):
            return lines[row].handle(key)
        default:
            return false
        }
        return true
    }

    /// Draws the lines in `rect`, a gutter of line numbers at the left, scrolled so the cursor's
    /// line is in sight; the line `marked` (1-based, an error there) gets `✗` in the gutter.
    /// When `focused`, the cursor's cell is drawn in reverse video.
    public func draw(into buffer: inout Buffer, in rect: Rect, style: Style = .plain, focused: Bool = true, marking marked: Int? = nil) {
        guard !rect.isEmpty else { return }
        // Scrolled as the keys left it, and in any case so that the cursor's line shows.
        var top = self.top
        if row < top { top = row }
        if row >= top + rect.height { top = row - rect.height + 1 }
        top = max(0, min(top, lines.count - 1))
        let gutter = min(rect.width - 1, max(3, String(lines.count).count) + 2)
        let field = Rect(x: rect.x + gutter, y: rect.y, width: max(1, rect.width - gutter), height: 1)
        for offset in 0..<rect.height {
            let index = top + offset
            let y = rect.y + offset
            guard index < lines.count else {
                buffer.fill(Rect(x: rect.x, y: y, width: rect.width, height: 1), style: .plain)
                continue
            }
            let number = String(index + 1)
            let mark = marked == index + 1 ? "✗" : " "
            let label = String(repeating: " ", count: max(0, gutter - 2 - number.count)) + number + mark + " "
            buffer.write(label, at: Point(x: rect.x, y: y), style: marked == index + 1 ? Style(foreground: .red, bold: true) : style.dimmed, maxWidth: gutter)
            let line = Rect(x: field.x, y: y, width: field.width, height: 1)
            if index == row {
                lines[index].draw(into: &buffer, in: line, style: style, focused: focused)
            } else {
                buffer.fill(line, style: style)
                buffer.write(lines[index].text, at: line.origin, style: style, maxWidth: line.width)
            }
        }
    }

    private mutating func keepCursorInSight() {
        let height = max(1, visibleLines)
        if row < top { top = row }
        if row >= top + height { top = row - height + 1 }
        top = max(0, min(top, lines.count - 1))
    }

    private mutating func moveRow(by delta: Int) {
        let column = lines[row].cursor
        row = max(0, min(lines.count - 1, row + delta))
        lines[row].moveToStart()
        for _ in 0..<min(column, lines[row].text.count) { lines[row].moveRight() }
    }

    /// Appends `rest` to the cursor's line, the cursor staying where the two meet.
    private mutating func join(_ rest: String) {
        let at = lines[row].text.count
        lines[row] = TextInput(text: lines[row].text + rest)
        lines[row].moveToStart()
        for _ in 0..<at { lines[row].moveRight() }
    }

    private static func split(_ text: String) -> [String] {
        // `\r\n` is one Character in Swift: split on every kind of line break.
        let parts = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        return parts.isEmpty ? [""] : parts
    }
}
