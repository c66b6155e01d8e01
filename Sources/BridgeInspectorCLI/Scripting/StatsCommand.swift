import ArgumentParser
import Foundation
import HostDiagnosis
import InspectorClient
import TerminalUI

/// `bridge-inspector stats [FILE]`: per-action statistics (count, error rate, latency
/// percentiles) of a running host's log or of a recording, as a table or JSON.
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Per-action statistics: requests, answers, error rate and latency percentiles.",
        discussion: """
            For each action the journey asked for: how many requests, how many the host \
            answered and how many are still unanswered, the answers that were not `success` \
            (error, cancelled, unsupported) and the error rate (those ÷ answered), and the time \
            from request to response: p50, p95 and max (nearest-rank percentiles: each is a \
            latency that was measured). Events are counted per action too. The most requested \
            action comes first.

            Without FILE it reads the running host's message log now (--socket/--host, as \
            `snapshot`): the messages the host still keeps. With FILE it reads a recording made \
            by `bridge-inspector record` (one cut off is read up to where it broke, with a \
            warning: exit 5). The inspector's statistics view (key S) shows the same, \
            updating live.

            --json prints one JSON object: {"actions": [ROW, ...], "total": ROW}, each ROW with \
            action (not in total), requests, answered, unanswered, statuses {success, error, \
            cancelled, unsupported}, errorRate (0 to 1, null when nothing was answered), \
            latencyMs {p50, p95, max} (milliseconds, null when nothing was answered), held \
            (answered requests held at a breakpoint on the way), heldMs and events.

            Latency is the host's answer time: the time a request or its answer spent held at a \
            breakpoint is not in it (a request held for 40 s and answered at once shows a few \
            milliseconds). The summary line says how many were held, and for how long.

            --coverage prints the journey's coverage instead: which documented actions \
            (capability.query, the capture actions, the custom capabilities the host declared), \
            statuses, error codes and events the session met and never met, with counts (and \
            how many of them an inspector made: a typed answer still shows how the journey \
            reacts); how the journey answered each unhappy path: after an error, cancelled or \
            unsupported answer, or a request left unanswered past the journey's timeout \
            (--journey-timeout), its next request for the same action within 30 s is a retry \
            (flagged when the web SDK says the error is not recoverable), none is giving up, \
            and after a cancellation whether it sent journey.cancel; and the list of what it \
            never met, to provoke next with `bridge-inspector fault` and `lifecycle`. With \
            --json: one object, {"version": 1, ...} (docs/cli.md, "stats --coverage").

            Examples:
              bridge-inspector stats --host demo
              bridge-inspector stats --coverage --host demo
              bridge-inspector stats session.jsonl
              bridge-inspector stats --json | jq '.actions[] | select(.errorRate > 0)'
            """)

    @Argument(help: ArgumentHelp("A recording made by `bridge-inspector record`; without it, the running host's log.", valueName: "file"),
              completion: Completions.recording)
    var file: String?

    @OptionGroup var selection: HostSelection

    @Flag(help: "Print the statistics as one JSON object (sorted keys; latencies in milliseconds).")
    var json = false

    @Flag(help: "Print the journey's coverage instead: the documented actions, statuses, error codes and events it met and never met, and how it answered each unhappy path.")
    var coverage = false

    @OptionGroup var journeyTimeout: JourneyTimeoutOption

    func run() throws {
        try Script.run {
            let timeouts = try journeyTimeout.timeouts()
            let (state, problem) = try SessionLog.load(file: file, selection: selection, client: "bridge-inspector stats", usedAs: "the statistics count")
            if coverage {
                // A recording is read as of its last row; a live host as of now (its clock is
                // taken to be this machine's, as `doctor` takes it).
                let now = file == nil ? Date().timeIntervalSince1970 * 1000 : JourneyCoverage.sessionEnd(of: state)
                let result = JourneyCoverage(state: state, now: now, timeouts: timeouts)
                if json {
                    StandardStreams.printJSON(try ScriptOutput.json(result))
                } else {
                    StandardStreams.printOut(Self.text(result))
                }
                if let problem { throw problem }
                return
            }
            let statistics = ActionStatistics(log: state.log)
            if json {
                StandardStreams.printJSON(try ScriptOutput.json(statistics))
            } else {
                StandardStreams.printOut(Self.text(statistics))
            }
            if file == nil, state.counts.evicted > 0 {
                StandardStreams.printError("note: the host had dropped its \(state.counts.evicted) oldest messages from its log; they are not counted")
            }
            if let problem { throw problem }
        }
    }

    /// The coverage as text: the sections of ``CoverageTable``, every untrusted text made safe.
    static func text(_ coverage: JourneyCoverage) -> String {
        CoverageTable.lines(coverage, safe: ScriptOutput.safe, width: TextWidth.width(of:)).map(\.text).joined(separator: "\n")
    }

    /// The readable form: a summary line, then the table (action names made safe).
    static func text(_ statistics: ActionStatistics) -> String {
        var lines = [StatisticsTable.summary(statistics)]
        if statistics.actions.isEmpty {
            lines.append("no requests or events in the log yet")
        } else {
            lines.append("")
            lines += StatisticsTable.lines(statistics, safe: ScriptOutput.safe, width: TextWidth.width(of:))
        }
        return lines.joined(separator: "\n")
    }
}
