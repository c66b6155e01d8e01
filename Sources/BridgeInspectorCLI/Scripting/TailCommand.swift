import ArgumentParser
import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol

/// `bridge-inspector tail`: the message log, one line per message, optionally followed live.
struct TailCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tail",
        abstract: "Print the message log, one line per message (--follow for live).",
        discussion: """
            Prints the messages the host holds now (oldest first) and exits; with --follow it \
            then prints every new message as it crosses the bridge, until Ctrl-C, --count, \
            --until or --timeout. --count and --until imply --follow.

            With --follow and --host NAME (not NAME.PID) tail stays attached across runs: it \
            waits for a host of that name to start, and when the host is run again (a new \
            process) it prints a marker line naming both pids (in --json an object \
            {"kind":"marker","marker":"hostRestarted","host":...,"endedPid":...,"attachedPid":...,"time":...}) \
            and goes on with the new process's messages.

            Lines: time, IN (from the journey) or OUT (to it), req/resp/evt, the action (✎ marks \
            a message an inspector made, R one a reply rule answered), the correlation id, the \
            status and error code, a response's latency, and HELD h1, EDITED h1, ANSWERED h1 or \
            DROPPED h1 when it was held at a breakpoint (released as it was, edited, answered by \
            hand, dropped). With --follow, a row printed before an inspector edited it at a \
            breakpoint is printed again, as it went on, marked EDITED. Markers show where the \
            stream was interrupted. --json prints each message's record instead (the Traffic or Malformed \
            object of docs/inspector-protocol.md, sorted keys, its "message" exactly as it crossed \
            the bridge: big integers digit for digit, its own key order), one per line (JSON Lines), each \
            with a "kind": "traffic" (a message), "malformed" (input that failed to decode) or \
            "marker" (an interruption; "marker" says which: gap, disconnected, reattached, \
            reattachedToRestartedHost, hostRestarted).

            Filters (--filter, --until) use the interactive inspector's language: terms \
            separated by spaces (or &) must all match, | between terms means either, ! \
            negates a term or a group, ( ) group. ! binds tightest, | loosest: \
            'a b | c' is '(a b) | c'. Quote text that holds spaces or | & ( ): "a | b".
              type:request  type:response  type:event    dir:in  dir:out
              action:camera.*  (* matches any run of characters)
              status:success  status:error  status:cancelled  status:unsupported    code:BUSY
              id:TEXT  (part of the correlation id)    body:TEXT  (in the JSON)
              is:pending  is:error  is:malformed  is:manual  is:rule
              any other word: text in the action, correlation id or error code

            Exit status: 0 done (also when a plain --follow ends because the host stopped); 4 when \
            --timeout passed before --count lines or an --until match; 3 when the host went away \
            first.

            Examples:
              bridge-inspector tail --last 20
              bridge-inspector tail --follow --filter 'type:request !action:capability.*'
              bridge-inspector tail --filter 'action:nfc.* | action:wallet.*'
              bridge-inspector tail --json --filter is:error | jq .message.payload.error
              bridge-inspector tail --last 0 --until 'action:journey.cancel' --timeout 60
            """)

    @OptionGroup var selection: HostSelection

    @Option(help: ArgumentHelp("Print only messages that match this filter.", valueName: "expr"))
    var filter: String?

    @Flag(name: .shortAndLong, help: "Keep printing new messages as they arrive.")
    var follow = false

    @Option(help: ArgumentHelp("Of the messages held now, print only the last N (0: only new ones). Default: all.", valueName: "n"))
    var last: Int?

    @Option(help: ArgumentHelp("Stop after printing N lines (implies --follow).", valueName: "n"))
    var count: Int?

    @Option(help: ArgumentHelp("Stop after printing a message that matches this filter (implies --follow).", valueName: "expr"))
    var until: String?

    @Option(help: ArgumentHelp("Stop after this many seconds; exit 4 if --count or --until was not reached.", valueName: "seconds"))
    var timeout: Double?

    @Flag(help: "Print one JSON record per line (JSON Lines) instead of text.")
    var json = false

    func run() throws {
        try Script.run {
            let filter = try FilterArgument.parse(self.filter, option: "--filter") ?? .all
            let until = try FilterArgument.parse(self.until, option: "--until")
            if let count, count < 1 { throw ScriptError.usage("--count must be at least 1 (got \(count))") }
            if let last, last < 0 { throw ScriptError.usage("--last must not be negative (got \(last))") }
            try Seconds.check(timeout, option: "--timeout")
            let waitsForSomething = count != nil || until != nil
            let follows = follow || waitsForSomething

            let followed = follows ? selection.followedHost : nil
            let deadline = timeout.map { Date().addingTimeInterval($0) }
            // Watches SIGINT/SIGTERM from now on, so waiting for a followed host can be stopped too.
            let loop = FrameLoop(session: nil)
            defer {
                loop.session?.close()
                loop.cancel()
            }
            var printer = TailPrinter(filter: filter, until: until, count: count, json: json)
            var state = LiveState()
            var done = false

            /// Attaches to the followed host once it runs; false when --timeout or a signal came first.
            func attachFollowed(_ followed: FollowedHost) throws -> Bool {
                let attached = try followed.attach(deadline: deadline, stopped: { loop.isInterrupted }) { path in
                    let session = try InspectorSession(socketPath: path, subscribe: true, clientName: "bridge-inspector tail", timeout: HostSelection.connectTimeout)
                    return (session, try session.firstSnapshot())
                }
                guard case let (session, snapshot)? = attached else { return false }
                loop.session = session
                let before = state.log.count
                let frame = AgentFrame.snapshot(seq: snapshot.seq, state: snapshot.state)
                state.apply(frame)
                // A restart's marker row (both pids) and the new process's messages.
                done = try printer.print(state.log[before...], state: state, records: TailPrinter.records(in: frame), last: before == 0 ? last : nil)
                return true
            }

            if let followed {
                guard try attachFollowed(followed) else {
                    if loop.isInterrupted { return }
                    throw ScriptError.timeout("no host named \(ScriptOutput.safe(followed.name)) started within \(timeout ?? 0) seconds")
                }
                if done { return }
            } else {
                let session = try selection.session(subscribe: true, client: "bridge-inspector tail")
                loop.session = session
                let snapshot = try session.firstSnapshot()
                let frame = AgentFrame.snapshot(seq: snapshot.seq, state: snapshot.state)
                state.apply(frame)
                if try printer.print(state.log[...], state: state, records: TailPrinter.records(in: frame), last: last) { return }
                guard follows else { return }
            }

            while true {
                let socketPath = loop.session?.socketPath ?? ""
                let end = try loop.run(timeout: deadline.map { max(0, $0.timeIntervalSinceNow) }) { frame in
                    guard let frame else { return false }
                    let before = state.log.count
                    state.apply(frame)
                    if case .event(_, .heldResolved(let resolution)) = frame, resolution.outcome == .edited {
                        printer.printEdit(resolution, of: state.log[..<before], state: state)
                    }
                    return try printer.print(state.log[before...], state: state, records: TailPrinter.records(in: frame), last: nil)
                }
                if end == .hostGone, let followed {
                    // Follow the name: mark the gap, wait for the next run, go on from its snapshot.
                    loop.session?.close()
                    loop.session = nil
                    let before = state.log.count
                    state.markDisconnected()
                    if try printer.print(state.log[before...], state: state, records: [:], last: nil) { return }
                    StandardStreams.printError("the host at \(ScriptOutput.safe(socketPath)) went away; waiting for a host named \(ScriptOutput.safe(followed.name)) to run again…")
                    if try attachFollowed(followed) {
                        if done { return }
                        continue
                    }
                    if loop.isInterrupted { return }
                    if waitsForSomething { throw ScriptError.timeout("no host named \(ScriptOutput.safe(followed.name)) ran again within \(timeout ?? 0) seconds") }
                    return
                }
                switch end {
                case .finished, .interrupted:
                    return
                case .timedOut:
                    if waitsForSomething {
                        let what = until != nil ? "no message matched --until '\(self.until ?? "")'" : "only \(printer.printed) of \(count ?? 0) lines were printed"
                        throw ScriptError.timeout("\(what) within \(timeout ?? 0) seconds")
                    }
                    return
                case .hostGone:
                    if waitsForSomething { throw ScriptError.hostWentAway(socketPath, while: "before --count or --until was reached") }
                    StandardStreams.printError("the host at \(socketPath) went away (it stopped or restarted); stopping")
                    return
                }
            }
        }
    }
}

