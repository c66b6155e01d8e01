import ArgumentParser
import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol

/// `bridge-inspector rerun RECORDING`: sends the journey's side of a whole recorded session to a
/// running host, in order, and reports what the host did with each message.
struct RerunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rerun",
        abstract: "Send the journey's messages of a whole recording to a running host again, in order.",
        discussion: """
            Reads a recording (made by `bridge-inspector record`, or saved with w in the \
            interactive inspector) and hands the host each message the journey sent in it, in \
            the recorded order, as `replay` does for one message: through the agent's inject \
            command, so it works with a host built on BridgeCore and with an app seen through \
            GBGBridge's public API whose journey page is loaded. Use it to check that a build of \
            the app still answers a journey the way the recorded one did: record once, then rerun \
            the recording into each new build.

            Which messages: those the host received from the journey (not the host's own, not \
            malformed input, and not what an inspector injected unless --include-injected), from \
            seq --from to seq --to (the sequence numbers `open`, `tail --json` and `snapshot \
            --json` show), and only those matching --filter (the filter language of `tail \
            --filter`).

            Pacing: by default as fast as the host answers: before each message, rerun waits \
            until the host has answered every request the recording shows answered before it, at \
            most --answer-timeout seconds after each request was sent; when that passes it says \
            so and goes on. --pace recorded also keeps at least the recorded time between one \
            journey message and the next. At the end it waits (bounded the same way) for the \
            answers the recording shows after the last message.

            Each message gets a new correlation id, <original>-rerun-<4 hex digits> (the same \
            digits for the whole run), unless --same-id, and today's timestamp; the rest is sent \
            as recorded. A request whose recorded id the host still has outstanding is refused \
            by the host as a duplicate: leave out --same-id.

            Divergence: at the end, what the host did is compared with the recording as `diff` \
            compares two sessions (left: the recording from the first message sent; right: the \
            rerun), by what happened, never by ids or times: an answer whose status, error code \
            or data fields differ (each with its path), an answer missing or extra, host events \
            missing, extra or moved, and an answer much slower or faster than recorded (more than \
            --latency-factor times and --latency-min-ms apart). Ids, timestamps, host event ids \
            and time-named fields are ignored, images compared by size and hash; --ignore PATH \
            names more (a generated id, a nonce), as in `diff`.

            Output: one line per message sent and per answer, notes on standard error (a request \
            waiting in pendingRequests, an answer that did not come in time), a summary such as \
            "12 journey messages sent, 9 requests answered, 1 left pending, 0 timed out", then \
            the divergence report (as `diff` prints it; its last line "no differences" or "2 \
            differences: 1 status changed, 1 event missing"). With --json, one JSON line per \
            message at the end ("kind":"step": what was sent, its fate answered, pending, \
            timedOut, unanswered, sent or refused, the latency now and as recorded), a line with \
            "kind":"summary", and a last line {"kind":"divergence","report":{...}} holding the \
            report as `diff --json` prints it. --quiet prints nothing when the host behaved as \
            recorded. --record FILE also writes what the host did during the rerun as a \
            recording, to `open` or `diff` later (never over an existing file).

            Exit status: 0 the host behaved as recorded (every answer and event as recorded, \
            within the tolerances); 7 it diverged (the report says where; a request the recording \
            shows answered that got no answer within --answer-timeout is one such divergence); \
            4 an answer did not come within --answer-timeout but the comparison ignores it; 2 the \
            host cannot take injected messages, or refused one; 3 no host, or it went away; 5 \
            the recording cannot be read; 64 bad options, or nothing to send.

            Examples:
              bridge-inspector record session.jsonl --host my-app      # the journey, once
              bridge-inspector rerun session.jsonl --host my-app       # into the next build
              bridge-inspector rerun session.jsonl --from 12 --to 80 --pace recorded
              bridge-inspector rerun session.jsonl --filter '!action:camera.*' --record rerun.jsonl
              bridge-inspector rerun session.jsonl --json | jq -c 'select(.fate == "timedOut")'
              bridge-inspector rerun session.jsonl --ignore data.sessionId --latency-min-ms 1000
            """)

    @OptionGroup var selection: HostSelection

    @Argument(help: ArgumentHelp("The recording to rerun.", valueName: "recording"), completion: Completions.recording)
    var recording: String

    @Option(help: ArgumentHelp("Start at this sequence number of the recording.", valueName: "seq"))
    var from: Int?

    @Option(help: ArgumentHelp("Stop after this sequence number of the recording.", valueName: "seq"))
    var to: Int?

    @Option(help: ArgumentHelp("Send only the journey messages that match this filter (as `tail --filter`).", valueName: "expr"))
    var filter: String?

    @Flag(name: .customLong("include-injected"), help: "Also send the messages an inspector injected into the recorded host (inject, replay).")
    var includeInjected = false

    @Option(help: ArgumentHelp("answers: as fast as the host answers (default); recorded: also keep the recorded gaps.", valueName: "pace"))
    var pace: Pace = .answers

    @Option(name: .customLong("answer-timeout"), help: ArgumentHelp("Wait at most this many seconds for each answer the recording shows. Default: 10.", valueName: "seconds"))
    var answerTimeout: Double?

    @Flag(name: .customLong("same-id"), help: "Keep the recorded correlation ids (the host refuses one it still has outstanding).")
    var sameId = false

    @Option(help: ArgumentHelp("Also write what the host did during the rerun as a recording to this file (never over an existing one).", valueName: "file"), completion: Completions.recording)
    var record: String?

    @OptionGroup(title: "Comparing with the recording") var comparison: SessionDiffArguments

    @Flag(help: "Print one JSON line per message sent, a summary line and the divergence report, at the end.")
    var json = false

    @Flag(name: .shortAndLong, help: "Print nothing on success.")
    var quiet = false

    /// `--pace`.
    enum Pace: String, CaseIterable, ExpressibleByArgument {
        case answers, recorded

        var pacing: SessionRerun.Pacing { self == .recorded ? .recorded : .answers }
    }

    static let client = "bridge-inspector rerun"

    func run() async throws {
        do {
            try await rerun()
        } catch {
            // The documented exit codes and words, as every scripting command gives them.
            try Script.run { throw error }
        }
    }

    private func rerun() async throws {
        try Seconds.check(answerTimeout, option: "--answer-timeout")
        let diffOptions = try comparison.options()
        let filter = try FilterArgument.parse(filter, option: "--filter")
        let recordPath = try record.map { try RunRecording.freshFile($0, command: "rerun") }
        let contents = try OpenCommand.loadReadable(recording)
        if let problem = contents.problem, !quiet {
            StandardStreams.printError("warning: \(recording): \(problem); rerunning the \(contents.frames.count) frames before it")
        }
        let plan: SessionRerunPlan
        do {
            plan = try SessionRerunPlan(contents, selection: .init(from: from, to: to, filter: filter, includeInspectorMade: includeInjected))
        } catch {
            throw ScriptError.usage("nothing to rerun in \(recording): \(error.description)", hint: "`bridge-inspector open --check \(ScriptOutput.shellWord(recording))` shows what it holds")
        }
        if !quiet {
            for skipped in plan.skipped { StandardStreams.printError("note: seq \(skipped.seq) is not sent: \(skipped.reason)") }
        }

        let session = try selection.session(subscribe: true, client: Self.client)
        defer { session.close() }
        try session.require(.inject, doing: "take injected messages")
        let snapshot = try session.firstSnapshot()
        let settings = SessionRerunDriver.Settings(
            pacing: pace.pacing, answerTimeout: .milliseconds(Int64((answerTimeout ?? 10) * 1000)), sameId: sameId)
        let driver = SessionRerunDriver(plan: plan, settings: settings)
        let printer = RerunPrinter(total: plan.steps.count, timeout: answerTimeout ?? 10, quiet: quiet || json)
        let outcome = try await driver.run(link: SessionLink(session: session), initialFrames: [.snapshot(seq: snapshot.seq, state: snapshot.state)]) {
            printer.report($0)
        }

        if let recordPath {
            try RunRecording.write(outcome.state, of: "the rerun", to: recordPath, socket: session.socketPath, client: Self.client, quiet: quiet || json)
        }
        let divergence = Self.divergence(outcome, recording: recording, includeInjected: includeInjected, options: diffOptions)
        if json {
            for step in outcome.steps { StandardStreams.printJSON(try ScriptOutput.json(RerunStepLine(step))) }
            StandardStreams.printJSON(try ScriptOutput.json(RerunSummaryLine(outcome.counts, record: recordPath)))
            StandardStreams.printJSON(#"{"kind":"divergence","report":"# + String(decoding: divergence.json(), as: UTF8.self) + "}")
        }
        try Self.judge(outcome, divergence: divergence, timeout: answerTimeout ?? 10, quiet: quiet || json, report: !json)
    }

    /// The host's behaviour during the rerun against the recording's: the recorded rows from the
    /// first message sent (`expected`) on the left, the rerun's (`actual`, where the messages
    /// sent are the inspector's injections, so they count as the journey's) on the right.
    static func divergence(_ outcome: SessionRerunOutcome, recording: String, includeInjected: Bool, options: SessionDiffOptions) -> SessionDiff {
        let recorded = SessionTranscript(log: outcome.expected, name: recording, includeInspectorMade: includeInjected)
        let now = SessionTranscript(
            log: outcome.actual, host: outcome.state.host,
            name: "this rerun" + (outcome.state.host.map { " (pid \($0.pid))" } ?? ""), includeInspectorMade: true)
        return SessionDiff(left: recorded, right: now, options: options)
    }

    /// Prints the summary and the divergence report, and turns what went wrong into the exit status.
    static func judge(_ outcome: SessionRerunOutcome, divergence: SessionDiff, timeout: Double, quiet: Bool, report: Bool) throws {
        let summary = outcome.summary
        if let refused = outcome.refused.first, case .refused(let reason) = refused.fate {
            throw ScriptError(
                exitCode: ExitCodes.refused,
                message: "\(summary): the host refused seq \(refused.step.seq) (\(ScriptOutput.safe(refused.step.message.payload.action))): \(ScriptOutput.safe(reason))",
                hint: "a host seen through GBGBridge's public API needs its journey page loaded; --same-id ids the host still has outstanding are refused")
        }
        let late = outcome.timedOut
        let lateText = late.isEmpty ? nil : Self.lateText(late, timeout: timeout)
        if !divergence.isSame {
            // The report is the answer to "did the host behave as recorded?": printed even with
            // --quiet, on standard output (a CI log keeps it); with --json it is the last line.
            if !quiet { StandardStreams.printOut(summary) }
            if report { StandardStreams.printOut(divergence.textLines(safe: ScriptOutput.safe).joined(separator: "\n")) }
            throw ScriptError(
                exitCode: ExitCodes.sessionsDiffer,
                message: "the host diverged from the recording: \(divergence.summary)" + (lateText.map { "; \($0)" } ?? ""),
                hint: "the report shows each difference with both messages; --ignore PATH leaves out a field that legitimately changes"
                    + (lateText == nil ? "" : "; --answer-timeout waits longer for an answer"))
        }
        if let lateText {
            throw ScriptError.timeout(
                "\(summary): \(lateText)",
                hint: "--answer-timeout waits longer; `bridge-inspector snapshot` shows what waits in the host")
        }
        if !quiet {
            StandardStreams.printOut(summary)
            StandardStreams.printOut("the host behaved as recorded: \(divergence.summary)")
        }
    }

    /// "2 requests the recording shows answered got no answer within 10.0s: location.get
    /// loc-1-rerun-3f2a (waits in pendingRequests), …"
    static func lateText(_ late: [SessionRerunOutcome.StepOutcome], timeout: Double) -> String {
        let names = late.prefix(5).map { step -> String in
            var name = "\(ScriptOutput.safe(step.step.message.payload.action)) \(ScriptOutput.safe(step.sentId))"
            if case .timedOut(let place?) = step.fate { name += " (waits in \(place))" }
            return name
        }.joined(separator: ", ")
        return "\(late.count) request\(late.count == 1 ? "" : "s") the recording shows answered got no answer within \(TimeFormat.duration(ms: timeout * 1000)): \(names)\(late.count > 5 ? ", …" : "")"
    }
}

