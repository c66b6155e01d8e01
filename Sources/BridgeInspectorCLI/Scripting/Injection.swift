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

    @OptionGroup var output: SentOutput

    /// The injection these options describe; a usage failure (64) for a bad `--timeout`.
    func injection(selection: HostSelection, client: String) throws -> Injection {
        try Seconds.check(timeout, option: "--timeout")
        return Injection(
            selection: selection, client: client, wait: !noWait, timeout: timeout ?? Injection.defaultTimeout, quiet: quiet, output: output)
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
    /// JSON lines or, on a terminal, one line per message.
    let output: SentOutput

    /// How long `inject` and `replay` wait for the answer by default: the web SDK's own limit
    /// for a request.
    static let defaultTimeout = 30.0

    /// Injects `message` (or `raw` text when `message` is nil) and prints what the options say.
    ///
    /// A request whose correlation id the host still has outstanding is refused (exit 2) rather
    /// than sent, and one the host refuses as a duplicate all the same (its `lastError` says
    /// so) is reported as refused: the host never routes a duplicate, so nothing would answer
    /// it. `instead` says what the person can do about that (the command's own options).
    func run(_ message: BridgeMessage?, raw: String? = nil, instead: String = "give it another correlation id") throws {
        let isRequest = message?.type == .request
        let waits = wait && isRequest
        // A request needs the host's state before (is its id outstanding?) and its events after
        // (did the host refuse it?): one subscription gives both, one snapshot and then events.
        let session = try selection.session(subscribe: isRequest, client: client)
        let loop = FrameLoop(session: session)
        defer {
            session.close()
            loop.cancel()
        }
        try session.require(.inject, doing: "take injected messages")
        var state = LiveState()
        var before = 0
        if let message, isRequest {
            let snapshot = try session.firstSnapshot()
            state.apply(.snapshot(seq: snapshot.seq, state: snapshot.state))
            before = snapshot.seq
            if let holder = Self.outstanding(message.correlationId, in: snapshot.state) {
                throw Self.duplicate(message.correlationId, holder: holder, instead: instead)
            }
        }
        _ = try session.perform(.inject(.init(message: message, raw: raw)), hint: nil)
        guard let message else { return }
        let id = message.correlationId
        if isRequest, !waits {
            // Events caused by a command come before its reply (docs/inspector-protocol.md), so
            // the host's refusal, if any, is among the frames already read.
            while let frame = try session.nextFrame(timeout: 0) { state.apply(frame) }
            if Self.refusedAsDuplicate(id, lastError: state.lastError, after: before) {
                throw Self.duplicate(id, holder: nil, instead: instead)
            }
        }
        if !quiet { try output.print([message], direction: .received) { "injected " + SentMessageSummary.lead($0) } }
        guard waits else { return }

        var told: Set<String> = []
        func note(_ key: String, _ text: String) {
            guard !quiet, told.insert(key).inserted else { return }
            StandardStreams.printError("note: " + text)
        }
        var answer: WireTraffic?
        let end = try loop.run(timeout: timeout) { frame in
            guard let frame else { return false }
            state.apply(frame)
            if Self.refusedAsDuplicate(id, lastError: state.lastError, after: before) { return true }
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
            if Self.refusedAsDuplicate(id, lastError: state.lastError, after: before) {
                throw Self.duplicate(id, holder: nil, instead: instead)
            }
            guard let answer, !quiet else { return }
            if !output.printsJSON {
                try output.print([answer.message]) { "the host answered \($0.correlationId)" }
            } else if let bytes = answer.messageJSON, !bytes.contains(UInt8(ascii: "\n")) {
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

    /// What holds `id` in the host now, so that a request with that id would be refused as a
    /// duplicate: `pendingRequests`, or a capture slot. `nil` when nothing does.
    static func outstanding(_ id: String, in state: WireState) -> String? {
        if state.pending.contains(where: { $0.correlationId == id }) { return "it waits in pendingRequests" }
        if let slot = state.slots.first(where: { $0.activeRequest == id }) { return "it holds the \(ScriptOutput.safe(slot.action)) slot" }
        return nil
    }

    /// Whether `lastError`, set after the event `after`, is the host refusing `id` as a duplicate.
    static func refusedAsDuplicate(_ id: String, lastError: WireError?, after seq: Int) -> Bool {
        guard let lastError, lastError.seq > seq, let text = lastError.text else { return false }
        return text.hasPrefix("Duplicate correlationId '\(id)'")
    }

    /// The refusal (exit 2) of a request whose id the host has outstanding.
    static func duplicate(_ id: String, holder: String?, instead: String) -> ScriptError {
        let why = holder.map { "a request with this correlation id is still outstanding (\($0))" }
            ?? "the host refused it as a duplicate: a request with this correlation id is still outstanding"
        return ScriptError(
            exitCode: ExitCodes.refused,
            message: "not sent: \(ScriptOutput.safe(id)): \(why), and the host never routes a second request with the same id",
            hint: "\(instead), or answer the outstanding one first (`bridge-inspector respond \(ScriptOutput.shellWord(id))`)")
    }
}
