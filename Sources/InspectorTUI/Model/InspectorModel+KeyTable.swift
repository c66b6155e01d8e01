import InspectorProtocol
import TerminalUI

extension InspectorModel {
    /// Every key of the main screen, in the order the help lists them: the one place a key is
    /// bound. The key handler, the help, the footer's hints and a recording's refusals are read
    /// from it (``KeyBinding``). A new view is one line here: its key, its help and `model.open(…)`.
    static let keyTable: [KeyBinding] = [
        // Everywhere
        KeyBinding("help", [.char("?"), .function(1)], .everywhere, .line(keys: "?  F1", text: "this help"),
                   hint: .init(order: 0, key: "?") { _ in "help" }) { model, _ in model.open(HelpView()) },
        KeyBinding("command", [.char(":")], .everywhere,
                   .line(keys: ":", text: "command prompt: run a key by its name (:respond, :filter EXPR, :search TEXT); Tab completes"),
                   hint: .init(order: 88, key: ":") { _ in "command" }) { model, _ in model.open(CommandPrompt()) },
        KeyBinding("keys", [.char("K")], .everywhere, .line(keys: "K", text: "key browser: every key and its : name by section, searched as you type; Enter runs one")) { model, _ in
            model.open(KeyBrowser())
        },
        KeyBinding("quit", [.char("q")], .everywhere, .line(keys: "q", text: "quit; asks first while reply rules are active or you have breakpoints set (in a view: back)"),
                   hint: .init(order: 90, key: "q") { _ in "quit" }) { model, _ in model.quitAsking() },
        KeyBinding("back", [.escape], .everywhere, .line(keys: "Esc", text: "back out of a view, a prompt, the search or the filter")) { model, _ in
            model.clearSearchOrFilter()
        },
        KeyBinding("quit-now", [.ctrl("c")], .everywhere, .line(keys: "Ctrl-C", text: "quit at once"), everywhere: true) { model, _ in
            model.quitting = true
            return [.quit]
        },
        KeyBinding("next-pane", [.tab], .everywhere, .line(keys: "Tab / Shift-Tab", text: "next / previous pane"),
                   hint: .init(order: 60, key: "Tab") { _ in "pane" }) { model, _ in model.focus = model.focus.next; return [] },
        KeyBinding("previous-pane", [.backTab], .everywhere, .withPrevious) { model, _ in model.focus = model.focus.previous; return [] },
        KeyBinding("zoom", [.char("z")], .everywhere, .line(keys: "z", text: "zoom the focused pane to the whole screen, and back (Tab moves the zoom)"),
                   hint: .init(order: 62, key: "z") { $0.zoomed ? "unzoom" : nil }) { model, _ in
            model.zoomed.toggle()
            return []
        },
        // Moving
        KeyBinding("down", [.char("j"), .down], .moving, .line(keys: "j k  ↓ ↑", text: "down / up"),
                   hint: .init(order: 25, key: "j/k") { $0.focus == .pending ? "select" : nil }) { model, _ in model.moveSelection(.down) },
        KeyBinding("up", [.char("k"), .up], .moving, .withPrevious) { model, _ in model.moveSelection(.up) },
        KeyBinding("first", [.char("g"), .home], .moving, .line(keys: "g G  Home End", text: "first / last row")) { model, _ in model.moveSelection(.first) },
        KeyBinding("last", [.char("G"), .end], .moving, .withPrevious) { model, _ in model.moveSelection(.last) },
        KeyBinding("page-down", [.pageDown, .ctrl("f")], .moving, .line(keys: "PgDn PgUp  Ctrl-F Ctrl-B", text: "page down / up")) { model, _ in
            model.moveSelection(.pageDown)
        },
        KeyBinding("page-up", [.pageUp, .ctrl("b")], .moving, .withPrevious) { model, _ in model.moveSelection(.pageUp) },
        KeyBinding("open", [.enter], .moving, .line(keys: "Enter", text: "open: message detail, respond to a pending request, complete a slot"),
                   hint: .init(order: 5, key: "Enter") { [.messages: "detail", .pending: "respond"][$0.focus] }) { model, _ in model.openSelected() },
        KeyBinding("mouse", [], .moving, .line(keys: "click / wheel", text: "focus and select what you click (click again to open) / scroll what you point at"), handler: .note),
        // Messages
        KeyBinding("filter", [.char("f")], .messages, .line(keys: "f", text: "filter: show only matching rows (empty to clear)"),
                   hint: .init(order: 10, key: "f") { $0.focus == .messages ? "filter" : nil }) { model, _ in model.openPrompt(.filter) },
        KeyBinding("search", [.char("/")], .messages, .line(keys: "/", text: "search: highlight matches"),
                   hint: .init(order: 15, key: "/") { $0.focus == .messages ? "search" : nil }) { model, _ in model.openPrompt(.search) },
        KeyBinding("next-match", [.char("n")], .messages, .line(keys: "n N", text: "next / previous search match")) { model, _ in
            model.jumpToMatch(forward: true)
            return []
        },
        KeyBinding("previous-match", [.char("N")], .messages, .withPrevious) { model, _ in
            model.jumpToMatch(forward: false)
            return []
        },
        KeyBinding("pause", [.char(" "), .char("p")], .messages, .line(keys: "space  p", text: "pause / resume the display (messages are still collected)"),
                   hint: .init(order: 65, key: "space") { $0.pausedAt == nil ? "pause" : "resume" }) { model, _ in model.togglePause() },
        KeyBinding("follow", [.char("F")], .messages, .line(keys: "F", text: "follow: jump to the newest row and stay there")) { model, _ in model.follow() },
        KeyBinding("clear-log", [.char("L")], .messages, .line(keys: "L", text: "clear the host's message log (asks first)"), sends: true) { model, _ in
            model.askToClearLog()
        },
        KeyBinding("action-log", [.char("A")], .messages, .line(keys: "A", text: "the action log: everything this inspector did for you, and every notice it showed, in full")) { model, _ in
            model.open(ActionLogView())
        },
        KeyBinding("stats", [.char("S")], .messages,
                   .line(keys: "S", text: "statistics per action, live: requests, answered, error rate, latency p50 / p95 / max; in it c: the journey's coverage (what it met, never met, and how it answered errors)"),
                   hint: .init(order: 85, key: "S") { $0.live.counts.received > 0 ? "stats" : nil }) { model, _ in model.open(StatsView(context: model.overlayContext)) },
        // The doctor, when there is something for it to explain. Examining the whole state for
        // every frame only to decide on a hint costs too much in a long session (it reads every
        // lint-marked row), so the hint follows what is cheap to see: lastError or a lint mark.
        KeyBinding("doctor", [.char("D")], .messages,
                   .line(keys: "D", text: "doctor: GBGBridge's troubleshooting checklist run live on what the inspector sees, each failure with its evidence and fix (Enter jumps to the message)"),
                   hint: .init(order: 75, key: "D") { $0.live.lastError != nil || $0.live.lintCount > 0 ? "doctor" : nil }) { model, _ in
            model.open(DoctorView(context: model.overlayContext))
        },
        KeyBinding("lint-marks", [], .messages,
                   .line(keys: "⚑ BUSY  ⚑ action typo?", text: "a row that breaks a rule of the troubleshooting guide: Enter says why, f is:lint lists them; the status line counts them"),
                   handler: .note),
        KeyBinding("copy-json", [.char("y")], .messages,
                   .line(keys: "y", text: "copy the message's JSON, exactly as it crossed the bridge, to the clipboard (OSC 52; works over SSH, and in tmux with set-clipboard on)"),
                   hint: .init(order: 80, key: "y/Y") { $0.focus == .messages && $0.selectedEntry.map { $0.kind == .message || $0.kind == .malformed } == true ? "copy" : nil }) { model, _ in
            model.copySelected(as: .json)
        },
        KeyBinding("copy-console-line", [.char("Y")], .messages,
                   .line(keys: "Y", text: "copy a line that replays it in Safari Web Inspector's console (postMessage from the journey, GBGBridge.receive from the host)")) { model, _ in
            model.copySelected(as: .consoleLine)
        },
        KeyBinding("mark", [.char("m")], .messages,
                   .line(keys: "m  M", text: "mark / unmark the selected row (◆ after its time); next marked row; f is:marked lists them")) { model, _ in
            model.toggleMark()
        },
        KeyBinding("next-mark", [.char("M")], .messages, .withPrevious) { model, _ in model.jumpToNextMark() },
        KeyBinding("save", [.char("w")], .messages,
                   .line(keys: "w", text: "save what the inspector holds, marks too, as a recording for open FILE; works read-only")) { model, _ in
            model.openSave()
        },
        KeyBinding("compare", [.char("=")], .messages,
                   .line(keys: "=", text: "compare this session with a recording: =, a file name, Enter; the differences by what happened (Enter: both messages, r: recompute, i: count inspector-made)")) { model, _ in
            model.openCompare()
        },
        // Answering and events
        KeyBinding("respond", [.char("r")], .answering,
                   .line(keys: "r", text: "respond to the selected pending request (Ctrl-T: your earlier answers, then templates; \"remember\" makes a reply rule)"), sends: true,
                   hint: .init(order: 20, key: "r") { $0.focus == .messages && !$0.live.pending.isEmpty ? "respond" : nil }) { model, _ in model.openRespond() },
        KeyBinding("rules", [.char("R")], .answering, .line(keys: "R", text: "reply rules: what answers requests automatically, with hit counts")) { model, _ in
            model.open(RulesView())
        },
        KeyBinding("new-rule", [.char("n")], .answering, .line(keys: "n (in R)", text: "new rule: action pattern (camera.*), how many (N or every), delay, response"), sends: true, handler: .view("R")),
        KeyBinding("faults", [.char("X")], .answering,
                   .line(keys: "X  Tab (in R)", text: "fault rules: every inspector's, yours marked; make the host's real handling answer an error, late or never, drop, duplicate or reorder")) { model, _ in
            model.open(FaultsView())
        },
        KeyBinding("new-fault", [.char("n")], .answering,
                   .line(keys: "n (in X)", text: "new fault rule: a filter (as f takes), an effect (error:BUSY, delay:2s, never-answer, drop; error:BUSY,pass is a sequence), a firing (2 times, p=0.3 seed=7)"),
                   sends: true, handler: .view("X")),
        KeyBinding("remove-fault", [.char("d")], .answering, .line(keys: "d (in X)", text: "remove your fault rule (another inspector's goes when it disconnects)"), sends: true, handler: .view("X")),
        KeyBinding("load-faults", [.char("o")], .answering, .line(keys: "o (in X)", text: "load a fault rules file ({\"version\": 1, \"faults\": [...]}, as bridge-inspector fault --file takes) and set its rules"), sends: true, handler: .view("X")),
        KeyBinding("fault-marks", [], .answering,
                   .line(keys: "⚡ f1 errored BUSY", text: "a row a fault rule changed, with the rule and what it did; f is:fault lists them"), handler: .note),
        KeyBinding("event", [.char("e")], .answering, .line(keys: "e", text: "fire a host event (↑ ↓ recall earlier ones)"), sends: true,
                   hint: .init(order: 55, key: "e") { _ in "event" }) { model, _ in
            guard model.supports(.sendEvent) else { return [] }
            return model.open(EventDialog(history: model.eventHistory, prefill: model.eventPrefill))
        },
        KeyBinding("lifecycle", [.char("W")], .answering,
                   .line(keys: "W", text: "the app's lifecycle: background, foreground, orientation, host.ready again; detach, attach or reload the web view"),
                   sends: true) { model, _ in model.open(LifecycleMenu()) },
        // Breakpoints, held messages, inject and replay
        KeyBinding("breakpoints", [.char("b")], .interception,
                   .line(keys: "b", text: "breakpoints: every inspector's, yours marked; n adds one (a filter, as f takes, and seconds to hold), d removes yours")) { model, _ in
            guard model.supports(.intercept) else { return [] }
            return model.open(BreakpointsView())
        },
        // While something is held, the key that lists it is offered.
        KeyBinding("held", [.char("H")], .interception,
                   .line(keys: "H", text: "held messages with their age and when the host releases them; the status line counts them (⏸ 2 held)"),
                   hint: .init(order: 50, key: "H") { $0.live.held.isEmpty ? nil : "\($0.live.held.count) held" }) { model, _ in
            guard model.supports(.intercept) else { return [] }
            return model.open(HeldView())
        },
        KeyBinding("release-held", [.enter], .interception, .line(keys: "Enter (in H)", text: "release the selected message as it is"), sends: true, handler: .view("H")),
        KeyBinding("edit-held", [.char("e")], .interception, .line(keys: "e (in H)", text: "edit its JSON over several lines, then release it (Ctrl-O: new line; Ctrl-E: $EDITOR)"), sends: true, handler: .view("H")),
        KeyBinding("answer-held", [.char("a")], .interception, .line(keys: "a (in H)", text: "answer a held request by hand: its handler never runs"), sends: true, handler: .view("H")),
        KeyBinding("drop-held", [.char("d")], .interception, .line(keys: "d (in H)", text: "drop it: never routed or delivered (asks first)"), sends: true, handler: .view("H")),
        KeyBinding("release-all-held", [.char("A")], .interception, .line(keys: "A (in H)", text: "release all: every held message goes on as it is (asks first, with the count)"), sends: true, handler: .view("H")),
        KeyBinding("inject", [.char("i")], .interception, .line(keys: "i", text: "inject a request, event or response as if the journey had posted it"), sends: true) { model, _ in
            guard model.supports(.inject) else { return [] }
            return model.open(InjectDialog())
        },
        KeyBinding("replay", [.char("I")], .interception, .line(keys: "I", text: "replay the selected IN row with a new correlation id (s: the same id; e: edit its JSON first; asks first)"), sends: true) { model, _ in
            model.openReplay()
            return []
        },
        // Capture slots
        KeyBinding("complete-slot", [.char("c")], .slots, .line(keys: "c", text: "complete the slot's request: image, error or cancellation"), sends: true,
                   hint: .init(order: 30, key: "c") { $0.focus == .slots ? "complete" : nil }) { model, _ in model.openSlot(action: .complete) },
        KeyBinding("cancel-slot", [.char("x")], .slots, .line(keys: "x", text: "cancel the slot's request, with a reason (asks first)"), sends: true,
                   hint: .init(order: 35, key: "x") { $0.focus == .slots ? "cancel" : nil }) { model, _ in model.openSlot(action: .cancel) },
        KeyBinding("toggle-slot", [.char("t")], .slots, .line(keys: "t", text: "enable / disable the slot (disable asks first)"), sends: true,
                   hint: .init(order: 40, key: "t") { $0.focus == .slots ? "on/off" : nil }) { model, _ in model.toggleSlotEnabled() },
        KeyBinding("slot-permission", [.char("P")], .slots, .line(keys: "P", text: "cycle the slot's permission state"), sends: true,
                   hint: .init(order: 45, key: "P") { $0.focus == .slots ? "permission" : nil }) { model, _ in model.cyclePermission() },
        KeyBinding("capabilities", [.char("v")], .slots, .line(keys: "v", text: "capabilities, live: each slot and custom capability, which slot shadows which, and the JSON capability.query would answer now")) { model, _ in model.open(CapabilityView()) },
        // Message detail (keys of the detail view)
        KeyBinding("more", [.char("m")], .detail, .line(keys: "m", text: "show more of a message shown in part"), handler: .view("detail")),
        KeyBinding("wrap", [.char("w")], .detail, .line(keys: "w", text: "wrap long lines / scroll sideways"), handler: .view("detail")),
        KeyBinding("sideways", [.left, .right, .char("h"), .char("l")], .detail, .line(keys: "← →  h l", text: "scroll sideways when lines do not wrap"), handler: .view("detail")),
        KeyBinding("search-message", [.char("/"), .char("n"), .char("N")], .detail, .line(keys: "/  n N", text: "search the message; next / previous match"), handler: .view("detail")),
        KeyBinding("request-response", [.tab], .detail, .line(keys: "Tab", text: "jump between a request and its response"), handler: .view("detail")),
        KeyBinding("copy-message", [.char("y"), .char("Y")], .detail, .line(keys: "y Y", text: "copy this message: JSON / Safari console line"), handler: .view("detail")),
        // lastError
        KeyBinding("errors", [.char("E")], .lastError, .line(keys: "E", text: "history of lastError"),
                   hint: .init(order: 70, key: "E") { $0.live.lastError != nil ? "errors" : nil }) { model, _ in
            model.open(ErrorHistoryView(context: model.overlayContext))
        },
        KeyBinding("jump-to-cause", [.char("J")], .lastError, .line(keys: "J", text: "jump to the message that caused lastError")) { model, _ in model.jumpToErrorCause() },
        KeyBinding("clear-error", [.char("C")], .lastError, .line(keys: "C", text: "clear lastError (asks first)"), sends: true) { model, _ in model.askToClearError() },
    ]

    /// The main screen's binding of each key.
    static let mainKeys: [Key: KeyBinding] = {
        var bound: [Key: KeyBinding] = [:]
        for binding in keyTable {
            guard case .main = binding.handler else { continue }
            for key in binding.keys where bound[key] == nil { bound[key] = binding }
        }
        return bound
    }()

    /// The bindings with a footer hint, in the footer's order.
    static let hintedBindings = keyTable.filter { $0.hint != nil }.sorted { ($0.hint?.order ?? 0) < ($1.hint?.order ?? 0) }

    /// The help's binding (`?`, F1): it opens the help over every view too, and closes it.
    static let helpBinding = binding(named: "help")

    /// The binding named `name`, for a command prompt that runs bindings by name.
    static func binding(named name: String) -> KeyBinding? {
        keyTable.first { $0.name == name }
    }

    /// The main screen's footer hints in this state: each binding's hint while it is offered.
    /// A recording offers only what works on a file: nothing that sends.
    var mainFooterKeys: [(key: String, label: String)] {
        Self.hintedBindings.compactMap { binding in
            guard !readOnly || binding.allowedReadOnly else { return nil }
            guard let hint = binding.hint, let label = hint.label(self) else { return nil }
            return (hint.key, label)
        }
    }
}
