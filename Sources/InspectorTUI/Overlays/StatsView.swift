import HostDiagnosis
import InspectorClient
import TerminalUI

/// Per-action statistics of the log (`S`): for each action its requests, answers, errors, error
/// rate and latency p50/p95/max, live. The view counts the log once when it opens, then only
/// the rows that arrive (``ActionStatisticsAccumulator``, through ``follow(context:)``), so a
/// frame costs the same at a million messages as at ten (issue 30). A summary line and the
/// column titles stay put; the rows scroll.
///
/// `c` switches to the journey's coverage (``JourneyCoverage``: what documented paths it met,
/// how it answered the unhappy ones, what it never met) and back. The coverage reads the whole
/// log, so it is computed when shown and again on `r`, never while drawing (issue 30); the
/// title says how many messages came since.
public struct StatsView: OverlayView {
    /// The first row shown.
    var offset = 0
    /// The statistics of the log, followed as rows arrive.
    private(set) var statistics: ActionStatisticsAccumulator

    /// The view over the log as it is now.
    init(context: OverlayContext) {
        statistics = ActionStatisticsAccumulator(following: context.live)
    }
    /// The coverage, while it is shown (`c`); `nil` shows the per-action statistics.
    private(set) var coverage: JourneyCoverage?
    /// How many rows the log had when the coverage was computed.
    private(set) var coverageLogCount = 0

    /// The widest an action name is shown, so a long name does not push the numbers off screen.
    static let maxActionWidth = 40

    /// What is drawn: the summary and column titles (fixed) and one line per action.
    func lines(context: OverlayContext, width: Int) -> (top: [[Span]], rows: [[Span]]) {
        let statistics = currentStatistics(context: context)
        var top = DialogFrame.wrap([Span(StatisticsTable.summary(statistics), .plain)], width: width)
        guard !statistics.actions.isEmpty else { return (top, []) }
        let (table, compact) = Self.fittedTable(statistics, width: width)
        if compact { top += DialogFrame.wrap([Span(StatisticsTable.shortHeaderLegend, Theme.dim)], width: width) }
        top.append([])
        top.append([Span(table[0], Theme.paneTitle)])
        let rows = zip(statistics.actions, table.dropFirst()).map { row, line -> [Span] in
            [Span(line, (row.errorRate ?? 0) > 0 ? Theme.danger : .plain)]
        }
        return (top, rows)
    }

    /// The statistics of the log in `context`: those followed, or, should the log have changed
    /// without ``follow(context:)`` being told, a count of a copy brought up to date.
    func currentStatistics(context: OverlayContext) -> ActionStatistics {
        var statistics = statistics
        statistics.follow(context.live)
        return statistics.statistics
    }

    mutating func follow(context: OverlayContext) {
        statistics.follow(context.live)
    }

    /// The table as wide as `width` allows, so that every column stays on screen: the full
    /// titles when they fit, else the short ones, else also the action names cut shorter (to no
    /// fewer than 12 columns). `compact` says the short titles are used.
    static func fittedTable(_ statistics: ActionStatistics, width: Int) -> (lines: [String], compact: Bool) {
        func build(compact: Bool, actionWidth: Int) -> [String] {
            StatisticsTable.lines(
                statistics, compact: compact, safe: { TextWidth.truncate(Sanitizer.sanitize($0), to: actionWidth) },
                width: { TextWidth.width(of: $0) })
        }
        func tableWidth(_ lines: [String]) -> Int { lines.first.map { TextWidth.width(of: $0) } ?? 0 }
        let full = build(compact: false, actionWidth: maxActionWidth)
        if tableWidth(full) <= width { return (full, false) }
        let short = build(compact: true, actionWidth: maxActionWidth)
        let over = tableWidth(short) - width
        if over <= 0 { return (short, true) }
        let actionColumn = statistics.actions.map { TextWidth.width(of: TextWidth.truncate(Sanitizer.sanitize($0.action), to: maxActionWidth)) }.max() ?? 0
        return (build(compact: true, actionWidth: max(12, actionColumn - over)), true)
    }

