import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import TerminalUI

/// Makes a new reply rule from the rules view (`R`, then `n`): what
/// `bridge-inspector auto-respond --action … --times … --delay-ms …` makes from a shell.
///
/// The fields are the action pattern (exact, or with `*` matching any run of characters, as in
/// `auto-respond --action` and the filter's `action:`), how many requests it answers (a number,
/// or `every`), the delay in milliseconds, and the response: status, data JSON, error code,
/// message and recoverable, the same fields as the respond dialog, validated the same way as you
/// type; a value a template fills in is replaced by the first character typed. Tab moves between
/// fields; ←/→ change the status; Ctrl-T (or F2) cycles templates;
/// Ctrl-E edits the data in `$EDITOR`; Enter adds the rule (a mistake is shown and nothing is
/// added); Esc cancels without adding anything. The rule is added as "remember" in the respond
/// dialog adds one, so it is offered the requests already pending and every later one.
public struct RuleDialog: OverlayView {
    var action: TextInput
    var times = TextInput()
    var delay = TextInput()
    /// Status, data and error, shared with the respond dialog.
    var fields = ResponseFields()
    var field = Field.action
    var templateIndex = -1

    /// The form's fields, in Tab order.
    enum Field: Int, CaseIterable {
        case action, times, delay, status, data, errorCode, errorMessage, recoverable

        /// The shared response field this is, if it is one.
        var responseField: ResponseFields.Field? {
            switch self {
            case .action, .times, .delay: return nil
            case .status: return .status
            case .data: return .data
            case .errorCode: return .errorCode
            case .errorMessage: return .errorMessage
            case .recoverable: return .recoverable
            }
        }
    }

    /// A form for a rule answering `action` (empty: to be typed).
    init(action: String = "") {
        self.action = TextInput(text: action)
    }

    var pattern: String { action.text.trimmingCharacters(in: .whitespaces) }

    /// The templates offered: those of the respond dialog, for the pattern typed.
    var templates: [ResponseFields.Template] { ResponseFields.templates(for: pattern) }

    /// Sets the response data to text the person wrote in `$EDITOR`.
    mutating func editorFinished(_ purpose: EditorPurpose, text: String) -> Bool {
        guard purpose == .responseData else { return false }
        fields.setData(text)
        return true
    }

    /// How many requests the text asks for: a whole number from 1, or `nil` for every request.
    static func parseTimes(_ text: String) -> Result<Int?, DataFieldError> {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if ["every", "always", "all"].contains(trimmed) { return .success(nil) }
        guard let count = Int(trimmed), count >= 1 else {
            return .failure(DataFieldError(message: "how many: a whole number from 1, or every (got \"\(text)\")"))
        }
        return .success(count)
    }

