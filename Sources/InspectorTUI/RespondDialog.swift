import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import TerminalUI

/// Answers a pending request by hand: status, data as JSON, and an error object, with templates
/// for the common answers and the exact wire message shown before it is sent.
///
/// Tab moves between fields; ←/→ change the status; Ctrl-T (or F2) cycles templates; Ctrl-E
/// edits the data in `$EDITOR`; Enter sends; Esc cancels. The data is validated as you type and
/// a mistake is reported with its line and column.
public struct RespondDialog: Sendable {
    /// The request being answered.
    public let request: WirePending
    /// Status, data and error, shared with the new-rule form.
    var fields = ResponseFields()
    var field = Field.status
    var templateIndex = -1
    /// Keep answering requests for this action the same way: how many more (nil: none; 0: every).
    var remember = Remember.no

    enum Field: Int, CaseIterable {
        case status, data, errorCode, errorMessage, recoverable, remember

        /// The shared response field this is, if it is one.
        var responseField: ResponseFields.Field? {
            switch self {
            case .status: return .status
            case .data: return .data
            case .errorCode: return .errorCode
            case .errorMessage: return .errorMessage
            case .recoverable: return .recoverable
            case .remember: return nil
            }
        }
    }

    /// "Answer the next ones the same way", as cordova-simulate's "persist": makes a reply rule.
    enum Remember: String, CaseIterable {
        case no = "no, just this one"
        case next1 = "and the next 1 like it"
        case next5 = "and the next 5 like it"
        case always = "and every later one like it"

        var times: Int?? {
            switch self {
            case .no: return .none
            case .next1: return .some(1)
            case .next5: return .some(5)
            case .always: return .some(nil)
            }
        }
    }

    init(request: WirePending) {
        self.request = request
    }

    /// The response status chosen.
    var status: BridgeResponseStatus { fields.status }
    /// The data field.
    var data: TextInput { fields.data }

    /// The templates offered for this request: success, a capture success for camera actions,
    /// and each documented error code with the SDK's recoverable flag.
    var templates: [ResponseFields.Template] { ResponseFields.templates(for: request.action) }

    mutating func setData(_ text: String) {
        fields.setData(text)
    }

    /// The command this dialog sends, or why it cannot yet.
    var command: Result<InspectorCommand, DataFieldError> {
        fields.response.map { .respond(.init(correlationId: request.correlationId, status: $0.status, data: $0.data, error: $0.error)) }
    }

    /// The wire message the journey will receive (its timestamp is set by the host when sent).
    func wireMessage(now: Double) -> Data? {
        guard case .success(.respond(let args)) = command else { return nil }
        let message = BridgeMessage(
            correlationId: args.correlationId, type: .response, timestamp: now.rounded(),
            payload: .init(action: request.action, data: args.data, status: args.status, error: args.error))
        return try? BridgeMessageCodec().encode(message)
    }

    var footerKeys: [(key: String, label: String)] {
        [("Enter", "send"), ("Tab", "field"), ("←→", "status"), ("Ctrl-T", "template"), ("Ctrl-E", "$EDITOR"), ("Esc", "cancel")]
    }

    mutating func handle(_ key: Key, model: InspectorModel) -> OverlayAction {
        switch key {
        case .escape:
            return .close
        case .tab:
            field = Field(rawValue: (field.rawValue + 1) % Field.allCases.count) ?? .status
        case .backTab:
            field = Field(rawValue: (field.rawValue + Field.allCases.count - 1) % Field.allCases.count) ?? .status
        case .ctrl("t"), .function(2):
            let list = templates
            templateIndex = (templateIndex + 1) % list.count
            fields.apply(list[templateIndex])
        case .ctrl("e"):
            return .openEditor(text: data.text.isEmpty ? "{}" : data.text, purpose: .responseData)
        case .enter:
            switch command {
            case .success(let command):
                let label = "respond \(status.rawValue) to \(request.action) \(request.correlationId)"
                guard case .some(let times) = remember.times, case .respond(let args) = command else { return .send(command, label: label) }
                let rule = ReplyRule(
                    action: request.action, times: times, response: .init(status: args.status, data: args.data, error: args.error))
                return .sendAndRemember(command, label: label, rule: rule)
            case .failure(let error):
                return .flash(error.message, isError: true)
            }
        default:
            if let responseField = field.responseField {
                fields.handle(key, in: responseField)
            } else {
                let all = Remember.allCases
                let index = all.firstIndex(of: remember) ?? 0
                if key == .right || key == .char(" ") { remember = all[(index + 1) % all.count] }
                if key == .left { remember = all[(index + all.count - 1) % all.count] }
            }
        }
        return .none
    }

    func render(into buffer: inout Buffer, area: Rect, model: InspectorModel) {
        let inner = DialogFrame.centered(&buffer, area: area, width: 100, height: area.height, title: "Respond to \(request.action)")
        var y = inner.y
        y = FormDrawing.note(
            "request \(request.correlationId), waiting \(TimeFormat.duration(ms: model.now - request.since))", style: Theme.dim,
            into: &buffer, at: y, in: inner)
        let template = templateIndex >= 0 ? templates[templateIndex].name : "none (Ctrl-T)"
        y = FormDrawing.note("template: \(template)", style: Theme.dim, into: &buffer, at: y, in: inner)
        y += 1
        y = fields.draw(focus: field.responseField, into: &buffer, at: y, in: inner)
        y = FormDrawing.choice("remember", remember.rawValue, focused: field == .remember, hint: "←/→: make a reply rule (R lists rules)", into: &buffer, at: y, in: inner)
        switch command {
        case .failure(let error): y = FormDrawing.note("✗ " + error.message, style: Theme.danger, into: &buffer, at: y, in: inner)
        case .success: y = FormDrawing.note("✓ ready: Enter sends", style: Theme.success, into: &buffer, at: y, in: inner)
        }
        FormDrawing.preview(wireMessage(now: model.now), title: "the journey will receive", into: &buffer, from: y + 1, in: inner)
    }
}
