import AgentTesting
import BridgeCore
import Foundation
import InspectorAgent
import InspectorClient
import InspectorProtocol
import SocketSupport
import TestSupport
import Testing

@MainActor
@Suite("Handshake and snapshot")
struct HandshakeTests {
    @Test("the agent greets first with protocol, host identity, features and limits")
    func agentHello() async throws {
        var limits = Fixture.limits()
        limits.maxClientFrameBytes = 4096
        limits.maxClients = 3
        let fixture = try Fixture(limits: limits)
        defer { fixture.stop() }
        let client = try RawClient.connect(fixture.socketPath)
        let hello = try await client.next()

        #expect(hello.kind == "hello")
        #expect(hello.json["protocol"]?.int == 1)
        #expect(hello.json["agent"]?.stringValue == "bridge-inspector-agent/0.1.0")
        let host = try #require(hello.json["host"])
        #expect(host["name"]?.stringValue == "test-host")
        #expect(host["pid"]?.int == Int(ProcessInfo.processInfo.processIdentifier))
        #expect(host["hostVersion"]?.stringValue == "2.3.4")
        #expect(host["environment"]?.stringValue == "ios")
        #expect((host["startedAt"]?.numberValue ?? 0) > 1_600_000_000_000)
        #expect(hello.json["features"] == ["snapshot", "events", "gap", "commands", "origin", "breakpoints", "inject", "faults"])
        // The host's capabilities, so that a client that never subscribes knows them too.
        let capabilities = try #require(hello.json["capabilities"])
        #expect(capabilities["slots"]?.arrayValue?.compactMap { $0["kind"]?.stringValue } == ["document", "selfie"])
        #expect(capabilities["slots"]?[0]?["action"]?.stringValue == "camera.document.capture")
        #expect(capabilities["customCapabilities"]?.arrayValue != nil)
        let decoded = try AgentFrame.decode(Data(hello.raw))
        guard case .hello(let agentHello) = decoded else {
            Issue.record("not decoded as a hello")
            return
        }
        #expect(agentHello.capabilities?.slots.map(\.kind) == [.document, .selfie])
        #expect(hello.json["limits"]?["maxFrameBytes"]?.int == 4096)
        #expect(hello.json["limits"]?["maxClients"]?.int == 3)
        // The exact key order the documentation shows.
        #expect(hello.text.hasPrefix(#"{"kind":"hello","protocol":1,"agent":"bridge-inspector-agent/0.1.0","host":{"#))
    }

    /// Troubleshooting, "Memory Warnings or Crashes": "receivedMessages grows without bound". The
    /// doctor needs its size and cap: the agent reports both, and follows the size as messages
    /// arrive and the log is cleared.
    @Test("the snapshot reports the size of receivedMessages and its cap, through arrivals and a clear")
    func receivedMessagesSizeAndCap() async throws {
        let fixture = try Fixture(prepare: { host in
            host.maxReceivedMessages = 3
            for index in 1...2 { host.receive(text: messageText(type: "event", action: "journey.step", id: "early-\(index)")) }
        })
        defer { fixture.stop() }
        let first = try await fixture.client()
        #expect(first.snapshot?.json["state"]?["counts"]?["receivedMessages"]?.int == 2)
        #expect(first.snapshot?.json["state"]?["host"]?["receivedMessagesCap"]?.int == 3)
        for index in 1...4 { fixture.receive(messageText(type: "event", action: "journey.step", id: "late-\(index)")) }
        let capped = try await fixture.client()
        #expect(capped.snapshot?.json["state"]?["counts"]?["receivedMessages"]?.int == 3)
        #expect(fixture.host.receivedMessages.count == 3)
        fixture.host.clearReceivedMessages()
        let cleared = try await fixture.client()
        #expect(cleared.snapshot?.json["state"]?["counts"]?["receivedMessages"]?.int == 0)
    }

