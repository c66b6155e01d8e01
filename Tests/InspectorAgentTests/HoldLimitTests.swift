import AgentTesting
import BridgeCore
import Foundation
@testable import InspectorAgent
import InspectorClient
import InspectorProtocol
import TestSupport
import Testing

/// Issue 24, point 7: what breakpoints make the host hold is bounded (docs/inspector-protocol.md,
/// 13.1, 13.4 and 9.1): held messages by count and by bytes, breakpoints per inspector, and a
/// message let through because of a cap is announced. Counted in messages and bytes, never timed;
/// a hold's time limit passes on the host's clock (a `ManualClock` the test moves), never in real time.
@MainActor
@Suite("Limits on holds and breakpoints")
struct HoldLimitTests {
    /// A fixture whose `device.info` handler answers at once, with `limits`.
    func fixture(_ limits: AgentLimits) throws -> Fixture {
        try Fixture(limits: limits) { host in
            host.registerCustomCapability("device.info", version: "1.0") { _, responder in
                responder.respond(status: .success, data: ["model": "Simulator"], error: nil)
            }
        }
    }

    @Test("the host holds at most maxHeldMessages: the next match goes on, answered by its handler, and everyone is told why")
    func heldCountCap() async throws {
        var limits = Fixture.limits()
        limits.maxHeldMessages = 3
        let fixture = try fixture(limits)
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client()
        let (watcher, _, _) = try await fixture.client()
        #expect(try await client.command("c1", "addBreakpoint", args: #"{"filter":"action:device.info dir:in"}"#).reply.ok == true)
        for index in 1...3 {
            fixture.receive(messageText(action: "device.info", id: "r\(index)"))
            let held = try await client.next { $0.eventType == "held" }.match
            #expect(held.record?["message"]?["correlationId"]?.stringValue == "r\(index)")
        }
        #expect(fixture.host.heldMessages.count == 3)
        #expect(fixture.delivered.isEmpty)

        fixture.receive(messageText(action: "device.info", id: "r4"))
        let (before, skipped) = try await watcher.next { $0.eventType == "holdSkipped" }
        #expect(!before.contains { $0.eventType == "held" && $0.record?["message"]?["correlationId"]?.stringValue == "r4" })
        #expect(skipped.record?["breakpoint"]?.stringValue == "b1")
        #expect(skipped.record?["correlationId"]?.stringValue == "r4")
        #expect(skipped.record?["action"]?.stringValue == "device.info")
        #expect(skipped.record?["direction"]?.stringValue == "received")
        #expect(skipped.record?["reason"]?.stringValue == "heldCount")
        #expect(skipped.record?["limit"]?.int == 3)
        // It went on as if no breakpoint had matched: its handler answered it.
        #expect(await eventually { fixture.delivered.contains { $0.correlationId == "r4" } })
        #expect(fixture.host.heldMessages.count == 3)

        // With one released, the next match is held again.
        #expect(try await client.command("c2", "release", args: #"{"id":"h1"}"#).reply.ok == true)
        fixture.receive(messageText(action: "device.info", id: "r5"))
        let again = try await watcher.next { $0.eventType == "held" || $0.eventType == "holdSkipped" }.match
        #expect(again.eventType == "held")
        #expect(again.record?["message"]?["correlationId"]?.stringValue == "r5")
        // The breakpoint counts what it held, not what it let through.
        let (second, _, snapshot) = try await fixture.client()
        defer { second.close() }
        #expect(snapshot?.json["state"]?["breakpoints"]?[0]?["hits"]?.int == 4)
    }

