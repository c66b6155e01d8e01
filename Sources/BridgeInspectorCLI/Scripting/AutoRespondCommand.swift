import ArgumentParser
import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import TerminalUI

/// `bridge-inspector auto-respond`: reply rules from the command line.
struct AutoRespondCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "auto-respond",
        abstract: "Answer pending requests automatically with reply rules.",
        discussion: """
            A reply rule answers the next N requests (--times N) or every request (--always) for \
            an action with a fixed response, optionally after a delay. The rule on the command \
            line (--action and the response options) and the rules in --rules FILE are tried in \
            order (file first); the first rule whose action matches answers. Requests already \
            pending when this starts are answered first, then new ones as they arrive. Each \
            answer goes through the ordinary respond command, carries the rule's name (the log \
            marks it as answered by a rule: R in `tail`, is:rule in filters), and is printed as \
            one line.

            It exits 0 when every rule with --times has used up its count (never while an \
            --always rule is in force), and on Ctrl-C or SIGTERM; the rules with their hit counts \
            are printed on standard error at exit. A request answered by someone else first (a \
            person, or another inspector whose rules answered it) is not counted: the rule still \
            owes that answer.

            Requests the journey has abandoned are skipped, with a note on standard error: a \
            request pending longer than the journey's timeout (the web SDK's 30 s, 5 s for \
            capability.query; --journey-timeout for a journey that sets its own) gets an answer \
            that reaches no one. --include-abandoned answers them too.

            A rules file holds {"rules": [...]} (or just the array); each rule is an object with \
            "action" (required; * matches anything), "times" (leave it out for every request), \
            "delayMs", "status" (default success), "data", "error" ({"code", "message", \
            "recoverable"}), "name" (default <action>#<n>) and "enabled" (default true; false \
            keeps a rule in the file without using it). Counts start afresh ("hits" is ignored). \
            The interactive inspector saves its rules in the same format (rules.json in \
            $XDG_STATE_HOME/bridge-inspector), so that file can be passed here. See docs/cli.md.

            Exit status: 0 done; 3 the host went away while a --times rule still had requests \
            to answer; 4 --timeout passed first.

            Examples:
              bridge-inspector auto-respond --action nfc.read --times 2 \\
                  --data '{"uid":"04A2"}'
              bridge-inspector auto-respond --action 'wallet.*' --always \\
                  --status unsupported --error-code UNSUPPORTED
              bridge-inspector auto-respond --action location.get --always \\
                  --delay-ms 1500 --status error --error-code TIMEOUT
              bridge-inspector auto-respond --rules rules.json
            """)

    @OptionGroup var selection: HostSelection

    @Option(help: ArgumentHelp("The action the rule answers; * matches any run of characters (camera.*).", valueName: "action"))
    var action: String?

    @Option(help: ArgumentHelp("Answer this many requests, then the rule is used up.", valueName: "n"))
    var times: Int?

    @Flag(help: "Answer every matching request (the rule is never used up).")
    var always = false

    @Option(name: .customLong("delay-ms"), help: ArgumentHelp("Wait this many milliseconds before answering. Default: 0.", valueName: "ms"))
    var delayMs: Int?

    @Option(help: ArgumentHelp("The response status. Default: success.", valueName: "status"))
    var status: StatusArgument?

    @Option(help: ArgumentHelp("The response data: a JSON object, @FILE, or - for standard input.", valueName: "json"))
    var data: String?

    @OptionGroup var error: ErrorOptions

    @Option(help: ArgumentHelp("The rule's name. Default: <action>#<n>.", valueName: "name"))
    var name: String?

    @Option(help: ArgumentHelp("Also use the rules in this JSON file (tried before the command line's rule).", valueName: "file"), completion: Completions.jsonFile)
    var rules: String?

    @Option(help: ArgumentHelp("Give up after this many seconds (exit 4 if a --times rule is not used up).", valueName: "seconds"))
    var timeout: Double?

    @OptionGroup var abandoned: AbandonedOptions

    /// The rules to use, checked completely before connecting.
    func makeBook() throws -> ReplyRuleBook {
        var book = ReplyRuleBook()
        if let rules {
            do {
                book = try ReplyRuleBook.read(file: rules)
            } catch {
                throw ScriptError.usage(
                    "--rules \(rules): \(error)", hint: error.isInContent ? "see `bridge-inspector auto-respond --help` for the format of a rule" : nil)
            }
            if let warning = ReplyRuleBook.othersCanChangeWarning(file: rules) { StandardStreams.printError("warning: " + warning) }
        }
        let ruleOptions: [(String, Bool)] = [
            ("--times", times != nil), ("--always", always), ("--delay-ms", delayMs != nil), ("--status", status != nil),
            ("--data", data != nil), ("--error-code", error.code != nil), ("--error-message", error.message != nil),
            ("--[no-]recoverable", error.recoverable != nil), ("--name", name != nil),
        ]
        guard let action else {
            if let (option, _) = ruleOptions.first(where: { $0.1 }) {
                throw ScriptError.usage("\(option) describes a rule, which needs --action", hint: "for example --action nfc.read --times 1")
            }
            if rules == nil {
                throw ScriptError.usage("no rules: give --action (with --times N or --always) or --rules FILE", hint: "for example --action nfc.read --times 1 --data '{\"uid\":\"04A2\"}'")
            }
            return book
        }
        guard !action.isEmpty else { throw ScriptError.usage("--action must not be empty") }
        if always, times != nil { throw ScriptError.usage("--times and --always cannot be used together") }
        if !always, times == nil {
            throw ScriptError.usage("say how many requests the rule answers: --times N, or --always for every one")
        }
        if let times, times < 1 { throw ScriptError.usage("--times must be at least 1 (got \(times))") }
        let delay = delayMs ?? 0
        guard (0...ReplyRule.maxDelayMs).contains(delay) else {
            throw ScriptError.usage("--delay-ms must be from 0 to \(ReplyRule.maxDelayMs) (got \(delay))")
        }
        if let name, name.isEmpty { throw ScriptError.usage("--name must not be empty") }
        let responseStatus = (status ?? .success).status
        let response = ReplyRule.Response(
            status: responseStatus, data: try DataArgument.object(data), error: try error.payload(for: responseStatus))
        let added = book.add(ReplyRule(name: name ?? "", action: action, times: always ? nil : times, delayMs: delay, response: response))
        if book.rules.filter({ $0.name == added.name }).count > 1 {
            throw ScriptError.usage("two rules are named '\(added.name)'; give this one another --name")
        }
        return book
    }

    func run() throws {
        try Script.run {
            var book = try makeBook()
            try Seconds.check(timeout, option: "--timeout")
            let timeouts = try abandoned.timeouts()
            let names = book.rules.map(\.name)
            if Set(names).count != names.count {
                throw ScriptError.usage("two rules have the same name; give each rule in --rules its own \"name\"")
            }
            let session = try selection.session(subscribe: true, client: "bridge-inspector auto-respond")
            defer { session.close() }
            var responder = RuleResponder(
                scheduler: ReplyScheduler(book: book, timeouts: timeouts, includesAbandoned: abandoned.includeAbandoned), session: session)
            let loop = FrameLoop(session: session)
            defer { loop.cancel() }
            StandardStreams.printError("answering with \(book.rules.count) rule\(book.rules.count == 1 ? "" : "s") on \(ScriptOutput.safe(session.hello.host.name)) (Ctrl-C to stop):")
            for rule in book.rules { StandardStreams.printError("  " + RuleResponder.describe(rule)) }

            let snapshot = try session.firstSnapshot()
            responder.handle(.snapshot(seq: 0, state: snapshot.state))
            try responder.answerDue()
            var end = FrameLoop.End.finished
            if !responder.isDone {
                end = try loop.run(timeout: timeout, nextWake: { responder.secondsToNextDue }) { frame in
                    if let frame { responder.handle(frame) }
                    try responder.answerDue()
                    return responder.isDone
                }
            }
            book = responder.scheduler.book
            StandardStreams.printError("rules at exit:")
            for rule in book.rules { StandardStreams.printError("  " + RuleResponder.describe(rule)) }
            switch end {
            case .finished, .interrupted:
                return
            case .timedOut:
                if !book.hasUnlimitedRule {
                    throw ScriptError.timeout("the rules were not used up within \(timeout ?? 0) seconds (\(book.totalHits) requests answered)")
                }
            case .hostGone:
                if !book.hasUnlimitedRule {
                    throw ScriptError.hostWentAway(session.socketPath, while: "before the rules were used up (\(book.totalHits) requests answered)")
                }
                StandardStreams.printError("the host at \(session.socketPath) went away; stopping")
            }
        }
    }
}

