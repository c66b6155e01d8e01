import AgentTesting
import BridgeCore
import Foundation
@testable import InspectorAgent
import InspectorClient
import InspectorProtocol
import Testing

/// Issue 27, trap 6: a message held on its way to the journey is logged (by a native host) when
/// it goes on, while whichever command let it go runs; its record must say who made the message,
/// not who released it. Before, the host's answer released by removing its breakpoint, or
/// dropped with `drop`, was logged as the inspector's (✎ in the Messages pane).
@MainActor
@Suite("A held message that goes on keeps who made it")
struct HeldMessageOriginTests {
    /// An agent, one client reading into a state.
    @MainActor
    struct Session {
        let agent: EmbeddedAgent
        let client: EmbeddedConnection
        var live = LiveState()

        init(_ agent: EmbeddedAgent) throws {
            self.agent = agent
            client = agent.connect()
            client.sendHello()
            agent.run()
            try read()
        }

        @discardableResult
        mutating func read() throws -> [Frame] {
            let frames = try client.readFrames()
            for frame in frames { live.apply(try AgentFrame.decode(Data(frame.raw))) }
            return frames
        }

        /// Sends a command and runs the agent until its reply; returns the reply.
        mutating func command(_ id: String, _ name: String, args: String) async throws -> Frame? {
            client.send(#"{"kind":"command","id":"\#(id)","command":"\#(name)","args":\#(args)}"#)
            agent.run()
            for _ in 0..<1_000 {
                await Task.yield()  // the command runs on the main actor, as the host's own code does
                agent.run()
                if let reply = try read().first(where: { $0.isReply && $0.id == id }) { return reply }
            }
            return nil
        }

        /// Yields until the host holds something.
        func untilHeld() async {
            for _ in 0..<1_000 where agent.host.heldMessages.isEmpty { await Task.yield() }
        }

        /// The log row of the response with `id` and its hold mark.
        func response(_ id: String) -> (row: LogEntry, hold: HoldMark?)? {
            guard let index = live.log.firstIndex(where: { $0.correlationId == id && $0.type == .response }) else { return nil }
            return (live.log[index], live.holdMarks[index])
        }
    }

    @Test("the host's answer, held and released by removing the breakpoint, is the host's: held, not hand-made")
    func hostAnswerReleasedByRemovingTheBreakpoint() async throws {
        let agent = try EmbeddedAgent { host in
            host.registerCustomCapability("device.info", version: "1.0") { request, responder in
                responder.respond(status: .success, data: ["model": "Simulator"], error: nil)
            }
        }
        defer { agent.stop() }
        var session = try Session(agent)
        let added = try #require(try await session.command("c1", "addBreakpoint", args: #"{"filter":"dir:out"}"#))
        let breakpoint = try #require(added.json["result"]?["id"]?.stringValue)
        agent.receive(messageText(action: "device.info", id: "r1"))
        await session.untilHeld()
        #expect(agent.host.heldMessages.count == 1)
        let removed = try await session.command("c2", "removeBreakpoint", args: #"{"id":"\#(breakpoint)"}"#)
        #expect(removed?.ok == true)
        #expect(agent.journey.messages.map(\.correlationId) == ["r1"])

        let (row, hold) = try #require(session.response("r1"))
        #expect(row.origin == .host, "who made it, not who released it")
        #expect(row.command == nil)
        #expect(hold?.outcome == .released)
    }

    @Test("the host's answers released with release or dropped with drop stay the host's: marked held or dropped, not hand-made")
    func answersReleasedOrDropped() async throws {
        let agent = try EmbeddedAgent { host in
            host.registerCustomCapability("device.info", version: "1.0") { request, responder in
                responder.respond(status: .success, data: [:], error: nil)
            }
        }
        defer { agent.stop() }
        var session = try Session(agent)
        #expect(try await session.command("c1", "addBreakpoint", args: #"{"filter":"dir:out"}"#)?.ok == true)
        for (id, command) in [("r1", "release"), ("r2", "drop")] {
            agent.receive(messageText(action: "device.info", id: id))
            await session.untilHeld()
            let hold = try #require(agent.host.heldMessages.first?.id)
            #expect(try await session.command("c-\(id)", command, args: #"{"id":"\#(hold)"}"#)?.ok == true)
        }
        let released = try #require(session.response("r1"))
        #expect(released.row.origin == .host)
        #expect(released.hold?.outcome == .released)
        let dropped = try #require(session.response("r2"))
        #expect(dropped.row.origin == .host, "the drop command did not write the answer")
        #expect(dropped.row.command == nil)
        #expect(dropped.hold?.outcome == .dropped)
    }

    @Test("the answer written by hand to a held request is the inspector's (✎), with the answer command, and marked answered")
    func handAnswerIsTheInspectors() async throws {
        let agent = try EmbeddedAgent { host in
            host.registerCustomCapability("device.info", version: "1.0") { request, responder in
                responder.respond(status: .success, data: [:], error: nil)
            }
        }
        defer { agent.stop() }
        var session = try Session(agent)
        #expect(try await session.command("c1", "addBreakpoint", args: #"{"filter":"action:device.info dir:in"}"#)?.ok == true)
        agent.receive(messageText(action: "device.info", id: "r1"))
        await session.untilHeld()
        let hold = try #require(agent.host.heldMessages.first?.id)
        #expect(try await session.command("c2", "answer", args: #"{"id":"\#(hold)","status":"success","data":{"model":"Hand"}}"#)?.ok == true)

        let (row, mark) = try #require(session.response("r1"))
        #expect(row.origin == .inspector, "the inspector wrote it")
        #expect(row.command == "c2")
        #expect(mark?.outcome == .answered)
    }
}
