import TerminalUI

/// The drawing of a dialog that asks for one file name (``CompareDialog``, ``FaultFileDialog``):
/// what the file is for, the field, why the last name could not be used (sanitized: it can quote
/// the file), and the keys on the last row.
enum FilePromptDrawing {
    static func draw(
        title: String, intro: String, path: PrefilledText, placeholder: String, problem: String?, keys: String,
        into buffer: inout Buffer, area: Rect
    ) {
        let width = min(76, area.width)
        let words = TextWrap.wrap(intro, width: width - 4)
        let problemLines = problem.map { TextWrap.wrap(Sanitizer.sanitize($0), width: width - 4) } ?? []
        let height = words.count + problemLines.count + 6
        let inner = DialogFrame.centered(&buffer, area: area, width: width, height: height, title: title)
        for (row, line) in words.enumerated() {
            buffer.write(line, at: Point(x: inner.x + 1, y: inner.y + row), maxWidth: inner.width - 1)
        }
        let fields = Rect(x: inner.x + 1, y: inner.y, width: max(1, inner.width - 1), height: inner.height)
        FormDrawing.textField("file", path, focused: true, placeholder: placeholder, into: &buffer, at: inner.y + words.count + 1, in: fields)
        for (row, line) in problemLines.enumerated() {
            buffer.write(line, at: Point(x: inner.x + 1, y: inner.y + words.count + 3 + row), style: Theme.danger, maxWidth: inner.width - 1)
        }
        buffer.write(keys, at: Point(x: inner.x + 1, y: inner.maxY - 1), style: Theme.paneTitle, maxWidth: inner.width - 1)
    }
}
