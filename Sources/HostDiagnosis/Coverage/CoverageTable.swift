import BridgeCore

/// ``JourneyCoverage`` as text, the same in `bridge-inspector stats --coverage` and the
/// inspector's statistics view (`c`): a summary, then sections for actions, statuses, error
/// codes, events, how the journey answered each unhappy path, and what it never met.
///
/// Actions, ids and codes come from the journey or the host: the caller passes `safe`, which
/// makes a text safe for a terminal, and `width`, the columns a string takes there (both from
/// TerminalUI, which this module does not depend on).
public enum CoverageTable {
    /// What a line is, so a screen can colour it.
    public enum Style: Sendable, Equatable {
        /// Ordinary text.
        case plain
        /// A section's title.
        case heading
        /// Something never met.
        case never
        /// A finding: the journey did what the web SDK says not to.
        case finding
        /// An explanation.
        case note
    }

    /// One line of the text.
    public struct Line: Sendable, Equatable {
        /// The text, already made safe.
        public var text: String
        /// What it is.
        public var style: Style
    }

    /// The mark of something met.
    public static let metMark = "✓"
    /// The mark of something never met.
    public static let neverMark = "–"

    /// One line, e.g. `3 of 4 actions, 2 of 4 statuses, 1 of 8 error codes, 3 of 6 events met; 2 unhappy paths (1 retried, 1 finding)`.
    public static func summary(_ coverage: JourneyCoverage) -> String {
        let actions = coverage.actions.filter { $0.requests.met }.count
        let statuses = coverage.statuses.filter { $0.answers.met }.count
        let codes = coverage.errorCodes.filter { $0.answers.met }.count
        let events = coverage.events.filter { $0.sent.met }.count
        let retried = coverage.unhappyPaths.filter { if case .retried = $0.reaction { true } else { false } }.count
        let findings = coverage.unhappyPaths.filter { if case .retriedNonRecoverable = $0.reaction { true } else { false } }.count
        var text = "\(actions) of \(coverage.actions.count) actions, \(statuses) of \(coverage.statuses.count) statuses, "
            + "\(codes) of \(coverage.errorCodes.count) error codes, \(events) of \(coverage.events.count) events met; "
            + plural(coverage.unhappyPaths.count, "unhappy path")
        if !coverage.unhappyPaths.isEmpty { text += " (\(retried) retried, \(plural(findings, "finding")))" }
        return text
    }

