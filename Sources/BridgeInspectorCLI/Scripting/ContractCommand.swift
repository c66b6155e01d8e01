import ArgumentParser
import InspectorClient

/// `bridge-inspector contract [--json]`: GBGBridge's documented contract as the inspector
/// checks it, every rule with its page and whether GBG documents it or this project chose it.
struct ContractCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contract",
        abstract: "List the rules of GBGBridge's documented contract that every message is checked against.",
        discussion: """
            Every message, in either direction, is checked against these rules as it enters an \
            inspector's log: a message that breaks one is marked in the log (⚑ breaks GBG's \
            contract, found by the filter is:lint), counted by the doctor's `contract` check, \
            and summed up by `open --check` for a recording.

            Each rule has a stable id (family.name), the directions it applies to \
            (journey-to-host, host-to-journey), one line saying what it wants, the page it \
            comes from (a GBG page and its heading) and a mark: documented (a GBG page says \
            it) or choice (this project's choice where GBG's pages are silent, written down in \
            docs/bridge-protocol.md). docs/gbgbridge-contract.md explains each rule and how to \
            read a violation.

            --json prints one JSON object: {"version", "rules": [{"id", "directions", \
            "statement", "source", "basis"}]}; basis is "documented" or "choice".

            Examples:
              bridge-inspector contract
              bridge-inspector contract --json | jq -r '.rules[] | select(.basis == "documented") | .id'
            """)

    @Flag(help: "Print the contract as JSON.")
    var json = false

    func run() {
        StandardStreams.printOut(json ? GBGBridgeContract.json() : GBGBridgeContract.text())
    }
}
