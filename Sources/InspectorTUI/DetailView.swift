import BridgeCore
import Foundation
import InspectorClient
import TerminalUI

/// One message in full: a header, its JSON pretty-printed and coloured, and, for a request or a
/// response, its partner threaded below or above it with the latency.
///
/// Large payloads are shown in part first (the first lines, the start of long strings, with
/// their size); `m` shows more.
public struct DetailView: Sendable {
    /// The log row shown.
    public private(set) var logIndex: Int
    var offset = 0
    var detailLevel = 1
    private(set) var lines: [[Span]] = []
    private(set) var truncated = false

    init(logIndex: Int, model: InspectorModel) {
        self.logIndex = logIndex
        rebuild(model: model)
    }

    private mutating func rebuild(model: InspectorModel) {
        let log = model.live.log
        guard log.indices.contains(logIndex) else {
            lines = [[Span("this message is no longer in the log", Theme.dim)]]
            return
        }
        let entry = log[logIndex]
        var result: [[Span]] = []
        var cut = false
        let maxLines = 400 * detailLevel * detailLevel
        let maxString = 300 * detailLevel * detailLevel * detailLevel
        func section(_ row: LogEntry, selected: Bool, relation: String?) {
            result.append(header(row, model: model, selected: selected, relation: relation))
            if row.kind == .malformed {
                result.append([Span("reason: " + row.summary, Theme.danger)])
                result.append([Span("raw input (\(TimeFormat.bytes(row.bytes))):", Theme.dim)])
                let raw = String(decoding: row.json.prefix(maxString * 4), as: UTF8.self)
                for line in TextWrap.wrap(raw, width: max(20, model.size.width - 6)).prefix(maxLines) {
                    result.append([Span(line, .plain)])
                }
            } else {
                if let error = row.deliveryError { result.append([Span("not delivered: " + error, Theme.danger)]) }
                let pretty = PrettyJSON.format(row.json, maxLines: maxLines, maxStringLength: maxString)
                cut = cut || pretty.truncated
                result.append(contentsOf: pretty.lines)
            }
            result.append([])
        }
        if let partner = entry.partner, log.indices.contains(partner) {
            let other = log[partner]
            let latency = (entry.latencyMs ?? other.latencyMs).map { " after " + TimeFormat.duration(ms: $0) } ?? ""
            if entry.type == .response {
                section(other, selected: false, relation: "request")
                section(entry, selected: true, relation: "response\(latency)")
            } else {
                section(entry, selected: true, relation: "request")
                section(other, selected: false, relation: "response\(latency)")
            }
        } else {
            var relation: String?
            if entry.type == .request {
                relation = model.live.pending.contains { $0.correlationId == entry.correlationId }
                    ? "request: pending, no response yet (r to respond)" : "request: no response in the log yet"
            }
            section(entry, selected: true, relation: relation)
        }
        if cut { result.append([Span("… part of this message is not shown: press m for more", Theme.warning)]) }
        lines = result
        truncated = cut
    }

    private func header(_ entry: LogEntry, model: InspectorModel, selected: Bool, relation: String?) -> [Span] {
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
        spans.append(Span(model.timeFormat.clock(entry.time) + "  " + TimeFormat.bytes(entry.bytes), Theme.dim))
        if entry.origin == .inspector { spans.append(Span("  ✎ made by an inspector", Theme.handMade)) }
        if entry.answeredByRule { spans.append(Span("  R answered by a rule", Theme.handMade)) }
        return spans
    }

    mutating func handle(_ key: Key, model: InspectorModel) -> OverlayAction {
        let page = max(1, model.size.height - 6)
        switch key {
        case .escape, .char("q"):
            return .close
        case .char("m"):
            guard truncated else { return .flash("the whole message is shown", isError: false) }
            detailLevel += 1
            rebuild(model: model)
            return .none
        case .tab:
            if let partner = model.live.log[safe: logIndex]?.partner {
                logIndex = partner
                offset = 0
                rebuild(model: model)
            }
            return .none
        case .char("r"):
            guard let entry = model.live.log[safe: logIndex],
                let request = model.live.pending.first(where: { $0.correlationId == entry.correlationId })
            else { return .flash("this message is not a pending request", isError: true) }
            return .push(.respond(RespondDialog(request: request)))
        default:
            if let next = DialogFrame.scroll(offset, key: key, count: lines.count, page: page) { offset = next }
            return .none
        }
    }

    func render(into buffer: inout Buffer, area: Rect, model: InspectorModel) {
        let inner = DialogFrame.full(&buffer, area: area, title: "Message detail  (\(offset + 1)/\(max(1, lines.count)))")
        DialogFrame.drawLines(lines, first: offset, into: &buffer, rect: inner)
    }
}
