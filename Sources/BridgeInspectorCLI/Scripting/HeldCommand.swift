import ArgumentParser
import Foundation
import InspectorClient
import InspectorProtocol

/// `bridge-inspector held`: the messages held at breakpoints now.
struct HeldCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "held",
        abstract: "List the messages held at breakpoints.",
        discussion: """
            Prints one line per message held at a breakpoint (any inspector's), oldest first: \
            the hold id that release, answer and drop take, IN (a request from the journey, not \
            yet routed) or OUT (a response or event from the host, not yet delivered), the type, \
            action, correlation id, the breakpoint, how long it has been held and when it is \
            released as it is. Nothing held: nothing on standard output, a note on standard error. \
            --json prints a JSON array of the Held records of docs/inspector-protocol.md.

            Examples:
              bridge-inspector held
              bridge-inspector held --json | jq -r '.[0].id'
            """)

    @OptionGroup var selection: HostSelection

    @Flag(help: "Print a JSON array instead of text.")
    var json = false

    func run() throws {
        try Script.run {
            let state = try selection.snapshot(client: "bridge-inspector held")
            let held = state.held ?? []
            if json {
                StandardStreams.printJSON(try ScriptOutput.json(held))
            } else if held.isEmpty {
                StandardStreams.printError(state.held == nil ? "this host's agent predates breakpoints: nothing can be held" : "nothing is held")
            } else {
                let now = HeldOutput.nowMs
                for record in held { StandardStreams.printOut(HeldOutput.line(record, now: now)) }
            }
        }
    }
}
