import InspectorClient
import TerminalUI

/// The reply rules this inspector applies, with their hit counts: space pauses or resumes the
/// selected rule, d removes it, n opens a form for a new one (``RuleDialog``: action pattern,
/// how many, delay and response). Rules are also made from the respond dialog ("remember").
public struct RulesView: OverlayView {
    var cursor = 0

    var footerKeys: [(key: String, label: String)] { [("Esc", "back"), ("n", "new rule"), ("space", "pause/resume"), ("d", "remove"), ("Tab", "fault rules"), ("j/k", "move")] }

    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
        let rules = context.rules.rules
        switch key {
        case .escape, .char("q"), .char("R"): return .close
        case .tab, .backTab: return .switchTo(FaultsView())
        case .char("j"), .down: cursor = min(cursor + 1, max(0, rules.count - 1))
        case .char("k"), .up: cursor = max(0, cursor - 1)
        case .char("d"), .delete:
            guard let rule = rules[safe: cursor] else { return .none }
            cursor = max(0, min(cursor, rules.count - 2))
            return .removeRule(rule.id)
        case .char(" "):
            guard let rule = rules[safe: cursor] else { return .none }
            return .toggleRule(rule.id)
        case .char("n"):
            guard !context.readOnly else { return .flash("\(context.readOnlyWhy): no rule can answer from here", isError: true) }
            return .push(RuleDialog())
        default: return .unbound(key)
        }
        return .none
    }

    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        let rules = context.rules.rules
        let inner = DialogFrame.full(&buffer, area: area, title: "Reply rules: \(rules.count) (\(context.rules.totalHits) \(context.rules.totalHits == 1 ? "hit" : "hits"))")
        if rules.isEmpty {
            let lines = [
                "No reply rules yet.",
                "Press n to make one: action pattern (camera.* too), how many, delay and response.",
                "In the respond dialog (r), set \"remember\" to answer the next requests for that action the same way;",
                "or run `bridge-inspector auto-respond` from a shell.",
                "Tab: the fault rules, which make the host's own handling go wrong on purpose (BUSY, late, never answered).",
            ]
            DialogFrame.emptyListNote(lines, into: &buffer, rect: inner)
            return
        }
        let header = TextWidth.pad("rule", to: 24) + TextWidth.pad("action", to: 28) + TextWidth.pad("answers", to: 12)
            + TextWidth.pad("delay", to: 9) + TextWidth.pad("status", to: 13) + "hits"
        buffer.write(header, at: inner.origin, style: Theme.paneTitle, maxWidth: inner.width)
        for (index, rule) in rules.enumerated() where index + 1 < inner.height {
            let y = inner.y + 1 + index
            let selected = index == cursor
            if selected { buffer.fill(Rect(x: inner.x, y: y, width: inner.width, height: 1), style: Theme.selection) }
            let answers: String
            if !rule.isEnabled {
                answers = "paused"
            } else if let remaining = rule.remaining {
                answers = remaining == 0 ? "used up" : "next \(remaining)"
            } else {
                answers = "every"
            }
            let line = TextWidth.pad(TextWidth.fit(rule.name, to: 23), to: 24) + TextWidth.pad(TextWidth.fit(rule.action, to: 27), to: 28)
                + TextWidth.pad(answers, to: 12) + TextWidth.pad(rule.delayMs > 0 ? "\(rule.delayMs)ms" : "-", to: 9)
                + TextWidth.pad(rule.response.status.rawValue, to: 13) + "\(rule.hits)"
            buffer.write(line, at: Point(x: inner.x, y: y), style: selected ? Theme.selection : (rule.isActive ? .plain : Theme.dim), maxWidth: inner.width)
        }
    }
}
