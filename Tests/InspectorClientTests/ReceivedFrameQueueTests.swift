import InspectorProtocol
import TestSupport
import Testing

@testable import InspectorClient

/// The machine's frames wait in a queue of its own instead of a `Deque` (issue 30): it must hand
/// them out exactly in the order they came, however appends and takes interleave, also when a
/// reader never takes every frame (the taken slots are then dropped now and then).
@Suite("The queue of frames waiting: first in, first out, as a deque")
struct ReceivedFrameQueueTests {
    private static func frame(_ number: Int) -> ClientConnectionStateMachine.ReceivedFrame {
        .init(line: Array("\(number)".utf8), frame: .gap(from: number, to: number))
    }

    private static func number(_ received: ClientConnectionStateMachine.ReceivedFrame?) -> Int? {
        guard let received, case .gap(let from, _) = received.frame else { return nil }
        #expect(received.line == Array("\(from)".utf8))
        return from
    }

    @Test("random appends and takes: the same frames in the same order as a plain list", arguments: [1, 2, 3] as [UInt64])
    func firstInFirstOut(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var queue = ReceivedFrameQueue()
        var expected: [Int] = []
        var next = 0
        var taken = 0
        for _ in 0..<20_000 {
            // Phases that fill, drain, or hover with a backlog that never empties.
            let appendChance: UInt64 = [2, 5, 8][Int(random.next() % 3)]
            if random.next() % 10 < appendChance {
                queue.append(Self.frame(next))
                expected.append(next)
                next += 1
            } else {
                let got = Self.number(queue.popFirst())
                #expect(got == (expected.isEmpty ? nil : expected.removeFirst()))
                if got != nil { taken += 1 }
            }
            #expect(queue.count == expected.count)
            #expect(queue.isEmpty == expected.isEmpty)
        }
        while let got = Self.number(queue.popFirst()) { #expect(got == expected.removeFirst()) }
        #expect(expected.isEmpty && queue.isEmpty)
        #expect(taken > 5_000)
    }

    @Test("a reader one frame behind for good: taken slots are dropped, the order kept")
    func backlogThatNeverEmpties() {
        var queue = ReceivedFrameQueue()
        queue.append(Self.frame(0))
        for number in 1..<10_000 {
            queue.append(Self.frame(number))
            #expect(Self.number(queue.popFirst()) == number - 1)
            #expect(queue.count == 1)
            #expect(queue.heldSlots <= 2 * ReceivedFrameQueue.compactionThreshold + 2)
        }
        #expect(Self.number(queue.popFirst()) == 9_999)
        #expect(queue.popFirst() == nil)
    }
}
