import ArgumentParser
import BridgeCore
import InspectorClient

/// `--json` of the commands that send something and print what went (`slot`, `respond`,
/// `event`, `answer`, `release`; `inject` and `replay` through ``AnswerWaitOptions``), and how
/// they print it.
///
/// On a terminal a person reads one line per message (``SentMessageSummary``: the status, an
/// image's type, size and weight, an error's code), not the message's JSON, whose Base64 image
/// alone can fill the scrollback. Piped, or with `--json`, each message is printed as one line of
/// JSON exactly as before, so scripts that read it keep working.
struct SentOutput: ParsableArguments {
    @Flag(help: "Print each message sent as one line of JSON even on a terminal (piped, it always is).")
    var json = false

    /// Whether messages are printed as JSON: asked for, or standard output is not a terminal.
    var printsJSON: Bool { json || !ScriptOutput.stdoutIsTerminal }

    /// Prints `messages`: JSON lines, or on a terminal one summary line each, led by `lead`
    /// (`completed document slot doc-1`) and ending in where it went (`direction`).
    func print(_ messages: [BridgeMessage], direction: TrafficRecord.Direction = .sent, lead: (BridgeMessage) -> String) throws {
        for message in messages {
            if printsJSON {
                StandardStreams.printJSON(try ScriptOutput.json(message))
            } else {
                StandardStreams.printOut(SentMessageSummary.line(message, lead: ScriptOutput.safe(lead(message)), direction: direction))
            }
        }
    }
}
