import ArgumentParser
import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol

/// `--socket PATH` / `--host NAME`: which host a scripting subcommand talks to. Without either,
/// `$BRIDGE_INSPECTOR_SOCKET`, else the only running host.
struct HostSelection: ParsableArguments {
    @Option(name: .customLong("socket"), help: ArgumentHelp(
        "The host's socket. Default: $BRIDGE_INSPECTOR_SOCKET, else the only running host.", valueName: "path"), completion: Completions.anyFile)
    var socket: String?

    @Option(name: .customLong("host"), help: ArgumentHelp(
        "The running host with this name, or NAME.PID (as `bridge-inspector hosts` lists them). `tail --follow` and `record` follow a NAME across runs of the app.",
        valueName: "name"), completion: Completions.hostNames)
    var host: String?

    @OptionGroup var tcp: TCPSelection

    /// How long to wait for the host to greet us.
    static let connectTimeout = 5.0

    /// The host to attach to: `--connect` over TCP, else the socket; throws ``ScriptError``
    /// (exit 3, or 64 when several hosts run or the options contradict each other).
    func endpoint() throws -> InspectorEndpoint {
        do {
            if let endpoint = try tcp.endpoint(socket: socket, host: host) { return endpoint }
            return .unixSocket(path: try HostDirectory().resolveSocket(option: socket, hostName: host))
        } catch {
            throw Script.classify(error)
        }
    }

    /// A session with the chosen host.
    func session(subscribe: Bool, client: String) throws -> InspectorSession {
        let endpoint = try endpoint()
        return try InspectorSession(endpoint: endpoint, subscribe: subscribe, clientName: client, timeout: Self.connectTimeout)
    }
}

extension HostSelection {
    /// The chosen host's state now, from a session opened and closed for it.
    func snapshot(client: String) throws -> WireState {
        let session = try session(subscribe: false, client: client)
        defer { session.close() }
        _ = try session.perform(.snapshot, hint: nil)
        return try session.firstSnapshot().state
    }
}

extension InspectorSession {
    /// Waits for the snapshot a subscribed session receives first (bounded).
    /// How long a scripting command waits for the host's reply, in seconds.
    static let replyTimeout: Double = 30

    func firstSnapshot(timeout: Double = 15) throws -> (seq: Int, state: WireState) {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else {
                throw ScriptError.timeout("the host at \(socketPath) sent no snapshot within \(Int(timeout)) seconds", hint: "is the host stuck? check it with `bridge-inspector hosts`")
            }
            if case .snapshot(let seq, let state)? = try nextFrame(timeout: remaining) { return (seq, state) }
        }
    }

    /// Runs `command` and returns its reply's result and sent messages; a refusal becomes exit 2
    /// with the host's message and `hint`.
    ///
    /// Waits up to ``replyTimeout`` for the reply: a command whose answer carries an image (a
    /// slot completed with a camera-sized PNG) takes the host seconds on a busy machine, and a
    /// command reported as timed out that then happens anyway misleads a script.
    func perform(_ command: InspectorCommand, hint: String?) throws -> (result: JSONValue, sent: [BridgeMessage]) {
        let reply = try run(command, timeout: Self.replyTimeout)
        switch reply.result {
        case .success(let value): return (value, reply.sent)
        case .failure(let error): throw ScriptError.refused(error, hint: hint)
        }
    }
}
