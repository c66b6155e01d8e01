import ArgumentParser
import InspectorClient
import InspectorProtocol

/// `bridge-inspector breakpoints`: every inspector's breakpoints.
struct BreakpointsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "breakpoints",
        abstract: "List the breakpoints set on a host (by any inspector).",
        discussion: """
            Prints one line per breakpoint: its id, the inspector that set it, how many messages \
            it has held, how long it holds one, and its filter. --json prints a JSON array of the \
            Breakpoint records of docs/inspector-protocol.md.

            There is no command to remove a breakpoint from here: a breakpoint belongs to the \
            inspector that set it and goes when that inspector does (releasing what it holds). \
            Stop the `bridge-inspector break` that set it (Ctrl-C), or remove it in the \
            interactive inspector that set it.

            Examples:
              bridge-inspector breakpoints
              bridge-inspector breakpoints --json
            """)

    @OptionGroup var selection: HostSelection

    @Flag(help: "Print a JSON array instead of text.")
    var json = false

    func run() throws {
        try Script.run {
            let state = try selection.snapshot(client: "bridge-inspector breakpoints")
            let breakpoints = state.breakpoints ?? []
            if json {
                StandardStreams.printJSON(try ScriptOutput.json(breakpoints))
            } else if breakpoints.isEmpty {
                StandardStreams.printError(state.breakpoints == nil ? "this host's agent predates breakpoints" : "no breakpoints")
            } else {
                for breakpoint in breakpoints {
                    let hits = breakpoint.hits == 1 ? "1 hit" : "\(breakpoint.hits) hits"
                    StandardStreams.printOut(
                        [breakpoint.id, ScriptOutput.safe(breakpoint.owner), hits, "holds \(TimeFormat.duration(ms: breakpoint.holdSeconds * 1000))", ScriptOutput.safe(breakpoint.filter)]
                            .joined(separator: "  "))
                }
            }
        }
    }
}
