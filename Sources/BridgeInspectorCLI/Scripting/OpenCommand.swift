import ArgumentParser
import Foundation
import InspectorClient
import InspectorProtocol

/// `bridge-inspector open FILE`: a recording, offline.
struct OpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open a recording offline (read-only), or check it with --check.",
        discussion: """
            Opens a recording made by `bridge-inspector record`, or saved with w in the \
            interactive inspector (the rows you marked with m marked again), with the same \
            panes, filters and detail view as a live host, read-only (nothing can be sent). A recording that was cut off or damaged is opened up to the last line that \
            could be read, and the place where it broke is shown.

            --check reads the file without a terminal and prints a summary: the host, the \
            frames and messages it holds, the requests still pending at its end, the messages \
            that break GBGBridge's documented contract (counted by rule: `bridge-inspector \
            contract` lists the rules), and where it broke. Exit status: 0 the whole file was read; 5 it is cut off or damaged (what \
            was readable is summarised; the line where it broke is named on standard error).

            --compare OTHER opens with the recording compared with OTHER, as \
            `bridge-inspector diff OTHER FILE` compares them (OTHER is the "before"): one row \
            per difference (a changed status, a changed field with its path, a missing, added \
            or moved message, a latency change), Enter shows both sides' messages, Esc goes to \
            the recording. In the viewer, = compares it with another file.

            Examples:
              bridge-inspector open session.jsonl
              bridge-inspector open build-42.jsonl --compare build-41.jsonl
              bridge-inspector open --check session.jsonl
            """)

    @Argument(help: ArgumentHelp("The recording to open.", valueName: "file"), completion: Completions.recording)
    var file: String

    @Flag(help: "Only read and check the file, and print a summary (no terminal needed).")
    var check = false

    @Option(name: .customLong("compare"), help: ArgumentHelp(
        "Open with the recording compared with this one (the \"before\"): the differences by what happened.", valueName: "other"),
        completion: Completions.recording)
    var compare: String?

    @OptionGroup var mouse: MouseOption

    func validate() throws {
        if check, compare != nil {
            throw ValidationError("--check and --compare cannot be used together: `bridge-inspector diff OTHER FILE` compares two recordings from a script")
        }
    }

    func run() throws {
        try Script.run {
            // The viewer needs a full-screen terminal: refuse one that cannot show it before
            // reading the file (--check needs no terminal).
            if !check, TerminalCheck.isInteractive {
                try TerminalCheck.requireFullScreen(
                    instead: "to read the recording here use `bridge-inspector open --check \(ScriptOutput.shellWord(file))`")
            }
            let contents = try Self.loadReadable(file)
            if check {
                StandardStreams.printOut(RecordingSummary(contents: contents, path: file).render())
                if let problem = contents.problem {
                    throw ScriptError(
                        exitCode: ExitCodes.badRecording, message: "\(file): \(problem)",
                        hint: "the \(contents.frames.count) frame\(contents.frames.count == 1 ? "" : "s") before line \(problem.line) can be used; `bridge-inspector open \(ScriptOutput.shellWord(file))` shows them")
                }
                return
            }
            let problem = contents.problem.map {
                "\(file): \($0); showing the \(contents.frames.count) frame\(contents.frames.count == 1 ? "" : "s") before it"
            }
            if let problem { StandardStreams.printError("warning: \(problem)") }
            let comparison = try compare.map { other in (path: other, contents: try Self.loadReadable(other)) }
            try Self.runInteractive(contents: contents, path: file, problem: problem, comparison: comparison, mouse: mouse.enabled)
        }
    }

    /// Reads the recording at `file` (a leading `~` expanded); exit 5 when nothing in it can be
    /// used (no such file, not a recording, broken at its first line). A file broken later is
    /// returned with its ``Recording/Contents/problem`` for the caller to report.
    static func loadReadable(_ file: String) throws -> Recording.Contents {
        let contents = RecordingPath.load(file)
        if RecordingPath.isUnreadable(contents) {
            throw ScriptError(exitCode: ExitCodes.badRecording, message: "\(file): \(contents.problem?.description ?? "nothing readable")", hint: nil)
        }
        return contents
    }

    /// Shows the recording's frames in the interactive inspector, offline and read-only;
    /// `problem` says where the file broke, if it did (also printed on stderr, and shown in
    /// the viewer when it opens); `comparison` is a recording to compare it with as it opens
    /// (`--compare`); `mouse` reports clicks and the wheel (off with `--no-mouse`).
    static func runInteractive(
        contents: Recording.Contents, path: String, problem: String? = nil, comparison: (path: String, contents: Recording.Contents)? = nil,
        mouse: Bool = true
    ) throws {
        guard TerminalCheck.isInteractive else {
            throw ScriptError.usage(
                "the interactive viewer needs a terminal",
                hint: "to check a recording from a script use `bridge-inspector open --check \(ScriptOutput.shellWord(path))`")
        }
        try RecordingViewer(
            path: path, frames: contents.frames, restarts: contents.restarts, marks: contents.marks, problem: problem, mouse: mouse, comparison: comparison
        ).run()
    }
}