/// Drives a ``ReplyScheduler`` for one session: keeps the host's pending list from its frames,
/// sends the answers that are due through `respond`, and reports what the scheduler decided.
struct RuleResponder {
    private(set) var scheduler: ReplyScheduler
    let session: InspectorSession
    var timeFormat = TimeFormat()
    /// The host's pending requests, as its frames say.
    private var pending: [WirePending] = []
    private var clock = HostClock()

    init(scheduler: ReplyScheduler, session: InspectorSession) {
        self.scheduler = scheduler
        self.session = session
    }

    /// Whether nothing more will be answered: every rule used up and nothing scheduled.
    var isDone: Bool { scheduler.isDone }

    private static var nowMs: Double { Date().timeIntervalSince1970 * 1000 }

    /// Seconds until the next scheduled answer is due (a quarter of a second when none is).
    var secondsToNextDue: Double {
        guard let next = scheduler.nextDue else { return 0.25 }
        return max(0, (next - Self.nowMs) / 1000)
    }

    mutating func handle(_ frame: AgentFrame) {
        let now = Self.nowMs
        clock.observe(frame, at: now)
        switch frame {
        case .event(_, .pendingAdded(let request)):
            pending.removeAll { $0.correlationId == request.correlationId }
            pending.append(request)
        case .event(_, .pendingRemoved(let id)):
            pending.removeAll { $0.correlationId == id }
        case .snapshot(_, let state):
            pending = state.pending
        default:
            return
        }
        let update = scheduler.update(pending: pending, now: now, hostNow: clock.hostNow(localNow: now))
        for given in update.gaveBack {
            StandardStreams.printError(
                "request \(ScriptOutput.safe(given.request.correlationId)) was answered by someone else before \(ScriptOutput.safe(given.rule.name))'s delay ended; not counted")
        }
        for request in update.skippedAbandoned {
            StandardStreams.printError(
                "skipped \(ScriptOutput.safe(request.action)) \(ScriptOutput.safe(request.correlationId)): pending for \(TimeFormat.duration(ms: clock.hostNow(localNow: now) - request.since)), so the journey has given up on it (--include-abandoned answers it anyway)")
        }
    }

