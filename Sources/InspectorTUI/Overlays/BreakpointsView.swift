import InspectorClient
import InspectorProtocol
import TerminalUI

/// Every inspector's breakpoints, with their filters, hold times and hits; yours are marked.
/// `b` opens it; `n` adds one (``BreakpointDialog``), `d` removes the selected one if it is
/// yours (another inspector's goes when it does), `H` shows what is held.
public struct BreakpointsView: OverlayView {
    var cursor = 0

    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
        let list = context.live.breakpoints
        switch key {
        case .escape, .char("q"), .char("b"): return .close
        case .char("j"), .down: cursor = min(cursor + 1, max(0, list.count - 1))
        case .char("k"), .up: cursor = max(0, cursor - 1)
        case .char("H"): return .switchTo(HeldView())
        case .char("n"):
            guard !context.readOnly else { return .flash("\(context.readOnlyWhy): nothing can be held from here", isError: true) }
            return .push(BreakpointDialog())
        case .char("d"), .delete:
            guard let breakpoint = list[safe: min(cursor, list.count - 1)] else { return .flash("no breakpoint to remove", isError: true) }
            if let refusal = breakpoint.removalRefusal(in: context) { return refusal }
            return .sendAndStay(.removeBreakpoint(.init(id: breakpoint.id)), label: "remove breakpoint \(breakpoint.id) \(breakpoint.filter)")
        default: return .unbound(key)
        }
        return .none
    }

    var footerKeys: [(key: String, label: String)] {
        [("Esc", "back"), ("n", "new breakpoint"), ("d", "remove yours"), ("H", "held"), ("j/k", "move")]
    }

    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        let list = context.live.breakpoints
        let inner = DialogFrame.full(&buffer, area: area, title: "Breakpoints: \(list.count) (\(context.live.held.count) held)")
        if list.isEmpty {
            let lines = [
                "No breakpoints.",
                "Press n to add one: a filter in the log's filter language (action:camera.* type:response …) and how long to hold.",
                "A matching request is held before the host routes it; a response or event before the journey receives it.",
                "Breakpoints belong to the inspector that set them and go when it disconnects.",
            ]
            DialogFrame.emptyListNote(lines, into: &buffer, rect: inner)
            return
        }
        let header = TextWidth.pad("id", to: 6) + TextWidth.pad("filter", to: 40) + TextWidth.pad("hold", to: 8) + TextWidth.pad("hits", to: 6) + "set by"
        buffer.write(header, at: inner.origin, style: Theme.paneTitle, maxWidth: inner.width)
        let selectedIndex = min(cursor, list.count - 1)
        for (index, breakpoint) in list.enumerated() where index + 1 < inner.height {
            let y = inner.y + 1 + index
            let selected = index == selectedIndex
            if selected { buffer.fill(Rect(x: inner.x, y: y, width: inner.width, height: 1), style: Theme.selection) }
            let line = TextWidth.pad(breakpoint.id, to: 6) + TextWidth.pad(TextWidth.fit(breakpoint.filter, to: 39), to: 40)
                + TextWidth.pad(TimeFormat.duration(ms: breakpoint.holdSeconds * 1000), to: 8) + TextWidth.pad("\(breakpoint.hits)", to: 6)
                + breakpoint.ownerColumn(in: context, others: ": not yours, only it can remove it")
            let own = breakpoint.isOwn(in: context) != false
            buffer.write(line, at: Point(x: inner.x, y: y), style: selected ? Theme.selection : (own ? .plain : Theme.dim), maxWidth: inner.width)
        }
    }
}
