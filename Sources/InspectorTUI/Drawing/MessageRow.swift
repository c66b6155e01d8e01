import BridgeCore
import InspectorClient
import TerminalUI

/// One line of the Messages pane: time, direction, type, action, id (shortened by
/// ``CorrelationIdText``), status, latency, and
/// the ``LintRule`` the row breaks, if any, as a mark at the end of the action column
/// (`⚑ BUSY`, `⚑ action typo?`; the detail view gives the whole reason). A row the person
/// marked (`m`) shows ``markGlyph`` in the column after its time. A row a fault rule changed shows
/// ``FaultMarkText/short(_:narrow:)`` before its action.
///
/// A malformed row shows no mark: its `BAD malformed: reason` already says what the linter's
/// ``LintRule/malformed`` mark would.
enum MessageRow {
    static func draw(
        _ entry: LogEntry, into buffer: inout Buffer, at origin: Point, width: Int, selected: Bool, highlighted: Bool,
        timeFormat: TimeFormat, hold: HoldMark? = nil
    ) {
        let row = Rect(x: origin.x, y: origin.y, width: width, height: 1)
        let base: Style = selected ? Theme.selection : (highlighted ? Theme.highlight : .plain)
        if selected || highlighted { buffer.fill(row, style: base) }
        func style(_ styled: Style) -> Style { selected || highlighted ? base : styled }
        var x = origin.x
        let limit = row.maxX
        let narrow = width < Self.wideWidth
        let idColumnWidth = Self.idColumnWidth(forWidth: width)
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
            x += drawTime(entry, into: &buffer, at: Point(x: x, y: origin.y), maxWidth: limit - x, timeFormat: timeFormat, style: style)
            // A page script's report of what the host sent that could not be read is an OUT row.
            let sent = entry.direction == .sent
            x += buffer.write(sent ? "OUT " : "IN  ", at: Point(x: x, y: origin.y), style: style(sent ? Theme.outgoing : Theme.incoming), maxWidth: limit - x)
            x += buffer.write("BAD  ", at: Point(x: x, y: origin.y), style: style(Theme.danger), maxWidth: limit - x)
            // Text an inspector injected (`inject --raw`) is marked hand-made, as injected messages are.
            if entry.origin == .inspector {
                x += buffer.write("✎ ", at: Point(x: x, y: origin.y), style: style(Theme.handMade), maxWidth: limit - x)
            }
            let label = sent ? "unread: " : "malformed: "
            // Input that names its correlationId shows it in the id column, like any message, so
            // the request it was meant to be can be found; without one the reason takes the row.
            guard let id = entry.malformedCorrelationId else {
                buffer.write(label + entry.summary, at: Point(x: x, y: origin.y), style: style(Theme.danger), maxWidth: limit - x)
                return
            }
            let idText = Self.idColumn(id, width: width)
            let reasonWidth = max(1, limit - x - idColumnWidth)
            buffer.write(TextWidth.fit(label + entry.summary, to: reasonWidth), at: Point(x: x, y: origin.y), style: style(Theme.danger), maxWidth: reasonWidth)
            buffer.write(idText, at: Point(x: limit - min(idColumnWidth, limit - x), y: origin.y), style: style(Theme.dim), maxWidth: min(idColumnWidth, limit - x))
            return
        case .message:
            break
        }
        x += drawTime(entry, into: &buffer, at: Point(x: x, y: origin.y), maxWidth: limit - x, timeFormat: timeFormat, style: style)
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
        if let hold {
            x += buffer.write(HoldMarkText.short(hold) + " ", at: Point(x: x, y: origin.y), style: style(Theme.handMade), maxWidth: limit - x)
        }
        if let fault = entry.fault {
            x += buffer.write(FaultMarkText.short(fault, narrow: narrow) + " ", at: Point(x: x, y: origin.y), style: style(Theme.warning), maxWidth: limit - x)
        }
        // Right-hand part: status and latency (on rows that have them), then the id at the right
        // edge; the action takes what is left. The id keeps one column on every row, at every
        // width (a request's id sits above its response's id, and an event's with them); the
        // status block keeps its own, and a row without a status lends that space to its action,
        // so `camera.document.capture` stays whole in an 80-column pane. Fitted, not just padded:
        // an id or error code that is long, wide or full of escapes must not widen the tail and
        // shift the columns.
        var tailStyle = Theme.dim
        var statusText = ""
        if let status = entry.status {
            if status != .success { tailStyle = Theme.warning }
            // Narrow: an error's code says it is an error, so the code alone fits the column.
            if narrow, status == .error, let code = entry.errorCode {
                statusText = code
            } else {
                statusText = status.rawValue + (entry.errorCode.map { " " + $0 } ?? "")
            }
        }
        if entry.deliveryError != nil {
            statusText = statusText.isEmpty ? "UNDELIVERED" : statusText + " UNDELIVERED"
            tailStyle = Theme.danger
        } else if entry.lost != nil {
            statusText = statusText.isEmpty ? "LOST" : statusText + " LOST"
            tailStyle = Theme.danger
        }
        let latency = entry.latencyMs.map { TimeFormat.duration(ms: $0) }
        let statusBlock = statusText.isEmpty && latency == nil ? "" : Self.statusBlock(status: statusText, latency: latency, width: width)
        let statusWidth = TextWidth.width(of: statusBlock)
        let actionWidth = max(1, limit - x - idColumnWidth - statusWidth)
        // A lint mark ends the action column, so the status, latency and id columns stay put.
        let mark = entry.lint.map {
            Self.lintMark($0, actionColumn: actionWidth, actionWidth: TextWidth.width(of: entry.summary), errorCode: entry.errorCode)
        } ?? ""
        let markWidth = TextWidth.width(of: mark)
        let nameWidth = max(1, actionWidth - markWidth)
        buffer.write(TextWidth.fit(entry.summary, to: nameWidth), at: Point(x: x, y: origin.y), style: style(.plain), maxWidth: nameWidth)
        if markWidth > 0 {
            buffer.write(mark, at: Point(x: x + nameWidth, y: origin.y), style: style(Theme.warning), maxWidth: markWidth)
        }
        let idX = limit - min(idColumnWidth, limit - x)
        if statusWidth > 0 {
            let statusX = max(x, idX - statusWidth)
            buffer.write(statusBlock, at: Point(x: statusX, y: origin.y), style: style(tailStyle), maxWidth: idX - statusX)
        }
        buffer.write(Self.idColumn(entry.correlationId, width: width), at: Point(x: idX, y: origin.y), style: style(Theme.dim), maxWidth: limit - idX)
    }

    /// The glyph of a row the person marked (`m`), in the column after its time.
    static let markGlyph = "◆"

    /// The time column and the column after it: a space, or ``markGlyph`` on a marked row. The
    /// mark takes a column every row already has, so no other column moves and the action keeps
    /// its room at 80 columns. Returns the columns written.
    private static func drawTime(
        _ entry: LogEntry, into buffer: inout Buffer, at point: Point, maxWidth: Int, timeFormat: TimeFormat, style: (Style) -> Style
    ) -> Int {
        let clock = buffer.write(timeFormat.clock(entry.time), at: point, style: style(Theme.dim), maxWidth: maxWidth)
        let after = Point(x: point.x + clock, y: point.y)
        let gutter = entry.marked
            ? buffer.write(markGlyph, at: after, style: style(Theme.rowMark), maxWidth: maxWidth - clock)
            : buffer.write(" ", at: after, style: style(Theme.dim), maxWidth: maxWidth - clock)
        return clock + gutter
    }

    /// Inner widths from this one up use the wide columns (a status column that holds
    /// `error PERMISSION_DENIED` whole at 96 and more).
    static let wideWidth = 90

    /// The fewest columns the action keeps on a row with a lint mark: enough to tell
    /// `camera.document.capture` from `camera.selfie.capture` by its start.
    static let minActionWidthBesideMark = 11

    /// The most columns a lint mark takes from an action that does not fit whole: ` ⚑ action typo?`
    /// and ` ⚑ slot disabled` whole, longer labels cut.
    static let maxMarkWidthBesideLongAction = 16

    /// The lint mark at the end of an action column `actionColumn` wide holding an action
    /// `actionWidth` wide: a space, `⚑` and the rule's label (``LintRule/label``).
    ///
    /// The action stays whole when at least ` ⚑ BUSY`'s 7 columns are left beside it, the label
    /// shortened with `…` to what is left; otherwise the mark takes up to
    /// ``maxMarkWidthBesideLongAction`` columns from the action, which keeps at least
    /// ``minActionWidthBesideMark``. The flag itself is never cut (it is what
    /// `f is:lint` finds): at worst the mark is a lone ` ⚑`, and nothing in a column under 3.
    ///
    /// Where the row's status column already names what the rule flags (`errorCode` is the
    /// label: `error BUSY`), the mark is the flag alone: `⚑ BUSY  error BUSY` said it twice and
    /// took the action's room.
    static func lintMark(_ rule: LintRule, actionColumn: Int, actionWidth: Int, errorCode: String? = nil) -> String {
        let full = errorCode == rule.label ? " ⚑" : " ⚑ " + rule.label
        let fullWidth = TextWidth.width(of: full)
        let besideWholeAction = actionColumn - actionWidth
        let room = besideWholeAction >= min(fullWidth, 7)
            ? min(fullWidth, besideWholeAction)
            : min(fullWidth, max(besideWholeAction, min(maxMarkWidthBesideLongAction, actionColumn - minActionWidthBesideMark)))
        if room >= fullWidth { return full }
        if room >= 5 {
            let cut = TextWidth.truncate(full, to: room)
            return cut.hasSuffix(" …") ? String(cut.dropLast(2)) + "…" : cut
        }
        return actionColumn >= 3 ? " ⚑" : ""
    }

    /// The id column's width in a row `width` wide: a space and the id's own column
    /// (``CorrelationIdText/columnWidth(forPaneWidth:)``: 12 up to 100 columns, then wider).
    static func idColumnWidth(forWidth width: Int) -> Int {
        1 + CorrelationIdText.columnWidth(forPaneWidth: width)
    }

    /// The id column of a row `width` wide: the id shortened by ``CorrelationIdText``, padded so
    /// that every row's id starts in the same column.
    static func idColumn(_ id: String, width: Int) -> String {
        let column = CorrelationIdText.columnWidth(forPaneWidth: width)
        return " " + TextWidth.pad(CorrelationIdText.shortened(id, to: column), to: column)
    }

    /// The status and latency columns of a row `width` wide, each fitted to its column so that
    /// they line up on every row that has them.
    ///
    /// Narrow (80 columns, where the action matters most) the status column is 17 wide: the
    /// longest error code, `PERMISSION_DENIED`, whole.
    static func statusBlock(status: String, latency: String?, width: Int) -> String {
        let statusWidth = width < wideWidth ? 17 : (width >= 96 ? 24 : 16)
        let latencyWidth = width < wideWidth ? 6 : 7
        return " " + TextWidth.fit(status, to: statusWidth) + " " + TextWidth.pad(latency ?? "", to: latencyWidth, alignment: .right)
    }
}
