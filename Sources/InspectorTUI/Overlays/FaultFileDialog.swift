import TerminalUI

/// `o` in the fault rules view: asks for a fault rules file (`{"version": 1, "faults": [...]}`,
/// the file `bridge-inspector fault --file` takes) and sets every rule in it. Enter asks the
/// runner to read it (``OverlayAction/loadFaultRules(path:)``): the model never reads files.
/// When the file cannot be used the dialog comes back with the name as typed and the reason
/// (where in the file, and what is wrong), so a typo is fixed rather than typed again.
struct FaultFileDialog: OverlayView {
    /// The file, as typed, and the keys that edit and submit it.
    var input: FilePromptInput
    /// Why the last file named could not be loaded, shown under the field.
    var problem: String?

    /// Asks for a file, prefilled with `path` (typing replaces it), saying `problem` if there is one.
    init(path: String = "", problem: String? = nil) {
        self.input = FilePromptInput(path)
        self.problem = problem
    }

    var takesText: Bool { true }

    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
        input.handle(key, emptyHint: "type the file name of a fault rules file, such as faults.json") { .loadFaultRules(path: $0) }
    }

    var footerKeys: [(key: String, label: String)] { [("Enter", "load"), ("Esc", "back")] + input.path.footerKeys }

    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        FilePromptDrawing.draw(
            title: "Load fault rules",
            intro: "Set every rule of a fault rules file ({\"version\": 1, \"faults\": [...]}, as bridge-inspector fault --file takes): "
                + "the rules are yours and go when you quit.",
            path: input.path, placeholder: "faults.json", problem: problem.map { "✗ " + $0 }, keys: "Enter: load   Esc: back", into: &buffer, area: area)
    }
}