    /// Rows shown at once under the fixed lines, for a screen of the context's size.
    static func page(context: OverlayContext, top: Int) -> Int { max(1, context.size.height - 6 - top) }

    var footerKeys: [(key: String, label: String)] {
        coverage == nil
            ? [("Esc", "back"), ("j/k", "scroll"), ("c", "coverage")]
            : [("Esc", "back"), ("j/k", "scroll"), ("r", "recompute"), ("c", "per action")]
    }

    /// The coverage of the log as it is now, at the host's time (a recording's: its end).
    mutating func computeCoverage(context: OverlayContext) {
        let now = context.readOnly ? JourneyCoverage.sessionEnd(of: context.live) : context.pendingClock
        coverage = JourneyCoverage(state: context.live, now: now, timeouts: context.journeyTimeouts)
        coverageLogCount = context.live.log.count
    }

    /// The coverage's lines, coloured.
    static func coverageLines(_ coverage: JourneyCoverage, width: Int) -> [[Span]] {
        CoverageTable.lines(coverage, safe: { Sanitizer.sanitize($0) }, width: { TextWidth.width(of: $0) }).flatMap { line -> [[Span]] in
            let style: Style = switch line.style {
            case .plain: .plain
            case .heading: Theme.paneTitle
            case .never, .note: Theme.dim
            case .finding: Theme.danger
            }
            return DialogFrame.wrap([Span(line.text, style)], width: width)
        }
    }

    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
        switch key {
        case .escape, .char("q"), .char("S"): return .close
        case .char("c"):
            offset = 0
            if coverage == nil {
                computeCoverage(context: context)
            } else {
                coverage = nil
            }
            return .none
        case .char("r") where coverage != nil:
            computeCoverage(context: context)
            return .flash("coverage computed again: " + (coverage.map(CoverageTable.summary) ?? ""), isError: false)
        default:
            if let coverage {
                let rows = Self.coverageLines(coverage, width: max(1, context.size.width - 2))
                guard let next = DialogFrame.scroll(offset, key: key, count: rows.count, page: Self.page(context: context, top: 0)) else { return .unbound(key) }
                offset = next
                return .none
            }
            let (top, rows) = lines(context: context, width: max(1, context.size.width - 2))
            guard let next = DialogFrame.scroll(offset, key: key, count: rows.count, page: Self.page(context: context, top: top.count)) else { return .unbound(key) }
            offset = next
            return .none
        }
    }

    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        if let coverage {
            let rows = Self.coverageLines(coverage, width: max(1, area.width - 2))
            let shown = max(0, area.height - 2)
            let first = min(offset, max(0, rows.count - shown))
            let since = context.live.log.count - coverageLogCount
            let title = "Journey coverage (c: per action, r: recompute" + (since > 0 ? ", \(since) new since" : "") + ")"
            let more = rows.count > shown ? "  \(first + 1)-\(min(rows.count, first + shown))/\(rows.count)" : ""
            let inner = DialogFrame.full(&buffer, area: area, title: title + more)
            DialogFrame.drawLines(rows, first: first, into: &buffer, rect: inner)
            return
        }
        let (top, rows) = lines(context: context, width: max(1, area.width - 2))
        let shown = max(0, area.height - 2 - top.count)
        let first = min(offset, max(0, rows.count - shown))
        let more = rows.count > shown ? "  (j/k scroll, \(first + 1)-\(min(rows.count, first + shown))/\(rows.count))" : ""
        let inner = DialogFrame.full(&buffer, area: area, title: "Statistics per action, live" + more)
        DialogFrame.drawLines(top, first: 0, into: &buffer, rect: inner)
        guard top.count < inner.height else { return }
        if rows.isEmpty {
            let note = Rect(x: inner.x, y: inner.y + top.count + 1, width: inner.width, height: max(0, inner.height - top.count - 1))
            DialogFrame.emptyListNote(["no requests or events yet", "rows appear here as the journey sends requests"], into: &buffer, rect: note)
            return
        }
        let rest = Rect(x: inner.x, y: inner.y + top.count, width: inner.width, height: inner.height - top.count)
        DialogFrame.drawLines(rows, first: first, into: &buffer, rect: rest)
    }
}
