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
