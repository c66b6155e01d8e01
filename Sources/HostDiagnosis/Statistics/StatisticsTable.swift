import Foundation
import InspectorClient

/// ``ActionStatistics`` as text, the same in `bridge-inspector stats` and the inspector's
/// statistics view: a summary line, then one aligned row per action.
///
/// Action names come from the journey: the caller passes `safe`, which makes a name safe for a
/// terminal, and `width`, the columns a string takes there (both from TerminalUI, which this
/// module does not depend on).
public enum StatisticsTable {
    /// The column titles.
    public static let header = ["ACTION", "REQUESTS", "ANSWERED", "UNANSWERED", "ERRORS", "ERROR RATE", "P50", "P95", "MAX", "EVENTS"]

    /// The column titles where the full ones do not fit (an 80-column terminal), explained by
    /// ``shortHeaderLegend``.
    public static let shortHeader = ["ACTION", "REQ", "ANS", "UNANS", "ERR", "ERR%", "P50", "P95", "MAX", "EVT"]

    /// What the short titles stand for.
    public static let shortHeaderLegend = "REQ requests · ANS answered · UNANS unanswered · ERR errors · EVT events"

    /// The cells of one row, the action made safe by `safe`.
    public static func cells(_ row: ActionStats, safe: (String) -> String) -> [String] {
        [
            safe(row.action), "\(row.requests)", "\(row.answered)", "\(row.unanswered)", "\(row.failed)", percent(row.errorRate),
            duration(row.latency?.p50), duration(row.latency?.p95), duration(row.latency?.max), "\(row.events)",
        ]
    }

    /// The header and one line per action: the action left-aligned, numbers right-aligned, two
    /// spaces between columns; with `compact`, the short titles (``shortHeader``).
    public static func lines(
        _ statistics: ActionStatistics, compact: Bool = false, safe: (String) -> String, width: (String) -> Int
    ) -> [String] {
        let all = [compact ? shortHeader : header] + statistics.actions.map { cells($0, safe: safe) }
        var widths = [Int](repeating: 0, count: header.count)
        for row in all { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], width(cell)) } }
        return all.map { row in
            row.enumerated().map { index, cell in
                let padding = String(repeating: " ", count: max(0, widths[index] - width(cell)))
                return index == 0 ? cell + padding : padding + cell
            }.joined(separator: "  ")
        }
    }

    /// One line about every action together, e.g. `12 requests for 3 actions: 10 answered,
    /// 2 unanswered; error rate 20%; latency p50 120ms, p95 1.5s, max 2.0s; 4 events`, with
    /// `; 1 held at a breakpoint for 40.0s (not in latency)` when some were.
    public static func summary(_ statistics: ActionStatistics) -> String {
        let total = statistics.total
        let count = statistics.actions.filter { $0.requests > 0 }.count
        var parts = ["\(plural(total.requests, "request")) for \(plural(count, "action")): \(total.answered) answered, \(total.unanswered) unanswered"]
        if let rate = total.errorRate { parts.append("error rate \(percent(rate))") }
        if let latency = total.latency {
            parts.append("latency p50 \(duration(latency.p50)), p95 \(duration(latency.p95)), max \(duration(latency.max))")
        }
        parts.append(plural(total.events, "event"))
        if total.held > 0 {
            parts.append("\(total.held) held at a breakpoint for \(duration(total.heldMs))\(total.held == 1 ? "" : " in all") (not in latency)")
        }
        return parts.joined(separator: "; ")
    }

    /// A rate from 0 to 1 as a percentage: `0%`, `12.5%`, `100%`; `-` for none.
    public static func percent(_ rate: Double?) -> String {
        guard let rate, rate.isFinite else { return "-" }
        let tenths = (rate * 1000).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? "\(Int(tenths / 10))%" : String(format: "%.1f%%", tenths / 10)
    }

    /// A latency as the inspector shows durations (`120ms`, `1.5s`); `-` for none.
    public static func duration(_ ms: Double?) -> String {
        ms.map { TimeFormat.duration(ms: $0) } ?? "-"
    }

    private static func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
}
