import TerminalUI

/// Lays the help's key list out in two columns that use the width there is: in each section the
/// key column is as wide as that section's longest key (up to a third of the width), so a
/// section of one-letter keys is not pushed apart by the filter language's long terms; a longer
/// key gets a line of its own with its meaning below it; meanings wrap, never cut.
enum HelpLayout {
    /// The lines for `sections` in `width` columns.
    static func lines(_ sections: [(title: String, keys: [(String, String)])], width: Int) -> [[Span]] {
        var lines: [[Span]] = []
        for section in sections {
            let longest = section.keys.map { TextWidth.width(of: $0.0) }.max() ?? 0
            let keyWidth = min(longest, max(8, width / 3))
            let meaningX = 2 + keyWidth + 2
            let meaningWidth = max(1, width - meaningX)
            let margin = String(repeating: " ", count: meaningX)
            for part in DialogFrame.wrap([Span(section.title, Theme.paneTitleFocused)], width: width) { lines.append(part) }
            for (key, meaning) in section.keys {
                let meaningLines = DialogFrame.wrap([Span(meaning, .plain)], width: meaningWidth, indent: 0)
                if TextWidth.width(of: key) <= keyWidth {
                    lines.append([Span("  " + TextWidth.pad(key, to: keyWidth) + "  ", Theme.paneTitle)] + (meaningLines.first ?? []))
                } else {
                    for part in DialogFrame.wrap([Span(key, Theme.paneTitle)], width: max(1, width - 2)) {
                        lines.append([Span("  ", .plain)] + part)
                    }
                    lines.append([Span(margin, .plain)] + (meaningLines.first ?? []))
                }
                for continuation in meaningLines.dropFirst() { lines.append([Span(margin, .plain)] + continuation) }
            }
            lines.append([])
        }
        return lines
    }
}
