import ArgumentParser
import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import InspectorTUI
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
            are printed on standard error at exit. A request answered by someone else first is \
            not counted.

            A rules file holds {"rules": [...]} (or just the array); each rule is an object with \
            "action" (required; * matches anything), "times" (leave it out for every request), \
            "delayMs", "status" (default success), "data", "error" ({"code", "message", \
            "recoverable"}) and "name" (default <action>#<n>). See docs/cli.md.

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

    /// The rules to use, checked completely before connecting.
    func makeBook() throws -> ReplyRuleBook {
        var book = ReplyRuleBook()
        if let rules {
            let path = (rules as NSString).expandingTildeInPath
            guard let bytes = FileManager.default.contents(atPath: path) else {
                throw ScriptFailure.usage("--rules \(rules): \(FileManager.default.fileExists(atPath: path) ? "cannot read the file" : "no such file")")
            }
            do {
                book = try ReplyRuleBook.decode(bytes)
            } catch {
                throw ScriptFailure.usage("--rules \(rules): \(error)", hint: "see `bridge-inspector auto-respond --help` for the format of a rule")
            }
            book.resetHits()
            if book.isEmpty { throw ScriptFailure.usage("--rules \(rules) holds no rules") }
        }
        let ruleOptions: [(String, Bool)] = [
            ("--times", times != nil), ("--always", always), ("--delay-ms", delayMs != nil), ("--status", status != nil),
            ("--data", data != nil), ("--error-code", error.code != nil), ("--error-message", error.message != nil),
            ("--[no-]recoverable", error.recoverable != nil), ("--name", name != nil),
        ]
        guard let action else {
            if let (option, _) = ruleOptions.first(where: { $0.1 }) {
                throw ScriptFailure.usage("\(option) describes a rule, which needs --action", hint: "for example --action nfc.read --times 1")
            }
            if rules == nil {
                throw ScriptFailure.usage("no rules: give --action (with --times N or --always) or --rules FILE", hint: "for example --action nfc.read --times 1 --data '{\"uid\":\"04A2\"}'")
            }
            return book
        }
        guard !action.isEmpty else { throw ScriptFailure.usage("--action must not be empty") }
        if always, times != nil { throw ScriptFailure.usage("--times and --always cannot be used together") }
        if !always, times == nil {
            throw ScriptFailure.usage("say how many requests the rule answers: --times N, or --always for every one")
        }
        if let times, times < 1 { throw ScriptFailure.usage("--times must be at least 1 (got \(times))") }
        let delay = delayMs ?? 0
        guard (0...ReplyRule.maxDelayMs).contains(delay) else {
            throw ScriptFailure.usage("--delay-ms must be from 0 to \(ReplyRule.maxDelayMs) (got \(delay))")
        }
        if let name, name.isEmpty { throw ScriptFailure.usage("--name must not be empty") }
        let responseStatus = (status ?? .success).status
        let response = ReplyRule.Response(
            status: responseStatus, data: try DataArgument.object(data), error: try error.payload(for: responseStatus))
        let added = book.add(ReplyRule(name: name ?? "", action: action, times: always ? nil : times, delayMs: delay, response: response))
        if book.rules.filter({ $0.name == added.name }).count > 1 {
            throw ScriptFailure.usage("two rules are named '\(added.name)'; give this one another --name")
        }
        return book
    }

    func run() throws {
        try Script.run {
            var book = try makeBook()
            try Seconds.check(timeout, option: "--timeout")
            let names = book.rules.map(\.name)
            if Set(names).count != names.count {
                throw ScriptFailure.usage("two rules have the same name; give each rule in --rules its own \"name\"")
            }
            let session = try selection.session(subscribe: true, client: "bridge-inspector auto-respond")
            defer { session.close() }
            var responder = RuleResponder(book: book, session: session)
            let loop = FrameLoop(session: session)
            defer { loop.cancel() }
            StandardStreams.printError("answering with \(book.rules.count) rule\(book.rules.count == 1 ? "" : "s") on \(ScriptOutput.safe(session.hello.host.name)) (Ctrl-C to stop):")
            for rule in book.rules { StandardStreams.printError("  " + RuleResponder.describe(rule)) }

            let snapshot = try session.firstSnapshot()
            responder.consider(snapshot.state.pending)
            var end = FrameLoop.End.finished
            if !responder.isDone {
                end = try loop.run(timeout: timeout, nextWake: { responder.secondsToNextDue }) { frame in
                    if let frame { responder.handle(frame) }
                    try responder.answerDue()
                    return responder.isDone
                }
            }
            book = responder.book
            StandardStreams.printError("rules at exit:")
            for rule in book.rules { StandardStreams.printError("  " + RuleResponder.describe(rule)) }
            switch end {
            case .finished, .interrupted:
                return
            case .timedOut:
                if !book.hasUnlimitedRule {
                    throw ScriptFailure.timeout("the rules were not used up within \(timeout ?? 0) seconds (\(book.totalHits) requests answered)")
                }
            case .hostGone:
                if !book.hasUnlimitedRule {
                    throw ScriptFailure.hostWentAway(session.socketPath, while: "before the rules were used up (\(book.totalHits) requests answered)")
                }
                StandardStreams.printError("the host at \(session.socketPath) went away; stopping")
            }
        }
    }
}

