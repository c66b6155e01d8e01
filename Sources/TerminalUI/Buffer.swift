/// A grid of ``Cell``s: the frame a view renders into and a backend draws.
///
/// The testable heart of the UI (the ratatui / Bubble Tea model): application code is a pure
/// `render(state) -> Buffer`, and tests compare ``lines`` with expected text, no terminal
/// needed. The curses backend then draws only the cells that changed since the last frame.
///
/// ```swift
/// var buffer = Buffer(width: 20, height: 3)
/// let inner = buffer.box(buffer.area, title: "Peers")
/// buffer.write("● app-1", at: inner.origin, style: Style(foreground: .green))
/// buffer.lines
/// // ["┌ Peers ───────────┐",
/// //  "│● app-1           │",
/// //  "└──────────────────┘"]
/// ```
///
/// Everything written is sanitized (see ``Sanitizer``), clipped to the buffer, and never
/// splits a wide character at an edge: writing is always safe, whatever the text.
public struct Buffer: Hashable, Sendable {
    /// Number of columns.
    public let width: Int
    /// Number of rows.
    public let height: Int
    private var cells: [Cell]

    /// The largest number of code points kept in one cell (a base plus combining marks or an
    /// emoji sequence). Longer clusters ("Zalgo" text) are cut to bound memory and drawing work.
    public static let maximumScalarsPerCell = 16

    /// Creates a buffer of blank cells; negative sizes are clamped to 0.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    /// Creates a blank buffer of the given size, typically the terminal's current size.
    public init(size: Size) {
        self.init(width: size.width, height: size.height)
    }

    /// Width and height as a ``Size``.
    public var size: Size { Size(width: width, height: height) }

    /// The whole buffer as a ``Rect`` at (0, 0): the starting point for layout.
    public var area: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// The cell at a position, or `nil` outside the buffer.
    public func cell(at point: Point) -> Cell? {
        guard point.x >= 0, point.x < width, point.y >= 0, point.y < height else { return nil }
        return cells[point.y * width + point.x]
    }

    /// The style at a position (a continuation cell has its wide character's style), or `nil` outside the buffer.
    public func style(at point: Point) -> Style? {
        cell(at: point)?.style
    }

    /// Writes text on one row starting at `point` and returns how many columns it advanced.
    ///
    /// - The text is sanitized first: control, bidi and other unsafe code points appear as
    ///   visible escapes (`\x1B`, `\u{202E}`), drawn in `style` made ``Style/dim``.
    /// - Writing stops at the buffer's right edge or after `maxWidth` columns, whichever comes
    ///   first. A wide character that would cross that limit is replaced by spaces up to the
    ///   limit, so nothing is ever half drawn. Columns left of 0 are skipped the same way.
    /// - Text never wraps; a row outside the buffer writes nothing and returns 0.
    /// - Overwriting half of an existing wide character blanks its other half.
    ///
    /// The return value makes runs of differently styled text easy:
    ///
    /// ```swift
    /// var x = rect.x
    /// x += buffer.write("id ", at: Point(x: x, y: row), style: Style(bold: true))
    /// x += buffer.write(message.id, at: Point(x: x, y: row), maxWidth: rect.maxX - x)
    /// ```
    @discardableResult
    public mutating func write(_ text: String, at point: Point, style: Style = .plain, maxWidth: Int? = nil) -> Int {
        guard point.y >= 0, point.y < height else { return 0 }
        var limit = width
        if let maxWidth { limit = min(limit, point.x + max(0, maxWidth)) }
        guard point.x < limit else { return 0 }
        var column = point.x
        writing: for segment in Sanitizer.segments(text) {
            let segmentStyle = segment.isEscape ? style.dimmed : style
            for character in segment.text {
                guard column < limit else { break writing }
                let (cellText, cellWidth) = Self.prepare(character)
                if column + cellWidth > limit {
                    for c in max(column, 0)..<limit { put(.space(segmentStyle), x: c, y: point.y) }
                    column = limit
                    break writing
                }
                if column < 0 {
                    for c in 0..<max(0, column + cellWidth) { put(.space(segmentStyle), x: c, y: point.y) }
                } else {
                    put(Cell(text: cellText, width: cellWidth, style: segmentStyle), x: column, y: point.y)
                }
                column += cellWidth
            }
        }
        return column - point.x
    }

