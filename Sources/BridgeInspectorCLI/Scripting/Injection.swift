import ArgumentParser
import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol

/// `--no-wait`, `--timeout` and `--quiet` of `inject` and `replay`.
struct AnswerWaitOptions: ParsableArguments {
    @Flag(name: .customLong("no-wait"), help: "A request: do not wait for the host's answer.")
    var noWait = false

    @Option(help: ArgumentHelp("A request: wait at most this many seconds for the answer. Default: 30.", valueName: "seconds"))
    var timeout: Double?

    @Flag(name: .shortAndLong, help: "Print nothing on success.")
    var quiet = false

    /// The injection these options describe; a usage failure (64) for a bad `--timeout`.
    func injection(selection: HostSelection, client: String) throws -> Injection {
        try Seconds.check(timeout, option: "--timeout")
        return Injection(selection: selection, client: client, wait: !noWait, timeout: timeout ?? Injection.defaultTimeout, quiet: quiet)
    }
}

/// Hands the host a message as the journey would post it (`inject`, `replay`), prints it, and
/// for a request waits (bounded) for the host's answer, threaded by correlation id.
struct Injection {
    let selection: HostSelection
    let client: String
    /// Wait for the answer to a request.
    let wait: Bool
    /// How long to wait for it, in seconds.
    let timeout: Double
    let quiet: Bool

    /// How long `inject` and `replay` wait for the answer by default: the web SDK's own limit
    /// for a request.
    static let defaultTimeout = 30.0

    /// Injects `message` (or `raw` text when `message` is nil) and prints what the options say.
    func run(_ message: BridgeMessage?, raw: String? = nil) throws {
        let waits = wait && message?.type == .request
        let session = try selection.session(subscribe: waits, client: client)
        let loop = FrameLoop(session: session)
        defer {
            session.close()
            loop.cancel()
        }
        try session.require(.inject, doing: "take injected messages")
        var state = LiveState()
        if waits {
            let snapshot = try session.firstSnapshot()
            state.apply(.snapshot(seq: snapshot.seq, state: snapshot.state))
        }
        _ = try session.perform(.inject(.init(message: message, raw: raw)), hint: nil)
        guard let message else { return }
        if !quiet { StandardStreams.printJSON(try ScriptOutput.json(message)) }
        guard waits else { return }

        let id = message.correlationId
        var told: Set<String> = []
        func note(_ key: String, _ text: String) {
            guard !quiet, told.insert(key).inserted else { return }
            StandardStreams.printError("note: " + text)
        }
        var answer: WireTraffic?
        let end = try loop.run(timeout: timeout) { frame in
            guard let frame else { return false }
            state.apply(frame)
            if case .event(_, .traffic(let record)) = frame, record.direction == .sent, record.message.type == .response,
                record.message.correlationId == id
            {
                answer = record
                return true
            }
            if state.pending.contains(where: { $0.correlationId == id }) {
                note("pending", "no handler took \(ScriptOutput.safe(id)); it waits in pendingRequests: answer it with `bridge-inspector respond \(ScriptOutput.shellWord(id))`")
            }
            if let held = state.held.first(where: { $0.message.correlationId == id && $0.message.type == .response }) {
                note(held.id, "the answer to \(ScriptOutput.safe(id)) is held at breakpoint \(ScriptOutput.safe(held.breakpoint)) as \(held.id): waiting until it is released")
            }
            return false
        }
        switch end {
        case .finished:
            guard let answer, !quiet else { return }
            if let bytes = answer.messageJSON, !bytes.contains(UInt8(ascii: "\n")) {
                StandardStreams.printJSON(String(decoding: bytes, as: UTF8.self))
            } else {
                StandardStreams.printJSON(try ScriptOutput.json(answer.message))
            }
        case .timedOut:
            throw ScriptError.timeout(
                "the host did not answer \(ScriptOutput.safe(id)) within \(TimeFormat.duration(ms: timeout * 1000))",
                hint: "see it with `bridge-inspector snapshot`; --timeout waits longer, --no-wait not at all")
        case .interrupted:
            return
        case .hostGone:
            throw ScriptError.hostWentAway(session.socketPath, while: "before it answered \(ScriptOutput.safe(id))")
        }
    }
}
