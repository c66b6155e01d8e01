import InspectorClient
import InspectorProtocol
import TerminalUI

/// The form for a new breakpoint: a filter in the log's filter language, checked as it is typed
/// as the filter prompt checks it, and how many seconds to hold (empty: the agent's default).
/// Enter sends it; the host's refusal (a term that cannot apply before a message is routed,
/// such as is:pending) shows here and the form keeps what was typed. Tab moves between fields.
public struct BreakpointDialog: AwaitingDialog {
    var filter = TextInput()
    var holdSeconds = TextInput()
    var field = Field.filter
    /// The label of the command sent and not yet answered.
    var awaiting: String?
    /// The host's refusal of the last try.
    var sendError: String?

    enum Field { case filter, holdSeconds }

    /// The filter's syntax error as typed, or `nil`.
    var filterError: String? {
        if filter.text.trimmingCharacters(in: .whitespaces).isEmpty { return "type a filter: action:camera.* type:request …" }
        do {
            _ = try LogFilter.parse(filter.text)
            return nil
        } catch {
            return error.description
        }
    }

    /// The hold time typed, or why it is not one.
    var hold: Result<Double?, DataFieldError> {
        let text = holdSeconds.text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return .success(nil) }
        guard let seconds = Double(text), seconds.isFinite, seconds >= 0.05, seconds <= InspectorCommand.maxHoldSeconds else {
            return .failure(DataFieldError(message: "hold seconds: a number from 0.05 to \(Int(InspectorCommand.maxHoldSeconds)), or empty for \(Int(InspectorCommand.defaultHoldSeconds))"))
        }
        return .success(seconds)
    }

    /// A form: a character typed is text.
    var takesText: Bool { true }

    var footerKeys: [(key: String, label: String)] {
        [("Enter", "add"), ("Esc", "cancel"), ("Tab", "field")] + PrefilledText.editingKeys
    }

    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
        switch key {
        case .escape:
            return .close
        case .tab, .backTab:
            field = field == .filter ? .holdSeconds : .filter
        case .enter:
            if let filterError { return .flash(filterError, isError: true) }
            switch hold {
            case .failure(let error): return .flash(error.message, isError: true)
            case .success(let seconds):
                sendError = nil
                let source = filter.text.trimmingCharacters(in: .whitespaces)
                let label = "add breakpoint \(source)"
                awaiting = label
                return .sendAndStay(.addBreakpoint(.init(filter: source, holdSeconds: seconds)), label: label)
            }
        default:
            if field == .filter { _ = filter.handle(key) } else { _ = holdSeconds.handle(key) }
        }
        return .none
    }

    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        let inner = DialogFrame.centered(&buffer, area: area, width: 100, height: 12, title: "New breakpoint")
        var y = inner.y
        y = FormDrawing.note("Hold the messages this filter matches before the host routes or delivers them.", style: Theme.dim, into: &buffer, at: y, in: inner)
        y += 1
        y = FormDrawing.textField("filter", filter, focused: field == .filter, placeholder: "action:camera.* type:request", into: &buffer, at: y, in: inner)
        y = FormDrawing.textField(
            "hold seconds", holdSeconds, focused: field == .holdSeconds, placeholder: "\(Int(InspectorCommand.defaultHoldSeconds)), then released as it is",
            into: &buffer, at: y, in: inner)
        y += 1
        let problem = sendError ?? filterError ?? { if case .failure(let error) = hold { return error.message } else { return nil } }()
        if let problem {
            for line in TextWrap.wrap("✗ " + problem, width: max(1, inner.width)) {
                y = FormDrawing.note(line, style: Theme.danger, into: &buffer, at: y, in: inner)
            }
        } else {
            FormDrawing.note("✓ ready: Enter adds it", style: Theme.success, into: &buffer, at: y, in: inner)
        }
    }
}
