import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import TerminalUI

/// Edits a message the journey sent before it is replayed (`I`, then `e`): the message as it
/// will be injected (its new correlation id, a fresh timestamp), pretty-printed in a multi-line
/// editor (``MessageEditor``) and checked as it is typed; Ctrl-E edits it in `$EDITOR`; Enter
/// injects it; Esc backs out.
///
/// Anything may change, the correlation id and the action too: a replay is a new message. The
/// dialog stays open until the host has taken it; a refusal shows here with the text kept.
public struct ReplayEditDialog: AwaitingDialog {
    /// The correlation id of the logged message being replayed.
    public let original: String
    /// The message's JSON as edited.
    var editor: MessageEditor
    /// The label of the inject sent and not yet answered.
    var awaiting: String?
    /// Why the last inject was refused (the host's words), shown until the next try.
    var sendError: String?

    /// Edits `message`, a replay of the logged message with correlation id `original`.
    init(replaying message: BridgeMessage, original: String) {
        self.original = original
        editor = MessageEditor(message: message)
    }

    /// The text as edited.
    var text: String { editor.text }

    /// Sets the message to the JSON the person wrote in `$EDITOR`.
    mutating func editorFinished(_ purpose: EditorPurpose, text newText: String) -> Bool {
        editor.take(newText, for: purpose, expecting: .replayMessage)
    }

    /// A form: a character typed is text.
    var takesText: Bool { true }

    var footerKeys: [(key: String, label: String)] {
        [("Enter", "replay edited"), ("Esc", "cancel")] + MessageEditor.footerKeys
    }

    /// Why nothing can be sent now, or `nil`.
    func staleness(in context: OverlayContext) -> String? {
        context.live.isDisconnected ? "not connected to the host: what you typed stays here (Esc closes)" : nil
    }

    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
        switch editor.handle(key, size: context.size, purpose: .replayMessage, stale: staleness(in: context)) {
        case .action(let action):
            return action
        case .send(let message):
            sendError = nil
            let label = "replay \(original) edited, as \(message.correlationId)"
            awaiting = label
            return .sendAndStay(.inject(.init(message: message)), label: label)
        }
    }

    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        let inner = DialogFrame.centered(&buffer, area: area, width: 110, height: area.height, title: "Edit and replay \(original)")
        var y = inner.y
        y = FormDrawing.note(
            "the host takes it as if the journey had posted it; any field may change (a new correlationId keeps its answer apart)",
            style: Theme.dim, into: &buffer, at: y, in: inner)
        editor.draw(
            into: &buffer, from: y, in: inner, size: context.size,
            problem: staleness(in: context) ?? sendError,
            ready: "ready: Enter replays this", previewTitle: "the host will receive")
    }
}
