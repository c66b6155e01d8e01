import BridgeCore
import Foundation
import InspectorClient
import TerminalUI

/// One message in full: a header, its JSON pretty-printed and coloured, and, for a request or a
/// response, its partner threaded below or above it with the latency. A message an inspector
/// edited at a breakpoint shows as delivered, with the original below it.
///
/// Large payloads are shown in part first (the first lines, the start of long strings, with
/// their size); `m` shows more, and the title says while anything is left out. Long lines wrap;
/// `w` switches to scrolling sideways (← →) like `less -S`. `/` searches the message; `n` and
/// `N` move between matching lines, marked at the left edge, with their count in the title.
public struct DetailView: OverlayView {
    /// The log row shown.
    public private(set) var logIndex: Int
    var offset = 0
    var detailLevel = 1
    /// Long lines wrap (the default); `w` switches to scrolling sideways with ← →.
    var wraps = true
    /// The first column shown when lines do not wrap.
    var column = 0
    /// The search being typed after `/`, if any.
    var searchInput: TextInput?
    /// The text searched for; `n` and `N` move between the lines that hold it.
    var searchQuery: String?
    private(set) var lines: [[Span]] = []
    private(set) var truncated = false
    /// What ``lines`` were built from: when it changes under the open view (the response
    /// arrives, a held message goes on edited, the request stops being pending) they are built
    /// again, so the view follows the traffic as the panes do.
    private var builtFrom: Source?

    /// The parts of the log the lines show.
    struct Source: Equatable {
        var partner: Int?
        var bytes: Int
        var original: Int?
        var partnerBytes: Int?
        var held: Bool
        var pending: Bool
        var lint: String?

        init?(logIndex: Int, context: OverlayContext) {
            guard let entry = context.live.log[safe: logIndex] else { return nil }
            partner = entry.partner
            bytes = entry.json.count
            original = entry.original?.count
            partnerBytes = entry.partner.flatMap { context.live.log[safe: $0]?.json.count }
            held = context.live.holdMarks[logIndex] != nil
            pending = entry.type == .request && context.live.pending.contains { $0.correlationId == entry.correlationId }
            lint = context.live.lintReasons[logIndex]
        }
    }

    init(logIndex: Int, context: OverlayContext) {
        self.logIndex = logIndex
        rebuild(context: context)
    }

    /// Builds the lines again if the log changed under them since they were built.
    private mutating func refresh(context: OverlayContext) {
        if Source(logIndex: logIndex, context: context) != builtFrom { rebuild(context: context) }
    }

    private mutating func rebuild(context: OverlayContext) {
        builtFrom = Source(logIndex: logIndex, context: context)
        let log = context.live.log
        guard log.indices.contains(logIndex) else {
            lines = [[Span("this message is no longer in the log", Theme.dim)]]
            return
        }
        let entry = log[logIndex]
        var result: [[Span]] = []
        var cut = false
        let maxLines = 400 * detailLevel * detailLevel
        let maxString = 300 * detailLevel * detailLevel * detailLevel
        func section(_ row: LogEntry, index: Int, selected: Bool, relation: String?) {
            result.append(header(row, context: context, selected: selected, relation: relation))
            if let hold = context.live.holdMarks[index] { result.append([Span(HoldMarkText.sentence(hold), Theme.handMade)]) }
            if let fault = row.fault { result.append([Span(FaultMarkText.sentence(fault), Theme.warning)]) }
            // The linter's reason in full (a malformed row's `reason:` line already is it). It can
            // quote what the journey sent: sanitized here so wrapping measures what is drawn.
            if row.kind == .message, let rule = row.lint {
                let reason = context.live.lintReasons[index] ?? rule.label
                result.append([Span("⚑ lint: " + Sanitizer.sanitize(reason), Theme.warning)])
            }
            if row.kind == .malformed {
                result.append([Span("reason: " + row.summary, Theme.danger)])
                result.append([Span("raw input (\(TimeFormat.bytes(row.bytes))):", Theme.dim)])
                let raw = String(decoding: row.json.prefix(maxString * 4), as: UTF8.self)
                for line in TextWrap.wrap(raw, width: max(20, context.size.width - 6)).prefix(maxLines) {
                    result.append([Span(line, .plain)])
                }
            } else {
                if let error = row.deliveryError { result.append([Span("not delivered: " + error, Theme.danger)]) }
                if let lost = row.lost { result.append([Span("lost: " + lost, Theme.danger)]) }
                if row.original != nil { result.append([Span("as delivered (edited by an inspector):", Theme.handMade)]) }
                let pretty = PrettyJSON.format(row.json, maxLines: maxLines, maxStringLength: maxString)
                cut = cut || pretty.truncated
                result.append(contentsOf: pretty.lines)
                if let original = row.original {
                    let before = row.direction == .received ? "as the journey posted it" : "as the host sent it"
                    result.append([Span("original, before the edit (\(before)):", Theme.dim)])
                    let pretty = PrettyJSON.format(original, maxLines: maxLines, maxStringLength: maxString)
                    cut = cut || pretty.truncated
                    result.append(contentsOf: pretty.lines)
                }
                if let reported = row.reported {
                    // The page reported another shape (a JSON string, status at the top level, …):
                    // the message above is as read; this is the text exactly as reported.
                    result.append([Span("as the page reported it (\(TimeFormat.bytes(reported.count))):", Theme.dim)])
                    let raw = String(decoding: reported.prefix(maxString * 4), as: UTF8.self)
                    for line in TextWrap.wrap(raw, width: max(20, context.size.width - 6)).prefix(maxLines) {
                        result.append([Span(line, .plain)])
                    }
                }
            }
            result.append([])
        }
        if let partner = entry.partner, log.indices.contains(partner) {
            let other = log[partner]
            let latency = (entry.latencyMs ?? other.latencyMs).map { " after " + TimeFormat.duration(ms: $0) } ?? ""
            if entry.type == .response {
                section(other, index: partner, selected: false, relation: "request")
                section(entry, index: logIndex, selected: true, relation: "response\(latency)")
            } else {
                section(entry, index: logIndex, selected: true, relation: "request")
                section(other, index: partner, selected: false, relation: "response\(latency)")
            }
        } else {
            var relation: String?
            if entry.type == .request {
                relation = context.live.pending.contains { $0.correlationId == entry.correlationId }
                    ? "request: pending, no response yet (r to respond)" : "request: no response in the log yet"
            }
            section(entry, index: logIndex, selected: true, relation: relation)
        }
        if cut { result.append([Span("… part of this message is not shown: press m for more", Theme.warning)]) }
        lines = result
        truncated = cut
    }