    /// Fills a rectangle (clipped to the buffer) with a character, by default blanking it.
    ///
    /// Use it to clear a pane or paint a background before writing, e.g. the inside of a dialog:
    /// `buffer.fill(dialog, style: Style(background: .blue))`.
    public mutating func fill(_ rect: Rect, with character: Character = " ", style: Style = .plain) {
        let clipped = rect.intersection(area)
        guard !clipped.isEmpty else { return }
        let row = String(repeating: character, count: clipped.width)
        for y in clipped.y..<clipped.maxY {
            write(row, at: Point(x: clipped.x, y: y), style: style, maxWidth: clipped.width)
        }
    }

    /// Draws a single-line border (`┌─┐│└┘`) along the edge of `rect`, with an optional title
    /// in the top edge, and returns the rectangle inside the border.
    ///
    /// Only the border is drawn; the inside is left as it is (``fill(_:with:style:)`` it first
    /// for a dialog over other content). A rectangle smaller than 2×2 draws nothing. The title
    /// is sanitized and truncated with `…` to fit.
    ///
    /// ```swift
    /// let inner = buffer.box(pane, title: "Messages", titleStyle: Style(bold: true))
    /// ```
    @discardableResult
    public mutating func box(_ rect: Rect, style: Style = .plain, title: String? = nil, titleStyle: Style? = nil) -> Rect {
        guard rect.width >= 2, rect.height >= 2 else { return rect.inset(1) }
        let inner = rect.width - 2
        let horizontal = String(repeating: "─", count: inner)
        write("┌" + horizontal + "┐", at: Point(x: rect.x, y: rect.y), style: style)
        write("└" + horizontal + "┘", at: Point(x: rect.x, y: rect.maxY - 1), style: style)
        for y in (rect.y + 1)..<(rect.maxY - 1) {
            write("│", at: Point(x: rect.x, y: y), style: style)
            write("│", at: Point(x: rect.maxX - 1, y: y), style: style)
        }
        if let title, !title.isEmpty, inner >= 3 {
            let shown = TextWidth.truncate(Sanitizer.sanitize(title), to: inner - 2)
            if !shown.isEmpty {
                write(" " + shown + " ", at: Point(x: rect.x + 1, y: rect.y), style: titleStyle ?? style, maxWidth: inner)
            }
        }
        return rect.inset(1)
    }

    /// The buffer as text, one string per row, continuation cells skipped and trailing spaces
    /// removed: what a snapshot test compares.
    ///
    /// ```swift
    /// #expect(buffer.lines == ["┌─┐", "└─┘"])
    /// ```
    public var lines: [String] {
        (0..<height).map { y in
            var line = ""
            for x in 0..<width {
                let cell = cells[y * width + x]
                if !cell.isContinuation { line += cell.text }
            }
            while line.unicodeScalars.last == " " { line.unicodeScalars.removeLast() }
            return line
        }
    }

    /// ``lines`` joined with newlines: convenient for multi-line string literals in tests and for debugging.
    public func rendered() -> String {
        lines.joined(separator: "\n")
    }

    // MARK: - Private

    /// Cell text and width for a safe character: long clusters capped, a lone combining mark
    /// put on a dotted circle so it has something to combine with.
    private static func prepare(_ character: Character) -> (String, Int) {
        var text = String(character)
        if text.unicodeScalars.count > maximumScalarsPerCell {
            text = String(String.UnicodeScalarView(text.unicodeScalars.prefix(maximumScalarsPerCell)))
        }
        if text.unicodeScalars.allSatisfy({ TextWidth.scalarWidth($0) == 0 }) {
            text = "\u{25CC}" + text
        }
        let width = text.count == 1 ? TextWidth.width(of: Character(text)) : TextWidth.width(of: text)
        return (text, width)
    }

    /// Places a lead cell (and its continuations) at x, which the caller guarantees fits.
    private mutating func put(_ cell: Cell, x: Int, y: Int) {
        let row = y * width
        for c in x..<(x + cell.width) { breakWideCharacter(at: c, row: row) }
        cells[row + x] = cell
        for c in (x + 1)..<(x + cell.width) { cells[row + c] = .continuation(cell.style) }
    }

    /// If column c belongs to a multi-column character, turns that whole character into spaces.
    private mutating func breakWideCharacter(at c: Int, row: Int) {
        var lead = c
        while lead > 0, cells[row + lead].isContinuation { lead -= 1 }
        let leadCell = cells[row + lead]
        guard leadCell.width > 1 else { return }
        for i in lead..<min(lead + leadCell.width, width) { cells[row + i] = .space(leadCell.style) }
    }
}