    /// The delay the text asks for, in milliseconds (empty means none).
    static func parseDelay(_ text: String) -> Result<Int, DataFieldError> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return .success(0) }
        guard let delay = Int(trimmed), (0...ReplyRule.maxDelayMs).contains(delay) else {
            return .failure(DataFieldError(message: "delay: whole milliseconds from 0 to \(ReplyRule.maxDelayMs) (got \"\(text)\")"))
        }
        return .success(delay)
    }

    /// The rule the form describes, or the first thing wrong with it.
    var rule: Result<ReplyRule, DataFieldError> {
        let pattern = pattern
        guard !pattern.isEmpty else {
            return .failure(DataFieldError(message: "the action pattern is empty: type an action such as nfc.read, or camera.* (* matches anything)"))
        }
        guard !pattern.contains(where: \.isWhitespace) else {
            return .failure(DataFieldError(message: "the action pattern has a space: actions have none (nfc.read, camera.*)"))
        }
        let count: Int?
        switch Self.parseTimes(times.text) {
        case .success(let value): count = value
        case .failure(let error): return .failure(error)
        }
        let delayMs: Int
        switch Self.parseDelay(delay.text) {
        case .success(let value): delayMs = value
        case .failure(let error): return .failure(error)
        }
        switch fields.response {
        case .failure(let error):
            return .failure(error)
        case .success(let response):
            let rule = ReplyRule(action: pattern, times: count, delayMs: delayMs, response: response)
            if let problem = rule.problem { return .failure(DataFieldError(message: problem)) }
            return .success(rule)
        }
    }

    /// A short line saying what the rule will do, such as `next 3 nfc.* requests → success after 500 ms`.
    static func describe(_ rule: ReplyRule) -> String {
        let count = rule.times.map { $0 == 1 ? "next \(rule.action) request" : "next \($0) \(rule.action) requests" } ?? "every \(rule.action) request"
        let delay = rule.delayMs > 0 ? " after \(rule.delayMs) ms" : ""
        return "\(count) → \(rule.response.status.rawValue)\(delay)"
    }

    /// The response a matching request will receive (its id and action are the request's).
    func wireMessage(now: Double) -> Data? {
        guard case .success(let rule) = rule else { return nil }
        let message = BridgeMessage(
            correlationId: "<the request's>", type: .response, timestamp: now.rounded(),
            payload: .init(
                action: rule.action.contains("*") ? "<the request's action>" : rule.action, data: rule.response.data,
                status: rule.response.status, error: rule.response.error))
        return try? BridgeMessageCodec().encode(message)
    }

    /// The keys for the focused field (a choice's ←/→, or a text field's editing keys), most
    /// needed first, as the respond dialog lists them: the footer drops from the end what does
    /// not fit.
    /// A form: a character typed is text.
    var takesText: Bool { true }

    var footerKeys: [(key: String, label: String)] {
        let editing: [(key: String, label: String)]
        switch field {
        case .action, .times, .delay: editing = PrefilledText.editingKeys
        default: editing = fields.text(field.responseField)?.footerKeys ?? [("←→", "change")]
        }
        return [("Enter", "add"), ("Esc", "cancel")] + editing + [("Tab", "field"), ("Ctrl-T", "template"), ("Ctrl-E", "$EDITOR")]
    }

    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
        switch key {
        case .escape:
            return .close
        case .tab:
            field = Field(rawValue: (field.rawValue + 1) % Field.allCases.count) ?? .action
        case .backTab:
            field = Field(rawValue: (field.rawValue + Field.allCases.count - 1) % Field.allCases.count) ?? .action
        case .ctrl("t"), .function(2):
            let list = templates
            templateIndex = (templateIndex + 1) % list.count
            fields.apply(list[templateIndex])
        case .ctrl("e"):
            return .openEditor(text: fields.data.text.isEmpty ? "{}" : fields.data.text, purpose: .responseData)
        case .enter:
            switch rule {
            case .success(let rule): return .addRule(rule)
            case .failure(let error): return .flash(error.message, isError: true)
            }
        default:
            switch field {
            case .action: _ = action.handle(key)
            case .times: _ = times.handle(key)
            case .delay: _ = delay.handle(key)
            default: if let responseField = field.responseField { fields.handle(key, in: responseField) }
            }
        }
        return .none
    }

    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        let inner = DialogFrame.centered(&buffer, area: area, width: 100, height: area.height, title: "New reply rule")
        var y = inner.y
        y = FormDrawing.note(
            "a rule answers matching requests through respond; rules are tried in order", style: Theme.dim,
            into: &buffer, at: y, in: inner)
        let template = templateIndex >= 0 ? templates[templateIndex].name : "none (Ctrl-T)"
        y = FormDrawing.note("template: \(template)", style: Theme.dim, into: &buffer, at: y, in: inner)
        y += 1
        y = FormDrawing.textField(
            "action pattern", action, focused: field == .action, placeholder: "nfc.read, or camera.* (* matches anything)",
            into: &buffer, at: y, in: inner)
        y = FormDrawing.textField("how many", times, focused: field == .times, placeholder: "a number (3), or every", into: &buffer, at: y, in: inner)
        y = FormDrawing.textField("delay (ms)", delay, focused: field == .delay, placeholder: "0 (answer at once)", into: &buffer, at: y, in: inner)
        y = fields.draw(focus: field.responseField, into: &buffer, at: y, in: inner)
        switch rule {
        case .failure(let error):
            y = FormDrawing.note("✗ " + error.message, style: Theme.danger, into: &buffer, at: y, in: inner)
        case .success(let rule):
            y = FormDrawing.note("✓ ready: Enter adds it: " + Self.describe(rule), style: Theme.success, into: &buffer, at: y, in: inner)
        }
        FormDrawing.preview(wireMessage(now: context.now), title: "each matching request will receive", into: &buffer, from: y + 1, in: inner)
    }
}
