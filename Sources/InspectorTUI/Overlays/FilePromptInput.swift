import TerminalUI

/// What every dialog that asks for a file name does with keys (`=`'s `CompareDialog`, the fault
/// rules' `FaultFileDialog`): the name as typed, prefilled and replaced by the first keystroke;
/// Enter with a name hands it on, Enter without one says what to type; Esc goes back. The
/// dialog says what the name is for; the runner reads the file, never the model.
struct FilePromptInput {
    /// The file, as typed.
    var path: PrefilledText

    /// A field prefilled with `path`.
    init(_ path: String) {
        self.path = PrefilledText(path)
    }

    /// Handles `key`: `submit` with the name on Enter, a flash of `emptyHint` when there is none.
    mutating func handle(_ key: Key, emptyHint: String, submit: (String) -> OverlayAction) -> OverlayAction {
        switch key {
        case .escape:
            return .close
        case .enter:
            guard !path.text.trimmingCharacters(in: .whitespaces).isEmpty else { return .flash(emptyHint, isError: true) }
            return submit(path.text)
        default:
            path.handle(key)
            return .none
        }
    }
}
