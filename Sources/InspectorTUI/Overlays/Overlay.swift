import InspectorClient
import InspectorProtocol
import TerminalUI

/// A modal view over the main screen. Esc backs out of the innermost one.
public enum Overlay: Sendable {
    /// Every key, by context.
    case help(HelpView)
    /// One message in full, threaded with its request or response.
    case detail(DetailView)
    /// Answer a pending request.
    case respond(RespondDialog)
    /// Fire a host event.
    case event(EventDialog)
    /// Complete or cancel a capture slot's request.
    case slot(SlotDialog)
    /// Yes or no before something destructive.
    case confirm(ConfirmDialog)
    /// The history of lastError.
    case errors(ErrorHistoryView)
    /// What the inspector did on your behalf.
    case actions(ActionLogView)
    /// The reply rules and their hit counts.
    case rules(RulesView)
    /// The form for a new reply rule, opened from the rules view.
    case newRule(RuleDialog)
    /// The messages held at breakpoints.
    case held(HeldView)
    /// Edit a held message, then release it.
    case heldEdit(HeldEditDialog)
    /// Every inspector's breakpoints.
    case breakpoints(BreakpointsView)
    /// The form for a new breakpoint.
    case newBreakpoint(BreakpointDialog)
    /// Send a message as if the journey had posted it.
    case inject(InjectDialog)
    /// Per-action statistics: requests, error rate, latency percentiles.
    case stats(StatsView)
    /// GBGBridge's troubleshooting checklist applied live: what fails, the evidence, the fix.
    case doctor(DoctorView)

    /// Lets the overlay handle a key.
    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
        // "? F1: this help" works everywhere: F1 in every view, ? where it is not typed text.
        if key == .function(1) || (key == .char("?") && !takesText) {
            if case .help = self {} else { return .push(.help(HelpView())) }
        }
        switch self {
        case .help(var view): defer { self = .help(view) }; return view.handle(key, context: context)
        case .detail(var view): defer { self = .detail(view) }; return view.handle(key, context: context)
        case .respond(var view): defer { self = .respond(view) }; return view.handle(key, context: context)
        case .event(var view): defer { self = .event(view) }; return view.handle(key, context: context)
        case .slot(var view): defer { self = .slot(view) }; return view.handle(key, context: context)
        case .confirm(var view): defer { self = .confirm(view) }; return view.handle(key, context: context)
        case .errors(var view): defer { self = .errors(view) }; return view.handle(key, context: context)
        case .actions(var view): defer { self = .actions(view) }; return view.handle(key, context: context)
        case .rules(var view): defer { self = .rules(view) }; return view.handle(key, context: context)
        case .newRule(var view): defer { self = .newRule(view) }; return view.handle(key, context: context)
        case .held(var view): defer { self = .held(view) }; return view.handle(key, context: context)
        case .heldEdit(var view): defer { self = .heldEdit(view) }; return view.handle(key, context: context)
        case .breakpoints(var view): defer { self = .breakpoints(view) }; return view.handle(key, context: context)
        case .newBreakpoint(var view): defer { self = .newBreakpoint(view) }; return view.handle(key, context: context)
        case .inject(var view): defer { self = .inject(view) }; return view.handle(key, context: context)
        case .stats(var view): defer { self = .stats(view) }; return view.handle(key, context: context)
        case .doctor(var view): defer { self = .doctor(view) }; return view.handle(key, context: context)
        }
    }

    /// Whether `?` is text here (a form or a search being typed), so only F1 opens the help.
    private var takesText: Bool {
        switch self {
        case .respond, .event, .slot, .newRule, .heldEdit, .newBreakpoint, .inject: return true
        case .detail(let view): return view.searchInput != nil
        case .help, .confirm, .errors, .actions, .rules, .held, .breakpoints, .stats, .doctor: return false
        }
    }

    /// Draws the overlay over `area`.
    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        switch self {
        case .help(let view): view.render(into: &buffer, area: area, context: context)
        case .detail(let view): view.render(into: &buffer, area: area, context: context)
        case .respond(let view): view.render(into: &buffer, area: area, context: context)
        case .event(let view): view.render(into: &buffer, area: area, context: context)
        case .slot(let view): view.render(into: &buffer, area: area, context: context)
        case .confirm(let view): view.render(into: &buffer, area: area, context: context)
        case .errors(let view): view.render(into: &buffer, area: area, context: context)
        case .actions(let view): view.render(into: &buffer, area: area, context: context)
        case .rules(let view): view.render(into: &buffer, area: area, context: context)
        case .newRule(let view): view.render(into: &buffer, area: area, context: context)
        case .held(let view): view.render(into: &buffer, area: area, context: context)
        case .heldEdit(let view): view.render(into: &buffer, area: area, context: context)
        case .breakpoints(let view): view.render(into: &buffer, area: area, context: context)
        case .newBreakpoint(let view): view.render(into: &buffer, area: area, context: context)
        case .inject(let view): view.render(into: &buffer, area: area, context: context)
        case .stats(let view): view.render(into: &buffer, area: area, context: context)
        case .doctor(let view): view.render(into: &buffer, area: area, context: context)
        }
    }

    /// The keys that matter now, for the footer.
    var footerKeys: [(key: String, label: String)] {
        switch self {
        case .help: return [("Esc", "back"), ("j/k", "scroll")]
        case .detail(let view):
            if view.searchInput != nil { return [("Enter", "search"), ("Esc", "cancel")] }
            return [("Esc", "back"), ("j/k", "scroll"), ("m", "more"), ("/", "search"), ("n/N", "match"), ("w", view.wraps ? "no wrap" : "wrap"),
                    ("Tab", "request/response"), ("r", "respond"), ("y/Y", "copy"), ("?", "help")]
        case .respond(let view): return view.footerKeys
        case .event(let view): return view.footerKeys
        case .slot(let view): return view.footerKeys
        case .confirm(let view): return view.footerKeys
        case .errors: return [("Esc", "back"), ("Enter", "jump to cause"), ("j/k", "move")]
        case .actions: return [("Esc", "back"), ("j/k", "scroll")]
        case .rules: return [("Esc", "back"), ("n", "new rule"), ("space", "pause/resume"), ("d", "remove"), ("j/k", "move")]
        case .newRule(let view): return view.footerKeys
        case .held(let view): return view.footerKeys
        case .heldEdit(let view): return view.footerKeys
        case .breakpoints(let view): return view.footerKeys
        case .newBreakpoint(let view): return view.footerKeys
        case .inject(let view): return view.footerKeys
        case .stats: return [("Esc", "back"), ("j/k", "scroll")]
        case .doctor: return [("Esc", "back"), ("Enter", "jump to evidence"), ("j/k", "move")]
        }
    }
}