    @Test("a large pending request is kept without its data (truncated), so a snapshot stays within the frame cap")
    func largePendingIsTruncated() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let big = #"{"image":""# + String(repeating: "A", count: 300 * 1024) + #""}"#
        fixture.receive(messageText(action: "document.upload", id: "big-1", data: big))
        fixture.receive(messageText(action: "nfc.read", id: "small-1", data: #"{"documentType":"passport"}"#))
        let (_, _, snapshot) = try await fixture.client()
        let pending = try #require(snapshot?.json["state"]?["pending"]?.arrayValue)
        let byId = Dictionary(uniqueKeysWithValues: pending.compactMap { entry in entry["correlationId"]?.stringValue.map { ($0, entry) } })
        #expect(byId["big-1"]?["truncated"]?.boolValue == true)
        #expect(byId["big-1"]?["message"]?["payload"]?["action"]?.stringValue == "document.upload")
        #expect(byId["big-1"]?["message"]?["payload"]?["data"] == nil)
        #expect(byId["small-1"]?["truncated"] == nil)
        #expect(byId["small-1"]?["message"]?["payload"]?["data"]?["documentType"]?.stringValue == "passport")
        // The log still holds the whole request.
        let logged = snapshot?.json["state"]?["messages"]?.arrayValue?.first { $0["message"]?["correlationId"]?.stringValue == "big-1" }
        #expect(logged?["message"]?["payload"]?["data"]?["image"]?.stringValue?.count == 300 * 1024)
        // And the typed client reads the flag.
        let box = SessionBox(try InspectorSession(socketPath: fixture.socketPath, subscribe: true, clientName: "t"))
        defer { box.session.close() }
        let frame = try await onThread { try box.session.nextFrame(timeout: 10) }
        guard case .snapshot(_, let state)? = frame else {
            Issue.record("no snapshot")
            return
        }
        #expect(state.pending.first { $0.correlationId == "big-1" }?.truncated == true)
    }

    @Test("after the client's hello a subscribed client gets a snapshot of the whole state")
    func snapshotShape() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let (_, _, snapshot) = try await fixture.client()
        let frame = try #require(snapshot)
        #expect(frame.seq == 0)
        let state = try #require(frame.json["state"])
        #expect(state["host"]?["name"]?.stringValue == "test-host")
        #expect(state["journeyAttached"]?.boolValue == true)
        #expect(state["lastError"]?.isNull == true)
        #expect(state["errorHistory"] == [])
        #expect(state["messages"] == [])
        #expect(state["malformed"] == [])
        #expect(state["pending"] == [])
        #expect(state["customCapabilities"] == [])
        #expect(state["counts"] == ["received": 0, "sent": 0, "malformed": 0, "evicted": 0, "receivedMessages": 0])
        #expect(state["host"]?["receivedMessagesCap"]?.int == BridgeHost.defaultMaxReceivedMessages)
        let slots = try #require(state["slots"]?.arrayValue)
        #expect(slots.count == 2)
        #expect(slots[0]["kind"]?.stringValue == "document")
        #expect(slots[0]["capabilityId"]?.stringValue == "camera.document")
        #expect(slots[0]["action"]?.stringValue == "camera.document.capture")
        #expect(slots[0]["version"]?.stringValue == "1.0")
        #expect(slots[0]["hasHandler"]?.boolValue == false)
        #expect(slots[0]["enabled"]?.boolValue == true)
        #expect(slots[0]["supported"]?.boolValue == false)
        #expect(slots[0]["permissionState"]?.stringValue == "notDetermined")
        #expect(slots[1]["kind"]?.stringValue == "selfie")
        #expect(frame.text.hasPrefix(#"{"kind":"snapshot","seq":0,"state":{"host":{"#))
    }

    @Test("the snapshot carries state the host had before the agent started, and events continue at seq+1")
    func snapshotOfExistingState() async throws {
        let fixture = try Fixture { host in
            host.receive(text: messageText(type: "event", action: "journey.started", id: "e-0"))
            host.receive(text: messageText(action: "custom.ask", id: "p-0"))
            host.receive(text: "not json")
            host.declareCustomCapability("device.info", version: "2.0")
            host.selfieCapture.permissionState = .denied
            host.selfieCapture.isEnabled = false
        }
        defer { fixture.stop() }
        let (client, _, snapshot) = try await fixture.client()
        let frame = try #require(snapshot)
        let state = try #require(frame.json["state"])
        let messages = try #require(state["messages"]?.arrayValue)
        #expect(messages.map { $0["message"]?["correlationId"]?.stringValue } == ["e-0", "p-0"])
        #expect(messages.map { $0["origin"]?.stringValue } == ["journey", "journey"])
        #expect(state["pending"]?[0]?["correlationId"]?.stringValue == "p-0")
        #expect(state["pending"]?[0]?["action"]?.stringValue == "custom.ask")
        #expect((state["pending"]?[0]?["since"]?.numberValue ?? 0) > 1_600_000_000_000)
        #expect(state["lastError"]?["text"]?.stringValue?.hasPrefix("Failed to decode message") == true)
        #expect(state["customCapabilities"] == [["id": "device.info", "version": "2.0", "hasHandler": false, "shadowedBySlot": false]])
        #expect(state["slots"]?[1]?["permissionState"]?.stringValue == "denied")
        #expect(state["slots"]?[1]?["enabled"]?.boolValue == false)
        let seq = try #require(frame.seq)
        #expect(seq > 0)

        fixture.receive(messageText(type: "event", action: "after", id: "e-1"))
        let event = try await client.next()
        #expect(event.kind == "event")
        #expect(event.seq == seq + 1)
        #expect(event.record?["message"]?["correlationId"]?.stringValue == "e-1")
    }

