import BridgeCore
import DequeModule
import Foundation
@testable import InspectorAgent
import Testing

/// The hand-off between the host and the agent's thread keeps every change, in order, while the
/// agent's batch and the inbox swap buffers (`AgentInbox.takeAll(into:)`).
@Suite("AgentInbox")
struct AgentInboxTests {
    private static func ids(_ batch: Deque<AgentInbox.Item>) -> [Bool?] {
        batch.map { item -> Bool? in
            if case .change(.journeyAttachment(let attached), _) = item { return attached }
            return nil
        }
    }

    @Test("Batches taken into a reused buffer hold exactly what was pushed since the last, oldest first")
    func reusedBatches() throws {
        let inbox = try AgentInbox()
        var batch: Deque<AgentInbox.Item> = []
        for round in 0..<5 {
            let pushed = (0..<(100 * (round + 1))).map { $0 % 3 == 0 }
            for value in pushed { inbox.push(.change(.journeyAttachment(value), tag: nil)) }
            inbox.takeAll(into: &batch)
            #expect(Self.ids(batch) == pushed)
            batch.removeAll(keepingCapacity: true)
            inbox.takeAll(into: &batch)
            #expect(batch.isEmpty)
        }
        inbox.push(.change(.journeyAttachment(true), tag: nil))
        #expect(Self.ids(inbox.takeAll()) == [true])
    }
}
