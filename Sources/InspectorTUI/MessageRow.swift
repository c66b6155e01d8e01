import BridgeCore
import InspectorClient
import TerminalUI

/// One line of the Messages pane: time, direction, type, action, short id, status, latency.
enum MessageRow {
    /// The first 8 characters of an id (the part people tell apart), or all of a short one.
    static func shortId(_ id: String) -> String {
        if id.count <= 12 { return id }
        // Host event ids start with "<environment>-event-": show the random part.
        if let range = id.range(of: "-event-") { return String(id[range.upperBound...].prefix(8)) }
        return String(id.prefix(8))
    }

    static func draw(
        _ entry: LogEntry, into buffer: inout Buffer, at origin: Point, width: Int, selected: Bool, highlighted: Bool,
        timeFormat: TimeFormat
    ) {
        let row = Rect(x: origin.x, y: origin.y, width: width, height: 1)
        let base: Style = selected ? Theme.selection : (highlighted ? Theme.highlight : .plain)
        if selected || highlighted { buffer.fill(row, style: base) }
        func style(_ styled: Style) -> Style { selected || highlighted ? base : styled }
        var x = origin.x
        let limit = row.maxX
        switch entry.kind {
        case .gap(let from, let to):
            buffer.write("┄┄ gap: missed events \(from)–\(to) (inspector fell behind); state resynchronised ┄┄", at: origin, style: style(Theme.marker), maxWidth: width)
            return
        case .disconnected:
            buffer.write("┄┄ \(timeFormat.clock(entry.time)) disconnected from the host ┄┄", at: origin, style: style(Theme.marker), maxWidth: width)
            return
        case .hostRestarted(let name, let endedPid, let attachedPid):
            // `write` sanitizes the name (it comes from the new host's hello).
            let text = "── \(timeFormat.clock(entry.time)) \(name) restarted: pid \(endedPid) ended, pid \(attachedPid) attached ──"
            buffer.write(text, at: origin, style: style(Theme.marker), maxWidth: width)
            return
        case .reattached(let restarted):
            let text = restarted ? "reattached: the host restarted (new process); older rows are from before" : "reattached to the same host"
            buffer.write("┄┄ \(timeFormat.clock(entry.time)) \(text) ┄┄", at: origin, style: style(Theme.marker), maxWidth: width)
            return
        case .malformed:
            x += buffer.write(timeFormat.clock(entry.time) + " ", at: Point(x: x, y: origin.y), style: style(Theme.dim), maxWidth: limit - x)
            x += buffer.write("IN  ", at: Point(x: x, y: origin.y), style: style(Theme.incoming), maxWidth: limit - x)
            x += buffer.write("BAD  ", at: Point(x: x, y: origin.y), style: style(Theme.danger), maxWidth: limit - x)
            buffer.write("malformed: " + entry.summary, at: Point(x: x, y: origin.y), style: style(Theme.danger), maxWidth: limit - x)
            return
        case .message:
            break
        }
        x += buffer.write(timeFormat.clock(entry.time) + " ", at: Point(x: x, y: origin.y), style: style(Theme.dim), maxWidth: limit - x)
        let incoming = entry.direction == .received
        x += buffer.write(incoming ? "IN  " : "OUT ", at: Point(x: x, y: origin.y), style: style(incoming ? Theme.incoming : Theme.outgoing), maxWidth: limit - x)
        let type: String
        switch entry.type {
        case .request: type = "req  "
        case .response: type = "resp "
        case .event: type = "evt  "
        case nil: type = "?    "
        }
        x += buffer.write(type, at: Point(x: x, y: origin.y), style: style(Theme.type), maxWidth: limit - x)
        if entry.origin == .inspector {
            x += buffer.write("✎ ", at: Point(x: x, y: origin.y), style: style(Theme.handMade), maxWidth: limit - x)
        }
        if entry.answeredByRule {
            x += buffer.write("R ", at: Point(x: x, y: origin.y), style: style(Theme.handMade), maxWidth: limit - x)
        }
        // Right-hand part: id, status, latency; the action takes what is left. In a wide pane
        // they keep the same columns on every row (a request's id sits above its response's
        // id); in a narrow one the action matters more, so a row without a status does not
        // reserve room for one. Fitted, not just padded: an id or error code that is long,
        // wide or full of escapes must not widen the tail and shift the columns.
        let aligned = width >= 90
        var tail = " " + TextWidth.fit(shortId(entry.correlationId), to: 12)
        var tailStyle = Theme.dim
        var statusText = ""
        if let status = entry.status {
            statusText = status.rawValue + (entry.errorCode.map { " " + $0 } ?? "")
            if status != .success { tailStyle = Theme.warning }
        }
        if entry.deliveryError != nil {
            statusText = statusText.isEmpty ? "UNDELIVERED" : statusText + " UNDELIVERED"
            tailStyle = Theme.danger
        }
        let latency = entry.latencyMs.map { TimeFormat.duration(ms: $0) }
        if aligned {
            tail += " " + TextWidth.fit(statusText, to: width >= 96 ? 24 : 16)
            tail += " " + TextWidth.pad(latency ?? "", to: 7, alignment: .right)
        } else {
            if !statusText.isEmpty { tail += " " + TextWidth.pad(TextWidth.truncate(statusText, to: 24), to: 11) }
            if let latency { tail += " " + TextWidth.pad(latency, to: 7, alignment: .right) }
        }
        let tailWidth = TextWidth.width(of: tail)
        let actionWidth = max(1, limit - x - tailWidth)
        buffer.write(TextWidth.fit(entry.summary, to: actionWidth), at: Point(x: x, y: origin.y), style: style(.plain), maxWidth: actionWidth)
        buffer.write(tail, at: Point(x: limit - min(tailWidth, limit - x), y: origin.y), style: style(tailStyle), maxWidth: min(tailWidth, limit - x))
    }
}
