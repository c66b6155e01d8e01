import TerminalUI

/// Everything this inspector did on the person's behalf, with the host's answer, and every
/// notice it showed, in full, in the order they happened: an audit log, and the place to read
/// a notice that was too long for the screen or gone before it was read.
public struct ActionLogView: OverlayView {
    /// The first line shown; `nil` follows the newest (the log opens at its end).
    var offset: Int?

    var footerKeys: [(key: String, label: String)] { [("Esc", "back"), ("j/k", "scroll")] }

    /// The rows a page shows for a terminal of `size`.
    static func page(_ size: Size) -> Int { max(1, size.height - 4) }

    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
        switch key {
        case .escape, .char("q"), .char("A"): return .close
        default:
            let count = Self.lines(context: context, width: max(1, context.size.width - 2)).count
            let page = Self.page(context.size)
            let current = offset ?? max(0, count - page)
            guard let next = DialogFrame.scroll(current, key: key, count: count, page: page) else { return .unbound(key) }
            offset = next
            return .none
        }
    }

    /// Every action and notice as wrapped lines, oldest first: a host's refusal and a long
    /// notice are shown in full. An action and a notice of the same time keep the order they
    /// were made in within their kind; the action comes first.
    static func lines(context: OverlayContext, width: Int) -> [[Span]] {
        var entries: [(time: Double, spans: [Span])] = []
        for action in context.actions {
            var spans = [Span(context.timeFormat.clock(action.time) + "  ", Theme.dim)]
            switch action.outcome {
            case nil: spans.append(Span("… ", Theme.warning))
            case .done: spans.append(Span("✓ ", Theme.success))
            case .refused: spans.append(Span("✗ ", Theme.danger))
            }
            spans.append(Span(action.label, .plain))
            if case .refused(let message) = action.outcome { spans.append(Span(": " + message, Theme.danger)) }
            entries.append((action.time, spans))
        }
        // Both lists are oldest first: merged by time, an action before a notice of its time.
        var merged: [(time: Double, spans: [Span])] = []
        var actionIndex = 0
        for notice in context.notices {
            while actionIndex < entries.count, entries[actionIndex].time <= notice.time {
                merged.append(entries[actionIndex])
                actionIndex += 1
            }
            let repeats = notice.repeats > 1 ? " (×\(notice.repeats))" : ""
            merged.append((notice.time, [
                Span(context.timeFormat.clock(notice.time) + "  ", Theme.dim),
                Span(notice.isError ? "! " : "» ", notice.isError ? Theme.danger : Theme.dim),
                Span(notice.text + repeats, notice.isError ? Theme.danger : .plain),
            ]))
        }
        merged += entries[actionIndex...]
        return merged.flatMap { DialogFrame.wrap($0.spans, width: width, indent: 16) }
    }

    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        let title = "Action log: what this inspector did (\(context.actions.count)) and told you (\(context.notices.count))"
        let inner = DialogFrame.full(&buffer, area: area, title: title)
        if context.actions.isEmpty && context.notices.isEmpty {
            buffer.write("nothing yet: responses, events and slot actions you make, and every notice shown, appear here", at: inner.origin, style: Theme.dim, maxWidth: inner.width)
            return
        }
        let lines = Self.lines(context: context, width: inner.width)
        let first = min(offset ?? .max, max(0, lines.count - inner.height))
        DialogFrame.drawLines(lines, first: first, into: &buffer, rect: inner)
    }
}
