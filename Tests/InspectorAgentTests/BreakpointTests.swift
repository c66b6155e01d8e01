import BridgeCore
import Foundation
import InspectorAgent
import TestSupport
import Testing

/// Breakpoints through the agent over a real socket: who owns them, who sees them, the first
/// action wins, and nothing stays held when an inspector goes away.
@MainActor
@Suite("Breakpoints")
struct BreakpointTests {
    /// A fixture whose `device.info` handler answers at once.
    func fixture() throws -> Fixture {
        try Fixture { host in
            host.registerCustomCapability("device.info", version: "1.0") { _, responder in
                responder.respond(status: .success, data: ["model": "Simulator"], error: nil)
            }
        }
    }

    @Test("A breakpoint holds a handled request; every inspector sees it; the first action wins")
    func holdAndReleaseSeenByAll() async throws {
        let fixture = try fixture()
        defer { fixture.stop() }
        let (owner, ownerHello, _) = try await fixture.client()
        let (other, _, _) = try await fixture.client()
        let (added, reply) = try await owner.command("c1", "addBreakpoint", args: #"{"filter":"action:device.info dir:in"}"#)
        #expect(reply.ok == true, "\(reply)")
        #expect(reply.json["result"]?["id"]?.stringValue == "b1")
        let listed = try #require(added.first { $0.eventType == "breakpoints" })
        #expect(listed.json["event"]?["breakpoints"]?[0]?["owner"]?.stringValue == "raw-test-client")
        #expect(listed.json["event"]?["breakpoints"]?[0]?["ownerClient"]?.int == ownerHello.json["clientId"]?.int)
        // The other inspector sees the breakpoint too.
        _ = try await other.next { $0.eventType == "breakpoints" }

        fixture.receive(messageText(action: "device.info", id: "r1"))
        let held = try await other.next { $0.eventType == "held" }.match
        #expect(held.record?["id"]?.stringValue == "h1")
        #expect(held.record?["breakpoint"]?.stringValue == "b1")
        #expect(held.record?["direction"]?.stringValue == "received")
        #expect(held.record?["message"]?["correlationId"]?.stringValue == "r1")
        #expect(held.record?["deadline"]?.int != nil)
        #expect(fixture.delivered.isEmpty)

        // The other inspector releases it; the handler answers.
        let (_, released) = try await other.command("c2", "release", args: #"{"id":"h1"}"#)
        #expect(released.ok == true, "\(released)")
        #expect(released.json["result"]?["correlationId"]?.stringValue == "r1")
        #expect(await eventually { fixture.delivered.count == 1 })
        let resolved = try await owner.next { $0.eventType == "heldResolved" }.match
        #expect(resolved.record?["outcome"]?.stringValue == "released")
        #expect(resolved.record?["by"]?.stringValue == "raw-test-client")
        // The owner's late action is told what happened.
        let (_, late) = try await owner.command("c3", "drop", args: #"{"id":"h1"}"#)
        #expect(late.ok == false)
        #expect(late.errorCode == "already_resolved")
        #expect(late.errorMessage?.contains("h1 was already released") == true)
    }

    @Test("Only the inspector that set a breakpoint removes it; removing it releases what it holds")
    func ownership() async throws {
        let fixture = try fixture()
        defer { fixture.stop() }
        let (owner, _, _) = try await fixture.client()
        let (other, _, _) = try await fixture.client()
        #expect(try await owner.command("c1", "addBreakpoint", args: #"{"filter":"action:device.info"}"#).reply.ok == true)
        fixture.receive(messageText(action: "device.info", id: "r1"))
        _ = try await owner.next { $0.eventType == "held" }
        let (_, refused) = try await other.command("c2", "removeBreakpoint", args: #"{"id":"b1"}"#)
        #expect(refused.errorCode == "not_owner")
        #expect(refused.errorMessage?.contains("belongs to 'raw-test-client'") == true)
        #expect(fixture.host.heldMessages.count == 1)
        let (_, removed) = try await owner.command("c3", "removeBreakpoint", args: #"{"id":"b1"}"#)
        #expect(removed.ok == true)
        #expect(await eventually { fixture.delivered.count == 1 })
        #expect(fixture.host.heldMessages.isEmpty)
        let (_, unknown) = try await owner.command("c4", "removeBreakpoint", args: #"{"id":"b1"}"#)
        #expect(unknown.errorCode == "not_found")
    }

    @Test("Killing the inspector that holds messages releases them: the host is never stranded")
    func disconnectReleases() async throws {
        let fixture = try fixture()
        defer { fixture.stop() }
        let (owner, _, _) = try await fixture.client()
        let (watcher, _, _) = try await fixture.client()
        #expect(try await owner.command("c1", "addBreakpoint", args: #"{"filter":"action:device.info"}"#).reply.ok == true)
        fixture.receive(messageText(action: "device.info", id: "r1"))
        fixture.fixtureSendEvent("host.ping")
        _ = try await watcher.next { $0.eventType == "held" }
        #expect(fixture.host.heldMessages.count == 1)
        owner.close()
        // Its breakpoints go first (everyone sees the list empty), then what they held is released.
        let (before, resolved) = try await watcher.next { $0.eventType == "heldResolved" }
        #expect(resolved.record?["reason"]?.stringValue == "ownerGone")
        #expect(resolved.record?["by"] == nil)
        #expect(await eventually { fixture.delivered.contains { $0.correlationId == "r1" } })
        let emptied = try #require(before.last { $0.eventType == "breakpoints" })
        #expect(emptied.json["event"]?["breakpoints"]?.arrayValue?.isEmpty == true)
        // The host holds nothing more: the next request goes straight through.
        fixture.receive(messageText(action: "device.info", id: "r2"))
        #expect(await eventually { fixture.delivered.contains { $0.correlationId == "r2" } })
        #expect(fixture.host.heldMessages.isEmpty)
    }

    @Test("Edit and release a held response; answer a held request; drop an event: the journey gets exactly that")
    func editAnswerDrop() async throws {
        let fixture = try fixture()
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client()
        #expect(try await client.command("c1", "addBreakpoint", args: #"{"filter":"dir:out"}"#).reply.ok == true)
        fixture.receive(messageText(action: "device.info", id: "r1"))
        let held = try await client.next { $0.eventType == "held" }.match
        #expect(held.record?["direction"]?.stringValue == "sent")
        let edited = #"{"id":"h1","message":{"version":"1.0","correlationId":"r1","type":"response","timestamp":1,"payload":{"action":"device.info","status":"error","error":{"code":"CAMERA_FAILED","message":"edited","recoverable":true}}}}"#
        let (after, reply) = try await client.command("c2", "release", args: edited)
        #expect(reply.ok == true, "\(reply)")
        #expect(fixture.delivered.last?.payload.error?.code == "CAMERA_FAILED")
        let traffic = try #require(after.first { $0.eventType == "traffic" })
        #expect(traffic.record?["hold"]?["outcome"]?.stringValue == "edited")
        #expect(traffic.record?["origin"]?.stringValue == "host")

        // An event the host sends is held; dropped, it never reaches the journey.
        let count = fixture.delivered.count
        fixture.fixtureSendEvent("host.ready")
        _ = try await client.next { $0.eventType == "held" && $0.record?["message"]?["payload"]?["action"]?.stringValue == "host.ready" }
        let (dropped, dropReply) = try await client.command("c3", "drop", args: #"{"id":"h2"}"#)
        #expect(dropReply.ok == true)
        #expect(fixture.delivered.count == count)
        #expect(dropped.first { $0.eventType == "traffic" }?.record?["hold"]?["outcome"]?.stringValue == "dropped")

        // An event an inspector sends itself is never held.
        #expect(try await client.command("c4", "sendEvent", args: #"{"name":"host.ping"}"#).reply.ok == true)
        #expect(fixture.delivered.last?.payload.action == "host.ping")
    }

    @Test("Answer a held request by hand: the handler never runs and the answer is not held again")
    func answerHeld() async throws {
        let fixture = try fixture()
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client()
        #expect(try await client.command("c1", "addBreakpoint", args: #"{"filter":"action:device.info"}"#).reply.ok == true)
        fixture.receive(messageText(action: "device.info", id: "r1"))
        _ = try await client.next { $0.eventType == "held" }
        let (_, reply) = try await client.command(
            "c2", "answer", args: #"{"id":"h1","status":"error","error":{"code":"TIMEOUT","message":"slow","recoverable":true}}"#)
        #expect(reply.ok == true, "\(reply)")
        #expect(reply.json["sent"]?[0]?["payload"]?["error"]?["code"]?.stringValue == "TIMEOUT")
        #expect(fixture.delivered.map(\.payload.error?.code) == ["TIMEOUT"])
        #expect(fixture.host.heldMessages.isEmpty)
        // respond on a held request says where it is.
        fixture.receive(messageText(action: "device.info", id: "r2"))
        _ = try await client.next { $0.eventType == "held" }
        let (_, respond) = try await client.command("c3", "respond", args: #"{"correlationId":"r2","status":"success"}"#)
        #expect(respond.errorCode == "held")
        #expect(respond.errorMessage?.contains("answer h2") == true)
    }

    @Test("A bad breakpoint filter is refused with a reason; nothing is set")
    func badFilter() async throws {
        let fixture = try fixture()
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client()
        let (_, empty) = try await client.command("c1", "addBreakpoint", args: #"{"filter":"  "}"#)
        #expect(empty.errorCode == "invalid_arguments")
        let (_, long) = try await client.command("c2", "addBreakpoint", args: #"{"filter":"dir:in","holdSeconds":99999}"#)
        #expect(long.errorCode == "invalid_arguments")
        #expect(long.errorMessage?.contains("holdSeconds") == true)
        fixture.receive(messageText(action: "device.info", id: "r1"))
        #expect(await eventually { fixture.delivered.count == 1 })
    }

    @Test("inject hands the host a request as the journey; it is marked as the inspector's and its answer is threaded")
    func inject() async throws {
        let fixture = try fixture()
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client()
        let args = #"{"message":{"version":"1.0","correlationId":"inj-1","type":"request","timestamp":1,"payload":{"action":"device.info","data":{}}}}"#
        let (events, reply) = try await client.command("c1", "inject", args: args)
        #expect(reply.ok == true, "\(reply)")
        #expect(reply.json["result"]?["correlationId"]?.stringValue == "inj-1")
        let received = try #require(events.first { $0.eventType == "traffic" && $0.record?["direction"]?.stringValue == "received" })
        #expect(received.record?["origin"]?.stringValue == "inspector")
        #expect(received.record?["command"]?.stringValue == "c1")
        // The handler's answer goes to the journey, as the host's, with the injected id.
        #expect(await eventually { fixture.delivered.map(\.correlationId) == ["inj-1"] })
        let sent = try await client.next { $0.eventType == "traffic" && $0.record?["direction"]?.stringValue == "sent" }.match
        #expect(sent.record?["origin"]?.stringValue == "host")
        #expect(sent.record?["message"]?["correlationId"]?.stringValue == "inj-1")
        // raw text goes in as it is: the host refuses it as the journey's input.
        let (_, raw) = try await client.command("c2", "inject", args: #"{"raw":"{not json"}"#)
        #expect(raw.ok == true)
        #expect(await eventually { fixture.host.lastError?.hasPrefix("Failed to decode message") == true })
        let (_, neither) = try await client.command("c3", "inject", args: "{}")
        #expect(neither.errorCode == "invalid_arguments")
    }

    @Test("A held message over 256 KiB is announced without its data, marked truncated; the snapshot keeps the same record")
    func largeHeldMessageIsTruncated() async throws {
        let fixture = try fixture()
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client()
        // dir:in: the handler's answer must not be held too (it would wait for its time limit).
        #expect(try await client.command("c1", "addBreakpoint", args: #"{"filter":"action:device.info dir:in"}"#).reply.ok == true)
        let blob = String(repeating: "x", count: 300 * 1024)
        fixture.receive(messageText(action: "device.info", id: "big", data: #"{"blob":"\#(blob)"}"#))
        let held = try await client.next { $0.eventType == "held" }.match
        #expect(held.record?["truncated"]?.boolValue == true)
        #expect(held.record?["message"]?["correlationId"]?.stringValue == "big")
        #expect(held.record?["message"]?["payload"]?["data"] == nil)
        #expect(held.text.count < 4096)
        let (_, snapshot) = try await client.command("c2", "snapshot")
        #expect(snapshot.ok == true)
        let state = try await client.next { $0.kind == "snapshot" }.match
        #expect(state.json["state"]?["held"]?[0]?["truncated"]?.boolValue == true)
        // Still released whole: the host kept the message, only the record left the data out.
        #expect(try await client.command("c3", "release", args: #"{"id":"h1"}"#).reply.ok == true)
        #expect(await eventually { fixture.delivered.map(\.correlationId) == ["big"] })
    }

    @Test("Stopping the agent releases everything held")
    func stopReleases() async throws {
        let fixture = try fixture()
        let (client, _, _) = try await fixture.client()
        #expect(try await client.command("c1", "addBreakpoint", args: #"{"filter":"action:device.info"}"#).reply.ok == true)
        fixture.receive(messageText(action: "device.info", id: "r1"))
        _ = try await client.next { $0.eventType == "held" }
        fixture.stop()
        #expect(await eventually { fixture.host.heldMessages.isEmpty })
        #expect(await eventually { fixture.delivered.map(\.correlationId) == ["r1"] })
    }
}

extension Fixture {
    /// Has the host send an event.
    func fixtureSendEvent(_ name: String) {
        host.send(event: name)
    }
}
