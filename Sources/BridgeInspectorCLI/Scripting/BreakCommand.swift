import ArgumentParser
import Foundation
import InspectorClient
import InspectorProtocol

/// `bridge-inspector break <filter>`: sets a breakpoint and stays attached while it holds
/// messages; a breakpoint lives as long as the connection that set it.
struct BreakCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "break",
        abstract: "Hold matching messages at a breakpoint until you release, answer or drop them.",
        discussion: """
            Sets a breakpoint on the host and stays attached, printing one line for each message \
            it holds and one when that message leaves the hold. A held request from the journey has \
            not reached its handler yet; a held response or event from the host has not reached \
            the journey yet. From another shell, act on a held message by its hold id (h1, h2…):
              bridge-inspector held                         list what is held
              bridge-inspector release h1                   let it go on as it is
              bridge-inspector release h1 --data '{...}'    let it go on with other data
              bridge-inspector answer h1 --status error --error-code BUSY
                                                            answer a held request yourself
              bridge-inspector drop h1                      never deliver it

            The breakpoint belongs to this process: it is removed, and what it holds is released \
            as it is, when this command ends (Ctrl-C, SIGTERM, or even SIGKILL: the host notices \
            the connection close), so nothing is left stuck. A message nobody acts on is released \
            as it is after --hold seconds.

            The filter uses the language of `tail --filter` (see `bridge-inspector tail --help`), \
            less the terms that cannot apply before a message is routed or delivered (is:pending, \
            is:malformed, is:manual, is:rule). Messages an inspector makes (respond, event, slot, \
            the request inject or replay hands over) are never held; what a handler answers to \
            them can be.

            Lines: HELD with the hold id, IN (from the journey) or OUT (to it), the type, action, \
            correlation id, breakpoint and when it is released as it is; then the hold id with \
            released, edited, answered or dropped and why. NOT HELD marks a message the breakpoint \
            matched but let through because the host already holds as many messages (or bytes) as \
            the agent allows. --json prints one object per line instead: {"kind":"breakpoint",...} \
            first, then {"kind":"held",...} (the Held record of docs/inspector-protocol.md), \
            {"kind":"resolved",...} (the HeldResolution record) and {"kind":"skipped",...} (the \
            HoldSkipped record).

            On a host seen through GBGBridge's public API (an app, or host --webkit or --serve \
            with --inspect-via public-api) the journey's page holds the messages: a request before GBGBridge gets it, \
            a response or event before the journey's receive does; answer hands the response to \
            the journey in the page (docs/inspector-protocol.md, section 13.7).

            Exit status: 0 after Ctrl-C or SIGTERM; 64 for a bad filter; 2 when the host cannot \
            hold messages (seen through GBGBridge's public API without its web view); 3 when the \
            host goes away.

            Examples:
              bridge-inspector break 'action:camera.document.capture'
              bridge-inspector break 'type:response dir:out action:device.info' --hold 300
              bridge-inspector break 'dir:in type:request' --json | jq -r 'select(.kind=="held").id'
            """)

    @OptionGroup var selection: HostSelection

    @Argument(help: ArgumentHelp("Which messages to hold, in the filter language of `tail --filter`.", valueName: "filter"))
    var filter: String

    @Option(name: .customLong("hold"), help: ArgumentHelp(
        "Release a held message as it is after this many seconds if nobody acts (0.05 to 3600). Default: 60.", valueName: "seconds"))
    var holdSeconds: Double?

    @Flag(help: "Print one JSON object per line (JSON Lines) instead of text.")
    var json = false

    /// A `--json` line's `kind`.
    enum Kind: String, Encodable {
        case breakpoint, held, resolved, skipped
    }

    /// The first `--json` line: the breakpoint set.
    struct Started: Encodable {
        var kind = Kind.breakpoint
        var id: String
        var filter: String
        var holdSeconds: Double
    }

    /// A record with its `kind` first, for `--json`.
    struct Tagged<Record: Encodable>: Encodable {
        var kind: Kind
        var record: Record

        private enum Keys: String, CodingKey { case kind }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(kind, forKey: .kind)
            try record.encode(to: encoder)
        }
    }

    func run() throws {
        try Script.run {
            guard !filter.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw ScriptError.usage("a breakpoint needs a filter", hint: "for example: bridge-inspector break 'action:camera.document.capture'")
            }
            if let holdSeconds, !(0.05...InspectorCommand.maxHoldSeconds).contains(holdSeconds) {
                throw ScriptError.usage("--hold takes a number of seconds from 0.05 to \(Int(InspectorCommand.maxHoldSeconds)) (got \(holdSeconds))")
            }
            let session = try selection.session(subscribe: true, client: "bridge-inspector break")
            // Watches SIGINT and SIGTERM from now on: they end the loop below, not the process.
            let loop = FrameLoop(session: session)
            defer {
                session.close()
                loop.cancel()
            }
            try session.require(.intercept, doing: "hold messages at breakpoints")
            var state = LiveState()
            let snapshot = try session.firstSnapshot()
            state.apply(.snapshot(seq: snapshot.seq, state: snapshot.state))

            let reply = try session.run(.addBreakpoint(.init(filter: filter, holdSeconds: holdSeconds)))
            let id: String
            switch reply.result {
            case .success(let value):
                guard case .object(let fields) = value, case .string(let value)? = fields["id"] else {
                    throw ScriptError.failure("the host set the breakpoint but did not say its id")
                }
                id = value
            case .failure(let error) where error.knownCode == .invalidArguments:
                throw ScriptError.usage("the filter '\(ScriptOutput.safe(filter))' cannot be a breakpoint: \(ScriptOutput.safe(error.message))", hint: FilterArgument.hint)
            case .failure(let error):
                throw ScriptError.refused(error, hint: nil)
            }
            let seconds = holdSeconds ?? InspectorCommand.defaultHoldSeconds
            if json {
                StandardStreams.printJSON(try ScriptOutput.json(Started(id: id, filter: filter, holdSeconds: seconds)))
            } else {
                StandardStreams.printError(
                    "breakpoint \(ScriptOutput.safe(id)) set on \(ScriptOutput.safe(session.hello.host.name)): \(ScriptOutput.safe(filter)) (a message is released as it is after \(TimeFormat.duration(ms: seconds * 1000)))")
                StandardStreams.printError("act on a held message from another shell: bridge-inspector held | release HOLD | answer HOLD | drop HOLD (Ctrl-C removes the breakpoint and releases what it holds)")
            }

            var mine: Set<String> = []
            func show(_ frame: AgentFrame) throws {
                switch frame {
                case .event(_, .held(let held)) where held.breakpoint == id:
                    mine.insert(held.id)
                    if json {
                        StandardStreams.printJSON(try ScriptOutput.json(Tagged(kind: .held, record: held)))
                    } else {
                        StandardStreams.printOut("HELD  " + HeldOutput.line(held, now: HeldOutput.nowMs))
                    }
                case .event(_, .holdSkipped(let skipped)) where skipped.breakpoint == id:
                    if json {
                        StandardStreams.printJSON(try ScriptOutput.json(Tagged(kind: .skipped, record: skipped)))
                    } else {
                        StandardStreams.printOut(HeldOutput.line(skipped))
                    }
                case .event(_, .heldResolved(let resolution)) where mine.contains(resolution.id):
                    mine.remove(resolution.id)
                    if json {
                        StandardStreams.printJSON(try ScriptOutput.json(Tagged(kind: .resolved, record: resolution)))
                    } else {
                        StandardStreams.printOut(HeldOutput.line(resolution))
                    }
                default:
                    break
                }
            }
            let end = try loop.showUntilStopped(show)
            switch end {
            case .hostGone:
                throw ScriptError.hostWentAway(session.socketPath, while: "while the breakpoint was set")
            case .interrupted, .finished, .timedOut:
                // Remove it ourselves, so what it holds is released before we go and the lines
                // saying so are printed; closing the connection would release them anyway.
                if let reply = try? session.run(.removeBreakpoint(.init(id: id)), timeout: 5), case .success = reply.result {
                    let deadline = Date().addingTimeInterval(2)
                    while !mine.isEmpty, deadline.timeIntervalSinceNow > 0, let frame = try? session.nextFrame(timeout: deadline.timeIntervalSinceNow) {
                        try show(frame)
                    }
                }
                if !json { StandardStreams.printError("breakpoint \(ScriptOutput.safe(id)) removed") }
            }
        }
    }
}
