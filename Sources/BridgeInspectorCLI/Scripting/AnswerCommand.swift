import ArgumentParser
import InspectorClient
import InspectorProtocol

/// `bridge-inspector answer <hold>`: answers a held request itself; its handler never runs.
struct AnswerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "answer",
        abstract: "Answer a request held at a breakpoint yourself (its handler never runs).",
        discussion: """
            Sends the journey a response to a held request (its hold id, h1, as `break` and \
            `held` print it), with the options of `respond`; the request never reaches its \
            handler. Only a held request can be answered: a held response or event is released \
            or dropped.

            The response the host sent is printed on standard output: on a terminal as one \
            line, piped or with --json as one line of JSON. \
            Exit status: 0 done; 2 when the host refuses (not held, already resolved, not a \
            request, or a host that cannot hold messages); 64 for bad options.

            Examples:
              bridge-inspector answer h1 --data '{"uid":"04A2"}'
              bridge-inspector answer h1 --status error --error-code BUSY
            """)

    @OptionGroup var selection: HostSelection

    @Argument(help: ArgumentHelp("The hold id (as `break` and `held` print it).", valueName: "hold"), completion: Completions.heldIds)
    var hold: String

    @OptionGroup var response: ResponseOptions

    @Flag(name: .shortAndLong, help: "Print nothing on success.")
    var quiet = false

    @OptionGroup var output: SentOutput

    func run() throws {
        try Script.run {
            guard !hold.isEmpty else { throw ScriptError.usage("the hold id must not be empty", hint: HeldOutput.refusalHint) }
            let answer = try response.parts()
            let session = try selection.session(subscribe: false, client: "bridge-inspector answer")
            defer { session.close() }
            try session.require(.intercept, doing: "hold messages at breakpoints")
            let (_, sent) = try session.perform(.answer(.init(id: hold, status: answer.status, data: answer.data, error: answer.error)), hint: HeldOutput.refusalHint)
            if !quiet { try output.print(sent) { "answered held \(hold): \(SentMessageSummary.lead($0))" } }
        }
    }
}
