import ArgumentParser
import InspectorClient
import InspectorProtocol

/// `bridge-inspector faults`: every inspector's fault rules with their hit counts.
struct FaultsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "faults",
        abstract: "List the fault rules set on a host (by any inspector), with how many messages each changed.",
        discussion: """
            Prints one line per fault rule: its id, the inspector that set it, how many messages \
            it has faulted, what it does and when, and its filter. --json prints a JSON array of \
            the Fault records of docs/inspector-protocol.md.

            There is no command to remove a rule from here: a rule belongs to the inspector that \
            set it and goes when that inspector does. Stop the `bridge-inspector fault` that set \
            it (Ctrl-C).

            Examples:
              bridge-inspector faults
              bridge-inspector faults --json
            """)

    @OptionGroup var selection: HostSelection

    @Flag(help: "Print a JSON array instead of text.")
    var json = false

    func run() throws {
        try Script.run {
            let state = try selection.snapshot(client: "bridge-inspector faults")
            let faults = state.faults ?? []
            if json {
                StandardStreams.printJSON(try ScriptOutput.json(faults))
            } else if faults.isEmpty {
                StandardStreams.printError(state.faults == nil ? "this host's agent predates fault rules" : "no fault rules")
            } else {
                for fault in faults {
                    let hits = fault.hits == 1 ? "1 hit" : "\(fault.hits) hits"
                    StandardStreams.printOut(
                        [ScriptOutput.safe(fault.id), ScriptOutput.safe(fault.owner), hits, ScriptOutput.safe(fault.rule.summary), ScriptOutput.safe(fault.rule.filter)]
                            .joined(separator: "  "))
                }
            }
        }
    }
}
