import ArgumentParser
import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol

/// `bridge-inspector inject <type> <action>`: hands the host a message as if the journey had
/// posted it.
struct InjectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inject",
        abstract: "Hand the host a message as if the web journey had sent it.",
        discussion: """
            Builds a whole bridge message (version, a new correlation id inspector-<uuid> unless \
            --id gives one, type, timestamp, payload) and hands it to the host as if the journey \
            had posted it: the host routes it exactly as it would the journey's. The log shows it \
            as made by an inspector (✎ in `tail`).

            The message is printed: piped, or with --json, as one line of JSON; on a terminal as \
            one line such as `injected request device.info (id inspector-…): no data → host`. \
            For a request, inject then waits (at \
            most --timeout seconds) for the host's answer, threaded by the correlation id, and \
            prints it as a second line; a note on standard error says when the request waits in \
            pendingRequests (no handler) or its answer is held at a breakpoint. --no-wait returns \
            at once. The injected message itself is never held at a breakpoint.

            On a host seen through GBGBridge's public API (an app, or host --inspect-via \
            public-api with --serve or --webkit) the message is posted in the journey's page, \
            through window.webkit.messageHandlers.gbgBridge.postMessage, so GBGBridge takes it \
            from its own handler; this needs the page to be loaded.

            --raw TEXT hands the host TEXT exactly as it is, to see how it takes input that does \
            not decode (lastError, the malformed list); it prints nothing.

            Exit status: 0 done; 4 when no answer came within --timeout; 2 when the host refuses \
            (a host seen through GBGBridge's public API whose journey page the inspector does not have); 64 for \
            bad options.

            Examples:
              bridge-inspector inject request device.info
              bridge-inspector inject request nfc.read --data '{"documentType":"passport"}' --no-wait
              bridge-inspector inject event journey.step --data '{"step":3}'
              bridge-inspector inject --raw '{"version":"1.0","type":"request"}'
            """)

    /// The kind of message to inject.
    enum Kind: String, CaseIterable, ExpressibleByArgument {
        case request, event, response

        var type: MessageType {
            switch self {
            case .request: return .request
            case .event: return .event
            case .response: return .response
            }
        }
    }

    @OptionGroup var selection: HostSelection

    @Argument(help: ArgumentHelp("request, event or response.", valueName: "type"))
    var kind: Kind?

    @Argument(help: ArgumentHelp("The message's action, such as device.info.", valueName: "action"))
    var action: String?

    @Option(help: ArgumentHelp("The correlation id. Default: a new one, inspector-<uuid>.", valueName: "id"))
    var id: String?

    @Option(help: ArgumentHelp("The message's data: a JSON object, @FILE, or - for standard input.", valueName: "json"))
    var data: String?

    @Option(help: ArgumentHelp("A response: its status. Default: success.", valueName: "status"))
    var status: StatusArgument?

    @OptionGroup var error: ErrorOptions

    @Option(help: ArgumentHelp("Hand the host this text exactly as it is, instead of a message built from the arguments.", valueName: "text"))
    var raw: String?

    @OptionGroup var answer: AnswerWaitOptions

    func run() throws {
        try Script.run {
            let message = try makeMessage()
            let injection = try answer.injection(selection: selection, client: "bridge-inspector inject")
            try injection.run(message, raw: raw, instead: "choose another --id (or leave it out for a new one)")
        }
    }

    /// The message to inject (`nil` for --raw), with every option checked first.
    func makeMessage() throws -> BridgeMessage? {
        if let raw {
            let others = [("a type", kind != nil), ("an action", action != nil), ("--id", id != nil), ("--data", data != nil), ("--status", status != nil), ("--error options", error.isGiven)]
            if let (name, _) = others.first(where: { $0.1 }) {
                throw ScriptError.usage("--raw takes the whole text as it is, so it cannot go with \(name)", hint: "bridge-inspector inject --raw '{oops'")
            }
            guard !raw.isEmpty else { throw ScriptError.usage("--raw needs some text") }
            return nil
        }
        guard let kind, let action, !action.isEmpty else {
            throw ScriptError.usage("inject needs a type (request, event or response) and an action", hint: "for example: bridge-inspector inject request device.info")
        }
        if let id, id.isEmpty { throw ScriptError.usage("--id must not be empty") }
        var payload = BridgeMessage.Payload(action: action, data: try DataArgument.object(data))
        if kind == .response {
            let status = (status ?? .success).status
            payload.status = status
            payload.error = try error.payload(for: status)
        } else if status != nil || error.isGiven {
            throw ScriptError.usage("--status and the --error options apply only to a response", hint: "inject response ACTION --status error --error-code BUSY")
        }
        if kind != .request, answer.noWait || answer.timeout != nil {
            throw ScriptError.usage("--no-wait and --timeout apply only to a request (only a request is answered)")
        }
        return BridgeMessage(correlationId: id ?? BridgeMessage.injectedCorrelationId(), type: kind.type, payload: payload)
    }
}
