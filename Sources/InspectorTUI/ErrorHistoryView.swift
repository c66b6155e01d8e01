import InspectorClient
import InspectorProtocol
import TerminalUI

/// The values lastError took, newest first, each with its time; Enter jumps to the message that
/// caused the selected one.
public struct ErrorHistoryView: Sendable {
    let entries: [WireError]
    var cursor = 0

    init(model: InspectorModel) {
        entries = model.live.errorHistory.reversed()
    }

    mutating func handle(_ key: Key, model: InspectorModel) -> OverlayAction {
        switch key {
        case .escape, .char("q"), .char("E"): return .close
        case .char("j"), .down: cursor = min(cursor + 1, max(0, entries.count - 1))
        case .char("k"), .up: cursor = max(0, cursor - 1)
        case .char("g"), .home: cursor = 0
        case .char("G"), .end: cursor = max(0, entries.count - 1)
        case .enter:
            guard let cause = entries[safe: cursor]?.cause else { return .flash("no message is linked to this error", isError: true) }
            return .jumpToSeq(cause)
        default: break
        }
        return .none
    }

    func render(into buffer: inout Buffer, area: Rect, model: InspectorModel) {
        let errors = entries.filter { $0.text != nil }.count
        let inner = DialogFrame.full(&buffer, area: area, title: "lastError history: \(errors) errors (newest first)")
        if entries.isEmpty {
            buffer.write("lastError has not been set since the inspector attached", at: inner.origin, style: Theme.dim, maxWidth: inner.width)
            return
        }
        let first = min(max(0, cursor - inner.height + 1), max(0, entries.count - inner.height))
        for row in 0..<inner.height {
            let index = first + row
            guard let entry = entries[safe: index] else { break }
            let y = inner.y + row
            let selected = index == cursor
            if selected { buffer.fill(Rect(x: inner.x, y: y, width: inner.width, height: 1), style: Theme.selection) }
            var x = inner.x
            x += buffer.write(model.timeFormat.clock(entry.time) + "  ", at: Point(x: x, y: y), style: selected ? Theme.selection : Theme.dim, maxWidth: inner.maxX - x)
            let link = entry.cause != nil ? "→ " : "  "
            x += buffer.write(link, at: Point(x: x, y: y), style: selected ? Theme.selection : Theme.paneTitle, maxWidth: inner.maxX - x)
            let text = entry.text ?? "(cleared)"
            buffer.write(text, at: Point(x: x, y: y), style: selected ? Theme.selection : (entry.text == nil ? Theme.dim : Theme.danger), maxWidth: inner.maxX - x)
        }
    }
}

/// Everything this inspector did on the person's behalf, with the host's answer: an audit log.
public struct ActionLogView: Sendable {
    var offset = 0

    mutating func handle(_ key: Key, model: InspectorModel) -> OverlayAction {
        switch key {
        case .escape, .char("q"), .char("A"): return .close
        default:
            if let next = DialogFrame.scroll(offset, key: key, count: model.actions.count, page: max(1, model.size.height - 6)) { offset = next }
            return .none
        }
    }

    func render(into buffer: inout Buffer, area: Rect, model: InspectorModel) {
        let inner = DialogFrame.full(&buffer, area: area, title: "Action log: what this inspector did (\(model.actions.count))")
        if model.actions.isEmpty {
            buffer.write("nothing yet: responses, events and slot actions you make appear here", at: inner.origin, style: Theme.dim, maxWidth: inner.width)
            return
        }
        for row in 0..<inner.height {
            guard let action = model.actions[safe: offset + row] else { break }
            let y = inner.y + row
            var x = inner.x
            x += buffer.write(model.timeFormat.clock(action.time) + "  ", at: Point(x: x, y: y), style: Theme.dim, maxWidth: inner.maxX - x)
            switch action.outcome {
            case nil: x += buffer.write("… ", at: Point(x: x, y: y), style: Theme.warning, maxWidth: inner.maxX - x)
            case .done: x += buffer.write("✓ ", at: Point(x: x, y: y), style: Theme.success, maxWidth: inner.maxX - x)
            case .refused: x += buffer.write("✗ ", at: Point(x: x, y: y), style: Theme.danger, maxWidth: inner.maxX - x)
            }
            x += buffer.write(action.label, at: Point(x: x, y: y), maxWidth: inner.maxX - x)
            if case .refused(let message) = action.outcome {
                buffer.write(": " + message, at: Point(x: x, y: y), style: Theme.danger, maxWidth: inner.maxX - x)
            }
        }
    }
}
