import AgentTesting
import BridgeCore
import Foundation
import GBGBridgeInspector
import InspectorProtocol
import TestSupport
import Testing

/// The adapter hands the agent a received message as a value and a plain sent report as its text;
/// the agent's thread encodes and reads them. What an inspector sees must not change: each record
/// in its place among the adapter's other changes, with the bytes it had, and a received message
/// GBGBridge's value gives that no JSON can carry left out, as before.
@MainActor
@Suite("GBGBridge adapter: records handed to the agent keep their place and bytes")
struct AdapterHandOffTests {
    /// A short name for each event, in order.
    static func names(_ events: [WireEvent]) -> [String] {
        events.compactMap { event in
            switch event {
            case .traffic(let record): return "\(record.direction.rawValue) \(record.message.correlationId)"
            case .pendingAdded(let pending): return "pendingAdded \(pending.correlationId)"
            case .pendingRemoved(let id): return "pendingRemoved \(id)"
            default: return nil
            }
        }
    }

    @Test("a request that goes pending and its answer: each record before the pending change it causes, with the bytes it had")
    func orderAmongChanges() async throws {
        let app = try AppUnderTest(answerUnhandled: false)
        defer { app.stop() }
        let session = try await app.subscribedSession()
        defer { session.close() }
        app.receive(request("nfc.read", id: "p1"))
        app.host.respond(to: "p1", status: .success, data: ["text": .string("é \u{2028} \"q\"")])
        app.receive(event("journey.step", id: "e1"))
        let events = try await session.events { events in
            Self.names(events).contains("received e1")
        }
        #expect(Self.names(events) == ["received p1", "pendingAdded p1", "sent p1", "pendingRemoved p1", "received e1"])
        let sent = try #require(events.lazy.compactMap { if case .traffic(let record) = $0, record.direction == .sent { record } else { nil } }.first)
        // The sent record is the delivery, byte for byte; the received one is BridgeCore's encoding.
        #expect(sent.bytes == app.journey.deliveries.last?.json.count)
        let received = try #require(events.lazy.compactMap { if case .traffic(let record) = $0, record.direction == .received { record } else { nil } }.first)
        #expect(received.bytes == (try BridgeMessageCodec().encode(received.message)).count)
    }

    @Test("a received message no JSON can carry is not logged, as before; the messages around it are, in order")
    func unencodableReceivedMessage() async throws {
        let app = try AppUnderTest()
        defer { app.stop() }
        let session = try await app.subscribedSession()
        defer { session.close() }
        app.receive(event("journey.step", id: "e1"))
        app.adapter.didReceive(BridgeMessage(
            correlationId: "nan", type: .event, timestamp: 1, payload: .init(action: "journey.step", data: ["x": .number(.nan)])))
        app.receive(event("journey.step", id: "e2"))
        let events = try await session.events { events in
            Self.names(events).contains("received e2")
        }
        #expect(Self.names(events) == ["received e1", "received e2"])
    }
}
