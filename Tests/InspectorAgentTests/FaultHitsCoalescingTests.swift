import AgentTesting
import BridgeCore
import Foundation
@testable import InspectorAgent
import Testing

/// A fault rule that fires on every message of a busy journey must not send every inspector a
/// `faults` event per message: hit counts are coalesced to one event per
/// `AgentLimits.faultHitsIntervalSeconds` on the agent's clock, while a rule added or removed is
/// sent at once (docs/inspector-protocol.md, section 14.2).
@MainActor
@Suite("Fault rules' hit counts, coalesced")
struct FaultHitsCoalescingTests {
    /// The hit counts of each `faults` event among `frames`, by rule id.
    private func faultEvents(_ frames: [Frame]) -> [[String: Int]] {
        frames.filter { $0.eventType == "faults" }.map { frame in
            var hits: [String: Int] = [:]
            for fault in frame.json["event"]?["faults"]?.arrayValue ?? [] {
                if let id = fault["id"]?.stringValue, let count = fault["hits"]?.int { hits[id] = count }
            }
            return hits
        }
    }

    @Test("Ten hits within one interval make one faults event with the final count; a rule added or removed is sent at once")
    func hitsCoalesced() async throws {
        let agent = try EmbeddedAgent()
        defer { agent.stop() }
        let client = agent.connect()
        client.sendHello()
        agent.run()
        _ = try client.readFrames()

        let added = try await agent.perform(
            #""addFault","args":{"filter":"action:device.info","effect":{"kind":"drop"}}"#, id: "c1", client: client)
        #expect(faultEvents(added) == [["f1": 0]], "the new rule is sent at once, without the clock moving")

        for index in 0..<10 { agent.receive(messageText(action: "device.info", id: "r\(index)")) }
        let duringInterval = try client.readFrames()
        #expect(duringInterval.count { $0.eventType == "traffic" } == 10, "every faulted message is still reported")
        #expect(faultEvents(duringInterval).isEmpty, "no faults event per hit")

        agent.advanceTime(by: AgentLimits.faultHitsIntervalSeconds / 2)
        #expect(faultEvents(try client.readFrames()).isEmpty, "not before the interval is over")
        agent.advanceTime(by: AgentLimits.faultHitsIntervalSeconds / 2)
        #expect(faultEvents(try client.readFrames()) == [["f1": 10]], "one event, with the final count")
        agent.advanceTime(by: AgentLimits.faultHitsIntervalSeconds * 4)
        #expect(faultEvents(try client.readFrames()).isEmpty, "nothing more while nothing is hit")
        #expect(agent.nextDeadline == nil)

        // Hits waiting when a rule is added go out with it, at once, and not again later.
        agent.receive(messageText(action: "device.info", id: "r10"))
        let second = try await agent.perform(
            #""addFault","args":{"filter":"action:camera.*","effect":{"kind":"drop"}}"#, id: "c2", client: client)
        #expect(faultEvents(second) == [["f1": 11, "f2": 0]])
        agent.advanceTime(by: AgentLimits.faultHitsIntervalSeconds * 2)
        #expect(faultEvents(try client.readFrames()).isEmpty)

        let removed = try await agent.perform(#""removeFault","args":{"id":"f2"}"#, id: "c3", client: client)
        #expect(faultEvents(removed) == [["f1": 11]], "a removal is sent at once")
    }

    @Test("An inspector attaching between two events sees the counts as they are")
    func snapshotHasCurrentCounts() async throws {
        let agent = try EmbeddedAgent()
        defer { agent.stop() }
        let owner = agent.connect()
        owner.sendHello()
        agent.run()
        _ = try owner.readFrames()
        _ = try await agent.perform(#""addFault","args":{"filter":"action:device.info","effect":{"kind":"drop"}}"#, id: "c1", client: owner)
        for index in 0..<3 { agent.receive(messageText(action: "device.info", id: "r\(index)")) }

        let late = agent.connect()
        late.sendHello()
        agent.run()
        let snapshot = try #require(try late.readFrames().first { $0.kind == "snapshot" })
        #expect(snapshot.json["state"]?["faults"]?[0]?["hits"]?.int == 3)
    }
}
