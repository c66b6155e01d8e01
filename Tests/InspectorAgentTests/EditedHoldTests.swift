import AgentTesting
import BridgeCore
import Foundation
@testable import InspectorAgent
import InspectorClient
import InspectorProtocol
import Testing

/// A message held at a breakpoint and released edited (issue 27): the log shows what was
/// delivered, marked edited, with the original kept, for a client watching and for one that
/// attaches later (docs/inspector-protocol.md 4.1 `hold`, `delivered`, `original`; 13.4).
@MainActor
@Suite("Held messages released edited: the log shows what was delivered")
struct EditedHoldTests {
    /// Holds every message going `direction`, at breakpoint b1.
    final class HoldEverything: BridgeInterceptor {
        let direction: TrafficRecord.Direction
        init(_ direction: TrafficRecord.Direction) { self.direction = direction }
        func hold(_ message: BridgeMessage, direction: TrafficRecord.Direction, json: Data) -> HoldRequest? {
            direction == self.direction ? HoldRequest(breakpoint: "b1", timeLimit: 60) : nil
        }
    }

    /// A client attached and reading, and the state it builds from what it reads.
    @MainActor
    struct Watcher {
        let connection: EmbeddedConnection
        var live = LiveState()

        init(_ agent: EmbeddedAgent) throws {
            connection = agent.connect()
            connection.sendHello()
            agent.run()
            try read()
        }

        /// Reads what the agent wrote, applies it, and returns the frames.
        @discardableResult
        mutating func read() throws -> [Frame] {
            let frames = try connection.readFrames()
            for frame in frames { live.apply(try AgentFrame.decode(Data(frame.raw))) }
            return frames
        }
    }

    /// Releases the first held message with its data replaced by `data`, runs the agent, and
    /// returns the frames `watcher` read.
    func releaseEdited(_ agent: EmbeddedAgent, data: [String: JSONValue], watcher: inout Watcher) throws -> [Frame] {
        let held = try #require(agent.host.heldMessages.first)
        var edited = held.message
        edited.payload.data = data
        try agent.host.releaseHeld(held.id, as: edited)
        agent.run()
        return try watcher.read()
    }

    @Test("a request released edited: its heldResolved names its traffic record; watching and late clients show the routed message, marked, with the journey's original")
    func editedRequest() throws {
        let agent = try EmbeddedAgent()
        defer { agent.stop() }
        agent.host.setInterceptor(HoldEverything(.received))
        var watcher = try Watcher(agent)
        agent.receive(messageText(action: "device.info", id: "r1", data: #"{"model":"journey"}"#))
        try watcher.read()
        let held = try #require(agent.host.heldMessages.first)
        let frames = try releaseEdited(agent, data: ["model": .string("edited")], watcher: &watcher)

        // The wire: the resolution names the request's traffic record.
        let resolved = try #require(frames.first { $0.eventType == "heldResolved" })
        let requestRow = try #require(watcher.live.log.firstIndex { $0.correlationId == "r1" })
        #expect(resolved.record?["record"]?.int == watcher.live.log[requestRow].seq)
        // The host routed the edited request: it is what waits in pendingRequests.
        #expect(agent.host.pendingRequests.first?.payload.data == ["model": .string("edited")])

        // A client watching: the row is what the host routed, marked, the original kept.
        for live in [watcher.live, try Watcher(agent).live] {
            let index = try #require(live.log.firstIndex { $0.correlationId == "r1" })
            let row = live.log[index]
            #expect(row.message?.payload.data == ["model": .string("edited")])
            #expect(live.holdMarks[index] == HoldMark(id: held.id, outcome: .edited))
            let original = try #require(row.original)
            #expect(String(decoding: original, as: UTF8.self).contains(#""model":"journey""#))
        }
    }

    @Test("the snapshot's record of an edited request carries hold and delivered, the journey's bytes unchanged in message")
    func snapshotRecord() throws {
        let agent = try EmbeddedAgent()
        defer { agent.stop() }
        agent.host.setInterceptor(HoldEverything(.received))
        let text = messageText(action: "device.info", id: "r1", data: #"{"n":1.50}"#)
        agent.receive(text)
        var edited = try #require(agent.host.heldMessages.first).message
        edited.payload.data = ["n": .number(2)]
        try agent.host.releaseHeld("h1", as: edited)
        agent.run()
        let late = agent.connect()
        late.sendHello()
        agent.run()
        let snapshot = try #require(try late.readFrames().first { $0.kind == "snapshot" })
        #expect(snapshot.text.contains(#""message":\#(text)"#), "what the journey posted stays as it crossed the bridge")
        let record = try #require(snapshot.json["state"]?["messages"]?[0])
        #expect(record["hold"]?["id"]?.stringValue == "h1")
        #expect(record["hold"]?["outcome"]?.stringValue == "edited")
        #expect(record["delivered"]?["payload"]?["data"]?["n"]?.int == 2)
    }

    @Test("a response released edited: its traffic record carries the host's original; the row shows what the journey got")
    func editedResponse() async throws {
        let agent = try EmbeddedAgent { host in
            host.registerCustomCapability("device.info", version: "1.0") { _, responder in
                responder.respond(status: .success, data: ["model": "Simulator"], error: nil)
            }
        }
        defer { agent.stop() }
        agent.host.setInterceptor(HoldEverything(.sent))
        var watcher = try Watcher(agent)
        agent.receive(messageText(action: "device.info", id: "r1"))
        for _ in 0..<1_000 where agent.host.heldMessages.isEmpty {
            await Task.yield()  // the handler runs on the main actor, as the host's own code does
            agent.run()
        }
        let frames = try releaseEdited(agent, data: ["model": .string("Edited")], watcher: &watcher)
        let traffic = try #require(frames.last { $0.eventType == "traffic" })
        #expect(traffic.record?["original"]?["payload"]?["data"]?["model"]?.stringValue == "Simulator")
        #expect(traffic.record?["message"]?["payload"]?["data"]?["model"]?.stringValue == "Edited")
        let index = try #require(watcher.live.log.lastIndex { $0.type == .response })
        #expect(watcher.live.log[index].message?.payload.data?["model"] == .string("Edited"))
        #expect(watcher.live.log[index].original.map { String(decoding: $0, as: UTF8.self) }?.contains("Simulator") == true)
        #expect(watcher.live.holdMarks[index]?.outcome == .edited)
    }

    @Test("a request released as it was keeps its row unmarked")
    func releasedUnchanged() throws {
        let agent = try EmbeddedAgent()
        defer { agent.stop() }
        agent.host.setInterceptor(HoldEverything(.received))
        var watcher = try Watcher(agent)
        agent.receive(messageText(action: "device.info", id: "r1"))
        try agent.host.releaseHeld("h1")
        agent.run()
        try watcher.read()
        let index = try #require(watcher.live.log.firstIndex { $0.correlationId == "r1" })
        #expect(watcher.live.log[index].original == nil)
        #expect(watcher.live.holdMarks[index] == nil)
    }
}
