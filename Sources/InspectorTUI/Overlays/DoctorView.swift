import BridgeCore
import HostDiagnosis
import InspectorClient
import InspectorProtocol
import TerminalUI

/// The doctor (`D`): GBGBridge's troubleshooting checklist applied to what this inspector sees,
/// one line per check of ``Doctor``, the selected check opened underneath with its evidence, the
/// documented fix and the heading of the troubleshooting page it follows. Enter jumps to the
/// first message among the selected check's evidence.
///
/// The state is examined again each time the view is drawn (and when a key needs the report),
/// so it follows the traffic: a BUSY answer arriving turns its check red while the view is open.
/// Ages are measured on the host's clock, stopped while the host is gone
/// (``InspectorModel/pendingClock``), as the Pending pane's are.
///
/// The checks are in the order `bridge-inspector doctor` prints them
/// (``DoctorReport/checksInReadingOrder``): failures first, then warnings, ok and not run. The
/// view opens on the first line, the worst check. The report changes under the view as messages
/// arrive, so the cursor is a check, not a line: when its check moves (a BUSY answer turns it
/// red), the cursor moves with it. The summary line counts each status.
///
/// Everything in a report can quote what a journey or a host sent (an action, a correlation id,
/// lastError, the host's name): each piece is sanitized before it is measured and wrapped, so
/// the lines break where the escapes are drawn (``Buffer/write(_:at:style:maxWidth:)`` would
/// sanitize it again anyway).
public struct DoctorView: OverlayView {
    /// The selected check, wherever its status puts it in the list.
    var selected: DoctorCheckID

    /// The title of the frame.
    static let title = "Doctor: GBGBridge's troubleshooting checklist, live"

    /// A view whose cursor starts on the first line: the worst check (a failure, else a warning).
    init(context: OverlayContext) {
        selected = Self.report(context: context).checksInReadingOrder.first?.id ?? .lastError
    }

    /// The doctor's report on the state now.
    static func report(context: OverlayContext) -> DoctorReport {
        Doctor().examine(context.live, hostNow: context.pendingClock)
    }

    /// Where the selected check is among `checks` (0 if it is not there).
    func cursor(in checks: [DoctorCheck]) -> Int {
        checks.firstIndex { $0.id == selected } ?? 0
    }

    /// The mark and style of a status: colour always comes with a symbol.
    static func glyph(_ status: DoctorStatus) -> (text: String, style: Style) {
        switch status {
        case .failure: return (status.symbol, Theme.danger)
        case .warning: return (status.symbol, Theme.warning)
        case .ok: return (status.symbol, .plain)
        case .notRun: return (status.symbol, Theme.dim)
        }
    }

    /// The fixed lines above the checks: the host and the summary.
    static func topLines(_ report: DoctorReport, width: Int) -> [[Span]] {
        var host = "no host yet"
        if let info = report.host {
            host = "\(Sanitizer.sanitize(info.name)) (pid \(info.pid)) \(Sanitizer.sanitize(info.environment))"
            if info.inspectionPath == HostFeature.publicAPIPath { host += ", seen through GBGBridge's public API: some checks cannot run" }
        }
        var lines = DialogFrame.wrap([Span("host: ", Theme.dim), Span(host, .plain)], width: width, indent: 6)
        lines += DialogFrame.wrap([Span(report.tally, report.status == .failure ? Theme.danger : Theme.paneTitle)], width: width)
        lines.append([])
        return lines
    }

    /// One line of the list: the check it belongs to, whether it is the selected check's
    /// (highlighted) heading, and what it says.
    typealias Row = (check: Int, selected: Bool, spans: [Span])

    /// The lines of the checks: one line each, the selected one in full with its evidence, fix
    /// and guide heading.
    static func checkLines(_ checks: [DoctorCheck], cursor: Int, width: Int, timeFormat: TimeFormat) -> [Row] {
        var rows: [Row] = []
        for (index, check) in checks.enumerated() {
            let glyph = glyph(check.status)
            let selected = index == cursor
            let head = [
                Span(glyph.text + " ", selected ? Theme.selection : glyph.style),
                Span(check.title + "  ", selected ? Theme.selection : Theme.paneTitle),
                Span(Sanitizer.sanitize(check.summary), selected ? Theme.selection : (check.status == .notRun ? Theme.dim : .plain)),
            ]
            guard selected else {
                rows.append((index, false, fitted(head, width: width)))
                continue
            }
            for line in DialogFrame.wrap(head, width: width, indent: 2, indentStyle: Theme.selection) { rows.append((index, true, line)) }
            for line in detailLines(check, width: width, timeFormat: timeFormat) { rows.append((index, false, line)) }
        }
        return rows
    }

