import AgentTesting
import BridgeCore
import Foundation
@testable import InspectorAgent
import Testing

/// The agent's core on the embedded driver: in-memory connections and a clock the test moves,
/// so the same rules the poll driver serves over sockets are checked without waiting.
@MainActor
@Suite("The agent's core, embedded")
struct EmbeddedAgentTests {
    @Test("greets first, takes the client's hello, sends a snapshot and answers ping, with no socket, thread or clock")
    func handshake() throws {
        let agent = try EmbeddedAgent()
        defer { agent.stop() }
        let client = agent.connect()
        #expect(try client.readFrames().map(\.kind) == ["hello"])
        client.sendHello()
        client.send(#"{"kind":"command","id":"p1","command":"ping"}"#)
        agent.run()
        let frames = try client.readFrames()
        #expect(frames.map(\.kind) == ["snapshot", "reply"])
        #expect(frames.last?.text == #"{"kind":"reply","id":"p1","ok":true,"result":{}}"#)
        #expect(agent.subscriberCount == 1)
        #expect(agent.nextDeadline == nil, "a client that is done with its handshake and reads everything has no deadline")
    }

    @Test("a host change reaches a subscribed client as the next event")
    func events() throws {
        let agent = try EmbeddedAgent()
        defer { agent.stop() }
        let client = agent.connect()
        client.sendHello()
        agent.run()
        let snapshot = try #require(try client.readFrames().last)
        agent.receive(messageText(type: "event", action: "journey.started", id: "e-1"))
        let event = try #require(try client.readFrames().first)
        #expect(event.seq == (snapshot.seq ?? -1) + 1)
        #expect(event.record?["message"]?["correlationId"]?.stringValue == "e-1")
    }

    @Test("events reach exactly the subscribed clients as clients come, subscribe or not, and go")
    func eventsReachSubscribers() throws {
        let agent = try EmbeddedAgent()
        defer { agent.stop() }
        let first = agent.connect()
        let silent = agent.connect()
        let second = agent.connect()
        let shy = agent.connect()  // never says hello
        first.sendHello()
        silent.sendHello(subscribe: false)
        second.sendHello()
        agent.run()
        for client in [first, silent, second, shy] { _ = try client.readFrames() }
        #expect(agent.subscriberCount == 2)
        #expect(agent.broadcastTargetCount == agent.subscriberCount)
        agent.receive(messageText(type: "event", action: "a", id: "e-1"))
        #expect(try first.readFrames().compactMap { $0.record?["message"]?["correlationId"]?.stringValue } == ["e-1"])
        #expect(try second.readFrames().compactMap { $0.record?["message"]?["correlationId"]?.stringValue } == ["e-1"])
        #expect(try silent.readFrames().isEmpty)
        #expect(try shy.readFrames().isEmpty)
        first.close()
        agent.run()
        #expect(agent.subscriberCount == 1)
        #expect(agent.broadcastTargetCount == agent.subscriberCount)
        let late = agent.connect()
        late.sendHello()
        agent.run()
        _ = try late.readFrames()
        agent.receive(messageText(type: "event", action: "a", id: "e-2"))
        #expect(try second.readFrames().compactMap { $0.record?["message"]?["correlationId"]?.stringValue } == ["e-2"])
        #expect(try late.readFrames().compactMap { $0.record?["message"]?["correlationId"]?.stringValue } == ["e-2"])
        #expect(try silent.readFrames().isEmpty)
        #expect(agent.subscriberCount == 2)
        #expect(agent.broadcastTargetCount == agent.subscriberCount)
    }

    @Test("a command the host carries out is answered once its reply comes back through the inbox")
    func hostCommand() async throws {
        let agent = try EmbeddedAgent()
        defer { agent.stop() }
        let client = agent.connect()
        client.sendHello(subscribe: false)
        agent.receive(messageText(action: "custom.ask", id: "q-1"))
        _ = try client.readFrames()
        client.send(#"{"kind":"command","id":"c1","command":"respond","args":{"correlationId":"q-1","status":"success","data":{}}}"#)
        agent.run()
        var reply: Frame?
        for _ in 0..<1_000 where reply == nil {
            await Task.yield()  // the command runs on the main actor, as the host's own code does
            agent.run()
            reply = try client.readFrames().first { $0.isReply }
        }
        #expect(reply?.id == "c1")
        #expect(reply?.ok == true)
        #expect(agent.journey.messages.map(\.correlationId) == ["q-1"])
    }

    @Test("a client that closes its end is forgotten")
    func peerCloses() throws {
        let agent = try EmbeddedAgent()
        defer { agent.stop() }
        let client = agent.connect()
        #expect(agent.clientCount == 1)
        client.close()
        agent.run()
        #expect(agent.clientCount == 0)
        #expect(client.isClosedByAgent)
    }

    @Test("no hello within the handshake limit: nothing at the limit itself, handshake_required just after it, then closed")
    func handshakeDeadline() throws {
        var limits = AgentLimits()
        limits.handshakeSeconds = 0.3
        let agent = try EmbeddedAgent(limits: limits)
        defer { agent.stop() }
        let client = agent.connect()
        #expect(try client.readFrames().map(\.kind) == ["hello"])
        #expect(agent.nextDeadline == agent.now.addingTimeInterval(0.3))
        agent.advanceTime(by: 0.3)
        #expect(try client.readFrames().isEmpty, "the limit is \"more than 0.3 s\"")
        #expect(!client.isClosedByAgent)
        agent.advanceTime(by: 0.001)
        let frames = try client.readFrames()
        #expect(frames.map(\.kind) == ["reply"])
        #expect(frames.last?.errorCode == "handshake_required")
        #expect(frames.last?.errorMessage == "no hello within 0.3 seconds; closing the connection")
        #expect(client.isClosedByAgent)
        #expect(agent.clientCount == 0)
    }

    @Test("a hello just inside the handshake limit is served; the limit no longer applies after it")
    func helloJustInTime() throws {
        var limits = AgentLimits()
        limits.handshakeSeconds = 5
        let agent = try EmbeddedAgent(limits: limits)
        defer { agent.stop() }
        let client = agent.connect()
        agent.advanceTime(by: 5)
        client.sendHello()
        agent.run()
        #expect(try client.readFrames().map(\.kind) == ["hello", "snapshot"])
        agent.advanceTime(by: 3_600)
        #expect(!client.isClosedByAgent)
        #expect(agent.clientCount == 1)
    }
}
