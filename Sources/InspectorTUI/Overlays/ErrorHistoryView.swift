import InspectorClient
import InspectorProtocol
import TerminalUI

/// The values lastError took, newest first, each with its time; Enter jumps to the message that
/// caused the selected one.
public struct ErrorHistoryView: OverlayView {
    let entries: [WireError]
    var cursor = 0

    init(context: OverlayContext) {
        entries = context.live.errorHistory.reversed()
    }

    var footerKeys: [(key: String, label: String)] { [("Esc", "back"), ("Enter", "jump to cause"), ("j/k", "move")] }

    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
        switch key {
        case .escape, .char("q"), .char("E"): return .close
        case .char("j"), .down: cursor = min(cursor + 1, max(0, entries.count - 1))
        case .char("k"), .up: cursor = max(0, cursor - 1)
        case .char("g"), .home: cursor = 0
        case .char("G"), .end: cursor = max(0, entries.count - 1)
        case .enter:
            guard let cause = entries[safe: cursor]?.cause else { return .flash("no message is linked to this error", isError: true) }
            return .jumpToSeq(cause)
        default: return .unbound(key)
        }
        return .none
    }

    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        let errors = entries.filter { $0.text != nil }.count
        let inner = DialogFrame.full(&buffer, area: area, title: "lastError history: \(errors) errors (newest first)")
        if entries.isEmpty {
            buffer.write("lastError has not been set since the inspector attached", at: inner.origin, style: Theme.dim, maxWidth: inner.width)
            return
        }
        // Each entry wrapped in full (errors are often longer than a line), its lines kept together.
        var rows: [(entry: Int, spans: [Span])] = []
        for (index, entry) in entries.enumerated() {
            let selected = index == cursor
            let spans = [
                Span(context.timeFormat.clock(entry.time) + "  ", selected ? Theme.selection : Theme.dim),
                Span(entry.cause != nil ? "→ " : "  ", selected ? Theme.selection : Theme.paneTitle),
                Span(entry.text ?? "(cleared)", selected ? Theme.selection : (entry.text == nil ? Theme.dim : Theme.danger)),
            ]
            let indentStyle = selected ? Theme.selection : .plain
            for line in DialogFrame.wrap(spans, width: inner.width, indent: 16, indentStyle: indentStyle) { rows.append((index, line)) }
        }
        DialogFrame.drawList(
            rows.map(\.spans), keepingInView: DialogFrame.lines(of: cursor, in: rows) { $0.entry }, highlighted: { rows[$0].entry == cursor },
            into: &buffer, rect: inner)
    }
}
