import ArgumentParser
import InspectorProtocol

/// `bridge-inspector drop <hold>`: a held message is never delivered.
struct DropCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drop",
        abstract: "Drop a message held at a breakpoint: it is never delivered.",
        discussion: """
            Drops a held message (its hold id, h1, as `break` and `held` print it): a dropped \
            request never reaches its handler and gets no answer (the journey's own timeout \
            applies); a dropped response or event never reaches the journey. Prints nothing. \
            Exit status: 0 done; 2 when the host refuses (not held, already resolved, or a host \
            that cannot hold messages).

            Example:
              bridge-inspector drop h1
            """)

    @OptionGroup var selection: HostSelection

    @Argument(help: ArgumentHelp("The hold id (as `break` and `held` print it).", valueName: "hold"), completion: Completions.heldIds)
    var hold: String

    func run() throws {
        try Script.run {
            guard !hold.isEmpty else { throw ScriptError.usage("the hold id must not be empty", hint: HeldOutput.refusalHint) }
            let session = try selection.session(subscribe: false, client: "bridge-inspector drop")
            defer { session.close() }
            try session.require(.intercept, doing: "hold messages at breakpoints")
            _ = try session.perform(.drop(.init(id: hold)), hint: HeldOutput.refusalHint)
        }
    }
}
