import TerminalUI

/// `o` in the fault rules view: asks for a fault rules file (`{"version": 1, "faults": [...]}`,
/// the file `bridge-inspector fault --file` takes) and sets every rule in it. Enter asks the
/// runner to read it (``OverlayAction/loadFaultRules(path:)``): the model never reads files.
/// When the file cannot be used the dialog comes back with the name as typed and the reason
/// (where in the file, and what is wrong), so a typo is fixed rather than typed again.
struct FaultFileDialog: OverlayView {
    /// The file, as typed.
    var path: PrefilledText
    /// Why the last file named could not be loaded, shown under the field.
    var problem: String?

    /// Asks for a file, prefilled with `path` (typing replaces it), saying `problem` if there is one.
    init(path: String = "", problem: String? = nil) {
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
                return .flash("type the file name of a fault rules file, such as faults.json", isError: true)
            }
            return .loadFaultRules(path: path.text)
        default:
            path.handle(key)
            return .none
        }
    }

    var footerKeys: [(key: String, label: String)] { [("Enter", "load"), ("Esc", "back")] + path.footerKeys }

    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        let width = min(76, area.width)
        let words = TextWrap.wrap(
            "Set every rule of a fault rules file ({\"version\": 1, \"faults\": [...]}, as bridge-inspector fault --file takes): "
                + "the rules are yours and go when you quit.", width: width - 4)
        let problemLines = problem.map { TextWrap.wrap("✗ " + Sanitizer.sanitize($0), width: width - 4) } ?? []
        let height = words.count + problemLines.count + 6
        let inner = DialogFrame.centered(&buffer, area: area, width: width, height: height, title: "Load fault rules")
        for (row, line) in words.enumerated() {
            buffer.write(line, at: Point(x: inner.x + 1, y: inner.y + row), maxWidth: inner.width - 1)
        }
        let fields = Rect(x: inner.x + 1, y: inner.y, width: max(1, inner.width - 1), height: inner.height)
        FormDrawing.textField("file", path, focused: true, placeholder: "faults.json", into: &buffer, at: inner.y + words.count + 1, in: fields)
        for (row, line) in problemLines.enumerated() {
            buffer.write(line, at: Point(x: inner.x + 1, y: inner.y + words.count + 3 + row), style: Theme.danger, maxWidth: inner.width - 1)
        }
        buffer.write("Enter: load   Esc: back", at: Point(x: inner.x + 1, y: inner.maxY - 1), style: Theme.paneTitle, maxWidth: inner.width - 1)
    }
}
