import ArgumentParser
import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol

/// `bridge-inspector replay <seq>`: hands the host a logged journey message again.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Send a logged journey message to the host again, as the journey would.",
        discussion: """
            Takes a message the host received (by its sequence number, as `tail --json` and \
            `snapshot --json` show it in "seq") and injects it again, as `inject` does: a new \
            correlation id (<original>-replay-<4 hex digits>) unless --same-id, today's \
            timestamp, the rest as it was logged. For a request it waits for the host's answer \
            and prints it, as `inject` does.

            Only messages from the journey (received) can be replayed: replaying what the host \
            sent would not be the journey speaking. A message logged without its data (too large \
            to forward) cannot be replayed either.

            With --same-id, a request whose id the host still has outstanding (pending, or in a \
            capture slot) is not sent: the host would refuse the duplicate and never route it.

            To send every journey message of a recorded session again, in order, use \
            `bridge-inspector rerun RECORDING`.

            Exit status: 0 done; 2 when the message is not in the host's log, was sent by the \
            host, or the host refuses (a --same-id request still outstanding); 4 when no answer came within --timeout; 64 for bad options.

            Examples:
              bridge-inspector replay 12
              bridge-inspector replay 12 --same-id --no-wait
              seq=$(bridge-inspector tail --json --filter 'action:device.info dir:in' | tail -1 | jq .seq)
              bridge-inspector replay "$seq"
            """)

    @OptionGroup var selection: HostSelection

    @Argument(help: ArgumentHelp("The logged message's sequence number (seq).", valueName: "seq"))
    var seq: Int

    @Flag(name: .customLong("same-id"), help: "Keep the original correlation id (the host refuses it while that request is still outstanding).")
    var sameId = false

    @OptionGroup var answer: AnswerWaitOptions

    func run() throws {
        try Script.run {
            let injection = try answer.injection(selection: selection, client: "bridge-inspector replay")
            let state = try selection.snapshot(client: "bridge-inspector replay")
            let original = try Self.original(seq, in: state.messages)
            try injection.run(original.replayed(keepingId: sameId), instead: "replay it without --same-id (it gets a new id)")
        }
    }

    /// The journey message logged as `seq`; a refusal (exit 2) that says why it cannot be replayed.
    static func original(_ seq: Int, in log: [WireTraffic]) throws -> BridgeMessage {
        guard let record = log.first(where: { $0.seq == seq }) else {
            let range = log.first.map { "the log holds seq \($0.seq) to \(log.last?.seq ?? $0.seq)" } ?? "the log is empty"
            throw ScriptError(
                exitCode: ExitCodes.refused, message: "no message with seq \(seq) in the host's log (\(range))",
                hint: "find the seq with `bridge-inspector tail --json` (malformed input cannot be replayed: inject --raw sends text)")
        }
        guard record.direction == .received else {
            throw ScriptError(
                exitCode: ExitCodes.refused,
                message: "seq \(seq) is a \(record.message.type.rawValue) the host sent (\(ScriptOutput.safe(record.message.payload.action))); replay sends as the journey, so only received messages can be replayed",
                hint: "to send a host event, use `bridge-inspector event`; to answer a request, `bridge-inspector respond`")
        }
        guard record.truncated != true else {
            throw ScriptError(
                exitCode: ExitCodes.refused, message: "seq \(seq) was too large to forward, so the log holds only its envelope",
                hint: "rebuild it with `bridge-inspector inject` and --data @FILE")
        }
        return record.message
    }
}
