import AgentTesting
import BridgeCore
import Foundation
@testable import InspectorAgent
import Testing

/// Lifecycle steps through the agent (issue 29, item 2): `journey detach|attach|reload` through a
/// journey control, and the bare `host.ready` the host sends as its own.
@MainActor
@Suite("Lifecycle steps through the agent")
struct JourneyLifecycleTests {
    @Test("detach: a host send fails with WebView not attached and every client sees the detach; attach gives delivery back")
    func detachAndAttach() async throws {
        let agent = try EmbeddedAgent(journeyControl: { BridgeHostJourneyControl(host: $0) })
        defer { agent.stop() }
        let client = agent.connect()
        client.sendHello()
        agent.run()
        _ = try client.readFrames()

        let detached = try await agent.perform(#""journey","args":{"step":"detach"}"#, id: "d1", client: client)
        #expect(detached.contains { $0.eventType == "journey" && $0.json["event"]?["attached"]?.boolValue == false })
        #expect(detached.last { $0.isReply }?.ok == true)
        #expect(agent.host.isJourneyAttached == false)

        let sent = try await agent.perform(#""sendEvent","args":{"name":"host.background"}"#, id: "e1", client: client)
        #expect(agent.journey.messages.isEmpty, "nothing reaches the journey while detached")
        let lastError = try #require(agent.host.lastError)
        #expect(lastError.hasPrefix("WebView not attached"))
        #expect(sent.contains { $0.eventType == "lastError" })

        let attached = try await agent.perform(#""journey","args":{"step":"attach"}"#, id: "a1", client: client)
        #expect(attached.contains { $0.eventType == "journey" && $0.json["event"]?["attached"]?.boolValue == true })
        _ = try await agent.perform(#""sendEvent","args":{"name":"host.foreground"}"#, id: "e2", client: client)
        #expect(agent.journey.messages.map(\.payload.action) == ["host.foreground"], "the same transport is back")
    }

    @Test("a BridgeHost served without a journey control detaches by itself but refuses reload; a control's reload runs")
    func reloadNeedsTheEmbedder() async throws {
        let bare = try EmbeddedAgent()
        defer { bare.stop() }
        let client = bare.connect()
        let hello = try #require(try client.readFrames().first)
        #expect(hello.json["host"]?["unsupported"] == nil, "a native host offers the journey command")
        client.sendHello(subscribe: false)
        bare.run()
        let reload = try await bare.perform(#""journey","args":{"step":"reload"}"#, id: "r1", client: client)
        #expect(reload.last { $0.isReply }?.errorCode == "unsupported")
        #expect(reload.last { $0.isReply }?.errorMessage?.contains("cannot reload") == true)
        let detach = try await bare.perform(#""journey","args":{"step":"detach"}"#, id: "d1", client: client)
        #expect(detach.last { $0.isReply }?.ok == true)
        #expect(bare.host.isJourneyAttached == false)

        var reloads = 0
        let controlled = try EmbeddedAgent(journeyControl: { host in
            BridgeHostJourneyControl(host: host) { () throws(JourneyControlRefusal) in
                reloads += 1
                return "reloaded"
            }
        })
        defer { controlled.stop() }
        let other = controlled.connect()
        other.sendHello(subscribe: false)
        controlled.run()
        let reloaded = try await controlled.perform(#""journey","args":{"step":"reload"}"#, id: "r2", client: other)
        #expect(reloaded.last { $0.isReply }?.json["result"]?["done"]?.stringValue == "reloaded")
        #expect(reloads == 1)
    }

    @Test("attach with nothing detached changes nothing; attach after the inspector detached nothing is refused")
    func attachWithoutDetach() async throws {
        let agent = try EmbeddedAgent()
        defer { agent.stop() }
        let client = agent.connect()
        client.sendHello(subscribe: false)
        agent.run()
        let attach = try await agent.perform(#""journey","args":{"step":"attach"}"#, id: "a1", client: client)
        #expect(attach.last { $0.isReply }?.json["result"]?["done"]?.stringValue?.contains("already attached") == true)
        agent.host.detach()  // the app's own detach: the inspector has no web view to give back
        let refused = try await agent.perform(#""journey","args":{"step":"attach"}"#, id: "a2", client: client)
        #expect(refused.last { $0.isReply }?.errorCode == "unsupported")
        #expect(agent.host.isJourneyAttached == false)
    }

    @Test("a bare host.ready is the host's own, with its timestamp and version; with data it is sent as given")
    func readyAgain() async throws {
        let agent = try EmbeddedAgent()
        defer { agent.stop() }
        let client = agent.connect()
        client.sendHello(subscribe: false)
        agent.run()
        _ = try await agent.perform(#""sendEvent","args":{"name":"host.ready"}"#, id: "r1", client: client)
        _ = try await agent.perform(#""sendEvent","args":{"name":"host.ready","data":{"late":true}}"#, id: "r2", client: client)
        let ready = agent.journey.messages
        #expect(ready.map(\.payload.action) == ["host.ready", "host.ready"])
        #expect(ready.first?.payload.data?["version"] == .string("2.3.4"))
        #expect(ready.first?.payload.data?["timestamp"]?.numberValue != nil)
        #expect(ready.last?.payload.data == ["late": .bool(true)])
    }
}
