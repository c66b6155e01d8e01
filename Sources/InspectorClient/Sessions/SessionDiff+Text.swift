import BridgeCore
import InspectorProtocol

/// A ``SessionDiff`` as text for a person: a header line per side, one block per difference with
/// the messages on both sides, then a summary line.
///
/// ```
/// left   build-41.jsonl: host demo, 24 messages, 14:03:01.234 to 14:03:09.870 (8.6s)
/// right  build-42.jsonl: host demo, 24 messages, 15:10:44.020 to 15:10:52.511 (8.5s)
///
/// status changed: the answer to camera.document.capture
///   left   #12 request camera.document.capture from the journey (id cap-1) → success in 120ms
///   right  #12 request camera.document.capture from the journey (id cap-7) → error CAMERA_DENIED in 80ms
///   status: success → error
///
/// 1 difference: 1 status changed
/// ```
///
/// Everything that came from a host or a file goes through `safe` (the CLI's
/// `ScriptOutput.safe`, the TUI's `Sanitizer.sanitize`), so nothing in a message can act on a
/// terminal.
extension SessionDiff {
    /// The report's lines (without newlines).
    public func textLines(safe: (String) -> String, timeFormat: TimeFormat = TimeFormat()) -> [String] {
        var lines = [
            "left   " + Self.header(left, safe: safe, timeFormat: timeFormat),
            "right  " + Self.header(right, safe: safe, timeFormat: timeFormat),
        ]
        if left.inspectorMadeLeftOut + right.inspectorMadeLeftOut > 0 {
            lines.append(
                "left out: \(left.inspectorMadeLeftOut) inspector-made message\(left.inspectorMadeLeftOut == 1 ? "" : "s") on the left, "
                    + "\(right.inspectorMadeLeftOut) on the right (made by a person, not the app; --include-inspector compares them too)")
        }
        for difference in differences {
            lines.append("")
            lines += block(difference, safe: safe)
        }
        lines.append("")
        lines.append(summary)
        return lines
    }

    /// One line that sums the differences up: `3 differences: 1 status changed, 1 field
    /// changed, 1 event missing`, or `no differences (24 items aligned)`.
    public var summary: String {
        guard !differences.isEmpty else { return "no differences (\(alignedCount) item\(alignedCount == 1 ? "" : "s") aligned)" }
        var counts: [(label: String, count: Int)] = []
        for difference in differences {
            let label = Self.label(of: difference)
            if let index = counts.firstIndex(where: { $0.label == label }) {
                counts[index].count += 1
            } else {
                counts.append((label, 1))
            }
        }
        let parts = counts.map { entry in
            "\(entry.count) " + (entry.count == 1 ? entry.label : Self.plural(of: entry.label))
        }
        return "\(differences.count) difference\(differences.count == 1 ? "" : "s"): " + parts.joined(separator: ", ")
    }

    /// What one difference is called in the summary and the TUI's diff view (`status changed`,
    /// `event missing`); `shortNouns` says `malformed` for `malformed input`, for a narrow column.
    public static func label(of difference: SessionDifference, shortNouns: Bool = false) -> String {
        let side = difference.left ?? difference.right
        let thing = side.map { shortNouns && $0.kind == .malformed ? "malformed" : noun(for: $0.kind) } ?? "message"
        switch difference.kind {
        case .statusChanged: return "status changed"
        case .errorCodeChanged: return "error code changed"
        case .fieldChanged: return "field changed"
        case .answerMissing: return "answer missing"
        case .answerExtra: return "extra answer"
        case .latencyChanged: return "latency changed"
        case .missing: return "\(thing) missing"
        case .added: return "\(thing) added"
        case .moved: return "\(thing) moved"
        }
    }

    private static func plural(of label: String) -> String {
        switch label {
        case "status changed": return "statuses changed"
        case "error code changed": return "error codes changed"
        case "field changed": return "fields changed"
        case "answer missing": return "answers missing"
        case "extra answer": return "extra answers"
        case "latency changed": return "latencies changed"
        default:
            // "<noun> missing|added|moved"
            guard let space = label.lastIndex(of: " ") else { return label }
            return String(label[..<space]) + "s" + label[space...]
        }
    }

