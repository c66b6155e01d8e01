import InspectorProtocol
import TerminalUI

/// Asks before something destructive; `y` sends the command (or quits), anything else backs out.
///
/// Cancelling a capture also takes the reason the journey receives: the dialog then has a
/// reason field, prefilled (the first character typed replaces it), Enter sends and Esc backs
/// out. It knows the request it cancels: once the slot no longer holds it, or while the host is
/// disconnected, it says so and Enter sends nothing and keeps what was typed.
public struct ConfirmDialog: OverlayView {
    /// The question, naming exactly what will happen.
    public var question: String
    /// The command sent on yes; `nil` when yes quits the inspector.
    public var command: InspectorCommand?
    /// The action's label for the action log.
    public var label: String
    /// The reason sent with a capture's cancellation, or `nil` for a plain yes/no question.
    var reason: PrefilledText?
    /// The request a capture's cancellation is about (the slot's active request when asked).
    var heldRequest: String?
    /// A second way to say yes (replay with the same id), on its own key.
    var alternative: Alternative?
    /// A view that changes what is sent before sending it (replay: the message in an editor),
    /// opened in this dialog's place by `e`.
    var editFirst: (any OverlayView)?
    /// Commands sent together on yes, in order, instead of ``command`` (release all): each is
    /// its own action in the action log.
    var batch: [(command: InspectorCommand, label: String)] = []

    /// A second yes: its key, and what it sends.
    struct Alternative: Sendable {
        var key: Character
        /// What it does, in two or three words ("same id").
        var hint: String
        var command: InspectorCommand
        var label: String
    }

    /// Asks before cancelling `slot`'s request, with a reason to send (prefilled with the host's default).
    static func cancelCapture(_ slot: WireSlot) -> ConfirmDialog {
        let held = slot.activeRequest ?? ""
        var dialog = ConfirmDialog(
            question: "Cancel the \(slot.kind.rawValue) capture \(held)? The journey receives status cancelled with this reason.",
            command: .cancelSlot(.init(slot: slot.kind)), label: "cancel the \(slot.kind.rawValue) capture \(held)")
        dialog.reason = PrefilledText(defaultCancelReason)
        dialog.heldRequest = slot.activeRequest
        return dialog
    }

    /// The reason the host sends when none is given.
    static let defaultCancelReason = "Cancelled from the inspector"

    /// The command with the reason typed (an empty reason leaves the host's default).
    var commandToSend: InspectorCommand? {
        guard let reason, case .cancelSlot(var args)? = command else { return command }
        let text = reason.text.trimmingCharacters(in: .whitespaces)
        args.reason = text.isEmpty ? nil : text
        return .cancelSlot(args)
    }

    /// Why the command can no longer do what the question says, or `nil`.
    func staleness(in context: OverlayContext) -> String? {
        guard let heldRequest, case .cancelSlot(let args)? = command else { return nil }
        return SlotDialog.staleness(of: args.slot, holding: heldRequest, in: context)
    }

    var footerKeys: [(key: String, label: String)] {
        guard let reason else {
            let other = alternative.map { [(key: String($0.key), label: $0.hint)] } ?? []
            let edit = editFirst == nil ? [] : [(key: "e", label: "edit first")]
            return [("y", "yes")] + other + edit + [("n/Esc", "no")]
        }
        return [("Enter", "cancel the capture"), ("Esc", "back")] + reason.footerKeys
    }

    /// Asks before sending `command`.
    init(question: String, command: InspectorCommand, label: String) {
        self.question = question
        self.command = command
        self.label = label
    }

    /// Asks before sending each of `commands` (with its action-log label), in order.
    init(question: String, batch commands: [(command: InspectorCommand, label: String)], label: String) {
        self.question = question
        self.command = commands.first?.command
        self.label = label
        self.batch = commands
    }

    /// Asks before quitting: `y`, or `q` again, quits.
    init(quitQuestion question: String) {
        self.question = question
        self.command = nil
        self.label = "quit"
    }

    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
        guard reason != nil else {
            switch key {
            case .char("y"), .char("Y"):
                if !batch.isEmpty { return .sendAll(batch) }
                return command.map { .send($0, label: label) } ?? .quit
            case .char("e"):
                return editFirst.map { .switchTo($0) } ?? .close
            case .char(let character) where character == alternative?.key:
                return alternative.map { .send($0.command, label: $0.label) } ?? .close
            case .char("q") where command == nil: return .quit
            default: return .close
            }
        }
        switch key {
        case .escape:
            return .close
        case .enter:
            if let stale = staleness(in: context) { return .flash(stale, isError: true) }
            return commandToSend.map { .send($0, label: label) } ?? .close
        default:
            reason?.handle(key)
            return .none
        }
    }

    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        let width = min(70, area.width)
        let words = TextWrap.wrap(question, width: width - 4)
        let extra = reason == nil ? 0 : 3
        let inner = DialogFrame.centered(&buffer, area: area, width: width, height: words.count + 4 + extra, title: "Confirm")
        for (row, line) in words.enumerated() {
            buffer.write(line, at: Point(x: inner.x + 1, y: inner.y + row), maxWidth: inner.width - 1)
        }
        guard let reason else {
            let other = (alternative.map { "   \($0.key): \($0.hint)" } ?? "") + (editFirst == nil ? "" : "   e: edit first")
            buffer.write("y: yes\(other)   n / Esc: no", at: Point(x: inner.x + 1, y: inner.maxY - 1), style: Theme.paneTitle, maxWidth: inner.width - 1)
            return
        }
        let fields = Rect(x: inner.x + 1, y: inner.y, width: max(1, inner.width - 1), height: inner.height)
        var y = inner.y + words.count + 1
        y = FormDrawing.textField("reason", reason, focused: true, placeholder: "empty: \(Self.defaultCancelReason)", into: &buffer, at: y, in: fields)
        if let stale = staleness(in: context) { FormDrawing.note("✗ " + stale, style: Theme.danger, into: &buffer, at: y, in: fields) }
        buffer.write("Enter: cancel the capture   Esc: back", at: Point(x: inner.x + 1, y: inner.maxY - 1), style: Theme.paneTitle, maxWidth: inner.width - 1)
    }
}