    /// Answers every request whose delay has passed.
    mutating func answerDue() throws {
        for reply in scheduler.due(now: Self.nowMs) {
            let correlationId = reply.request.correlationId
            let result = try session.run(.respond(reply.command)).result
            switch result {
            case .success:
                scheduler.outcome(of: correlationId, answered: true)
                let rule = reply.rule
                let count = rule.times.map { "\(rule.hits) of \($0)" } ?? "\(rule.hits)"
                StandardStreams.printOut(
                    "\(timeFormat.clock(Date().timeIntervalSince1970 * 1000))  \(ScriptOutput.safe(rule.name))  answered \(ScriptOutput.safe(reply.request.action)) \(ScriptOutput.safe(correlationId)) with \(rule.response.status.rawValue)  (hit \(count))")
            case .failure(let refusal):
                scheduler.outcome(of: correlationId, answered: false)
                StandardStreams.printError(
                    "\(ScriptOutput.safe(reply.rule.name)): the host refused to answer \(ScriptOutput.safe(correlationId)): \(ScriptOutput.safe(refusal.message)) (\(refusal.code)); not counted")
            }
        }
    }

    /// One line about a rule: name, action, response, delay, hits.
    static func describe(_ rule: ReplyRule) -> String {
        let safe = ScriptOutput.safe
        var parts = [safe(rule.name), "action \(safe(rule.action))", "→ \(rule.response.status.rawValue)"]
        if let error = rule.response.error { parts.append("error \(safe(error.code))") }
        if rule.response.data != nil { parts.append("with data") }
        if rule.delayMs > 0 { parts.append("after \(rule.delayMs) ms") }
        if let times = rule.times {
            parts.append("\(rule.hits) of \(times) answered\(rule.isUsedUp ? " (used up)" : "")")
        } else {
            parts.append("\(rule.hits) answered (every request)")
        }
        if !rule.isEnabled { parts.append("disabled") }
        return parts.joined(separator: "  ")
    }
}