    /// The evidence, fix and guide heading of a check, indented under it.
    static func detailLines(_ check: DoctorCheck, width: Int, timeFormat: TimeFormat) -> [[Span]] {
        var lines: [[Span]] = []
        func add(_ spans: [Span], indent: Int) {
            let body = DialogFrame.wrap(spans, width: max(1, width - 4), indent: indent)
            lines += body.map { [Span("    ", .plain)] + $0 }
        }
        for item in check.evidence {
            var spans = [Span(item.seq != nil ? "→ " : "• ", item.seq != nil ? Theme.paneTitle : Theme.dim)]
            if let time = item.time { spans.append(Span(timeFormat.clock(time) + "  ", Theme.dim)) }
            if let id = item.correlationId, !id.isEmpty { spans.append(Span("id " + Sanitizer.sanitize(id) + "  ", Theme.dim)) }
            spans.append(Span(Sanitizer.sanitize(item.text), check.status == .failure ? Theme.danger : .plain))
            add(spans, indent: 2)
        }
        if check.moreEvidence > 0 { add([Span("… and \(check.moreEvidence) more", Theme.dim)], indent: 2) }
        if !check.fix.isEmpty { add([Span("fix: ", Theme.paneTitle), Span(Sanitizer.sanitize(check.fix), .plain)], indent: 5) }
        add([Span("guide: ", Theme.dim), Span(Sanitizer.sanitize(check.guideHeading), Theme.dim)], indent: 7)
        return lines
    }

    /// One line of spans cut to `width` columns, the last one kept ending in `…`.
    private static func fitted(_ spans: [Span], width: Int) -> [Span] {
        var result: [Span] = []
        var left = width
        for span in spans where left > 0 {
            let shown = TextWidth.truncate(span.text, to: left)
            result.append(Span(shown, span.style))
            left -= TextWidth.width(of: shown)
        }
        return result
    }

    var footerKeys: [(key: String, label: String)] { [("Esc", "back"), ("Enter", "jump to evidence"), ("j/k", "move")] }

    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
        let checks = Self.report(context: context).checksInReadingOrder
        let last = max(0, checks.count - 1)
        let cursor = cursor(in: checks)
        func select(_ index: Int) {
            if let check = checks[safe: index] { selected = check.id }
        }
        switch key {
        case .escape, .char("q"), .char("D"): return .close
        case .char("j"), .down: select(min(cursor + 1, last))
        case .char("k"), .up: select(max(0, cursor - 1))
        case .char("g"), .home: select(0)
        case .char("G"), .end: select(last)
        case .enter:
            guard let seq = checks[safe: cursor]?.evidence.lazy.compactMap(\.seq).first else {
                return .flash("this check has no message to jump to", isError: true)
            }
            return .jumpToSeq(seq)
        default: break
        }
        return .none
    }

    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        let report = Self.report(context: context)
        let width = max(1, area.width - 2)
        let top = Self.topLines(report, width: width)
        let checks = report.checksInReadingOrder
        let cursor = cursor(in: checks)
        let rows = Self.checkLines(checks, cursor: cursor, width: width, timeFormat: context.timeFormat)
        // When the checks do not all fit, the title says which one is open, as other lists do.
        let listHeight = max(0, area.height - 2 - top.count)
        let position = rows.count > listHeight ? "  (\(cursor + 1)/\(checks.count), j/k)" : ""
        let inner = DialogFrame.full(&buffer, area: area, title: Self.title + position)
        DialogFrame.drawLines(top, first: 0, into: &buffer, rect: inner)
        let list = Rect(x: inner.x, y: inner.y + top.count, width: inner.width, height: max(0, inner.height - top.count))
        guard list.height > 0 else { return }
        // The selected check in view, from its first line when it is taller than the list.
        DialogFrame.drawList(
            rows.map(\.spans), keepingInView: DialogFrame.lines(of: cursor, in: rows) { $0.check }, highlighted: { rows[$0].selected },
            into: &buffer, rect: list)
    }
}
