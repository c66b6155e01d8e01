import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import TerminalUI

/// Answers a pending request by hand: status, data as JSON, and an error object, with templates
/// for the common answers and the exact wire message shown before it is sent.
///
/// It opens on the data field, where a person answering by hand types first (the status is
/// `success` unless changed, and Ctrl-T sets status and error together); the `{}` there, like
/// every value a template fills in, is replaced by the first character typed. Tab moves between
/// fields; ←/→ change the status; Ctrl-T (or F2) cycles the responses sent by hand before for
/// this action, then the templates; Ctrl-E edits the data in `$EDITOR`; Enter sends; Esc
/// cancels. The data is validated as you type and a mistake is reported with its line and column.
///
/// The dialog knows whether its request can still be answered: while the host is disconnected,
/// or once the request has left pendingRequests (answered elsewhere, by a rule, cancelled), it
/// says so and Enter keeps the dialog and what was typed instead of sending.
public struct RespondDialog: OverlayView {
    /// The request being answered.
    public let request: WirePending
    /// The hold's id when the request is held at a breakpoint: the answer is sent with `answer`
    /// (its handler never runs) instead of `respond`, and no reply rule is made from it.
    public private(set) var heldId: String?
    /// Status, data and error, shared with the new-rule form.
    var fields = ResponseFields()
    var field = Field.data
    var templateIndex = -1
    /// Why the last send failed before reaching the host, shown until the next try.
    var sendError: String?
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

    /// Answers `held`, a request held at a breakpoint, by hand.
    init(held: WireHeld) {
        self.request = WirePending(
            correlationId: held.message.correlationId, action: held.message.payload.action, since: held.since, truncated: held.truncated,
            message: held.message)
        self.heldId = held.id
    }

    /// The fields Tab moves between: "remember" only for a pending request.
    private var fieldOrder: [Field] { heldId == nil ? Field.allCases : Field.allCases.filter { $0 != .remember } }

    /// The response status chosen.
    var status: BridgeResponseStatus { fields.status }
    /// The data field.
    var data: TextInput { fields.data.input }

    /// The built-in templates for this request: success, a capture success for camera actions,
    /// and each documented error code with the SDK's recoverable flag.
    var templates: [ResponseFields.Template] { ResponseFields.templates(for: request.action) }

    /// What Ctrl-T cycles through: the responses sent by hand before for this action (newest
    /// first, ``InspectorModel/rememberedResponses``), then the built-in ``templates``.
    func offeredTemplates(in context: OverlayContext) -> [ResponseFields.Template] {
        context.rememberedResponses.templates(for: request.action) + templates
    }

    /// Why this request cannot be answered now, or `nil` when it can: the host is disconnected,
    /// or the request is no longer pending.
    func staleness(in context: OverlayContext) -> String? {
        if context.live.isDisconnected {
            return "not connected to the host: nothing can be sent now; what you typed stays here (Esc closes)"
        }
        if let heldId {
            guard context.live.held.contains(where: { $0.id == heldId }) else {
                return "\(heldId) is no longer held (released, answered or dropped elsewhere): Esc closes"
            }
            return nil
        }
        if !context.live.pending.contains(where: { $0.correlationId == request.correlationId }) {
            return "\(request.correlationId) is no longer pending (answered elsewhere, by a rule, or cancelled): Esc closes"
        }
        return nil
    }

    /// Sets the response data to text the person wrote in `$EDITOR`.
    mutating func editorFinished(_ purpose: EditorPurpose, text: String) -> Bool {
        guard purpose == .responseData else { return false }
        fields.setData(text)
        return true
    }

    /// Shows why the answer was not sent, when the dialog is opened again with what was typed.
    mutating func refused(_ message: String) {
        sendError = message
    }

    /// The command this dialog sends, or why it cannot yet.
    var command: Result<InspectorCommand, DataFieldError> {
        if let heldId { return fields.response.map { .answer(.init(id: heldId, status: $0.status, data: $0.data, error: $0.error)) } }
        return fields.response.map { .respond(.init(correlationId: request.correlationId, status: $0.status, data: $0.data, error: $0.error)) }
    }

    /// The wire message the journey will receive (its timestamp is set by the host when sent).
    func wireMessage(now: Double) -> Data? {
        guard case .success(let response) = fields.response else { return nil }
        let message = BridgeMessage(
            correlationId: request.correlationId, type: .response, timestamp: now.rounded(),
            payload: .init(action: request.action, data: response.data, status: response.status, error: response.error))
        return try? BridgeMessageCodec().encode(message)
    }

    /// The keys for the focused field (a choice's ←/→, or a text field's editing keys), most
    /// needed first: the footer drops from the end what does not fit.
    /// A form: a character typed is text.
    var takesText: Bool { true }

