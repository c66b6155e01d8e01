import ArgumentParser
import BridgeCore
import InspectorClient
import InspectorProtocol

/// `bridge-inspector release <hold>`: lets a held message go on, as it is or edited.
struct ReleaseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "release",
        abstract: "Let a message held at a breakpoint go on, as it is or edited (--all: everything held).",
        discussion: """
            Releases a held message (its hold id, h1, as `break` and `held` print it): a held \
            request goes on to its handler (or to pendingRequests), a held response or event \
            goes on to the journey.

            With --data the message goes on with that data instead of its own (payload.data \
            replaced as a whole); for a held response --status and the --error options change its \
            outcome too (a success turned into a failure loses its data, unless --data gives \
            some). The correlation id, type and action never change. A message held without \
            its data (too large to keep) can be released as it is, answered or dropped, not edited.

            With --all instead of a hold id, every message held now goes on as it is (any \
            inspector may release any held message); standard error then says how many were \
            released, and which had gone meanwhile (released, answered or dropped elsewhere: \
            not a failure). Nothing held is not a failure either.

            The messages the host sent because of the release are printed (a released response \
            or event; nothing for a request, whose handler answers later): on a terminal one line \
            each, piped or with --json as JSON lines. \
            Exit status: 0 done; 2 when the host refuses (not held, already released, answered or \
            dropped, or a host that cannot hold messages); 64 for bad options.

            Examples:
              bridge-inspector release h1
              bridge-inspector release h2 --data '{"model":"Edited"}'
              bridge-inspector release h3 --status error --error-code PERMISSION_DENIED
              bridge-inspector release --all
            """)

    @OptionGroup var selection: HostSelection

    @Argument(help: ArgumentHelp("The hold id (as `break` and `held` print it); not with --all.", valueName: "hold"), completion: Completions.heldIds)
    var hold: String?

    @Flag(help: "Release every message held now, as it is, instead of one.")
    var all = false

    @Option(help: ArgumentHelp("Release it with this data instead: a JSON object, @FILE, or - for standard input.", valueName: "json"))
    var data: String?

    @Option(help: ArgumentHelp("A held response: release it with this status instead. Default: its own.", valueName: "status"))
    var status: StatusArgument?

    @OptionGroup var error: ErrorOptions

    @Flag(name: .shortAndLong, help: "Print nothing on success.")
    var quiet = false

    @OptionGroup var output: SentOutput

    func run() throws {
        try Script.run {
            let edit = BridgeMessage.Edit(data: try DataArgument.object(data), status: status?.status, error: try error.payload())
            if all {
                guard hold == nil else { throw ScriptError.usage("give a hold id or --all, not both", hint: "see `bridge-inspector release --help`") }
                guard edit.isEmpty else {
                    throw ScriptError.usage("--all releases each message as it is: --data, --status and --error-… edit one", hint: "release one hold with its edit: `bridge-inspector release h1 --data …`")
                }
                return try releaseAll()
            }
            guard let hold, !hold.isEmpty else {
                throw ScriptError.usage("give the hold id to release (or --all for everything held)", hint: HeldOutput.refusalHint)
            }
            let session = try selection.session(subscribe: !edit.isEmpty, client: "bridge-inspector release")
            defer { session.close() }
            try session.require(.intercept, doing: "hold messages at breakpoints")
            var edited: BridgeMessage?
            if !edit.isEmpty {
                edited = try Self.edited(hold, with: edit, held: session.firstSnapshot().state.held ?? [])
            }
            let (_, sent) = try session.perform(.release(.init(id: hold, message: edited)), hint: HeldOutput.refusalHint)
            if !quiet { try output.print(sent) { "released \(hold): \(SentMessageSummary.lead($0))" } }
        }
    }

    /// Releases every message held now, as it is: those that went meanwhile (resolved by someone
    /// else first) are named on standard error, not failures.
    private func releaseAll() throws {
        let session = try selection.session(subscribe: true, client: "bridge-inspector release")
        defer { session.close() }
        try session.require(.intercept, doing: "hold messages at breakpoints")
        let held = try session.firstSnapshot().state.held ?? []
        var released: [String] = []
        var gone: [String] = []
        for item in held {
            do {
                let (_, sent) = try session.perform(.release(.init(id: item.id)), hint: HeldOutput.refusalHint)
                released.append(item.id)
                if !quiet { try output.print(sent) { "released \(item.id): \(SentMessageSummary.lead($0))" } }
            } catch let failure as ScriptError where failure.exitCode == ExitCodes.refused {
                gone.append(item.id)
            }
        }
        guard !quiet else { return }
        if held.isEmpty {
            StandardStreams.printError("nothing is held")
            return
        }
        var summary = "released \(released.count) of \(held.count) held: \(released.isEmpty ? "none" : released.map(ScriptOutput.safe).joined(separator: " "))"
        if !gone.isEmpty { summary += "; no longer held (resolved elsewhere first): \(gone.map(ScriptOutput.safe).joined(separator: " "))" }
        StandardStreams.printError(summary)
    }

    /// The held message `hold` with `edit` applied; a refusal (exit 2) when it is not held or was
    /// held without its data, a usage failure (64) when the edit does not fit it.
    static func edited(_ hold: String, with edit: BridgeMessage.Edit, held: [WireHeld]) throws -> BridgeMessage {
        guard let record = held.first(where: { $0.id == hold }) else {
            let ids = held.map(\.id).joined(separator: ", ")
            throw ScriptError(
                exitCode: ExitCodes.refused, message: "the host refused: \(ScriptOutput.safe(hold)) is not held (held now: \(ids.isEmpty ? "nothing" : ids)) (not_held)",
                hint: HeldOutput.refusalHint)
        }
        guard record.truncated != true else {
            throw ScriptError(
                exitCode: ExitCodes.refused, message: "\(ScriptOutput.safe(record.id)) was too large to keep whole, so it cannot be edited",
                hint: "release it as it is (`bridge-inspector release \(ScriptOutput.shellWord(record.id))`), answer it or drop it")
        }
        switch record.message.applying(edit) {
        case .success(let message): return message
        case .failure(let problem): throw ScriptError.usage("\(record.id): \(problem)", hint: "see `bridge-inspector release --help`")
        }
    }
}
