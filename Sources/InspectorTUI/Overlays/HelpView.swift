import TerminalUI

/// Every key, grouped by where it works. `?` opens it; Esc closes it. Laid out by
/// ``HelpLayout`` for the terminal's width; the list itself is data, one line a key.
public struct HelpView: Sendable {
    var offset = 0

    static let sections: [(title: String, keys: [(String, String)])] = [
        ("Everywhere", [
            ("?  F1", "this help"), ("q", "quit; asks first while reply rules are active (in a view: back)"), ("Esc", "back out of a view, a prompt, the search or the filter"),
            ("Ctrl-C", "quit at once"), ("Tab / Shift-Tab", "next / previous pane"),
        ]),
        ("Moving", [
            ("j k  ↓ ↑", "down / up"), ("g G  Home End", "first / last row"), ("PgDn PgUp  Ctrl-F Ctrl-B", "page down / up"),
            ("Enter", "open: message detail, respond to a pending request, complete a slot"),
        ]),
        ("Messages", [
            ("f", "filter: show only matching rows (empty to clear)"), ("/", "search: highlight matches"),
            ("n N", "next / previous search match"), ("space  p", "pause / resume the display (messages are still collected)"),
            ("F", "follow: jump to the newest row and stay there"), ("L", "clear the host's message log (asks first)"),
            ("A", "the action log: everything this inspector did for you"),
            ("S", "statistics per action, live: requests, answered, error rate, latency p50 / p95 / max"),
            ("D", "doctor: GBGBridge's troubleshooting checklist run live on what the inspector sees, each failure with its evidence and fix (Enter jumps to the message)"),
            ("⚑ BUSY  ⚑ action typo?", "a row that breaks a rule of the troubleshooting guide: Enter says why, f is:lint lists them; the status line counts them"),
            ("y", "copy the message's JSON, exactly as it crossed the bridge, to the clipboard (OSC 52; works over SSH and in tmux)"),
            ("Y", "copy a line that replays it in Safari Web Inspector's console (postMessage from the journey, GBGBridge.receive from the host)"),
        ]),
        ("Answering and events", [
            ("r", "respond to the selected pending request (Ctrl-T: your earlier answers, then templates; \"remember\" makes a reply rule)"),
            ("R", "reply rules: what answers requests automatically, with hit counts"),
            ("n (in R)", "new rule: action pattern (camera.*), how many (N or every), delay, response"),
            ("e", "fire a host event (↑ ↓ recall earlier ones)"),
        ]),
        ("Breakpoints, held messages, inject and replay", [
            ("b", "breakpoints: every inspector's, yours marked; n adds one (a filter, as f takes, and seconds to hold), d removes yours"),
            ("H", "held messages with their age and when the host releases them; the status line counts them (⏸ 2 held)"),
            ("Enter (in H)", "release the selected message as it is"), ("e (in H)", "edit its JSON, then release it (Ctrl-E: $EDITOR)"),
            ("a (in H)", "answer a held request by hand: its handler never runs"), ("d (in H)", "drop it: never routed or delivered (asks first)"),
            ("i", "inject a request, event or response as if the journey had posted it"),
            ("I", "replay the selected IN row with a new correlation id (s: the same id; asks first)"),
        ]),
        ("Capture slots (Slots pane, or the only busy slot)", [
            ("c", "complete the slot's request: image, error or cancellation"), ("x", "cancel the slot's request, with a reason (asks first)"),
            ("t", "enable / disable the slot (disable asks first)"), ("P", "cycle the slot's permission state"),
        ]),
        ("Message detail (Enter)", [
            ("m", "show more of a message shown in part"), ("w", "wrap long lines / scroll sideways"),
            ("← →  h l", "scroll sideways when lines do not wrap"), ("/  n N", "search the message; next / previous match"),
            ("Tab", "jump between a request and its response"), ("y Y", "copy this message: JSON / Safari console line"),
        ]),
        ("lastError", [
            ("E", "history of lastError"), ("J", "jump to the message that caused lastError"), ("C", "clear lastError (asks first)"),
        ]),
        ("Filter language (f and /)", [
            ("type:request/response/event", "by type"), ("dir:in/out", "from / to the journey"),
            ("action:camera.*", "by action, * matches anything"), ("status:error  code:BUSY", "by response status or error code"),
            ("id:a1b2", "part of a correlation id"), ("is:pending/error/malformed/manual/rule/lint", "by state (is:lint: rows with a ⚑ lint mark)"),
            ("body:text", "text anywhere in the JSON"), ("a b   a | b   !a   ( )", "and, or, not, group (! first, | last)"),
            ("anything else", "text in the action, id or reason"),
        ]),
        ("Markers in the log", [
            ("IN / OUT", "received from / sent to the journey"), ("✎", "made by an inspector, not by the app"),
            ("R", "answered by a reply rule"),
            ("⏸ held  ✎ edited  ⏸ answered  ✗ dropped", "a sent message held at a breakpoint, and what became of it"), ("┄┄ gap / disconnected / reattached ┄┄", "where the stream was interrupted"),
            ("── NAME restarted ──", "the app was run again (--host NAME): both pids"),
            ("⊘ (Pending)", "sent by a page that has gone; an answer reaches the next page"),
            ("! (Pending)", "waiting over half the journey's timeout (30 s; 5 s for a capability query)"),
            ("✗ (Pending)", "past the journey's timeout: the journey has given up on it"),
        ]),
    ]

    /// The lines laid out for a frame `width` columns wide inside.
    func lines(width: Int) -> [[Span]] { HelpLayout.lines(Self.sections, width: width) }

    mutating func handle(_ key: Key, model: InspectorModel) -> OverlayAction {
        switch key {
        case .escape, .char("q"), .char("?"), .function(1): return .close
        default:
            let count = lines(width: max(1, model.size.width - 2)).count
            if let next = DialogFrame.scroll(offset, key: key, count: count, page: max(1, model.size.height - 6)) { offset = next }
            return .none
        }
    }

    func render(into buffer: inout Buffer, area: Rect, model: InspectorModel) {
        let lines = lines(width: max(1, area.width - 2))
        let more = offset + area.height - 2 < lines.count ? "  (j/k scroll, \(offset + 1)/\(lines.count))" : ""
        let inner = DialogFrame.full(&buffer, area: area, title: "Help: keys" + more)
        DialogFrame.drawLines(lines, first: offset, into: &buffer, rect: inner)
    }
}