/// The link of a rerun to a host: the agent's `inject` command, and the frames of a subscribed
/// session.
private final class SessionLink: SessionRerunLink {
    let session: InspectorSession

    init(session: InspectorSession) {
        self.session = session
    }

    func inject(_ message: BridgeMessage) async throws {
        let reply = try session.run(.inject(.init(message: message, raw: nil)))
        if case .failure(let error) = reply.result { throw error }
    }

    func availableFrames() async throws -> [AgentFrame] {
        try session.readAvailableFrames()
    }
}

/// What `rerun` prints as it goes (not with --json or --quiet): a line per message sent and
/// per answer on standard output, notes on standard error. Every host text made safe.
private struct RerunPrinter {
    let total: Int
    let timeout: Double
    let quiet: Bool

    func report(_ event: SessionRerunDriver.Event) {
        guard !quiet else { return }
        let safe = ScriptOutput.safe
        switch event {
        case .sent(let step, let id):
            let rename = id == step.message.correlationId ? "" : " as \(safe(id))"
            StandardStreams.printOut(
                "→ \(step.index + 1)/\(total) seq \(step.seq) \(step.message.type.rawValue) \(safe(step.message.payload.action)) (\(safe(step.message.correlationId))\(rename))")
        case .answered(let step, let answer, let latency):
            var line = "← \(safe(answer.correlationId)) \(answer.payload.status?.rawValue ?? "answered")"
            if let code = answer.payload.error?.code { line += " \(safe(code))" }
            if let latency { line += " in \(TimeFormat.duration(ms: latency))" }
            if let recorded = step.recordedLatencyMs {
                line += " (recorded: \(step.recordedStatus?.rawValue ?? "answered") in \(TimeFormat.duration(ms: recorded)))"
            } else {
                line += " (the recording shows no answer)"
            }
            StandardStreams.printOut(line)
        case .pending(let step):
            StandardStreams.printError("note: no handler took seq \(step.seq) (\(safe(step.message.payload.action))); it waits in pendingRequests")
        case .timedOut(let step, let place):
            StandardStreams.printError(
                "note: no answer to seq \(step.seq) (\(safe(step.message.payload.action))) within \(TimeFormat.duration(ms: timeout * 1000))\(place.map { "; it waits in \($0)" } ?? ""); going on")
        case .refused(let step, let reason):
            StandardStreams.printError("warning: the host refused seq \(step.seq) (\(safe(step.message.payload.action))): \(safe(reason))")
        }
    }
}

