import Foundation
import InspectorClient
import InspectorProtocol
import TerminalUI

/// One difference of the ``DiffView`` opened (Enter): what differs, then the messages of both
/// sides as the detail view shows one (pretty JSON in its own key order; a request with its
/// answer), the "before" above the "after", or side by side on a screen wide enough
/// (``sideBySideWidth``). j/k, PgUp/PgDn and g/G scroll both; Esc goes back to the list.
///
/// The lines are made once when it opens, from the states the diff was computed on, so what
/// is shown is what was compared even while the live log moves on.
struct DiffDetailView: OverlayView {
    /// The frame's title: the kind of difference and the action.
    let title: String
    /// What differs, in one line.
    let summary: String
    /// The "before" side's heading and lines.
    let before: (heading: String, lines: [[Span]])
    /// The "after" side's heading and lines.
    let after: (heading: String, lines: [[Span]])
    /// The first line shown.
    var offset = 0

    /// The narrowest inside at which the two sides stand side by side.
    static let sideBySideWidth = 100
    /// The most lines of one message shown (the detail view shows all of it).
    static let maxLines = 300

    /// The difference `difference` of `view`, opened.
    init(difference: SessionDifference, view: DiffView, timeFormat: TimeFormat) {
        title = DiffRow.label(difference) + ": " + Sanitizer.sanitize(TextWidth.truncate((difference.left ?? difference.right)?.action ?? "", to: 60))
        summary = Sanitizer.sanitize(DiffRow.detail(difference))
        // A difference in the answer shows the answer first, then the request it answers.
        let answerFirst = difference.part == .answer || [.statusChanged, .errorCodeChanged, .latencyChanged, .answerMissing, .answerExtra].contains(difference.kind)
        before = ("before  " + Sanitizer.sanitize(view.beforeName), Self.lines(of: difference.left, in: view.before, answerFirst: answerFirst, timeFormat: timeFormat))
        after = ("after   " + Sanitizer.sanitize(view.afterName), Self.lines(of: difference.right, in: view.after, answerFirst: answerFirst, timeFormat: timeFormat))
    }

    /// One side's messages: the item's and its answer's (the answer first when `answerFirst`),
    /// each under a line saying which it is.
    static func lines(of side: SessionDifference.Side?, in state: LiveState, answerFirst: Bool, timeFormat: TimeFormat) -> [[Span]] {
        guard let side else { return [[Span("(nothing here: on the other side only)", Theme.dim)]] }
        var lines: [[Span]] = []
        var seqs = [side.seq]
        if let answer = side.answerSeq, answer != side.seq { seqs.insert(answer, at: answerFirst ? 0 : 1) }
        for seq in seqs {
            if !lines.isEmpty { lines.append([]) }
            guard let index = state.logIndex(ofSeq: seq), let entry = state.log[safe: index] else {
                lines.append([Span("#\(seq): no longer in the log", Theme.dim)])
                continue
            }
            let what = entry.kind == .malformed ? "malformed input" : entry.type?.rawValue ?? "message"
            let from = entry.direction == .received ? "from the journey" : "from the host"
            var heading = "#\(seq) \(what) \(from) at \(timeFormat.clock(entry.time))"
            if let latency = entry.latencyMs { heading += " after \(TimeFormat.duration(ms: latency))" }
            lines.append([Span(heading, Theme.paneTitle)])
            lines += PrettyJSON.format(entry.json, maxLines: maxLines).lines
        }
        return lines
    }

    /// The lines as drawn in `width` columns: what differs across the top, then both sides one
    /// above the other, or in two columns (`right`).
    func layout(width: Int) -> (top: [[Span]], left: [[Span]], right: [[Span]]?) {
        let top: [[Span]] = DialogFrame.wrap([Span(summary, Theme.warning)], width: width) + [[]]
        let beforeBlock = [[Span(before.heading, Theme.paneTitleFocused)]] + before.lines
        let afterBlock = [[Span(after.heading, Theme.paneTitleFocused)]] + after.lines
        if width >= Self.sideBySideWidth { return (top, beforeBlock, afterBlock) }
        return (top, beforeBlock + [[]] + afterBlock, nil)
    }

    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
        switch key {
        case .escape, .char("q"): return .close
        default:
            let (top, left, right) = layout(width: max(1, context.size.width - 2))
            let page = max(1, context.size.height - 6 - top.count)
            guard let next = DialogFrame.scroll(offset, key: key, count: max(left.count, right?.count ?? 0), page: page) else { return .unbound(key) }
            offset = next
            return .none
        }
    }

    var footerKeys: [(key: String, label: String)] { [("Esc", "back to the list"), ("j/k", "scroll")] }

    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        let frame = DialogFrame.full(&buffer, area: area, title: title)
        let (top, left, right) = layout(width: frame.width)
        DialogFrame.drawLines(top, first: 0, into: &buffer, rect: frame)
        guard top.count < frame.height else { return }
        let inner = Rect(x: frame.x, y: frame.y + top.count, width: frame.width, height: frame.height - top.count)
        let count = max(left.count, right?.count ?? 0)
        let first = min(offset, max(0, count - inner.height))
        guard let right else {
            DialogFrame.drawLines(left, first: first, into: &buffer, rect: inner)
            return
        }
        let half = (inner.width - 1) / 2
        DialogFrame.drawLines(left, first: first, into: &buffer, rect: Rect(x: inner.x, y: inner.y, width: half, height: inner.height))
        for y in inner.y..<inner.maxY { buffer.write("│", at: Point(x: inner.x + half, y: y), style: Theme.dim, maxWidth: 1) }
        let column = Rect(x: inner.x + half + 1, y: inner.y, width: inner.width - half - 1, height: inner.height)
        DialogFrame.drawLines(right, first: first, into: &buffer, rect: column)
    }
}
