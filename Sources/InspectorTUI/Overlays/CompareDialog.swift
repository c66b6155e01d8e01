import TerminalUI

/// `=`: asks for the recording to compare what the inspector shows with (a live session, or the
/// recording `open` shows). Enter asks the runner to read it
/// (``OverlayAction/loadComparison(path:)``): the model never reads files. When the file could
/// not be used the dialog comes back with the name as typed and the reason (``problem``), so a
/// typo is fixed rather than typed again.
struct CompareDialog: OverlayView {
    /// The file, as typed.
    var path: PrefilledText
    /// Why the last file named could not be compared, shown under the field.
    var problem: String?
    /// What it is compared with: "this session", or "this recording" in `open`.
    var subject: String

    /// Asks for a file to compare `subject` with, prefilled with `path` (typing replaces it),
    /// saying `problem` if there is one.
    init(subject: String, path: String = "", problem: String? = nil) {
        self.subject = subject
        self.path = PrefilledText(path)
        self.problem = problem
    }

    var takesText: Bool { true }

    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
        switch key {
        case .escape:
            return .close
        case .enter:
            guard !path.text.trimmingCharacters(in: .whitespaces).isEmpty else {
                return .flash("type the file name of a recording to compare with, such as session.jsonl", isError: true)
            }
            return .loadComparison(path: path.text)
        default:
            path.handle(key)
            return .none
        }
    }

    var footerKeys: [(key: String, label: String)] { [("Enter", "compare"), ("Esc", "back")] + path.footerKeys }

    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        let width = min(76, area.width)
        let words = TextWrap.wrap(
            "Compare \(subject) with a recording (made by bridge-inspector record, or saved with w): "
                + "the differences by what happened, the recording as \"before\".", width: width - 4)
        let problemLines = problem.map { TextWrap.wrap(Sanitizer.sanitize($0), width: width - 4) } ?? []
        let height = words.count + problemLines.count + 6
        let inner = DialogFrame.centered(&buffer, area: area, width: width, height: height, title: "Compare with a recording")
        for (row, line) in words.enumerated() {
            buffer.write(line, at: Point(x: inner.x + 1, y: inner.y + row), maxWidth: inner.width - 1)
        }
        let fields = Rect(x: inner.x + 1, y: inner.y, width: max(1, inner.width - 1), height: inner.height)
        FormDrawing.textField("file", path, focused: true, placeholder: "session.jsonl", into: &buffer, at: inner.y + words.count + 1, in: fields)
        for (row, line) in problemLines.enumerated() {
            buffer.write(line, at: Point(x: inner.x + 1, y: inner.y + words.count + 3 + row), style: Theme.danger, maxWidth: inner.width - 1)
        }
        buffer.write("Enter: compare   Esc: back", at: Point(x: inner.x + 1, y: inner.maxY - 1), style: Theme.paneTitle, maxWidth: inner.width - 1)
    }
}
