import TerminalUI

/// Every key, grouped by where it works. `?` opens it; Esc closes it. Laid out by
/// ``HelpLayout`` for the terminal's width; the list is the key table's, one line a binding.
public struct HelpView: OverlayView {
    var offset = 0

    /// The help's sections: the key table's (``InspectorModel/keyTable``), each binding on its
    /// line in its section, then the reference that no key owns (the filter language and the
    /// markers in the log).
    static let sections = sections(readOnly: false)

    /// The help for a recording (``OverlayContext/readOnly``): only the keys that work on a
    /// file, none of those that send something and would be refused.
    static let readOnlySections = sections(readOnly: true)

    /// The help's sections, leaving out the bindings that send when `readOnly`.
    static func sections(readOnly: Bool) -> [(title: String, keys: [(String, String)])] {
        HelpSection.allCases.map { section in
            let lines = InspectorModel.keyTable.filter { $0.section == section && (!readOnly || $0.allowedReadOnly) }.compactMap { binding -> (String, String)? in
                guard case .line(let keys, let text) = binding.help else { return nil }
                return (keys, text)
            }
            return (section.rawValue, lines)
        }.filter { !$0.keys.isEmpty } + reference
    }

    /// What the help explains that is not a key.
    static let reference: [(title: String, keys: [(String, String)])] = [
        ("Filter language (f and /)", [
            ("type:request/response/event", "by type"), ("dir:in/out", "from / to the journey"),
            ("action:camera.*", "by action, * matches anything"), ("status:error  code:BUSY", "by response status or error code"),
            ("id:a1b2", "part of a correlation id"), ("is:pending/error/malformed/manual/rule/lint/marked/fault", "by state (is:lint: ⚑ marks, not on ✎ rows; is:marked: ◆, your m; is:fault: ⚡)"),
            ("body:text", "text anywhere in the JSON"), ("a b   a | b   !a   ( )", "and, or, not, group (! first, | last)"),
            ("anything else", "text in the action, id or reason"),
        ]),
        ("Markers in the log", [
            ("IN / OUT", "received from / sent to the journey"), ("✎", "made by an inspector, not by the app"),
            ("R", "answered by a reply rule"), ("◆", "marked by you (m; M next, f is:marked)"),
            ("⚡ f1 errored BUSY", "changed by a fault rule (X): the rule and what it did; f is:fault lists them"),
            ("⏸ held  ✎ edited  ⏸ answered  ✗ dropped", "a sent message held at a breakpoint, and what became of it"), ("┄┄ gap / disconnected / reattached ┄┄", "where the stream was interrupted"),
            ("── NAME restarted ──", "the app was run again (--host NAME): both pids"),
            ("⊘ (Pending)", "sent by a page that has gone; an answer reaches the next page"),
            ("! (Pending)", "waiting over half the journey's timeout (30 s; 5 s for a capability query)"),
            ("✗ (Pending)", "past the journey's timeout: the journey has given up on it"),
        ]),
    ]

    /// The lines laid out for a frame `width` columns wide inside.
    func lines(width: Int, readOnly: Bool = false) -> [[Span]] {
        HelpLayout.lines(readOnly ? Self.readOnlySections : Self.sections, width: width)
    }

    var footerKeys: [(key: String, label: String)] { [("Esc", "back"), ("j/k", "scroll")] }

    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
        switch key {
        case .escape, .char("q"): return .close
        case _ where InspectorModel.helpBinding?.keys.contains(key) == true: return .close
        default:
            let count = lines(width: max(1, context.size.width - 2), readOnly: context.readOnly).count
            guard let next = DialogFrame.scroll(offset, key: key, count: count, page: max(1, context.size.height - 6)) else { return .unbound(key) }
            offset = next
            return .none
        }
    }

    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        let lines = lines(width: max(1, area.width - 2), readOnly: context.readOnly)
        let more = offset + area.height - 2 < lines.count ? "  (j/k scroll, \(offset + 1)/\(lines.count))" : ""
        let inner = DialogFrame.full(&buffer, area: area, title: "Help: keys" + more)
        DialogFrame.drawLines(lines, first: offset, into: &buffer, rect: inner)
    }
}