    /// Every line: the summary, a legend, then the sections.
    public static func lines(_ coverage: JourneyCoverage, safe: (String) -> String, width: (String) -> Int) -> [Line] {
        var out = [Line(text: summary(coverage), style: .plain)]
        out.append(Line(text: "\(metMark) met · \(neverMark) never met · ✎ N: N of them made by an inspector", style: .note))

        out.append(Line(text: "", style: .plain))
        let actionRows = coverage.actions.map { actionCells($0, safe: safe) }
        let otherRows = coverage.otherActions.map { actionCells($0, safe: safe) }
        let table = align([["ACTION", "MET", "REQUESTS", "ANSWERS", "ERROR CODES"]] + actionRows + otherRows, width: width)
        out.append(Line(text: table[0], style: .heading))
        for (index, row) in coverage.actions.enumerated() {
            out.append(Line(text: table[1 + index], style: row.requests.met ? .plain : .never))
        }
        if !otherRows.isEmpty {
            out.append(Line(text: "actions the host never declared:", style: .note))
            out += table.suffix(otherRows.count).map { Line(text: $0, style: .plain) }
        }

        out.append(Line(text: "", style: .plain))
        let statusTable = align([["STATUS", "MET", "ANSWERS"]] + coverage.statuses.map { [$0.status.rawValue, mark($0.answers), counted($0.answers)] }, width: width)
        out.append(Line(text: statusTable[0], style: .heading))
        for (line, status) in zip(statusTable.dropFirst(), coverage.statuses) { out.append(Line(text: line, style: status.answers.met ? .plain : .never)) }

        out.append(Line(text: "", style: .plain))
        let codeRows = coverage.errorCodes.map { [$0.code.rawValue, $0.code.isRecoverable ? "recoverable" : "not recoverable", mark($0.answers), counted($0.answers)] }
        let codeTable = align([["ERROR CODE", "WEB SDK", "MET", "ANSWERS"]] + codeRows, width: width)
        out.append(Line(text: codeTable[0], style: .heading))
        for (line, code) in zip(codeTable.dropFirst(), coverage.errorCodes) { out.append(Line(text: line, style: code.answers.met ? .plain : .never)) }
        if !coverage.undocumentedErrorCodes.isEmpty {
            let list = coverage.undocumentedErrorCodes.map { "\(safe($0.code.isEmpty ? "(no code)" : $0.code)) \(counted($0.answers))" }
            out.append(Line(text: "codes GBG's pages do not name: " + list.joined(separator: ", "), style: .note))
        }

        out.append(Line(text: "", style: .plain))
        let eventRows = coverage.events.map { [$0.event.name, $0.event.sender == .host ? "host → journey" : "journey → host", mark($0.sent), counted($0.sent)] }
        let eventTable = align([["EVENT", "SENT BY", "MET", "SENT"]] + eventRows, width: width)
        out.append(Line(text: eventTable[0], style: .heading))
        for (line, event) in zip(eventTable.dropFirst(), coverage.events) { out.append(Line(text: line, style: event.sent.met ? .plain : .never)) }

        out.append(Line(text: "", style: .plain))
        out.append(Line(text: "HOW THE JOURNEY ANSWERED", style: .heading))
        out.append(Line(
            text: "a retry is its next request for the same action within \(StatisticsTable.duration(JourneyCoverage.reactionWindowMs)) of the unhappy answer; none: it gave up",
            style: .note))
        if coverage.unhappyPaths.isEmpty {
            out.append(Line(text: "no unhappy path met yet: no error, cancelled or unsupported answer, no request left past its timeout", style: .never))
        } else {
            let rows = coverage.unhappyPaths.map { path in
                [safe(path.action), safe(path.label) + (path.inspectorMade ? " ✎" : ""), safe(path.correlationId), reaction(path)]
            }
            let pathTable = align([["ACTION", "MET", "REQUEST", "THE JOURNEY"]] + rows, width: width)
            out.append(Line(text: pathTable[0], style: .heading))
            for (line, path) in zip(pathTable.dropFirst(), coverage.unhappyPaths) {
                let finding = if case .retriedNonRecoverable = path.reaction { true } else { false }
                out.append(Line(text: line, style: finding ? .finding : .plain))
            }
        }

        out.append(Line(text: "", style: .plain))
        out.append(Line(text: "NEVER MET", style: .heading))
        out.append(Line(text: "what to provoke next: `bridge-inspector fault` answers with any error, `lifecycle` sends the host events", style: .note))
        let never = coverage.neverMet
        let groups: [(String, [String])] = [
            ("actions", never.actions.map(safe)), ("statuses", never.statuses.map(\.rawValue)), ("error codes", never.errorCodes),
            ("host events", never.hostEvents), ("journey events", never.journeyEvents),
            ("journey timeout", never.journeyTimeout ? ["no request went unanswered past the journey's timeout"] : []),
        ]
        for (name, items) in groups {
            let met = name == "journey timeout" ? "met" : "all met"
            out.append(Line(text: "\(name): " + (items.isEmpty ? met : items.joined(separator: ", ")), style: items.isEmpty ? .plain : .never))
        }
        return out
    }

    /// What the journey did after `path`, in words.
    public static func reaction(_ path: UnhappyPath) -> String {
        var text: String
        switch path.reaction {
        case .retried(let ms): text = "retried after \(StatisticsTable.duration(ms))"
        case .retriedNonRecoverable(let ms): text = "⚑ retried after \(StatisticsTable.duration(ms)), though not recoverable"
        case .gaveUp: text = "gave up (no retry)"
        case .waiting: text = "no retry yet"
        }
        if path.isCancellation {
            text += path.journeyCancelAfterMs.map { "; sent journey.cancel after \(StatisticsTable.duration($0))" } ?? "; no journey.cancel"
        }
        return text
    }

    static func actionCells(_ action: JourneyCoverage.Action, safe: (String) -> String) -> [String] {
        var answers = BridgeResponseStatus.allCases.compactMap { status in action.statuses[status].map { "\(status.rawValue) \(counted($0))" } }
        if action.unanswered > 0 { answers.append("unanswered \(action.unanswered)") }
        let codes = action.errorCodes.sorted { $0.key < $1.key }.map { "\(safe($0.key.isEmpty ? "(no code)" : $0.key)) \(counted($0.value))" }
        return [safe(action.action), mark(action.requests), counted(action.requests), answers.joined(separator: ", "), codes.joined(separator: ", ")]
    }

    static func mark(_ count: CoverageCount) -> String { count.met ? metMark : neverMark }

    /// `3`, or `3 (✎ 1)` when an inspector made some.
    static func counted(_ count: CoverageCount) -> String {
        count.inspectorMade > 0 ? "\(count.count) (✎ \(count.inspectorMade))" : "\(count.count)"
    }

    /// Rows as left-aligned columns, two spaces apart, without trailing spaces.
    static func align(_ rows: [[String]], width: (String) -> Int) -> [String] {
        var widths: [Int] = []
        for row in rows {
            for (index, cell) in row.enumerated() {
                if index == widths.count { widths.append(0) }
                widths[index] = max(widths[index], width(cell))
            }
        }
        return rows.map { row in
            var line = ""
            for (index, cell) in row.enumerated() {
                line += cell
                if index < row.count - 1 { line += String(repeating: " ", count: max(0, widths[index] - width(cell)) + 2) }
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }

    private static func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
}
