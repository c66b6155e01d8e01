import TerminalUI

/// Everything this inspector did on the person's behalf, with the host's answer: an audit log.
public struct ActionLogView: OverlayView {
    var offset = 0

    var footerKeys: [(key: String, label: String)] { [("Esc", "back"), ("j/k", "scroll")] }

    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
        switch key {
        case .escape, .char("q"), .char("A"): return .close
        default:
            let count = Self.lines(context: context, width: max(1, context.size.width - 2)).count
            if let next = DialogFrame.scroll(offset, key: key, count: count, page: max(1, context.size.height - 6)) { offset = next }
            return .none
        }
    }

    /// Every action as wrapped lines: the host's refusal is shown in full.
    static func lines(context: OverlayContext, width: Int) -> [[Span]] {
        var lines: [[Span]] = []
        for action in context.actions {
            var spans = [Span(context.timeFormat.clock(action.time) + "  ", Theme.dim)]
            switch action.outcome {
            case nil: spans.append(Span("… ", Theme.warning))
            case .done: spans.append(Span("✓ ", Theme.success))
            case .refused: spans.append(Span("✗ ", Theme.danger))
            }
            spans.append(Span(action.label, .plain))
            if case .refused(let message) = action.outcome { spans.append(Span(": " + message, Theme.danger)) }
            lines += DialogFrame.wrap(spans, width: width, indent: 16)
        }
        return lines
    }

    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        let inner = DialogFrame.full(&buffer, area: area, title: "Action log: what this inspector did (\(context.actions.count))")
        if context.actions.isEmpty {
            buffer.write("nothing yet: responses, events and slot actions you make appear here", at: inner.origin, style: Theme.dim, maxWidth: inner.width)
            return
        }
        DialogFrame.drawLines(Self.lines(context: context, width: inner.width), first: offset, into: &buffer, rect: inner)
    }
}
