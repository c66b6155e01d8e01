import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import TerminalUI

/// Sends a message to the host as if the journey had posted it (`inject`): its type, action,
/// correlation id (prefilled with a new one), a response's status, and data as JSON, with the
/// exact message shown before it is sent. The host's answer threads to it in the log as any
/// answer does; the injected row is marked as made by an inspector. Tab moves between fields;
/// ←/→ change a choice; Enter sends; Esc cancels. A refusal shows here and keeps what was typed.
public struct InjectDialog: AwaitingDialog {
    var type = MessageType.request
    var action = PrefilledText()
    var correlationId: PrefilledText
    var status = BridgeResponseStatus.success
    var data = PrefilledText("{}")
    var field = Field.type
    /// The label of the command sent and not yet answered.
    var awaiting: String?
    /// The host's refusal of the last try.
    var sendError: String?

    enum Field: Int, CaseIterable { case type, action, correlationId, status, data }

    init(correlationId: String = BridgeMessage.injectedCorrelationId()) {
        self.correlationId = PrefilledText(correlationId)
    }

    /// The message to inject, or why the fields do not make one yet.
    var message: Result<BridgeMessage, DataFieldError> {
        let actionText = action.text.trimmingCharacters(in: .whitespaces)
        let id = correlationId.text.trimmingCharacters(in: .whitespaces)
        guard !actionText.isEmpty else { return .failure(DataFieldError(message: "type an action, like camera.document.capture")) }
        guard !id.isEmpty else { return .failure(DataFieldError(message: "type a correlation id (a response's is its request's)")) }
        return DataField.parse(data.text).map { object in
            BridgeMessage(
                correlationId: id, type: type, payload: .init(action: actionText, data: object, status: type == .response ? status : nil))
        }
    }

    /// A form: a character typed is text.
    var takesText: Bool { true }

    var footerKeys: [(key: String, label: String)] {
        let editing: [(key: String, label: String)]
        switch field {
        case .type, .status: editing = [("←→", "change")]
        case .action: editing = action.footerKeys
        case .correlationId: editing = correlationId.footerKeys
        case .data: editing = data.footerKeys
        }
        return [("Enter", "inject"), ("Esc", "cancel")] + editing + [("Tab", "field")]
    }

    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
        let fields = Field.allCases.filter { $0 != .status || type == .response }
        let index = fields.firstIndex(of: field) ?? 0
        switch key {
        case .escape:
            return .close
        case .tab:
            field = fields[(index + 1) % fields.count]
        case .backTab:
            field = fields[(index + fields.count - 1) % fields.count]
        case .enter:
            if context.live.isDisconnected { return .flash("not connected to the host: nothing can be injected now", isError: true) }
            switch message {
            case .failure(let error): return .flash(error.message, isError: true)
            case .success(let message):
                sendError = nil
                let label = "inject \(message.type.rawValue) \(message.payload.action) \(message.correlationId)"
                awaiting = label
                return .sendAndStay(.inject(.init(message: message)), label: label)
            }
        default:
            switch field {
            case .type:
                let all: [MessageType] = [.request, .event, .response]
                let current = all.firstIndex(of: type) ?? 0
                if key == .right || key == .char(" ") { type = all[(current + 1) % all.count] }
                if key == .left { type = all[(current + all.count - 1) % all.count] }
            case .status:
                let all = BridgeResponseStatus.allCases
                let current = all.firstIndex(of: status) ?? 0
                if key == .right || key == .char(" ") { status = all[(current + 1) % all.count] }
                if key == .left { status = all[(current + all.count - 1) % all.count] }
            case .action: action.handle(key)
            case .correlationId: correlationId.handle(key)
            case .data: data.handle(key)
            }
        }
        return .none
    }

    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        let inner = DialogFrame.centered(&buffer, area: area, width: 100, height: area.height, title: "Inject a message as the journey")
        var y = inner.y
        y = FormDrawing.note("The host handles it as if the journey had posted it; its answer appears in the log.", style: Theme.dim, into: &buffer, at: y, in: inner)
        y += 1
        y = FormDrawing.choice("type", type.rawValue, focused: field == .type, hint: "←/→ to change", into: &buffer, at: y, in: inner)
        y = FormDrawing.textField("action", action, focused: field == .action, placeholder: "camera.document.capture", into: &buffer, at: y, in: inner)
        y = FormDrawing.textField("correlation id", correlationId, focused: field == .correlationId, into: &buffer, at: y, in: inner)
        if type == .response {
            y = FormDrawing.choice("status", status.rawValue, focused: field == .status, hint: "←/→ to change", into: &buffer, at: y, in: inner)
        }
        y = FormDrawing.textField("data (JSON)", data, focused: field == .data, placeholder: "{} or empty for none", into: &buffer, at: y, in: inner)
        let built = message
        var problem = sendError
        if problem == nil, case .failure(let error) = built { problem = error.message }
        y = FormDrawing.readiness(problem, ready: "ready: Enter injects it", into: &buffer, at: y, in: inner)
        let json = (try? built.get()).flatMap { try? BridgeMessageCodec().encode($0) }
        FormDrawing.preview(json, title: "the host will receive (its timestamp is now)", into: &buffer, from: y + 1, in: inner)
    }
}