    var footerKeys: [(key: String, label: String)] {
        let editing = fields.text(field.responseField)?.footerKeys ?? [("←→", "change")]
        return [("Enter", "send"), ("Esc", "cancel")] + editing + [("Tab", "field"), ("Ctrl-T", "template"), ("Ctrl-E", "$EDITOR")]
    }

    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
        switch key {
        case .escape:
            return .close
        case .tab:
            let order = fieldOrder
            field = order[((order.firstIndex(of: field) ?? 0) + 1) % order.count]
        case .backTab:
            let order = fieldOrder
            field = order[((order.firstIndex(of: field) ?? 0) + order.count - 1) % order.count]
        case .ctrl("t"), .function(2):
            let list = offeredTemplates(in: context)
            templateIndex = (templateIndex + 1) % list.count
            fields.apply(list[templateIndex])
        case .ctrl("e"):
            return .openEditor(text: data.text.isEmpty ? "{}" : data.text, purpose: .responseData)
        case .enter:
            if let stale = staleness(in: context) { return .flash(stale, isError: true) }
            sendError = nil
            switch command {
            case .success(let command):
                if let heldId { return .send(command, label: "answer \(status.rawValue) to held \(request.action) \(request.correlationId) (\(heldId))") }
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

    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        let title = heldId.map { "Answer held \(request.action) (\($0)): its handler never runs" } ?? "Respond to \(request.action)"
        let inner = DialogFrame.centered(&buffer, area: area, width: 100, height: area.height, title: title)
        var y = inner.y
        let stale = staleness(in: context)
        let age = heldId == nil ? context.pendingAge(of: request) : stale == nil ? context.pendingClock - request.since : nil
        let waiting = age.map { ", \(heldId == nil ? "waiting" : "held") \(TimeFormat.duration(ms: $0))" } ?? ""
        y = FormDrawing.note("request \(request.correlationId)\(waiting) · \(Self.summary(of: request))", style: Theme.dim, into: &buffer, at: y, in: inner)
        let template = offeredTemplates(in: context)[safe: templateIndex]?.name ?? "none (Ctrl-T)"
        y = FormDrawing.note("template: \(template)", style: Theme.dim, into: &buffer, at: y, in: inner)
        y += 1
        y = fields.draw(focus: field.responseField, into: &buffer, at: y, in: inner)
        if heldId == nil {
            y = FormDrawing.choice("remember", remember.rawValue, focused: field == .remember, hint: "←/→: make a reply rule (R lists rules)", into: &buffer, at: y, in: inner)
        }
        // A request the journey gave up on can still be answered (the host keeps it pending),
        // but no page waits for the answer: say so rather than promise the journey gets it.
        let abandoned = heldId == nil && stale == nil ? abandonedNote(in: context) : nil
        switch (stale ?? sendError, command) {
        case (let problem?, _): y = FormDrawing.note("✗ " + problem, style: Theme.danger, into: &buffer, at: y, in: inner)
        case (nil, .failure(let error)): y = FormDrawing.note("✗ " + error.message, style: Theme.danger, into: &buffer, at: y, in: inner)
        case (nil, .success):
            if let abandoned {
                y = FormDrawing.note("! " + abandoned + "; Enter still sends", style: Theme.warning, into: &buffer, at: y, in: inner)
            } else {
                y = FormDrawing.note("✓ ready: Enter sends", style: Theme.success, into: &buffer, at: y, in: inner)
            }
        }
        let previewTitle = abandoned == nil ? "the journey will receive" : "the host will send (the journey no longer waits for it)"
        FormDrawing.preview(wireMessage(now: context.now), title: previewTitle, into: &buffer, from: y + 1, in: inner)
    }

    /// "the journey gave up on this request 4.0s ago (its timeout: 30.0s)" when it has waited
    /// past the journey's timeout, else `nil`.
    func abandonedNote(in context: OverlayContext) -> String? {
        guard let after = context.abandonedFor(request) else { return nil }
        let timeout = context.journeyTimeouts.timeoutMs(forAction: request.action)
        return "the journey gave up on this request \(TimeFormat.duration(ms: after)) ago (its timeout: \(TimeFormat.duration(ms: timeout)))"
    }

    /// The request's own data on one line (`its data: {"side":"front"}`), or that it carries none.
    static func summary(of request: WirePending) -> String {
        guard let data = request.message.payload.data else {
            return request.truncated == true ? "its data is too large to keep here (its row in Messages shows it)" : "it sent no data"
        }
        return "its data: " + (RememberedResponses.compactJSON(data) ?? "(cannot be shown)")
    }
}
