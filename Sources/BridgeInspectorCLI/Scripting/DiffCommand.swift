import ArgumentParser
import Foundation
import InspectorClient

/// `bridge-inspector diff LEFT RIGHT`: two sessions compared by what happened
/// (``SessionDiff``), as text or JSON, with an exit status a CI job can test.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two sessions by what happened: answers, changed fields, missing, added and moved messages.",
        discussion: """
            Compares two recordings made by `bridge-inspector record` (LEFT and RIGHT), or a \
            recording and a running host's log now (one FILE, and --socket/--host, else \
            $BRIDGE_INSPECTOR_SOCKET, else the only running host, as `export`).

            The sessions are aligned by what happened, never by correlation ids or times: the \
            order of requests, events and malformed input by direction and action. Then, for each \
            pair: the answer's status and error code, every value of the messages that differs \
            (with its path, such as data.document.type or data.items[2]), an answer on one side \
            only (answered here, pending there), and the answer's latency when it is more than \
            --latency-factor times and more than --latency-min-ms apart. What is on one side only \
            is missing or added; the same message at another place is reported once, as moved.

            Ignored by default: correlation ids and message timestamps (never compared), host \
            event ids (<environment>-event-<uuid>) inside data, and data fields whose names say \
            time (timestamp, time, *At, *Time, *Timestamp); --no-default-ignores compares them. \
            Name more with --ignore PATH (repeatable; * for any key in one position, [*] for any \
            element). Images and other long base64 are compared by length and a hash, and shown \
            that way. Messages made in an inspector (answers typed by a person, injected \
            messages, reply rules) are not the app's behaviour and are left out; \
            --include-inspector compares them too.

            Exit status: 0 the sessions are the same, 7 they differ, 5 a recording is cut off \
            or damaged (compared up to where it broke; the report is still printed), 3 no host, \
            64 a wrong command line.

            Examples:
              bridge-inspector diff build-41.jsonl build-42.jsonl
              bridge-inspector diff ios.jsonl android.jsonl --ignore data.deviceModel
              bridge-inspector diff recorded.jsonl --host demo --json
            """)

    @Argument(help: ArgumentHelp("The first session: a recording made by `bridge-inspector record` (the \"before\").", valueName: "left"),
              completion: Completions.recording)
    var left: String

    @Argument(help: ArgumentHelp("The second session: a recording; without it, the running host's log now.", valueName: "right"),
              completion: Completions.recording)
    var right: String?

    @Flag(help: "Print the report as one JSON object (keys in docs/cli.md, \"diff\").")
    var json = false

    @OptionGroup var comparison: SessionDiffArguments

    @Flag(help: "Compare messages made in an inspector (typed answers, injected messages, reply rules) too.")
    var includeInspector = false

    @OptionGroup var selection: HostSelection

    func run() throws {
        try Script.run {
            if right != nil, selection.socket != nil || selection.host != nil || selection.tcp.connect != nil {
                throw ScriptError.usage(
                    "give a second recording RIGHT or a running host (--socket/--host/--connect), not both",
                    hint: "bridge-inspector diff LEFT RIGHT compares two recordings; bridge-inspector diff LEFT --host NAME compares a recording with the host's log now")
            }
            let options = try comparison.options()
            let leftSide = try Self.transcript(file: left, selection: nil, includeInspector: includeInspector)
            let rightSide = try Self.transcript(file: right, selection: selection, includeInspector: includeInspector)
            let diff = SessionDiff(left: leftSide.transcript, right: rightSide.transcript, options: options)
            if json {
                StandardStreams.printJSON(String(decoding: diff.json(), as: UTF8.self))
            } else {
                StandardStreams.printOut(diff.textLines(safe: ScriptOutput.safe).joined(separator: "\n"))
            }
            // A cut-off recording: what was readable was compared; say where it broke (exit 5).
            if let problem = leftSide.problem ?? rightSide.problem {
                if let other = rightSide.problem, leftSide.problem != nil { Script.report(other) }
                throw problem
            }
            if !diff.isSame { throw ExitCode(ExitCodes.sessionsDiffer) }
        }
    }

    /// The transcript of the recording `file`, or without one of the host `selection` chooses
    /// (its log now); with the exit-5 error to throw once the readable part has been compared.
    private static func transcript(file: String?, selection: HostSelection?, includeInspector: Bool) throws -> (transcript: SessionTranscript, problem: ScriptError?) {
        let loaded: (state: LiveState, problem: ScriptError?)
        if let selection {
            loaded = try SessionLog.load(file: file, selection: selection, client: "bridge-inspector diff", usedAs: "compared")
        } else if let file {
            loaded = try SessionLog.load(file: file, usedAs: "compared")
        } else {
            throw ScriptError.usage("name a recording to compare")
        }
        // The header adds the host's name; a live side is named by what it is and its pid.
        let name = file ?? "running host" + (loaded.state.host.map { " (pid \($0.pid))" } ?? "")
        return (SessionTranscript(log: loaded.state.log, host: loaded.state.host, name: name, includeInspectorMade: includeInspector), loaded.problem)
    }
}