/// Prints log rows for `tail`, counting them and watching for the `--until` match.
struct TailPrinter {
    let filter: LogFilter
    let until: LogFilter?
    let count: Int?
    let json: Bool
    var formatter = LogLineFormatter()
    private(set) var printed = 0

    init(filter: LogFilter, until: LogFilter?, count: Int?, json: Bool) {
        self.filter = filter
        self.until = until
        self.count = count
        self.json = json
    }

    /// What a `--json` line is, in its `kind` field, so a script tells them apart without guessing
    /// from the other fields (docs/cli.md lists them).
    enum Kind: String, Encodable {
        /// A message that crossed the bridge (the protocol's Traffic record).
        case traffic
        /// Input that failed to decode (the protocol's Malformed record).
        case malformed
        /// Where the stream was interrupted or the host changed; `marker` says which.
        case marker
    }

    private enum KindKey: String, CodingKey {
        case kind
    }

    /// A message's record as the agent sent it, for `--json`, with its ``Kind``.
    enum Record: Encodable {
        case traffic(WireTraffic)
        case malformed(WireMalformed)

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: KindKey.self)
            switch self {
            case .traffic(let record):
                try container.encode(Kind.traffic, forKey: .kind)
                try record.encode(to: encoder)
            case .malformed(let record):
                try container.encode(Kind.malformed, forKey: .kind)
                try record.encode(to: encoder)
            }
        }
    }

    /// A row whose record did not come with the frame: what the log holds of it.
    struct Unrecorded: Encodable {
        var kind: Kind
        var seq: Int
        var time: Double
        /// The message's JSON (or the malformed input), as text.
        var raw: String
    }

    /// A marker (gap, disconnect, restart) for `--json`.
    struct Marker: Encodable {
        var kind = Kind.marker
        var marker: String
        var time: Double
        var from: Int?
        var to: Int?
        /// For `hostRestarted`: the new host's name and the pids that ended and attached.
        var host: String?
        var endedPid: Int?
        var attachedPid: Int?
    }

    /// The records a frame carries, by sequence number.
    static func records(in frame: AgentFrame) -> [Int: Record] {
        var records: [Int: Record] = [:]
        switch frame {
        case .snapshot(_, let state):
            for record in state.messages { records[record.seq] = .traffic(record) }
            for record in state.malformed { records[record.seq] = .malformed(record) }
        case .event(_, .traffic(let record)):
            records[record.seq] = .traffic(record)
        case .event(_, .malformed(let record)):
            records[record.seq] = .malformed(record)
        default:
            break
        }
        return records
    }

    /// Prints the rows of `rows` that pass the filter (only the last `last` of them when given);
    /// `true` when `--count` or `--until` says to stop.
    mutating func print(_ rows: ArraySlice<LogEntry>, state: LiveState, records: [Int: Record], last: Int?) throws -> Bool {
        guard !rows.isEmpty else { return false }
        let pending = Set(state.pending.map(\.correlationId))
        var shown = zip(rows.indices, rows).filter { filter.matches($0.1, pending: pending) }
        if let last { shown = Array(shown.suffix(last)) }
        for (index, entry) in shown {
            let line = try line(for: entry, hold: state.holdMarks[index], records: records)
            if json { StandardStreams.printJSON(line) } else { StandardStreams.printOut(line) }
            printed += 1
            if let count, printed >= count { return true }
            if let until, entry.kind == .message || entry.kind == .malformed, until.matches(entry, pending: pending) { return true }
        }
        return false
    }

    /// Prints again, as it went on, the row of `rows` (printed already) that an inspector has
    /// just edited at a breakpoint (`resolution`): a request is logged when the journey posts it,
    /// before it is held, and the edit changes what the host routed. Only lines: `--json`
    /// consumers read the hold's outcome from `held` (and the next `tail --json` has the edited
    /// message).
    func printEdit(_ resolution: WireHeldResolution, of rows: ArraySlice<LogEntry>, state: LiveState) {
        guard !json,
              let (index, mark) = state.holdMarks.first(where: { $0.value.id == resolution.id && $0.value.outcome == .edited }),
              rows.indices.contains(index),
              filter.matches(rows[index], pending: Set(state.pending.map(\.correlationId)))
        else { return }
        StandardStreams.printOut(formatter.line(for: rows[index], hold: mark))
    }

    private func line(for entry: LogEntry, hold: HoldMark?, records: [Int: Record]) throws -> String {
        guard json else { return formatter.line(for: entry, hold: hold) }
        switch entry.kind {
        case .message, .malformed:
            if case .traffic(let traffic)? = records[entry.seq] { return try ScriptOutput.json(Record.traffic(traffic), exact: [(nil, [traffic.messageJSON])]) }
            if let record = records[entry.seq] { return try ScriptOutput.json(record) }
            let kind: Kind = entry.kind == .malformed ? .malformed : .traffic
            return try ScriptOutput.json(Unrecorded(kind: kind, seq: entry.seq, time: entry.time, raw: String(decoding: entry.json, as: UTF8.self)))
        case .gap(let from, let to):
            return try ScriptOutput.json(Marker(marker: "gap", time: entry.time, from: from, to: to))
        case .disconnected:
            return try ScriptOutput.json(Marker(marker: "disconnected", time: entry.time))
        case .hostRestarted(let name, let endedPid, let attachedPid):
            return try ScriptOutput.json(Marker(marker: "hostRestarted", time: entry.time, host: name, endedPid: endedPid, attachedPid: attachedPid))
        case .reattached(let restarted):
            return try ScriptOutput.json(Marker(marker: restarted ? "reattachedToRestartedHost" : "reattached", time: entry.time))
        }
    }
}
