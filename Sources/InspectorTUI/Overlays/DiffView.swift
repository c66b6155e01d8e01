import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import TerminalUI

/// The session diff as a view (`=`, `inspect --compare FILE`, `open FILE --compare OTHER`): a
/// recording (the "before") against what this inspector shows (the "after": the live session,
/// or the recording `open` shows), aligned by what happened (``SessionDiff``), as
/// `bridge-inspector diff` compares them.
///
/// A header names both sides (file or "this session", messages, time span) and sums the
/// differences up; then one row per difference: its kind, the action, and what changed (the
/// path with old → new, the latency, which side it is on), shortened to the width. ↑/↓, PgUp/PgDn
/// and g/G select a row; Enter opens it (``DiffDetailView``: both sides' messages).
///
/// The comparison is computed when the view opens and on `r` (recompute against the log as it
/// is now: a live log keeps growing), never while drawing, so a big session costs its time once
/// per request, not per frame; the header says how many messages came since. `i` counts the
/// messages an inspector made (typed answers, injections, reply rules), left out by default as
/// `diff` leaves them out. A view opened before the host's state arrived computes again when
/// the host's snapshot comes (``awaitingHost``).
struct DiffView: OverlayView {
    /// The recording compared with: its state as an inspector reads it.
    let before: LiveState
    /// What the "before" is called: the file name as typed.
    let beforeName: String
    /// What the "after" is called: "this session", or the open recording's file name.
    let afterName: String
    /// The "after" as it was when last computed (so Enter shows what was compared).
    private(set) var after = LiveState()
    /// Whether messages an inspector made count (`i`).
    private(set) var includeInspectorMade = false
    /// The comparison, as last computed.
    private(set) var diff: SessionDiff
    /// How many rows the "after" log had when computed: the header counts what came since.
    private(set) var computedLogCount = 0
    /// The selected difference.
    var cursor = 0
    /// Opened live before any host state arrived: computed again when its snapshot comes.
    private(set) var awaitingHost = false
    /// The recording's transcript for ``includeInspectorMade`` as last made: the recording does
    /// not change, so `r` reads only the live log again.
    private var beforeTranscript: SessionTranscript?

    /// Whether the "after" is a live session, whose host's state may not have come yet (not
    /// a recording opened with `open`).
    let afterIsLive: Bool

    /// A view comparing `contents` (the file `name`) with what `context` shows, called
    /// `afterName`; `afterIsLive` when that is a live session rather than a recording.
    init(contents: Recording.Contents, name: String, afterName: String, afterIsLive: Bool, context: OverlayContext) {
        var state = LiveState()
        for frame in contents.frames { state.apply(frame, at: 0) }
        before = state
        beforeName = name
        self.afterName = afterName
        self.afterIsLive = afterIsLive
        let empty = SessionTranscript(name: name, items: [])
        diff = SessionDiff(left: empty, right: empty)
        recompute(context: context)
    }

    /// Compares again with the log as it is now (`r`, `i`, the host's snapshot).
    mutating func recompute(context: OverlayContext) {
        after = context.live
        computedLogCount = context.live.log.count
        awaitingHost = afterIsLive && context.live.host == nil
        let left = beforeTranscript.flatMap { $0.includesInspectorMade == includeInspectorMade ? $0 : nil }
            ?? SessionTranscript(log: before.log, host: before.host, name: beforeName, includeInspectorMade: includeInspectorMade)
        beforeTranscript = left
        let right = SessionTranscript(log: after.log, host: after.host, name: afterName, includeInspectorMade: includeInspectorMade)
        diff = SessionDiff(left: left, right: right)
        cursor = min(cursor, max(0, diff.differences.count - 1))
    }