/// What `open --check` prints about a recording.
struct RecordingSummary {
    var contents: Recording.Contents
    var path: String
    var timeFormat = TimeFormat()

    func render() -> String {
        let safe = ScriptOutput.safe
        var state = LiveState()
        var kinds: [String: Int] = [:]
        var host: WireHostInfo?
        for frame in contents.frames {
            switch frame {
            case .hello(let hello): kinds["hello", default: 0] += 1; host = host ?? hello.host
            case .snapshot: kinds["snapshot", default: 0] += 1
            case .event: kinds["event", default: 0] += 1
            case .gap: kinds["gap", default: 0] += 1
            case .reply: kinds["reply", default: 0] += 1
            }
            state.apply(frame, at: 0)
        }
        host = state.host ?? host
        var lines: [String] = []
        lines.append("recording  \(safe(path))")
        if let header = contents.header {
            lines.append("recorded   from \(safe(header.socket)) at \(timeFormat.clock(header.startedAt)) by \(safe(header.client)) (format \(header.version))")
        } else {
            lines.append("recorded   (no header: the file starts directly with frames)")
        }
        if let host {
            lines.append("host       \(safe(host.name)) (pid \(host.pid)), version \(safe(host.hostVersion))")
        }
        let frameKinds = ["hello", "snapshot", "event", "gap", "reply"].compactMap { kind in kinds[kind].map { "\($0) \(kind)\($0 == 1 ? "" : "s")" } }
        lines.append("frames     \(contents.frames.count)\(frameKinds.isEmpty ? "" : " (" + frameKinds.joined(separator: ", ") + ")")")
        let messages = state.log.filter { $0.kind == .message }
        let requests = messages.filter { $0.type == .request }.count
        let responses = messages.filter { $0.type == .response }.count
        let events = messages.filter { $0.type == .event }.count
        let malformed = state.log.filter { $0.kind == .malformed }.count
        lines.append("messages   \(messages.count) (\(requests) requests, \(responses) responses, \(events) events), \(malformed) malformed")
        if let first = messages.first?.time, let last = messages.last?.time {
            lines.append("span       \(timeFormat.clock(first)) to \(timeFormat.clock(last)) (\(TimeFormat.duration(ms: last - first)))")
        }
        lines.append("pending    \(state.pending.count) at the end\(state.pending.isEmpty ? "" : ": " + state.pending.prefix(5).map { "\(safe($0.action)) \(safe($0.correlationId))" }.joined(separator: ", ") + (state.pending.count > 5 ? ", …" : ""))")
        lines.append("lastError  \(state.lastError?.text.map(safe) ?? "none")")
        lines.append("contract   \(safe(state.contract.summary))\(state.contract.notCounted > 0 ? ", \(state.contract.notCounted) more in messages an inspector made (not counted)" : "")")
        if !contents.marks.isEmpty {
            lines.append("marked     \(contents.marks.count) row\(contents.marks.count == 1 ? "" : "s") (m in the inspector that saved it)")
        }
        for restart in contents.restarts {
            lines.append("restarted  \(safe(restart.host)): pid \(restart.endedPid) ended, pid \(restart.attachedPid) attached at \(timeFormat.clock(restart.time))")
        }
        if let problem = contents.problem {
            lines.append("status     BROKEN at line \(problem.line): \(safe(problem.reason))")
        } else {
            lines.append("status     complete (\(contents.linesRead) lines read)")
        }
        return lines.joined(separator: "\n")
    }
}
