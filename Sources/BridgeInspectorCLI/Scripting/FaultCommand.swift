import ArgumentParser
import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol

/// `bridge-inspector fault <filter> --error BUSY …`: sets fault rules on the host and stays
/// attached while they apply; a rule lives as long as the connection that set it.
struct FaultCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fault",
        abstract: "Make the host's real handling of matching messages go wrong on purpose, to test the journey's unhappy paths.",
        discussion: """
            Sets a fault rule on the host and stays attached, printing one line for each message \
            the rule changes. The host's own handlers still do the work; the rule changes what \
            happens around them, per bridge action:

            On a request from the journey (dir:in):
              --error CODE     answered at once with a documented error and the
                               recoverable flag the web SDK expects; the handler
                               never runs (a code of your own needs --recoverable)
              --delay 2s       the handler runs; its answer goes out 2 s later
                               (a range, 1s..3s, is drawn for each message)
              --never-answer   the handler runs; its answer is swallowed, so the
                               journey's own timeout fires
              --drop           never reaches the host: no handler, not pending
            On what the host sends (dir:out, responses and events):
              --drop           never delivered
              --delay 2s       delivered late
              --duplicate      delivered twice
              --reorder        delivered right after the next message the host
                               sends, or after 1 s if none comes
            Documented codes: BUSY, TIMEOUT, PERMISSION_DENIED, CANCELLED (recoverable); \
            INTERNAL_ERROR, UNSUPPORTED, INVALID_REQUEST, VERSION_MISMATCH (not).

            When it fires (default: every matching message):
              --times 2                    the first 2 matching messages only
              --probability 0.3 --seed 7   each with probability 0.3; the same seed
                                           hits the same messages on every run
              --sequence error:BUSY,error:BUSY,pass
                                           each matching message takes the next
                                           step; after the last, all pass. Steps:
                                           pass, drop, never-answer, duplicate,
                                           reorder, error:CODE, delay:2s

            --file rules.json sets every rule of a file instead ({"version": 1, "faults": [...]}, \
            each rule {"filter", "effect", "firing"}, see docs/cli.md "fault"); share the file to \
            let a colleague reproduce the same unhappy path.

            The rules belong to this process: they are removed when this command ends (Ctrl-C, \
            SIGTERM, or even SIGKILL: the host notices the connection close). Messages an \
            inspector makes (respond, event, slot, inject) are never faulted. The filter uses the \
            language of `tail --filter`, less the terms that cannot apply before a message is \
            routed or delivered (is:pending, is:malformed, is:manual, is:rule, is:lint, \
            is:marked, is:fault). Faulted rows carry a mark in every inspector's log \
            (`tail --filter is:fault` finds them); `bridge-inspector faults` lists every \
            inspector's rules with their hit counts.

            Lines: FAULT, the rule id, IN (from the journey) or OUT (to it), the type, action, \
            correlation id and what was done (errored BUSY, delayed 2000ms, never-answered, \
            dropped, duplicated, reordered). --json prints one object per line instead: \
            {"kind":"fault",...} for each rule set, then {"kind":"faulted",...} (the Traffic \
            record of docs/inspector-protocol.md, with its fault mark).

            Exit status: 0 after Ctrl-C or SIGTERM; 64 for a bad rule; 2 when the host cannot \
            fault its handling (an app seen through GBGBridge's public API); 3 when the host goes away.

            Examples:
              bridge-inspector fault 'action:camera.*' --sequence error:BUSY,error:BUSY,pass
              bridge-inspector fault 'action:capability.query' --delay 6s
              bridge-inspector fault 'action:device.info' --never-answer --times 1
              bridge-inspector fault 'dir:out type:event' --drop --probability 0.3 --seed 7
              bridge-inspector fault --file unhappy-paths.json --json
            """)

    @OptionGroup var selection: HostSelection

    @Argument(help: ArgumentHelp("Which messages, in the filter language of `tail --filter` (not with --file).", valueName: "filter"))
    var filter: String?

    @Option(help: ArgumentHelp("Answer a request at once with this error code (BUSY, TIMEOUT, …); its handler never runs.", valueName: "code"))
    var error: String?

    @Option(help: ArgumentHelp("With --error: the error's message (default: the documented one).", valueName: "text"))
    var message: String?

    @Option(help: ArgumentHelp("With --error: the recoverable flag (default: the one the web SDK expects for the code).", valueName: "true|false"))
    var recoverable: Bool?

    @Option(help: ArgumentHelp("Deliver late: 2s, 500ms, or a range 1s..3s. On a request, its answer goes out late.", valueName: "duration"))
    var delay: String?

    @Flag(help: "Let a request's handler run and swallow its answer (the journey's timeout fires).")
    var neverAnswer = false

    @Flag(help: "Lose the message: a request never reaches the host; a response or event is never delivered.")
    var drop = false

    @Flag(help: "Deliver a response or event twice.")
    var duplicate = false

    @Flag(help: "Deliver a response or event after the next message the host sends (or after 1 s).")
    var reorder = false

    @Option(help: ArgumentHelp("Fault only the first N matching messages.", valueName: "N"))
    var times: Int?

    @Option(help: ArgumentHelp("Fault each matching message with this probability (0 to 1).", valueName: "p"))
    var probability: Double?

    @Option(help: ArgumentHelp("With --probability: the generator's seed, so a run can be repeated. Default: 0.", valueName: "n"))
    var seed: UInt64?

    @Option(help: ArgumentHelp("One step per matching message, e.g. error:BUSY,error:BUSY,pass; then everything passes.", valueName: "steps"))
    var sequence: String?

    @Option(help: ArgumentHelp("Set every rule of this file (JSON: {\"version\": 1, \"faults\": [...]}).", valueName: "path"))
    var file: String?

    @Flag(help: "Print one JSON object per line (JSON Lines) instead of text.")
    var json = false

    /// A `--json` line's `kind`.
    enum Kind: String, Encodable {
        case fault, faulted
    }

    /// A `--json` line for a rule set.
    struct Started: Encodable {
        var kind = Kind.fault
        var id: String
        var rule: WireFaultRule
    }

    /// A `--json` line for a faulted message: the traffic record with its `kind` first.
    struct Faulted: Encodable {
        var kind = Kind.faulted
        var record: WireTraffic

        private enum Keys: String, CodingKey { case kind }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(kind, forKey: .kind)
            try record.encode(to: encoder)
        }
    }

    /// The rules the options describe, or the file's.
    func rules() throws -> [WireFaultRule] {
        if let file {
            if filter != nil || ruleOptionsGiven {
                throw ScriptError.usage("--file sets the rules of the file; give no filter or fault options with it")
            }
            do {
                return try FaultRuleFile.read(file: file).faults
            } catch {
                throw ScriptError.usage(
                    "the fault rules file \(ScriptOutput.safe(file)) cannot be used: \(ScriptOutput.safe(error.description))",
                    hint: "fix that place in the file; `bridge-inspector fault --help` describes a rule")
            }
        }
        guard let filter, !filter.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ScriptError.usage("a fault rule needs a filter", hint: "for example: bridge-inspector fault 'action:device.info' --error BUSY --times 2")
        }
        let effects = effectsGiven()
        if sequence != nil, !effects.isEmpty {
            throw ScriptError.usage("--sequence carries its faults in its steps; give no --error, --delay, --drop, … with it")
        }
        var firing: FaultFiring?
        var effect: FaultEffect?
        do {
            let firings = [times != nil, probability != nil, sequence != nil].filter { $0 }.count
            guard firings <= 1 else { throw ScriptError.usage("give at most one of --times, --probability and --sequence") }
            if seed != nil, probability == nil { throw ScriptError.usage("--seed goes with --probability") }
            if let sequence {
                firing = .sequence(try FaultRuleSyntax.steps(sequence))
            } else {
                guard effects.count == 1 else {
                    throw ScriptError.usage(
                        effects.isEmpty ? "say what the rule does: --error CODE, --delay 2s, --never-answer, --drop, --duplicate or --reorder, or --sequence"
                            : "give one fault (--error, --delay, --never-answer, --drop, --duplicate or --reorder); for several in turn use --sequence")
                }
                effect = effects[0]
                if let times { firing = .times(times) }
                if let probability { firing = .probability(probability, seed: seed ?? 0) }
            }
        } catch let error as FaultRuleSyntaxError {
            throw ScriptError.usage(ScriptOutput.safe(error.description))
        }
        if (message != nil || recoverable != nil), error == nil {
            throw ScriptError.usage("--message and --recoverable go with --error")
        }
        let rule = WireFaultRule(filter: filter, effect: effect, firing: firing)
        if let problem = rule.problem { throw ScriptError.usage(ScriptOutput.safe(problem)) }
        return [rule]
    }

    private var ruleOptionsGiven: Bool {
        error != nil || delay != nil || neverAnswer || drop || duplicate || reorder || times != nil || probability != nil
            || sequence != nil || message != nil || recoverable != nil || seed != nil
    }

    private func effectsGiven() -> [FaultEffect] {
        var effects: [FaultEffect] = []
        if let error { effects.append(.error(code: error.uppercased(), message: message, recoverable: recoverable)) }
        if let delay, let range = try? FaultRuleSyntax.delay(delay) { effects.append(.delay(minMs: range.minMs, maxMs: range.maxMs)) }
        if neverAnswer { effects.append(.neverAnswer) }
        if drop { effects.append(.drop) }
        if duplicate { effects.append(.duplicate) }
        if reorder { effects.append(.reorder(boundMs: nil)) }
        return effects
    }

    func run() throws {
        try Script.run {
            if let delay {
                do { _ = try FaultRuleSyntax.delay(delay) } catch { throw ScriptError.usage("--delay: \(ScriptOutput.safe("\(error)"))") }
            }
            let rules = try rules()
            let session = try selection.session(subscribe: true, client: "bridge-inspector fault")
            let loop = FrameLoop(session: session)
            defer {
                session.close()
                loop.cancel()
            }
            try session.require(.faults, doing: "fault its handling of messages")
            _ = try session.firstSnapshot()

            let ids = try FaultRuleInstaller.add(rules, on: session) { id, rule in
                if json {
                    StandardStreams.printJSON(try ScriptOutput.json(Started(id: id, rule: rule)))
                } else {
                    StandardStreams.printError(
                        "fault rule \(ScriptOutput.safe(id)) set on \(ScriptOutput.safe(session.hello.host.name)): \(ScriptOutput.safe(rule.filter)): \(ScriptOutput.safe(rule.summary))")
                }
            }
            if !json { StandardStreams.printError("Ctrl-C removes the rules; bridge-inspector faults lists them with their hit counts") }

            func show(_ frame: AgentFrame) throws {
                guard case .event(_, .traffic(let record)) = frame, let mark = record.fault, ids.contains(mark.rule) else { return }
                if json {
                    StandardStreams.printJSON(try ScriptOutput.json(Faulted(record: record)))
                } else {
                    StandardStreams.printOut(Self.line(record, mark: mark))
                }
            }
            let end = try loop.showUntilStopped(show)
            switch end {
            case .hostGone:
                throw ScriptError.hostWentAway(session.socketPath, while: "while the fault rules were set")
            case .interrupted, .finished, .timedOut:
                FaultRuleInstaller.remove(ids, on: session)
                if !json { StandardStreams.printError("fault rules \(ids.map(ScriptOutput.safe).joined(separator: ", ")) removed") }
            }
        }
    }

    /// `FAULT f1  IN  request device.info r1: errored BUSY`, every untrusted part sanitized.
    static func line(_ record: WireTraffic, mark: FaultMark) -> String {
        let direction = record.direction == .received ? "IN " : "OUT"
        let what = mark.detail.map { "\(mark.effect.rawValue) \($0)" } ?? mark.effect.rawValue
        return "FAULT \(ScriptOutput.safe(mark.rule))  \(direction)  \(record.message.type.rawValue) "
            + "\(ScriptOutput.safe(record.message.payload.action)) \(ScriptOutput.safe(record.message.correlationId)): \(ScriptOutput.safe(what))"
    }
}