    // MARK: Keys

    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
        let count = diff.differences.count
        let page = max(1, Self.listHeight(context: context, header: headerLines(context: context, width: context.size.width - 2).count))
        switch key {
        case .escape, .char("q"):
            return .close
        case .char("r"):
            recompute(context: context)
            return .flash("compared again: " + diff.summary, isError: false)
        case .char("i"):
            includeInspectorMade.toggle()
            recompute(context: context)
            return .flash(
                (includeInspectorMade ? "inspector-made messages counted: " : "inspector-made messages left out: ") + diff.summary, isError: false)
        case .enter:
            guard let difference = diff.differences[safe: cursor] else { return .flash("no differences to open", isError: false) }
            return .push(DiffDetailView(difference: difference, view: self, timeFormat: context.timeFormat))
        case .char("j"), .down: cursor = min(max(0, count - 1), cursor + 1)
        case .char("k"), .up: cursor = max(0, cursor - 1)
        case .pageDown, .ctrl("f"): cursor = min(max(0, count - 1), cursor + page)
        case .pageUp, .ctrl("b"): cursor = max(0, cursor - page)
        case .char("g"), .home: cursor = 0
        case .char("G"), .end: cursor = max(0, count - 1)
        default: return .unbound(key)
        }
        return .none
    }

    var footerKeys: [(key: String, label: String)] {
        [("Esc", "back"), ("Enter", "both messages"), ("r", "recompute"), ("i", includeInspectorMade ? "leave out inspector-made" : "count inspector-made"),
         ("j/k", "select")]
    }

    // MARK: Drawing

    /// Rows of differences shown at once on a screen of the context's size.
    static func listHeight(context: OverlayContext, header: Int) -> Int { context.size.height - 2 - 2 - header }

    /// The lines above the differences: both sides, the summary, what is left out or new.
    func headerLines(context: OverlayContext, width: Int) -> [[Span]] {
        var lines: [[Span]] = []
        for (label, transcript) in [("before ", diff.left), ("after  ", diff.right)] {
            lines += DialogFrame.wrap([Span(label, Theme.dim), Span(Self.describe(transcript, timeFormat: context.timeFormat), .plain)], width: width, indent: 7)
        }
        lines += DialogFrame.wrap([Span(diff.summary, diff.isSame ? Theme.paneTitle : Theme.warning)], width: width)
        var notes: [String] = []
        let leftOut = diff.left.inspectorMadeLeftOut + diff.right.inspectorMadeLeftOut
        if includeInspectorMade {
            notes.append("inspector-made messages counted (i: leave them out)")
        } else if leftOut > 0 {
            notes.append("\(leftOut) inspector-made message\(leftOut == 1 ? "" : "s") left out (i: count them)")
        }
        if awaitingHost {
            notes.append("waiting for the host's state: compared again when it comes")
        } else if context.live.log.count > computedLogCount {
            let new = context.live.log.count - computedLogCount
            notes.append("\(new) new row\(new == 1 ? "" : "s") since compared (r: compare again)")
        }
        if !notes.isEmpty { lines += DialogFrame.wrap([Span(notes.joined(separator: "; "), Theme.dim)], width: width) }
        lines.append([])
        return lines
    }

    /// "demo.jsonl: host demo-app, 24 messages, 14:03:01.234 to 14:03:09.870 (8.6s)".
    static func describe(_ transcript: SessionTranscript, timeFormat: TimeFormat) -> String {
        var text = Sanitizer.sanitize(transcript.name) + ":"
        if let host = transcript.hostName { text += " host \(Sanitizer.sanitize(host))," }
        text += " \(transcript.messageCount) message\(transcript.messageCount == 1 ? "" : "s")"
        if let span = transcript.timeSpan {
            text += ", \(timeFormat.clock(span.lowerBound)) to \(timeFormat.clock(span.upperBound)) (\(TimeFormat.duration(ms: span.upperBound - span.lowerBound)))"
        }
        return text
    }

    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        let count = diff.differences.count
        let position = count > 1 ? "  \(cursor + 1)/\(count)" : ""
        let inner = DialogFrame.full(&buffer, area: area, title: "Compare: \(Sanitizer.sanitize(beforeName)) → \(Sanitizer.sanitize(afterName))" + position)
        let header = headerLines(context: context, width: inner.width)
        DialogFrame.drawLines(header, first: 0, into: &buffer, rect: inner)
        guard header.count < inner.height else { return }
        let rest = Rect(x: inner.x, y: inner.y + header.count, width: inner.width, height: inner.height - header.count)
        guard count > 0 else {
            DialogFrame.emptyListNote(
                ["the sessions did the same things", "r compares again as the log grows; i counts inspector-made messages too"], into: &buffer, rect: rest)
            return
        }
        let rows = diff.differences.map { DiffRow.spans($0, width: rest.width) }
        DialogFrame.drawList(rows, keepingInView: cursor...cursor, highlighted: { $0 == cursor }, into: &buffer, rect: rest)
    }
}

/// One difference as a row of the ``DiffView``: kind, action, what changed.
enum DiffRow {
    /// The widest the kind column is.
    static let kindWidth = 19
    /// The widest the action column is (narrower on a narrow screen, so the change shows).
    static let actionWidth = 28

    /// The row for `difference` in `width` columns: every untrusted piece sanitized before it
    /// is measured, so what is cut is what would be drawn.
    static func spans(_ difference: SessionDifference, width: Int) -> [Span] {
        let side = difference.left ?? difference.right
        let actionWidth = min(Self.actionWidth, max(12, (width - kindWidth - 2) / 3))
        let action = TextWidth.truncate(Sanitizer.sanitize(side?.action ?? ""), to: actionWidth)
        let kind = label(difference)
        let style = difference.kind == .statusChanged || difference.kind == .errorCodeChanged || difference.kind == .missing ? Theme.danger : Theme.warning
        let rest = max(0, width - kindWidth - actionWidth - 2)
        return [
            Span(TextWidth.fit(kind, to: kindWidth), style),
            Span(TextWidth.pad(action, to: actionWidth) + "  ", .plain),
            Span(TextWidth.truncate(Sanitizer.sanitize(detail(difference)), to: rest), Theme.dim),
        ]
    }

    /// What kind of difference, in a few words: "status changed", "event missing" (the
    /// engine's words, short nouns for the column).
    static func label(_ difference: SessionDifference) -> String {
        SessionDiff.label(of: difference, shortNouns: true)
    }

    /// What changed: `data.side: "front" → "back"`, `latency 120ms → 2.1s`, `only before (#4)`.
    static func detail(_ difference: SessionDifference) -> String {
        switch difference.kind {
        case .statusChanged, .errorCodeChanged, .fieldChanged:
            let part = difference.part == .answer && difference.kind == .fieldChanged ? "answer " : ""
            return "\(part)\(difference.path ?? ""): \(difference.old ?? "(absent)") → \(difference.new ?? "(absent)")"
        case .latencyChanged:
            let l = difference.leftLatencyMs.map { TimeFormat.duration(ms: $0) } ?? "?"
            let r = difference.rightLatencyMs.map { TimeFormat.duration(ms: $0) } ?? "?"
            return "latency \(l) → \(r)"
        case .answerMissing: return "answered before, pending after"
        case .answerExtra: return "pending before, answered after"
        case .missing: return "only before (#\(difference.left?.seq ?? 0))"
        case .added: return "only after (#\(difference.right?.seq ?? 0))"
        case .moved: return "item \((difference.left?.index ?? 0) + 1) before is item \((difference.right?.index ?? 0) + 1) after"
        }
    }
}
