import TerminalUI

/// Draws the frame of a modal view: a cleared, bordered box centred in (or filling) an area.
enum DialogFrame {
    /// A box of at most `width`×`height` centred in `area`; returns the inside.
    static func centered(_ buffer: inout Buffer, area: Rect, width: Int, height: Int, title: String) -> Rect {
        let box = area.centered(width: min(width, area.width), height: min(height, area.height))
        buffer.fill(box)
        return buffer.box(box, style: Theme.borderFocused, title: title, titleStyle: Theme.paneTitleFocused)
    }

    /// A box filling `area`; returns the inside.
    static func full(_ buffer: inout Buffer, area: Rect, title: String) -> Rect {
        buffer.fill(area)
        return buffer.box(area, style: Theme.borderFocused, title: title, titleStyle: Theme.paneTitleFocused)
    }

    /// Draws what an empty list says instead: the first line as a heading, the others (how to
    /// fill it) dimmed, one per row.
    static func emptyListNote(_ lines: [String], into buffer: inout Buffer, rect: Rect) {
        for (row, line) in lines.enumerated() where row < rect.height {
            buffer.write(line, at: Point(x: rect.x, y: rect.y + row), style: row == 0 ? Theme.paneTitle : Theme.dim, maxWidth: rect.width)
        }
    }

    /// Draws styled lines from `first` into `rect`, one per row.
    static func drawLines(_ lines: [[Span]], first: Int, into buffer: inout Buffer, rect: Rect) {
        for row in 0..<rect.height {
            let index = first + row
            guard index < lines.count else { break }
            var x = rect.x
            for span in lines[index] {
                guard x < rect.maxX else { break }
                x += buffer.write(span.text, at: Point(x: x, y: rect.y + row), style: span.style, maxWidth: rect.maxX - x)
            }
        }
    }

    /// Draws a list whose entries take one or more lines each into `rect`, scrolled so the
    /// lines `cursor` (the selected entry's, first to last) are in view: from its first line
    /// when the entry is taller than `rect`. Lines for which `highlighted` is true get the
    /// selection's background across the whole row.
    static func drawList(
        _ lines: [[Span]], keepingInView cursor: ClosedRange<Int>, highlighted: (Int) -> Bool, into buffer: inout Buffer, rect: Rect
    ) {
        let first = cursor.upperBound >= rect.height ? min(cursor.lowerBound, cursor.upperBound - rect.height + 1) : 0
        for row in 0..<rect.height {
            let index = first + row
            guard index < lines.count else { break }
            let line = Rect(x: rect.x, y: rect.y + row, width: rect.width, height: 1)
            if highlighted(index) { buffer.fill(line, style: Theme.selection) }
            drawLines([lines[index]], first: 0, into: &buffer, rect: line)
        }
    }

    /// The lines of `rows` that belong to entry `entry`, first to last (`0...0` when none do).
    static func lines<Row>(of entry: Int, in rows: [Row], entryOf: (Row) -> Int) -> ClosedRange<Int> {
        guard let first = rows.firstIndex(where: { entryOf($0) == entry }), let last = rows.lastIndex(where: { entryOf($0) == entry }) else {
            return 0...0
        }
        return first...last
    }

    /// Word-wraps styled text into lines of at most `width` columns, each line after the first
    /// starting with `indent` spaces. A word longer than a line is broken, never cut: long host
    /// messages and errors must be readable in full.
    static func wrap(_ spans: [Span], width: Int, indent: Int = 0, indentStyle: Style = .plain) -> [[Span]] {
        var lines: [[Span]] = [[]]
        var used = 0
        var limit = max(1, width)
        func put(_ text: String, _ style: Style) {
            if let last = lines[lines.count - 1].last, last.style == style {
                lines[lines.count - 1][lines[lines.count - 1].count - 1].text += text
            } else {
                lines[lines.count - 1].append(Span(text, style))
            }
            used += TextWidth.width(of: text)
        }
        func newLine() {
            lines.append(indent > 0 ? [Span(String(repeating: " ", count: indent), indentStyle)] : [])
            used = 0
            limit = max(1, width - indent)
        }
        for span in spans {
            for (index, word) in span.text.split(separator: " ", omittingEmptySubsequences: false).enumerated() {
                let space = index > 0 && used > 0
                let wordWidth = TextWidth.width(of: word)
                if used + (space ? 1 : 0) + wordWidth <= limit {
                    put((space ? " " : "") + word, span.style)
                    continue
                }
                if used > 0 && wordWidth <= limit {
                    newLine()
                    put(String(word), span.style)
                    continue
                }
                if space { put(" ", span.style) }
                for character in word {
                    if used + TextWidth.width(of: character) > limit && used > 0 { newLine() }
                    put(String(character), span.style)
                }
            }
        }
        return lines
    }

    /// Scrolls `offset` for a key over `count` lines shown `page` at a time; `nil` when the key is not a scroll key.
    static func scroll(_ offset: Int, key: Key, count: Int, page: Int) -> Int? {
        let maxOffset = max(0, count - page)
        switch key {
        case .char("j"), .down: return min(maxOffset, offset + 1)
        case .char("k"), .up: return max(0, offset - 1)
        case .pageDown, .char(" "), .ctrl("f"): return min(maxOffset, offset + max(1, page - 1))
        case .pageUp, .ctrl("b"): return max(0, offset - max(1, page - 1))
        case .char("g"), .home: return 0
        case .char("G"), .end: return maxOffset
        default: return nil
        }
    }
}