/// One `--json` line per step.
private struct RerunStepLine: Encodable {
    let kind = "step"
    let step: Int
    let seq: Int
    let type: String
    let action: String
    let recordedId: String
    let id: String
    let fate: String
    let status: String?
    let place: String?
    let latencyMs: Double?
    let recordedStatus: String?
    let recordedLatencyMs: Double?
    let reason: String?

    init(_ outcome: SessionRerunOutcome.StepOutcome) {
        step = outcome.step.index + 1
        seq = outcome.step.seq
        type = outcome.step.message.type.rawValue
        action = outcome.step.message.payload.action
        recordedId = outcome.step.message.correlationId
        id = outcome.sentId
        recordedStatus = outcome.step.recordedStatus?.rawValue
        recordedLatencyMs = outcome.step.recordedLatencyMs
        latencyMs = outcome.observedLatencyMs
        var status: String?
        var place: String?
        var reason: String?
        switch outcome.fate {
        case .sent: fate = "sent"
        case .refused(let why): fate = "refused"; reason = why
        case .answered(let answered, _): fate = "answered"; status = answered?.rawValue
        case .pending(let where_): fate = "pending"; place = where_
        case .timedOut(let where_): fate = "timedOut"; place = where_
        case .unanswered: fate = "unanswered"
        }
        self.status = status
        self.place = place
        self.reason = reason
    }
}

/// The last `--json` line: `"kind":"summary"`, the figures of the summary line as
/// ``SessionRerunOutcome/Counts`` names them, and `record` (the file written, if any).
private struct RerunSummaryLine: Encodable {
    let counts: SessionRerunOutcome.Counts
    let record: String?

    init(_ counts: SessionRerunOutcome.Counts, record: String?) {
        self.counts = counts
        self.record = record
    }

    private enum CodingKeys: String, CodingKey { case kind, record }

    func encode(to encoder: any Encoder) throws {
        try counts.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("summary", forKey: .kind)
        try container.encodeIfPresent(record, forKey: .record)
    }
}