    private static func noun(for kind: SessionTranscript.Item.Kind) -> String {
        switch kind {
        case .request: return "request"
        case .event: return "event"
        case .answer: return "answer"
        case .malformed: return "malformed input"
        }
    }

    private func block(_ difference: SessionDifference, safe: (String) -> String) -> [String] {
        let side = difference.left ?? difference.right
        let action = side.map { safe($0.action) } ?? ""
        var lines: [String] = []
        let about: String
        switch difference.kind {
        case .statusChanged, .errorCodeChanged, .latencyChanged, .answerMissing, .answerExtra:
            about = "the answer to \(action)"
        case .fieldChanged:
            about = difference.part == .answer ? "the answer to \(action)" : "\(side.map { Self.noun(for: $0.kind) } ?? "message") \(action)"
        case .missing, .added, .moved:
            about = "\(side.map { Self.noun(for: $0.kind) } ?? "message") \(action)"
        }
        lines.append("\(Self.label(of: difference)): \(about)")
        lines.append("  left   " + (difference.left.map { describe(left.items[$0.index], safe: safe) } ?? "(none)"))
        lines.append("  right  " + (difference.right.map { describe(right.items[$0.index], safe: safe) } ?? "(none)"))
        switch difference.kind {
        case .statusChanged, .errorCodeChanged, .fieldChanged:
            let path = difference.path.map(safe) ?? ""
            lines.append("  \(difference.part == .answer && difference.kind == .fieldChanged ? "answer " : "")\(path): "
                + "\(difference.old.map(safe) ?? "(absent)") → \(difference.new.map(safe) ?? "(absent)")")
        case .latencyChanged:
            let l = difference.leftLatencyMs.map { TimeFormat.duration(ms: $0) } ?? "?"
            let r = difference.rightLatencyMs.map { TimeFormat.duration(ms: $0) } ?? "?"
            lines.append("  latency: \(l) → \(r) (tolerance: more than \(Self.number(options.latency.factor))× and \(Self.number(options.latency.minimumMs)) ms apart)")
        case .answerMissing:
            lines.append("  answered on the left, still pending on the right")
        case .answerExtra:
            lines.append("  pending on the left, answered on the right")
        case .moved:
            lines.append("  item \(difference.left.map { $0.index + 1 } ?? 0) on the left is item \(difference.right.map { $0.index + 1 } ?? 0) on the right")
        case .missing:
            lines.append("  on the left only")
        case .added:
            lines.append("  on the right only")
        }
        return lines
    }

    /// An item in one line: `#12 request camera.document.capture from the journey (id cap-1) →
    /// success in 120ms {"document":…}`.
    private func describe(_ item: SessionTranscript.Item, safe: (String) -> String) -> String {
        let from = item.direction == .received ? "from the journey" : "from the host"
        var text = "#\(item.seq) \(Self.noun(for: item.kind)) \(safe(SessionValueComparison.shortened(item.action, limit: 60))) \(from)"
        if !item.correlationId.isEmpty { text += " (id \(safe(SessionValueComparison.shortened(item.correlationId, limit: 40))))" }
        if let data = item.data, let shown = SessionValueComparison.display(data) { text += " " + safe(shown) }
        if item.kind == .request || item.kind == .answer {
            if let answer = item.answer {
                text += " → " + (answer.status?.rawValue ?? "no status")
                if let code = answer.error?.code { text += " " + safe(SessionValueComparison.shortened(code, limit: 40)) }
                if let latency = answer.latencyMs { text += " in " + TimeFormat.duration(ms: latency) }
                if let data = answer.data, let shown = SessionValueComparison.display(data) { text += " " + safe(shown) }
            } else {
                text += " → pending"
            }
        }
        return text
    }

    private static func header(_ transcript: SessionTranscript, safe: (String) -> String, timeFormat: TimeFormat) -> String {
        var text = safe(transcript.name) + ":"
        if let host = transcript.hostName { text += " host \(safe(host))," }
        text += " \(transcript.messageCount) message\(transcript.messageCount == 1 ? "" : "s")"
        if let span = transcript.timeSpan {
            text += ", \(timeFormat.clock(span.lowerBound)) to \(timeFormat.clock(span.upperBound)) (\(TimeFormat.duration(ms: span.upperBound - span.lowerBound)))"
        }
        return text
    }

    private static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
