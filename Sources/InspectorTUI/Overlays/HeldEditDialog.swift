import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import TerminalUI

/// Edits a held message and releases the edited message: the message's JSON, prefilled, checked
/// as it is typed; Ctrl-E edits it in `$EDITOR`; Enter releases; Esc backs out.
///
/// The host refuses an edit that changes the correlationId, type or action: the refusal shows
/// here and the dialog keeps the text, so nothing typed is lost. The dialog closes when the host
/// has released the message.
public struct HeldEditDialog: AwaitingDialog {
    /// The held message being edited.
    public let held: WireHeld
    /// The message's JSON as edited.
    var text: PrefilledText
    /// The label of the release sent and not yet answered.
    var awaiting: String?
    /// Why the last release was refused (the host's words), shown until the next try.
    var sendError: String?

    init(held: WireHeld) {
        self.held = held
        let json = (try? BridgeMessageCodec().encode(held.message)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        // The person edits this text rather than replacing it: typing inserts at the cursor.
        text = PrefilledText(json, untouched: false)
    }

    /// The edited message, or what is wrong with the text.
    var edited: Result<BridgeMessage, HeldMessageEditError> { BridgeMessage.edited(fromJSON: text.text) }

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
        guard purpose == .heldMessage else { return false }
        text = PrefilledText(newText.trimmingCharacters(in: .whitespacesAndNewlines), untouched: false)
        return true
    }

    /// A form: a character typed is text.
    var takesText: Bool { true }

    var footerKeys: [(key: String, label: String)] {
        [("Enter", "release edited"), ("Esc", "cancel")] + PrefilledText.editingKeys + [("Ctrl-E", "$EDITOR")]
    }

    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
        switch key {
        case .escape:
            return .close
        case .ctrl("e"):
            return .openEditor(text: text.text, purpose: .heldMessage)
        case .enter:
            if let stale = staleness(in: context) { return .flash(stale, isError: true) }
            switch edited {
            case .failure(let error): return .flash("not a message: \(error.message)", isError: true)
            case .success(let message):
                sendError = nil
                let label = "release edited \(HeldView.describe(held))"
                awaiting = label
                return .sendAndStay(.release(.init(id: held.id, message: message)), label: label)
            }
        default:
            text.handle(key)
        }
        return .none
    }

    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        let inner = DialogFrame.centered(&buffer, area: area, width: 110, height: area.height, title: "Edit and release \(held.id)")
        var y = inner.y
        y = FormDrawing.note(
            "\(HeldView.describe(held)) · keep its correlationId, type and action (the host refuses other changes)", style: Theme.dim,
            into: &buffer, at: y, in: inner)
        y += 1
        y = FormDrawing.textField("message (JSON)", text, focused: true, into: &buffer, at: y, in: inner)
        let parsed = edited
        var parseError: String?
        if case .failure(let error) = parsed { parseError = "not a message: " + error.message }
        y = FormDrawing.readiness(staleness(in: context) ?? sendError ?? parseError, ready: "ready: Enter releases this", into: &buffer, at: y, in: inner)
        let json = (try? parsed.get()).flatMap { try? BridgeMessageCodec().encode($0) }
        FormDrawing.preview(json, title: held.direction == .received ? "the host will route" : "the journey will receive", into: &buffer, from: y + 1, in: inner)
    }
}
