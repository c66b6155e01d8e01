import BridgeCore
import Foundation
import HostDiagnosis
import InspectorClient
import InspectorProtocol

/// How `bridge-inspector doctor` prints a ``DoctorReport``: readable text (failures first, each
/// with its evidence, fix and the troubleshooting page's heading; ok checks one line each) or
/// JSON. Everything a host or a journey wrote is made safe for a terminal.
struct DoctorOutput {
    /// JSON instead of text.
    var json: Bool
    /// Checks left out with `--skip`.
    var skipped: Set<DoctorCheckID>
    /// How times are shown.
    var timeFormat = TimeFormat()

    /// `report` without the skipped checks.
    func kept(_ report: DoctorReport) -> DoctorReport {
        var kept = report
        kept.checks.removeAll { skipped.contains($0.id) }
        return kept
    }

    /// Prints the whole report.
    func printReport(_ report: DoctorReport) throws {
        let report = kept(report)
        if json {
            try printJSON(report)
        } else {
            StandardStreams.printOut(text(report).joined(separator: "\n"))
        }
    }

    /// Prints what changed between two reports: in text a line per check whose outcome changed
    /// (its status, or what it found: not just the ages in its summary); in JSON the new report,
    /// when anything changed.
    func printChanges(from old: DoctorReport, to new: DoctorReport) throws {
        let old = kept(old)
        let new = kept(new)
        let changed = new.checks.filter { check in old.check(check.id).map { Self.outcome($0) != Self.outcome(check) } ?? true }
        guard !changed.isEmpty else { return }
        if json {
            try printJSON(new)
            return
        }
        var lines: [String] = []
        for check in changed {
            let was = old.check(check.id)?.status
            let transition = was.map { $0 == check.status ? "" : " (was \($0.rawValue))" } ?? ""
            lines.append("\(timeFormat.clock(new.time)) \(check.status.symbol) \(check.title) [\(check.id.rawValue)]\(transition): \(ScriptOutput.safe(check.summary))")
        }
        lines.append("\(timeFormat.clock(new.time)) now: \(new.tally)")
        StandardStreams.printOut(lines.joined(separator: "\n"))
    }

    /// The readable report: a header, the tally, then each check (worst first).
    func text(_ report: DoctorReport) -> [String] {
        var lines: [String] = []
        if let host = report.host {
            let via = host.inspectionPath == HostFeature.publicAPIPath ? ", via GBGBridge public API" : ""
            lines.append("doctor: \(ScriptOutput.safe(host.name)) (pid \(host.pid)\(via)) at \(timeFormat.clock(report.time))")
        }
        lines.append(report.tally)
        for status in DoctorReport.readingOrder {
            let checks = report.checks.filter { $0.status == status }
            guard !checks.isEmpty else { continue }
            lines.append("")
            for check in checks { lines += self.lines(check) }
        }
        return lines
    }

    /// A check: one line when ok or not run; with its evidence, fix and heading otherwise.
    private func lines(_ check: DoctorCheck) -> [String] {
        var lines = ["\(check.status.symbol) \(check.title) [\(check.id.rawValue)]: \(ScriptOutput.safe(check.summary))"]
        guard check.status == .failure || check.status == .warning else { return lines }
        for item in check.evidence {
            var where_: [String] = []
            if let seq = item.seq { where_.append("#\(seq)") }
            if let id = item.correlationId { where_.append("id \(ScriptOutput.safe(id))") }
            if let time = item.time { where_.append(timeFormat.clock(time)) }
            let place = where_.isEmpty ? "" : "  (\(where_.joined(separator: ", ")))"
            lines.append("    · \(ScriptOutput.safe(item.text))\(place)")
        }
        if check.moreEvidence > 0 { lines.append("    · … and \(check.moreEvidence) more") }
        if !check.fix.isEmpty { lines.append("    fix: \(check.fix)") }
        lines.append("    guide: \(check.guideHeading)")
        return lines
    }

    /// What a check found, without the ages that change every second: its status and the
    /// messages, ids and counts of its evidence.
    private static func outcome(_ check: DoctorCheck) -> [String] {
        [check.status.rawValue, String(check.moreEvidence)] + check.evidence.map { "\($0.seq ?? -1) \($0.correlationId ?? "")" }
    }

    private func printJSON(_ report: DoctorReport) throws {
        StandardStreams.printJSON(try ScriptOutput.json(DoctorDocument(report: report)))
    }
}
