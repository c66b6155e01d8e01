import TerminalUI

/// Word wrapping in display columns.
enum TextWrap {
    static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [text] }
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                let candidate = line.isEmpty ? String(word) : line + " " + word
                if TextWidth.width(of: candidate) <= width {
                    line = candidate
                } else {
                    if !line.isEmpty { lines.append(line) }
                    line = TextWidth.width(of: String(word)) > width ? TextWidth.truncate(String(word), to: width) : String(word)
                }
            }
            lines.append(line)
        }
        return lines
    }
}
