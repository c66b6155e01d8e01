import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import TerminalUI

/// Edits a held message and releases the edited message: the message's JSON, pretty-printed in
/// a multi-line editor (``MessageEditor``) and checked as it is typed, a JSON mistake with its
/// line and column; Ctrl-E edits it in `$EDITOR`; Enter releases; Esc backs out.
///
/// The host refuses an edit that changes the correlationId, type or action: the refusal shows
/// here and the dialog keeps the text, so nothing typed is lost. The dialog closes when the host
/// has released the message; the log then shows the message as delivered, marked edited, with
/// the original in its detail view.
public struct HeldEditDialog: AwaitingDialog {
    /// The held message being edited.
    public let held: WireHeld
    /// The message's JSON as edited.
    var editor: MessageEditor
    /// The label of the release sent and not yet answered.
    var awaiting: String?
    /// Why the last release was refused (the host's words), shown until the next try.
    var sendError: String?

    init(held: WireHeld) {
        self.held = held
        editor = MessageEditor(message: held.message)
    }

    /// The text as edited.
    var text: String { editor.text }

    /// The edited message, or what is wrong with the text.
    var edited: Result<BridgeMessage, MessageEditor.Problem> { editor.checked }

    /// Why nothing can be released now, or `nil`.
    func staleness(in context: OverlayContext) -> String? {
        if context.live.isDisconnected { return "not connected to the host: what you typed stays here (Esc closes)" }
        guard context.live.held.contains(where: { $0.id == held.id }) else {
            return "\(held.id) is no longer held (released, answered or dropped elsewhere): Esc closes"
        }
        return nil
    }

    /// Sets the message to the JSON the person wrote in `$EDITOR`.
    mutating func editorFinished(_ purpose: EditorPurpose, text newText: String) -> Bool {
        editor.take(newText, for: purpose, expecting: .heldMessage)
    }

    /// A form: a character typed is text.
    var takesText: Bool { true }

    var footerKeys: [(key: String, label: String)] {
        [("Enter", "release edited"), ("Esc", "cancel")] + MessageEditor.footerKeys
    }

    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
        switch editor.handle(key, size: context.size, purpose: .heldMessage, stale: staleness(in: context)) {
        case .action(let action):
            return action
        case .send(let message):
            sendError = nil
            let label = "release edited \(HeldView.describe(held))"
            awaiting = label
            return .sendAndStay(.release(.init(id: held.id, message: message)), label: label)
        }
    }

    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        let inner = DialogFrame.centered(&buffer, area: area, width: 110, height: area.height, title: "Edit and release \(held.id)")
        var y = inner.y
        y = FormDrawing.note(
            "\(HeldView.describe(held)) · keep its correlationId, type and action (the host refuses other changes)", style: Theme.dim,
            into: &buffer, at: y, in: inner)
        editor.draw(
            into: &buffer, from: y, in: inner, size: context.size, problem: staleness(in: context) ?? sendError, ready: "ready: Enter releases this",
            previewTitle: held.direction == .received ? "the host will route" : "the journey will receive")
    }
}