    @Test("a client that says subscribe:false gets no snapshot and no events, but its commands work")
    func commandOnlyClient() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let (client, _, snapshot) = try await fixture.client(subscribe: false)
        #expect(snapshot == nil)
        fixture.receive(messageText(type: "event", action: "ignored", id: "e-1"))
        let (before, reply) = try await client.command("c1", "ping")
        #expect(before.isEmpty)
        #expect(reply.ok == true)
        #expect(reply.json["result"] == [:])
        #expect(reply.text == #"{"kind":"reply","id":"c1","ok":true,"result":{}}"#)
    }

    @Test("a hello with another protocol version is answered with protocol_mismatch and the connection closes")
    func protocolMismatch() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let client = try RawClient.connect(fixture.socketPath)
        _ = try await client.next()
        try client.sendHello(protocol: 99)
        let frames = try await client.readUntilClosed()
        #expect(frames.count == 1)
        #expect(frames.first?.isReply == true)
        #expect(frames.first?.ok == false)
        #expect(frames.first?.json["id"]?.isNull == true)
        #expect(frames.first?.errorCode == "protocol_mismatch")
        #expect(frames.first?.errorMessage?.contains("99") == true)
        #expect(await eventually { fixture.agent.clientCount == 0 })
    }

    @Test("a command before the hello is refused with handshake_required and the hello still works")
    func commandBeforeHello() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let client = try RawClient.connect(fixture.socketPath)
        _ = try await client.next()
        try client.sendCommand("early", "ping")
        let refusal = try await client.next()
        #expect(refusal.isReply && refusal.id == "early")
        #expect(refusal.errorCode == "handshake_required")
        try client.sendHello()
        #expect(try await client.next().kind == "snapshot")
        #expect(try await client.command("c1", "ping").reply.ok == true)
    }

    /// The rule itself is pinned to the millisecond on the embedded driver
    /// (`EmbeddedAgentTests.handshakeDeadline`); this checks that the poll driver wakes for the
    /// core's deadline over a real socket with no traffic at all.
    @Test("no hello within the handshake deadline: handshake_required, then the connection closes (over a socket)")
    func handshakeDeadline() async throws {
        var limits = Fixture.limits()
        limits.handshakeSeconds = 0.3
        let fixture = try Fixture(limits: limits)
        defer { fixture.stop() }
        let client = try RawClient.connect(fixture.socketPath)
        let frames = try await client.readUntilClosed()
        #expect(frames.map(\.kind) == ["hello", "reply"])
        #expect(frames.last?.errorCode == "handshake_required")
        #expect(frames.last?.errorMessage?.contains("0.3 seconds") == true)
        #expect(await eventually { fixture.agent.clientCount == 0 })
    }

    @Test("the 17th client is told too_many_clients and closed; once one leaves, a new one gets in")
    func tooManyClients() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        var clients: [RawClient] = []
        for _ in 0..<16 {
            let client = try RawClient.connect(fixture.socketPath)
            #expect(try await client.next().kind == "hello")
            clients.append(client)
        }
        #expect(await eventually { fixture.agent.clientCount == 16 })

        let extra = try RawClient.connect(fixture.socketPath)
        let frames = try await extra.readUntilClosed()
        #expect(frames.count == 1)
        #expect(frames.first?.errorCode == "too_many_clients")
        #expect(frames.first?.json["id"]?.isNull == true)
        #expect(fixture.agent.clientCount == 16)

        // The 16 already connected are unaffected.
        try clients[0].sendHello()
        #expect(try await clients[0].next().kind == "snapshot")

        clients[15].close()
        #expect(await eventually { fixture.agent.clientCount == 15 })
        let late = try RawClient.connect(fixture.socketPath)
        #expect(try await late.next().kind == "hello")
        for client in clients { client.close() }
        late.close()
    }

    @Test("InspectorSession is refused with too_many_clients as a readable error")
    func sessionRefused() async throws {
        var limits = Fixture.limits()
        limits.maxClients = 1
        let fixture = try Fixture(limits: limits)
        defer { fixture.stop() }
        let (first, _, _) = try await fixture.client()
        let path = fixture.socketPath
        let outcome = try await onThread { () -> String in
            do {
                _ = try InspectorSession(socketPath: path, subscribe: true, timeout: 10)
                return "connected"
            } catch let error as InspectorClientError {
                if case .refused(let refusal) = error { return refusal.code }
                return "\(error)"
            } catch {
                return "\(error)"
            }
        }
        #expect(outcome == "too_many_clients")
        first.close()
    }
}