    private func header(_ entry: LogEntry, context: OverlayContext, selected: Bool, relation: String?) -> [Span] {
        var spans: [Span] = [Span(selected ? "▶ " : "  ", Theme.paneTitleFocused)]
        if let relation {
            // Upper-case the first word only: "42ms" and "r to respond" must stay as they are.
            let word = relation.prefix { $0.isLetter }
            spans.append(Span(word.uppercased() + relation.dropFirst(word.count) + "  ", Theme.paneTitleFocused))
        }
        let incoming = entry.direction == .received
        spans.append(Span(incoming ? "IN " : "OUT ", incoming ? Theme.incoming : Theme.outgoing))
        spans.append(Span((entry.type?.rawValue ?? "malformed") + " ", Theme.type))
        if entry.kind == .message { spans.append(Span(entry.summary + "  ", Theme.paneTitle)) }
        if !entry.correlationId.isEmpty { spans.append(Span("id " + entry.correlationId + "  ", .plain)) }
        spans.append(Span(context.timeFormat.clock(entry.time) + "  " + TimeFormat.bytes(entry.bytes), Theme.dim))
        if entry.origin == .inspector { spans.append(Span("  ✎ made by an inspector", Theme.handMade)) }
        if entry.answeredByRule { spans.append(Span("  R answered by a rule", Theme.handMade)) }
        return spans
    }

    /// The width of the text inside the frame for a screen of `context`'s size.
    private static func textWidth(_ context: OverlayContext) -> Int { max(1, context.size.width - 2) }

    /// The lines as shown: wrapped to the width, or whole (for scrolling sideways).
    func shownLines(width: Int) -> [[Span]] {
        wraps ? SpanLines.wrapped(lines, width: width).map(\.spans) : lines
    }

    /// The shown lines that hold the search text (case-insensitive).
    func matches(in shown: [[Span]]) -> [Int] {
        guard let query = searchQuery, !query.isEmpty else { return [] }
        return shown.indices.filter { shown[$0].map(\.text).joined().localizedCaseInsensitiveContains(query) }
    }

    var footerKeys: [(key: String, label: String)] {
        if searchInput != nil { return [("Enter", "search"), ("Esc", "cancel")] }
        return [("Esc", "back"), ("j/k", "scroll"), ("m", "more"), ("/", "search"), ("n/N", "match"), ("w", wraps ? "no wrap" : "wrap"),
                ("Tab", "request/response"), ("r", "respond"), ("y/Y", "copy"), ("?", "help")]
    }