/// Applies a rule book to the pending requests of one session: matches them, waits out each
/// rule's delay, answers through `respond`, and gives the hit back when the host refuses.
struct RuleResponder {
    private(set) var book: ReplyRuleBook
    let session: InspectorSession
    var timeFormat = TimeFormat()

    /// A matched request waiting for its rule's delay.
    private struct Scheduled {
        var due: Date
        var request: WirePending
        var ruleID: Int
    }

    private var scheduled: [Scheduled] = []
    /// Requests already matched (answered or scheduled), so a resynchronising snapshot does not
    /// answer them twice.
    private var seen: Set<String> = []

    init(book: ReplyRuleBook, session: InspectorSession) {
        self.book = book
        self.session = session
    }

    /// Whether nothing more will be answered: every rule used up and nothing scheduled.
    var isDone: Bool { scheduled.isEmpty && book.isUsedUp }

    /// Seconds until the next scheduled answer is due (a quarter of a second when none is).
    var secondsToNextDue: Double {
        guard let next = scheduled.map(\.due).min() else { return 0.25 }
        return max(0, next.timeIntervalSinceNow)
    }

    /// Matches pending requests (oldest first) against the rules.
    mutating func consider(_ pending: [WirePending]) {
        for request in pending.sorted(by: { $0.since < $1.since }) where !seen.contains(request.correlationId) {
            guard let (rule, delayMs) = book.match(request) else { continue }
            seen.insert(request.correlationId)
            scheduled.append(Scheduled(due: Date().addingTimeInterval(Double(delayMs) / 1000), request: request, ruleID: rule.id))
        }
    }

    mutating func handle(_ frame: AgentFrame) {
        switch frame {
        case .event(_, .pendingAdded(let request)):
            consider([request])
        case .event(_, .pendingRemoved(let id)):
            // Answered by someone else while its rule's delay ran: the rule still owes an answer.
            if let index = scheduled.firstIndex(where: { $0.request.correlationId == id }) {
                let dropped = scheduled.remove(at: index)
                book.giveBack(ruleID: dropped.ruleID)
                StandardStreams.printError("request \(ScriptOutput.safe(id)) was answered by someone else before its rule's delay ended; not counted")
            }
        case .snapshot(_, let state):
            consider(state.pending)
        default:
            break
        }
    }

    /// Answers every request whose delay has passed.
    mutating func answerDue() throws {
        let now = Date()
        while let index = scheduled.firstIndex(where: { $0.due <= now }) {
            let item = scheduled.remove(at: index)
            guard let rule = book.rule(id: item.ruleID) else { continue }
            let reply = try session.run(.respond(rule.command(answering: item.request.correlationId)))
            switch reply.result {
            case .success:
                let count = rule.times.map { "\(rule.hits) of \($0)" } ?? "\(rule.hits)"
                StandardStreams.printOut(
                    "\(timeFormat.clock(Date().timeIntervalSince1970 * 1000))  \(ScriptOutput.safe(rule.name))  answered \(ScriptOutput.safe(item.request.action)) \(ScriptOutput.safe(item.request.correlationId)) with \(rule.response.status.rawValue)  (hit \(count))")
            case .failure(let refusal):
                book.giveBack(ruleID: rule.id)
                StandardStreams.printError(
                    "\(ScriptOutput.safe(rule.name)): the host refused to answer \(ScriptOutput.safe(item.request.correlationId)): \(ScriptOutput.safe(refusal.message)) (\(refusal.code)); not counted")
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
