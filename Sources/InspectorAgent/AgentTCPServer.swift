import BridgeCore
import Foundation
import InspectorProtocol
import SocketSupport

/// The agent's TCP side: the listener, where it listens and the gate that judges each client's
/// token.
///
/// The listener belongs to the agent's poll driver (``AgentLoop``); the gate belongs to its core
/// (``AgentCore``), which judges every TCP client's first line there before anything of the host
/// is sent.
final class AgentTCPServer {
    let listener: TCPListener
    let endpoint: InspectorTCPEndpoint
    /// The token and the pace of judgements.
    let gate: AgentAuthGate

    /// Listens as `options` say and logs the connect line (and a warning off loopback).
    init(options: InspectorTCPOptions) throws {
        let token = try options.token.map(Self.validated) ?? Self.randomToken()
        listener = try TCPListener(address: options.address, port: options.port, allowNonLoopback: options.allowNonLoopback)
        endpoint = InspectorTCPEndpoint(address: listener.address, port: listener.port, token: token)
        gate = AgentAuthGate(
            token: token, log: options.log, firstDelaySeconds: options.firstDelaySeconds,
            maximumDelaySeconds: options.maximumDelaySeconds)
        if !listener.isLoopback {
            options.log(
                "bridge-inspector: WARNING: the inspector listens on \(endpoint), which is NOT loopback: anyone on the network "
                    + "who learns the token can read the app's bridge traffic and drive the app. Use 127.0.0.1 with iproxy instead.")
        }
        options.log(endpoint.connectLine)
    }

    /// A fresh 256-bit token as 64 lowercase hex digits (from the system's secure generator).
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let word = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - word.count) + word
        }.joined()
    }

    /// `token` when it is 16...128 characters of `A-Z a-z 0-9 . _ ~ -`; throws otherwise.
    static func validated(_ token: String) throws -> String {
        let allowed = token.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == 0x2E || byte == 0x5F || byte == 0x7E || byte == 0x2D
        }
        guard allowed, (16...128).contains(token.utf8.count) else { throw InspectorTCPError.badToken(length: token.count) }
        return token
    }
}
