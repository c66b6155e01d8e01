import TerminalUI

/// A dialog's text field that may still hold the value it was filled with (a default, a
/// template's text): the first character typed replaces that value, as typing over a selected
/// default does in a GUI field, and Backspace or Delete clear it. Once the person has edited
/// it (typed, deleted, moved the cursor), typing inserts at the cursor as usual.
struct PrefilledText: Sendable, Equatable {
    /// The text and cursor.
    private(set) var input: TextInput
    /// Whether the text is still the value it was filled with.
    private(set) var isUntouched: Bool

    /// A field holding `text`; `untouched` when the person did not write it.
    init(_ text: String = "", untouched: Bool = true) {
        input = TextInput(text: text)
        isUntouched = untouched && !text.isEmpty
    }

    /// The field's text.
    var text: String { input.text }

    /// Applies an editing key (see ``TextInput/handle(_:)``); returns whether it was used.
    @discardableResult
    mutating func handle(_ key: Key) -> Bool {
        if isUntouched {
            switch key {
            case .char:
                input = TextInput()
            case .backspace, .delete, .ctrl("h"), .ctrl("d"):
                input = TextInput()
                isUntouched = false
                return true
            default:
                break
            }
        }
        let used = input.handle(key)
        if used { isUntouched = false }
        return used
    }

    /// The editing keys for a dialog's footer while this field has the focus.
    var footerKeys: [(key: String, label: String)] {
        isUntouched
            ? [("type", "replaces it"), ("←→", "edit it")]
            : Self.editingKeys
    }

    /// The editing keys of a text field the person is editing (or any plain text field).
    static let editingKeys: [(key: String, label: String)] = [("Ctrl-U", "clear"), ("Ctrl-W", "word")]
}
