@testable import BridgeCore
import TestSupport
import Testing

/// The ring buffer behind `receivedMessages` (issue 30, item 3): after every step it holds
/// exactly what the array it replaces held under the old rule (append, then `removeFirst` of
/// whatever passes the cap; a new cap trims at once).
@Suite("Ring buffer")
struct RingBufferTests {
    /// The old rule, kept as the reference the ring buffer must follow.
    struct OldRule {
        var elements: [Int] = []
        var capacity: Int

        init(capacity: Int) { self.capacity = max(0, capacity) }

        mutating func append(_ element: Int) {
            elements.append(element)
            trim()
        }

        mutating func setCapacity(_ value: Int) {
            capacity = max(0, value)
            trim()
        }

        mutating func trim() {
            let excess = elements.count - capacity
            if excess > 0 { elements.removeFirst(excess) }
        }
    }

    @Test("Random sequences of appends, new caps (hostile ones too) and clears give what the old rule gave, after every step")
    func followsTheOldRule() {
        let capacities = [-7, -1, 0, 1, 2, 3, 5, 8, 13, 200, Int.max]
        for seed in UInt64(1)...60 {
            var random = SeededRandom(seed: seed)
            let first = capacities.randomElement(using: &random) ?? 0
            var ring = RingBuffer<Int>(capacity: first)
            var reference = OldRule(capacity: first)
            var next = 0
            for step in 0..<600 {
                let roll = Int.random(in: 0..<100, using: &random)
                if roll < 85 {
                    ring.append(next)
                    reference.append(next)
                    next += 1
                } else if roll < 97 {
                    let capacity = capacities.randomElement(using: &random) ?? 0
                    ring.capacity = capacity
                    reference.setCapacity(capacity)
                } else {
                    ring.removeAll()
                    reference.elements.removeAll()
                }
                #expect(ring.elements == reference.elements, "seed \(seed), step \(step)")
                #expect(ring.count == reference.elements.count, "seed \(seed), step \(step)")
                #expect(ring.isEmpty == reference.elements.isEmpty, "seed \(seed), step \(step)")
                #expect(ring.capacity == reference.capacity, "seed \(seed), step \(step)")
            }
        }
    }

    @Test("Appending far past the cap keeps the newest, oldest first, at every step")
    func appendPastTheCapManyTimes() {
        var ring = RingBuffer<Int>(capacity: 3)
        for value in 0..<10_000 {
            ring.append(value)
            #expect(ring.count == min(value + 1, 3))
            #expect(ring.elements.last == value)
            #expect(ring.elements.first == max(0, value - 2))
        }
        #expect(ring.elements == [9997, 9998, 9999])
    }

    @Test("Every new cap, from every position the oldest element can be at, trims like the old rule")
    func everyCapChange() {
        for appended in 0..<16 {
            for newCapacity in -2...9 {
                var ring = RingBuffer<Int>(capacity: 5)
                var reference = OldRule(capacity: 5)
                for value in 0..<appended {
                    ring.append(value)
                    reference.append(value)
                }
                ring.capacity = newCapacity
                reference.setCapacity(newCapacity)
                #expect(ring.elements == reference.elements, "\(appended) appended, cap 5 → \(newCapacity)")
                #expect(ring.capacity == max(0, newCapacity))
                // And it goes on right after the change.
                for value in 100..<108 {
                    ring.append(value)
                    reference.append(value)
                    #expect(ring.elements == reference.elements, "\(appended) appended, cap 5 → \(newCapacity), then \(value)")
                }
            }
        }
    }

    @Test("A cap of 0 keeps nothing; a negative cap is 0")
    func zeroCapacity() {
        var ring = RingBuffer<String>(capacity: -3)
        #expect(ring.capacity == 0)
        ring.append("a")
        #expect(ring.isEmpty)
        #expect(ring.elements.isEmpty)
        ring.capacity = 2
        ring.append("b")
        #expect(ring.elements == ["b"])
    }

    @Test("Clearing forgets everything, wrapped or not, and keeps the cap")
    func clear() {
        var ring = RingBuffer<Int>(capacity: 4)
        for value in 0..<7 { ring.append(value) }
        #expect(ring.elements == [3, 4, 5, 6])
        ring.removeAll()
        #expect(ring.isEmpty)
        #expect(ring.capacity == 4)
        for value in 10..<16 { ring.append(value) }
        #expect(ring.elements == [12, 13, 14, 15])
    }

    @Test("A cap too large to reach (Int.max) keeps everything, and lowering it later trims")
    func hugeCapacity() {
        var ring = RingBuffer<Int>(capacity: Int.max)
        for value in 0..<1000 { ring.append(value) }
        #expect(ring.elements == Array(0..<1000))
        ring.capacity = 10
        #expect(ring.elements == Array(990..<1000))
        ring.append(1000)
        ring.capacity = Int.max
        ring.append(1001)
        #expect(ring.elements == Array(991...1001))
    }
}