extension Overlay {
    /// The label of the command this dialog sent and stays open for (the host's answer closes
    /// it, or its refusal shows in it), or `nil`.
    var awaitingLabel: String? {
        switch self {
        case .heldEdit(let view): return view.awaiting
        case .newBreakpoint(let view): return view.awaiting
        case .inject(let view): return view.awaiting
        default: return nil
        }
    }

    /// Shows the host's refusal of the command this dialog sent, keeping what was typed.
    mutating func refused(_ message: String) {
        switch self {
        case .heldEdit(var view): view.awaiting = nil; view.sendError = message; self = .heldEdit(view)
        case .newBreakpoint(var view): view.awaiting = nil; view.sendError = message; self = .newBreakpoint(view)
        case .inject(var view): view.awaiting = nil; view.sendError = message; self = .inject(view)
        default: break
        }
    }
}

/// What an overlay wants after handling a key.
public enum OverlayAction: Sendable {
    /// Nothing beyond its own change.
    case none
    /// Close this overlay.
    case close
    /// Close this overlay and send a command (recorded in the action log).
    case send(InspectorCommand, label: String)
    /// Keep this overlay open and send a command.
    case sendAndStay(InspectorCommand, label: String)
    /// Open another overlay on top.
    case push(Overlay)
    /// Replace this overlay with another: moving between sibling lists (held messages and
    /// breakpoints) without piling one on the other.
    case switchTo(Overlay)
    /// Open `$EDITOR`.
    case openEditor(text: String, purpose: EditorPurpose)
    /// Close this overlay and select the log row with this sequence number.
    case jumpToSeq(Int)
    /// Show a brief message.
    case flash(String, isError: Bool)
    /// Close this overlay, send a command, and keep answering like it with a new reply rule.
    case sendAndRemember(InspectorCommand, label: String, rule: ReplyRule)
    /// Remove the reply rule with this id.
    case removeRule(Int)
    /// Pause or resume the reply rule with this id.
    case toggleRule(Int)
    /// Quit the inspector (confirmed).
    case quit
    /// Copy the log row at this index to the clipboard (the overlay stays open).
    case copy(logIndex: Int, ClipboardFormat)
    /// Close this overlay and add a reply rule, as "remember" in the respond dialog adds one:
    /// the pending requests and every later one are offered to it, and it counts its hits.
    case addRule(ReplyRule)
}