    @Test("the host holds at most maxHeldMessageBytes of JSON: a message that would pass it goes on, a smaller one is held, one larger than the cap alone is never held")
    func heldBytesCap() async throws {
        var limits = Fixture.limits()
        limits.maxHeldMessageBytes = 1_500
        let fixture = try fixture(limits)
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client()
        #expect(try await client.command("c1", "addBreakpoint", args: #"{"filter":"action:device.info dir:in"}"#).reply.ok == true)
        let padding = String(repeating: "x", count: 900)
        fixture.receive(messageText(action: "device.info", id: "big-1", data: #"{"pad":"\#(padding)"}"#))
        _ = try await client.next { $0.eventType == "held" }
        let firstBytes = try #require(fixture.host.heldMessages.first?.json.count)
        #expect(firstBytes > 900 && firstBytes < 1_100)

        fixture.receive(messageText(action: "device.info", id: "big-2", data: #"{"pad":"\#(padding)"}"#))
        let skipped = try await client.next { $0.eventType == "holdSkipped" }.match
        #expect(skipped.record?["correlationId"]?.stringValue == "big-2")
        #expect(skipped.record?["reason"]?.stringValue == "heldBytes")
        #expect(skipped.record?["limit"]?.int == 1_500)
        #expect(skipped.record?["bytes"]?.int == firstBytes)
        #expect(await eventually { fixture.delivered.contains { $0.correlationId == "big-2" } })

        fixture.receive(messageText(action: "device.info", id: "small"))
        let held = try await client.next { $0.eventType == "held" || $0.eventType == "holdSkipped" }.match
        #expect(held.eventType == "held")
        #expect(fixture.host.heldMessages.map(\.message.correlationId) == ["big-1", "small"])
        #expect(fixture.host.heldMessages.reduce(0) { $0 + $1.json.count } <= 1_500)

        // Nothing held at all, and still too large alone.
        #expect(try await client.command("c2", "release", args: #"{"id":"h1"}"#).reply.ok == true)
        #expect(try await client.command("c3", "release", args: #"{"id":"h2"}"#).reply.ok == true)
        let huge = String(repeating: "y", count: 2_000)
        fixture.receive(messageText(action: "device.info", id: "huge", data: #"{"pad":"\#(huge)"}"#))
        let alone = try await client.next { $0.eventType == "held" || $0.eventType == "holdSkipped" }.match
        #expect(alone.eventType == "holdSkipped")
        #expect(alone.record?["reason"]?.stringValue == "heldBytes")
        #expect(fixture.host.heldMessages.isEmpty)
    }

    @Test("each inspector sets at most maxBreakpointsPerClient breakpoints and filters of at most 1024 bytes; others are not affected")
    func breakpointCap() async throws {
        var limits = Fixture.limits()
        limits.maxBreakpointsPerClient = 2
        let fixture = try fixture(limits)
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client()
        let (other, _, _) = try await fixture.client()
        #expect(try await client.command("c1", "addBreakpoint", args: #"{"filter":"action:a.one"}"#).reply.ok == true)
        #expect(try await client.command("c2", "addBreakpoint", args: #"{"filter":"action:a.two"}"#).reply.ok == true)
        let (_, refused) = try await client.command("c3", "addBreakpoint", args: #"{"filter":"action:a.three"}"#)
        #expect(refused.ok == false)
        #expect(refused.errorCode == "too_many_breakpoints")
        #expect(refused.errorMessage == "this inspector already has 2 breakpoints, the most one inspector may set; remove one first (removeBreakpoint)")
        // Another inspector has its own allowance.
        #expect(try await other.command("o1", "addBreakpoint", args: #"{"filter":"action:b.one"}"#).reply.ok == true)
        // Removing one makes room again.
        #expect(try await client.command("c4", "removeBreakpoint", args: #"{"id":"b1"}"#).reply.ok == true)
        #expect(try await client.command("c5", "addBreakpoint", args: #"{"filter":"action:a.three"}"#).reply.ok == true)

        let (_, long) = try await other.command(
            "o2", "addBreakpoint", args: #"{"filter":"body:\#(String(repeating: "z", count: AgentLimits.maxBreakpointFilterBytes))"}"#)
        #expect(long.errorCode == "invalid_arguments")
        #expect(long.errorMessage == "breakpoint filter: 1029 bytes, over the 1024 a breakpoint takes")
        #expect(fixture.host.heldMessages.isEmpty)
    }

    @Test("a hit does not send the breakpoint list again: the held event names it, and clients and snapshots count the hit")
    func hitsWithoutTheList() async throws {
        let fixture = try fixture(Fixture.limits())
        defer { fixture.stop() }
        let (client, _, snapshot) = try await fixture.client()
        var live = LiveState()
        live.apply(try AgentFrame.decode(Data(try #require(snapshot).raw)))
        for index in 1...5 {
            let (frames, _) = try await client.command("c\(index)", "addBreakpoint", args: #"{"filter":"action:never.\#(index)"}"#)
            for frame in frames { live.apply(try AgentFrame.decode(Data(frame.raw))) }
        }
        let (sixth, reply) = try await client.command("c6", "addBreakpoint", args: #"{"filter":"action:device.info dir:in"}"#)
        #expect(reply.ok == true)
        for frame in sixth { live.apply(try AgentFrame.decode(Data(frame.raw))) }
        fixture.receive(messageText(action: "device.info", id: "r1"))
        let (between, held) = try await client.next { $0.eventType == "held" }
        for frame in between + [held] { live.apply(try AgentFrame.decode(Data(frame.raw))) }
        let later = try await client.command("c7", "release", args: #"{"id":"h1"}"#).before
        for frame in later { live.apply(try AgentFrame.decode(Data(frame.raw))) }
        // The hold and its release came without the list.
        #expect(!between.contains { $0.eventType == "breakpoints" })
        #expect(!later.contains { $0.eventType == "breakpoints" })
        #expect(live.breakpoints.map(\.hits) == [0, 0, 0, 0, 0, 1])
        let (second, _, fresh) = try await fixture.client()
        defer { second.close() }
        #expect(fresh?.json["state"]?["breakpoints"]?[5]?["hits"]?.int == 1)
    }

    @Test("a hold ends when its holdSeconds pass on the host's clock: released as it was, answered by its handler, and the client is told why")
    func holdTimeLimit() async throws {
        let agent = try EmbeddedAgent { host in
            host.registerCustomCapability("device.info", version: "1.0") { _, responder in
                responder.respond(status: .success, data: ["model": "Simulator"], error: nil)
            }
        }
        defer { agent.stop() }
        let client = agent.connect()
        client.sendHello()
        agent.run()
        var frames: [Frame] = []
        /// Runs the agent (commands and timers run on the main actor) until a frame matches.
        func next(_ matches: (Frame) -> Bool) async -> Frame? {
            _ = await eventually {
                agent.run()
                frames += (try? client.readFrames()) ?? []
                return frames.contains(where: matches)
            }
            return frames.first(where: matches)
        }
        client.send(#"{"kind":"command","id":"c1","command":"addBreakpoint","args":{"filter":"action:device.info dir:in","holdSeconds":2}}"#)
        #expect(await next { $0.isReply && $0.id == "c1" }?.ok == true)
        agent.receive(messageText(action: "device.info", id: "r1"))
        #expect(await next { $0.eventType == "held" } != nil)
        #expect(await agent.clock.waitForSleepers(count: 1), "the hold's timer sleeps on the host's clock")

        agent.advanceTime(by: 1)
        #expect(agent.clock.sleeperCount == 1, "one second short of the limit")
        #expect(agent.host.heldMessages.map(\.message.correlationId) == ["r1"])
        agent.advanceTime(by: 1)
        let resolved = await next { $0.eventType == "heldResolved" }
        #expect(resolved?.record?["reason"]?.stringValue == "timeLimit")
        #expect(resolved?.record?["outcome"]?.stringValue == "released")
        #expect(agent.host.heldMessages.isEmpty)
        #expect(await eventually { agent.journey.messages.contains { $0.correlationId == "r1" } })
    }

    @Test("the breakpoints the agent keeps count in heldBytes, within heldBytesBound, with the longest filters and client names")
    func breakpointsInTheBound() async throws {
        var limits = AgentLimits()
        limits.maxClients = 2
        limits.maxBreakpointsPerClient = 3
        let agent = try EmbeddedAgent(limits: limits)
        defer { agent.stop() }
        let client = agent.connect()
        client.send(#"{"kind":"hello","protocol":1,"client":"\#(String(repeating: "n", count: 10_000))","subscribe":true}"#)
        agent.run()
        let before = agent.heldBytes
        let filter = "body:" + String(repeating: "x", count: AgentLimits.maxBreakpointFilterBytes - 5)
        var frames: [Frame] = []
        for index in 1...4 {
            client.send(#"{"kind":"command","id":"c\#(index)","command":"addBreakpoint","args":{"filter":"\#(filter)"}}"#)
            // The command runs on the main actor, as the host's own code does.
            for _ in 0..<1_000 where !frames.contains(where: { $0.isReply && $0.json["id"]?.stringValue == "c\(index)" }) {
                await Task.yield()
                agent.run()
                frames += try client.readFrames()
            }
        }
        let replies = frames.filter { $0.kind == "reply" }
        #expect(replies.map(\.errorCode) == [nil, nil, nil, "too_many_breakpoints"], "\(replies)")
        let list = try #require(frames.last { $0.eventType == "breakpoints" })
        #expect(list.json["event"]?["breakpoints"]?[0]?["owner"]?.stringValue?.utf8.count == AgentLimits.maxClientNameBytes)
        #expect(agent.heldBytes > before + 3 * AgentLimits.maxBreakpointFilterBytes)
        #expect(agent.heldBytes <= limits.heldBytesBound)
    }
}
