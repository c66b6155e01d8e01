import ArgumentParser
import InspectorProtocol

/// `bridge-inspector event <name>`: sends a host event to the journey.
struct EventCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "event",
        abstract: "Send a host event to the web journey.",
        discussion: """
            Sends an event from the host to the journey, as the app would with send(event:data:). \
            What the host sent is printed on standard output: on a terminal as one line (`sent \
            event host.ping: no data → journey`); piped, or with --json, as the message in one \
            line of JSON.

            Examples:
              bridge-inspector event host.ping
              bridge-inspector event journey.configure --data '{"locale":"en-GB"}'
            """)

    @OptionGroup var selection: HostSelection

    @Argument(help: ArgumentHelp("The event's action, such as host.ping.", valueName: "name"))
    var name: String

    @Option(help: ArgumentHelp("The event data: a JSON object, @FILE, or - for standard input.", valueName: "json"))
    var data: String?

    @Flag(name: .shortAndLong, help: "Print nothing on success.")
    var quiet = false

    @OptionGroup var output: SentOutput

    func run() throws {
        try Script.run {
            guard !name.isEmpty else { throw ScriptError.usage("the event name must not be empty", hint: "for example host.ping") }
            let arguments = InspectorCommand.SendEvent(name: name, data: try DataArgument.object(data))
            let session = try selection.session(subscribe: false, client: "bridge-inspector event")
            defer { session.close() }
            let (_, sent) = try session.perform(.sendEvent(arguments), hint: nil)
            if !quiet { try output.print(sent) { "sent event \($0.payload.action)" } }
        }
    }
}
