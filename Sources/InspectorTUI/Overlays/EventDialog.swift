import BridgeCore
import Foundation
import InspectorProtocol
import TerminalUI

/// Fires a host event: a name and data as JSON, with a history of earlier events to recall
/// (↑/↓ in the name field) and the exact wire message shown before it is sent.
///
/// Both fields open prefilled (the last event sent in this run to this host, else `host.ping`
/// and `{}`: an event sent in another run, or to another host, is only offered by ↑/↓), and a
/// recalled event fills them the same way: the first character typed in a field replaces its
/// prefilled value, as the respond dialog's fields do; once edited (or after Ctrl-E), typing
/// edits it.
public struct EventDialog: OverlayView {
    var name: PrefilledText
    var data = PrefilledText("{}")
    var onName = true
    let history: [EventDraft]
    var historyIndex: Int?

    /// Events the documentation names, offered when there is no history yet.
    static let suggestions = [
        EventDraft(name: "host.ping", dataText: "{}"),
        EventDraft(name: "host.background", dataText: "{}"),
        EventDraft(name: "host.foreground", dataText: "{}"),
        EventDraft(name: "host.orientation", dataText: "{\"orientation\": \"landscape\"}"),
    ]

    /// A dialog that offers `history` for recall and opens with `prefill` (else `host.ping`, `{}`).
    init(history: [EventDraft], prefill: EventDraft? = nil) {
        self.history = history
        self.name = PrefilledText(prefill?.name ?? "host.ping")
        if let prefill { data = PrefilledText(prefill.dataText) }
    }

    /// Sets the data to text the person wrote in `$EDITOR`: typing then edits it.
    mutating func editorFinished(_ purpose: EditorPurpose, text: String) -> Bool {
        guard purpose == .eventData else { return false }
        data = PrefilledText(text.trimmingCharacters(in: .whitespacesAndNewlines), untouched: false)
        return true
    }

    var recallable: [EventDraft] { history.isEmpty ? Self.suggestions : history }

    var command: Result<InspectorCommand, DataFieldError> {
        let eventName = name.text.trimmingCharacters(in: .whitespaces)
        guard !eventName.isEmpty else { return .failure(DataFieldError(message: "the event needs a name, such as host.ping")) }
        switch DataField.parse(data.text) {
        case .failure(let error): return .failure(error)
        case .success(let object): return .success(.sendEvent(.init(name: eventName, data: object)))
        }
    }

    func wireMessage(now: Double, environment: String) -> Data? {
        guard case .success(.sendEvent(let args)) = command else { return nil }
        let message = BridgeMessage(
            correlationId: "\(environment)-event-<assigned by the host>", type: .event, timestamp: now.rounded(),
            payload: .init(action: args.name, data: args.data))
        return try? BridgeMessageCodec().encode(message)
    }

    /// The focused field's editing keys between the most needed and the rest, as the respond
    /// dialog lists them: the footer drops from the end what does not fit.
    /// A form: a character typed is text.
    var takesText: Bool { true }

    var footerKeys: [(key: String, label: String)] {
        let editing = onName ? name.footerKeys + [("↑↓", "history")] : data.footerKeys
        return [("Enter", "send"), ("Esc", "cancel")] + editing + [("Tab", "field"), ("Ctrl-E", "$EDITOR")]
    }

    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
        switch key {
        case .escape:
            return .close
        case .tab, .backTab:
            onName.toggle()
        case .up where onName, .down where onName:
            let list = recallable
            guard !list.isEmpty else { return .none }
            var index = historyIndex ?? list.count
            index = key == .up ? max(0, index - 1) : min(list.count - 1, index + 1)
            historyIndex = index
            // A recalled event is a value to send as it is or to type over, as the first one.
            name = PrefilledText(list[index].name)
            data = PrefilledText(list[index].dataText)
        case .ctrl("e"):
            return .openEditor(text: data.text.isEmpty ? "{}" : data.text, purpose: .eventData)
        case .enter:
            switch command {
            case .success(let command):
                guard case .sendEvent(let args) = command else { return .none }
                return .send(command, label: "send event \(args.name)")
            case .failure(let error):
                return .flash(error.message, isError: true)
            }
        default:
            if onName { name.handle(key) } else { data.handle(key) }
        }
        return .none
    }

    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        let inner = DialogFrame.centered(&buffer, area: area, width: 90, height: min(area.height, 22), title: "Fire a host event")
        var y = inner.y
        y = FormDrawing.textField("event name", name, focused: onName, placeholder: "host.ping", into: &buffer, at: y, in: inner)
        y = FormDrawing.textField("data (JSON)", data, focused: !onName, placeholder: "{} or empty for none", into: &buffer, at: y, in: inner)
        let recall = history.isEmpty ? "↑/↓ in the name field: documented host events" : "↑/↓ in the name field: \(history.count) earlier events"
        y = FormDrawing.note(recall, style: Theme.dim, into: &buffer, at: y, in: inner)
        switch command {
        case .failure(let error): y = FormDrawing.note("✗ " + error.message, style: Theme.danger, into: &buffer, at: y, in: inner)
        case .success: y = FormDrawing.note("✓ ready: Enter sends", style: Theme.success, into: &buffer, at: y, in: inner)
        }
        FormDrawing.preview(
            wireMessage(now: context.now, environment: context.live.host?.environment ?? "ios"), title: "the journey will receive",
            into: &buffer, from: y + 1, in: inner)
    }
}
