#if canImport(Glibc)
import AgentTesting
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BridgeCore
import Foundation
@testable import InspectorAgent
import SocketSupport
import TestSupport
import Testing

/// A fixed instant used as request timestamps.
let fixedMillis = LiveAgent.fixedMillis

/// The text of a message from the journey.
func messageText(type: String = "request", action: String, id: String, data: String = "{}") -> String {
    LiveAgent.messageText(type: type, action: action, id: id, data: data)
}

/// A host on the main actor with a recording journey and a running agent on a private socket
/// (TestSupport's `LiveAgent`, shared with the client's tests).
typealias Fixture = LiveAgent

extension LiveAgent {
    /// A connected raw client that has done the handshake.
    func client(subscribe: Bool = true) async throws -> (client: RawClient, hello: Frame, snapshot: Frame?) {
        let client = try RawClient.connect(socketPath)
        let (hello, snapshot) = try await client.handshake(subscribe: subscribe)
        return (client, hello, snapshot)
    }
}

/// Events among `frames`.
func events(_ frames: [Frame]) -> [Frame] { frames.filter(\.isEvent) }

/// Events of one type among `frames`.
func events(_ frames: [Frame], type: String) -> [Frame] { frames.filter { $0.isEvent && $0.eventType == type } }

