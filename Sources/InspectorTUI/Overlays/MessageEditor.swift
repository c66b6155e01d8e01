import BridgeCore
import Foundation
import InspectorClient
import TerminalUI

/// A whole bridge message's JSON in a multi-line editor (``TextArea``), pretty-printed when it
/// opens and checked as it is typed: a JSON mistake is reported with its line and column (the
/// line is marked `✗` in the editor's gutter, as the respond dialog reports a data field's
/// mistake), and text that is JSON but no bridge message says which field is wrong. Below, the
/// message as it will go, pretty-printed and coloured like the detail view.
///
/// Shared by the dialogs that send a message a person edited: a held message before release
/// (``HeldEditDialog``) and a journey message before it is replayed (``ReplayEditDialog``).
struct MessageEditor: Sendable {
    /// The text being edited.
    var area: TextArea

    /// An editor holding `message`, pretty-printed (sorted keys, two-space indents).
    init(message: BridgeMessage) {
        area = TextArea(text: Self.pretty(message))
    }

    /// The text as edited.
    var text: String { area.text }

    /// Replaces the text (with what the person wrote in `$EDITOR`).
    mutating func setText(_ text: String) {
        area.text = text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `message` as the editor shows it when it opens.
    static func pretty(_ message: BridgeMessage) -> String {
        (try? JSONEncoding.encode(message, pretty: true)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// What is wrong with the text: a sentence, and the line of a JSON mistake.
    struct Problem: Error, Equatable, Sendable {
        /// What is wrong, for a person ("not a message: JSON line 3, column 5: …").
        var text: String
        /// The line (1-based) a JSON mistake is on; `nil` when the JSON is fine but is no message.
        var line: Int?
    }

    /// The message the text describes, or what is wrong with it.
    var checked: Result<BridgeMessage, Problem> {
        let bytes = Array(text.utf8)
        if let problem = JSONSyntaxCheck.firstProblem(in: bytes) {
            return .failure(Problem(text: "not a message: JSON " + problem.describe(in: bytes), line: problem.line))
        }
        return BridgeMessage.edited(fromJSON: text).mapError { Problem(text: "not a message: " + $0.message, line: nil) }
    }

    /// What a key does in a dialog that edits a message.
    enum KeyResult {
        /// What the dialog answers (close, open `$EDITOR`, say what is wrong, nothing).
        case action(OverlayAction)
        /// Enter, with the text a message: the dialog sends it.
        case send(BridgeMessage)
    }

    /// A dialog's keys around the editor, the same in every dialog that edits a message: Esc
    /// closes, Ctrl-E opens `$EDITOR` for `purpose`, Enter sends the message (unless the dialog
    /// is `stale`, or the text is no message: then it says why), and every other key edits the
    /// text (on a screen of `size`).
    mutating func handle(_ key: Key, size: Size, purpose: EditorPurpose, stale: String?) -> KeyResult {
        switch key {
        case .escape:
            return .action(.close)
        case .ctrl("e"):
            return .action(.openEditor(text: text, purpose: purpose))
        case .enter:
            if let stale { return .action(.flash(stale, isError: true)) }
            switch checked {
            case .failure(let problem): return .action(.flash(problem.text, isError: true))
            case .success(let message): return .send(message)
            }
        default:
            area.visibleLines = Self.editorHeight(for: size)
            area.handle(key)
            return .action(.none)
        }
    }

    /// Takes the text written in `$EDITOR` when it was opened for `purpose`.
    mutating func take(_ text: String, for purpose: EditorPurpose, expecting expected: EditorPurpose) -> Bool {
        guard purpose == expected else { return false }
        setText(text)
        return true
    }

    /// The editing keys for a dialog's footer.
    static let footerKeys: [(key: String, label: String)] = [("↑↓←→", "move"), ("Ctrl-O", "new line"), ("Ctrl-E", "$EDITOR")]

    /// How many lines the editor shows on a screen of `size`: about half of a full-screen dialog,
    /// the rest for the checks and the preview.
    static func editorHeight(for size: Size) -> Int {
        max(3, (size.height - 10) / 2)
    }

    /// Draws the editor from row `y` of `rect`, then whether the text is ready (the host's last
    /// refusal, `problem`, or this editor's own check, in that order), then a preview of the
    /// message titled `previewTitle` in the rows left.
    func draw(
        into buffer: inout Buffer, from y: Int, in rect: Rect, size: Size, problem: String?, ready: String, previewTitle: String
    ) {
        var y = y
        guard y < rect.maxY else { return }
        let height = min(Self.editorHeight(for: size), max(1, rect.maxY - y - 2))
        let result = checked
        var failure: Problem?
        if case .failure(let found) = result { failure = found }
        area.draw(into: &buffer, in: Rect(x: rect.x, y: y, width: rect.width, height: height), style: Theme.dialogFieldFocused, marking: failure?.line)
        y += height
        let cursor = "line \(area.row + 1), column \(area.column + 1)"
        y = FormDrawing.readiness(problem ?? failure?.text, ready: ready + "  ·  " + cursor, into: &buffer, at: y, in: rect)
        let json = (try? result.get()).flatMap { try? BridgeMessageCodec().encode($0) }
        FormDrawing.preview(json, title: previewTitle, into: &buffer, from: y, in: rect)
    }
}
