import TerminalUI

/// Styled lines fitted to a width: wrapped (continuations indented like the line they continue)
/// or shifted left for horizontal scrolling, as `less` and `less -S` show them.
enum SpanLines {
    /// `lines` wrapped to `width` columns: nothing is cut, a line longer than the width goes on
    /// below, indented like its start (at most half the width). Returns, for each shown line,
    /// the index of the line it came from.
    static func wrapped(_ lines: [[Span]], width: Int) -> [(source: Int, spans: [Span])] {
        var result: [(source: Int, spans: [Span])] = []
        for (index, line) in lines.enumerated() {
            let text = line.map(\.text).joined()
            if TextWidth.width(of: text) <= width {
                result.append((index, line))
                continue
            }
            // The indentation is kept on every part (JSON nesting stays readable), plus two
            // columns on the parts that continue a line; never more than half the width.
            let leading = min(text.prefix { $0 == " " }.count, max(0, width / 2))
            let margin = leading > 0 ? [Span(String(repeating: " ", count: leading), .plain)] : []
            let parts = DialogFrame.wrap(dropping(leading, from: line), width: max(1, width - leading), indent: min(2, max(0, (width - leading) / 2)))
            for part in parts { result.append((index, margin + part)) }
        }
        return result
    }

    /// `line` with its first `columns` display columns left out (horizontal scrolling).
    static func dropping(_ columns: Int, from line: [Span]) -> [Span] {
        guard columns > 0 else { return line }
        var remaining = columns
        var result: [Span] = []
        for span in line {
            if remaining <= 0 {
                result.append(span)
                continue
            }
            var kept = ""
            for character in span.text {
                if remaining > 0 {
                    remaining -= TextWidth.width(of: character)
                    // A wide character cut in half leaves a blank column.
                    if remaining < 0 { kept += String(repeating: " ", count: -remaining) }
                } else {
                    kept.append(character)
                }
            }
            if !kept.isEmpty { result.append(Span(kept, span.style)) }
        }
        return result
    }

    /// The widest line, in display columns.
    static func maxWidth(_ lines: [[Span]]) -> Int {
        lines.map { TextWidth.width(of: $0.map(\.text).joined()) }.max() ?? 0
    }
}