    /// A search being typed takes `?` as text.
    var takesText: Bool { searchInput != nil }

    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
        refresh(context: context)
        let page = max(1, context.size.height - 6)
        let width = Self.textWidth(context)
        if var input = searchInput {
            switch key {
            case .escape:
                searchInput = nil
            case .enter:
                searchInput = nil
                searchQuery = input.text.isEmpty ? nil : input.text
                return jumpToMatch(forward: true, from: offset, width: width)
            default:
                _ = input.handle(key)
                searchInput = input
            }
            return .none
        }
        switch key {
        case .escape, .char("q"):
            return .close
        case .char("m"):
            guard truncated else { return .flash("the whole message is shown", isError: false) }
            detailLevel += 1
            rebuild(context: context)
            return .none
        case .char("w"):
            wraps.toggle()
            column = 0
            offset = 0
            return .flash(wraps ? "long lines wrap (w: scroll sideways with ← →)" : "long lines scroll sideways with ← → (w: wrap)", isError: false)
        case .left, .char("h"):
            column = max(0, column - 8)
            return wraps ? .flash("long lines wrap; press w to scroll sideways", isError: false) : .none
        case .right, .char("l"):
            guard !wraps else { return .flash("long lines wrap; press w to scroll sideways", isError: false) }
            column = min(max(0, SpanLines.maxWidth(lines) - width + 8), column + 8)
            return .none
        case .char("/"):
            searchInput = TextInput(text: searchQuery ?? "")
            return .none
        case .char("n"), .char("N"):
            guard searchQuery != nil else { return .flash("no search: press / to search this message", isError: false) }
            return jumpToMatch(forward: key == .char("n"), from: offset + (key == .char("n") ? 1 : -1), width: width)
        case .tab:
            if let partner = context.live.log[safe: logIndex]?.partner {
                logIndex = partner
                offset = 0
                rebuild(context: context)
            }
            return .none
        case .char("y"), .char("Y"):
            return .copy(logIndex: logIndex, key == .char("y") ? .json : .consoleLine)
        case .char("r"):
            guard !context.readOnly else { return .flash("\(context.readOnlyWhy): nothing can be sent", isError: true) }
            guard let entry = context.live.log[safe: logIndex],
                let request = context.live.pending.first(where: { $0.correlationId == entry.correlationId })
            else { return .flash("this message is not a pending request", isError: true) }
            return .push(RespondDialog(request: request))
        default:
            guard let next = DialogFrame.scroll(offset, key: key, count: shownLines(width: width).count, page: page) else { return .unbound(key) }
            offset = next
            return .none
        }
    }

    /// Scrolls to the next (or previous) line with a match, from `start`, wrapping around.
    private mutating func jumpToMatch(forward: Bool, from start: Int, width: Int) -> OverlayAction {
        let found = matches(in: shownLines(width: width))
        guard !found.isEmpty else { return .flash("no match for \(searchQuery ?? "") in this message", isError: true) }
        let next = forward ? (found.first { $0 >= start } ?? found[0]) : (found.last { $0 <= start } ?? found[found.count - 1])
        offset = next
        if !wraps { column = Self.column(showing: searchQuery ?? "", in: lines[safe: next] ?? [], from: column, width: width) }
        return .none
    }

    /// The first column to show so that `query`'s first match in `line` is on screen when lines
    /// scroll sideways: the one shown now if the match is in view, else a few columns before
    /// the match (without this, a match right of the view, or a short line left of it, left the
    /// view blank).
    static func column(showing query: String, in line: [Span], from current: Int, width: Int) -> Int {
        let text = line.map(\.text).joined()
        guard let range = text.range(of: query, options: .caseInsensitive) else { return current }
        let start = TextWidth.width(of: String(text[..<range.lowerBound]))
        let end = start + TextWidth.width(of: String(text[range]))
        if start >= current, end <= current + width { return current }
        return max(0, start - 8)
    }

    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        var current = self
        current.refresh(context: context)
        current.draw(into: &buffer, area: area, context: context)
    }

    private func draw(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        let width = max(1, area.width - 2)
        let shown = shownLines(width: width)
        var title = "Message detail  (\(min(offset + 1, max(1, shown.count)))/\(max(1, shown.count)))"
        if !wraps { title += column > 0 ? "  ← column \(column + 1) →" : "  no wrap →" }
        let found = matches(in: shown)
        if let query = searchQuery {
            let current = found.firstIndex { $0 >= offset }.map { $0 + 1 } ?? found.count
            title += found.isEmpty ? "  “\(query)”: no match" : "  “\(query)”: \(current)/\(found.count) lines"
        }
        // Whatever was left out is said where it is always seen, not only on the last line.
        if truncated { title += "  · part not shown: m for more" }
        let inner = DialogFrame.full(&buffer, area: area, title: title)
        var body = inner
        if let input = searchInput, inner.height > 1 {
            body.height -= 1
            let y = inner.maxY - 1
            let x = buffer.write("search: ", at: Point(x: inner.x, y: y), style: Theme.paneTitleFocused, maxWidth: inner.width)
            _ = input.draw(into: &buffer, in: Rect(x: inner.x + x, y: y, width: max(1, inner.width - x), height: 1), placeholder: "text in this message")
        }
        let visible = wraps ? shown : shown.map { SpanLines.dropping(column, from: $0) }
        DialogFrame.drawLines(visible, first: offset, into: &buffer, rect: body)
        if searchQuery != nil {
            for row in 0..<body.height where found.contains(offset + row) {
                buffer.write("▌", at: Point(x: inner.x - 1, y: body.y + row), style: Theme.highlight, maxWidth: 1)
            }
        }
    }
}
