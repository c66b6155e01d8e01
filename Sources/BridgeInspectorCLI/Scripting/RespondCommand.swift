import ArgumentParser
import BridgeCore
import InspectorProtocol

/// `bridge-inspector respond <correlation-id>`: answers a pending request.
struct RespondCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "respond",
        abstract: "Answer a pending request with a response.",
        discussion: """
            Answers a request waiting in the host's pendingRequests (a request no handler takes), \
            exactly as the app would with respond(to:). What the host sent is printed on standard \
            output: on a terminal as one line (`answered web-3fa2-7 (nfc.read): success, data \
            {uid} → journey`); piped, or with --json, as the message in one line of JSON.

            --data is checked before anything is sent: malformed JSON is refused with its line \
            and column (exit 64), and so are --status error without --error-code and --status \
            success with one. If the host refuses (the request is not pending, was answered \
            already, or belongs to a handler or capture slot), its message is printed on standard \
            error and the exit status is 2.

            On an app embedding GBG's closed GBGBridge (seen through its public API: `snapshot` \
            says so), what the host sent is learnt from the page's own report, which the journey \
            can forge: the line printed is what the page reported, and a hostile page can make it \
            differ from what the app sent (docs/real-apps.md). A note on standard error says so \
            each time.

            Examples:
              bridge-inspector respond web-3fa2-7 --data '{"uid":"04A2"}'
              bridge-inspector respond web-3fa2-7 --data @answer.json
              bridge-inspector respond web-3fa2-7 --status error --error-code PERMISSION_DENIED
              id=$(bridge-inspector wait-for --filter action:nfc.read) && bridge-inspector respond "$id"
            """)

    @OptionGroup var selection: HostSelection

    @Argument(help: ArgumentHelp("The pending request's correlation id (as `snapshot` and `wait-for` print it).", valueName: "correlation-id"), completion: Completions.pendingIds)
    var correlationId: String

    @OptionGroup var response: ResponseOptions

    @Flag(name: .shortAndLong, help: "Print nothing on success.")
    var quiet = false

    @OptionGroup var output: SentOutput

    /// Said after the answer on a host seen through GBGBridge's public API.
    static let publicAPINote =
        "note: this host is seen through GBGBridge's public API: the message above is what the page reported receiving, which the page itself can forge (docs/real-apps.md)"

    static let refusalHint = "list pending requests with `bridge-inspector snapshot` (or wait for one with `bridge-inspector wait-for`)"

    func run() throws {
        try Script.run {
            guard !correlationId.isEmpty else { throw ScriptError.usage("the correlation id must not be empty") }
            let answer = try response.parts()
            let arguments = InspectorCommand.Respond(correlationId: correlationId, status: answer.status, data: answer.data, error: answer.error)
            let session = try selection.session(subscribe: false, client: "bridge-inspector respond")
            defer { session.close() }
            let (_, sent) = try session.perform(.respond(arguments), hint: Self.refusalHint)
            if !quiet { try output.print(sent) { "answered \($0.correlationId) (\($0.payload.action))" } }
            if !quiet, session.hello.host.inspectionPath == HostFeature.publicAPIPath {
                StandardStreams.printError(Self.publicAPINote)
            }
        }
    }
}
