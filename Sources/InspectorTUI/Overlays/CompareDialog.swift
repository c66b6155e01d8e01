import TerminalUI

/// `=`: asks for the recording to compare what the inspector shows with (a live session, or the
/// recording `open` shows). Enter asks the runner to read it
/// (``OverlayAction/loadComparison(path:)``): the model never reads files. When the file could
/// not be used the dialog comes back with the name as typed and the reason (``problem``), so a
/// typo is fixed rather than typed again.
struct CompareDialog: OverlayView {
    /// The file, as typed, and the keys that edit and submit it.
    var input: FilePromptInput
    /// Why the last file named could not be compared, shown under the field.
    var problem: String?
    /// What it is compared with: "this session", or "this recording" in `open`.
    var subject: String

    /// Asks for a file to compare `subject` with, prefilled with `path` (typing replaces it),
    /// saying `problem` if there is one.
    init(subject: String, path: String = "", problem: String? = nil) {
        self.subject = subject
        self.input = FilePromptInput(path)
        self.problem = problem
    }

    var takesText: Bool { true }

    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
        input.handle(key, emptyHint: "type the file name of a recording to compare with, such as session.jsonl") { .loadComparison(path: $0) }
    }

    var footerKeys: [(key: String, label: String)] { [("Enter", "compare"), ("Esc", "back")] + input.path.footerKeys }

    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        FilePromptDrawing.draw(
            title: "Compare with a recording",
            intro: "Compare \(subject) with a recording (made by bridge-inspector record, or saved with w): "
                + "the differences by what happened, the recording as \"before\".",
            path: input.path, placeholder: "session.jsonl", problem: problem, keys: "Enter: compare   Esc: back", into: &buffer, area: area)
    }
}
