import BridgeCore
import DequeModule
import Foundation
@testable import InspectorAgent
import Testing

/// The hand-off between the host and the agent's thread keeps every change, in order, while the
/// agent's batch and the inbox swap buffers (`AgentInbox.drain(_:)`).
@Suite("AgentInbox")
struct AgentInboxTests {
    private static func ids(_ batch: AgentInbox.Batch) -> [Bool?] {
        batch.items.map { item -> Bool? in
            if case .change(.journeyAttachment(let attached), _, _) = item { return attached }
            return nil
        }
    }

    /// What one `drain` hands over, and how many items it reports.
    private static func drained(_ inbox: AgentInbox) -> (ids: [Bool?], count: Int, calls: Int) {
        var ids: [Bool?] = []
        var calls = 0
        let count = inbox.drain { batch in
            ids += Self.ids(batch)
            calls += 1
        }
        return (ids, count, calls)
    }

    @Test("Batches taken into a reused buffer hold exactly what was pushed since the last, oldest first")
    func reusedBatches() throws {
        let inbox = try AgentInbox()
        for round in 0..<5 {
            let pushed = (0..<(100 * (round + 1))).map { $0 % 3 == 0 }
            for value in pushed { inbox.push(.change(.journeyAttachment(value), tag: nil)) }
            let taken = Self.drained(inbox)
            #expect(taken.ids == pushed)
            #expect(taken.count == pushed.count)
            let empty = Self.drained(inbox)
            #expect(empty.count == 0)
            #expect(empty.calls == 0)
        }
        // A burst larger than the buffer kept, then an ordinary batch: nothing lost either way.
        let burst = (0..<(AgentInbox.batchCapacityKept + 10)).map { $0 % 2 == 0 }
        for value in burst { inbox.push(.change(.journeyAttachment(value), tag: nil)) }
        #expect(Self.drained(inbox).ids == burst)
        inbox.push(.change(.journeyAttachment(true), tag: nil))
        #expect(Self.drained(inbox).ids == [true])
    }
}
