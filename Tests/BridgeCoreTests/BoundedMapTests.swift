@testable import BridgeCore
import TestSupport
import Testing

@Suite("BoundedMap: the one bounded memory of past messages")
struct BoundedMapTests {
    @Test("Holds at most its capacity, forgetting the key set first")
    func forgetsOldest() {
        var map = BoundedMap<Int>(capacity: 3)
        for (index, key) in ["a", "b", "c", "d"].enumerated() { map[key] = index }
        #expect(map.count == 3)
        #expect(map["a"] == nil, "the oldest is forgotten")
        #expect(map["b"] == 1 && map["c"] == 2 && map["d"] == 3)
    }

    @Test("Setting a key again changes its value but keeps its place")
    func updateKeepsPlace() {
        var map = BoundedMap<String>(capacity: 2)
        map["a"] = "first"
        map["b"] = "b"
        map["a"] = "second"
        map["c"] = "c"
        #expect(map["a"] == nil, "a was set first, so it goes first, however recently it changed")
        #expect(map["b"] == "b" && map["c"] == "c")
    }

    @Test("Removing a key frees its room at once")
    func removalFreesRoom() {
        var map = BoundedMap<Int>(capacity: 2)
        map["a"] = 1
        map["b"] = 2
        map["a"] = nil
        map["c"] = 3
        #expect(map.count == 2)
        #expect(map["b"] == 2 && map["c"] == 3)
        #expect(!map.contains("a"))
    }

    @Test("Capacity zero (or less) holds nothing")
    func zeroCapacity() {
        var set = BoundedMap<Void>(capacity: 0)
        set.insert("a")
        #expect(!set.contains("a"))
        #expect(BoundedMap<Int>(capacity: -5).capacity == 0)
    }

    @Test("As a set: insert, contains, and the oldest member forgotten first")
    func asSet() {
        var set = BoundedMap<Void>(capacity: 2)
        set.insert("a")
        set.insert("b")
        set.insert("a")
        set.insert("c")
        #expect(!set.contains("a") && set.contains("b") && set.contains("c"))
    }

    @Test("Keys set and removed over and over do not pile up in its bookkeeping")
    func removedKeysDoNotPileUp() {
        // A journey reads each response once and removes it: the map never fills, so nothing is
        // forgotten for being old, yet every key set leaves a trace to be dropped.
        var map = BoundedMap<Int>(capacity: 8)
        for index in 0..<10_000 {
            map["r\(index)"] = index
            map["r\(index)"] = nil
        }
        #expect(map.count == 0)
        #expect(map.bookkeepingCount <= 2 * 8 + 16)
        map["last"] = 1
        #expect(map["last"] == 1)
    }

    /// What the map means, kept as plainly as possible: keys in the order first set, a key set
    /// again keeps its place, a removed key frees its room, the oldest go past the capacity.
    struct Model {
        var entries: [(key: String, value: Int)] = []
        let capacity: Int

        subscript(key: String) -> Int? { entries.first { $0.key == key }?.value }

        mutating func set(_ key: String, _ value: Int?) {
            guard let value else {
                entries.removeAll { $0.key == key }
                return
            }
            if let index = entries.firstIndex(where: { $0.key == key }) {
                entries[index].value = value
                return
            }
            entries.append((key, value))
            if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
        }
    }

    @Test("Random sets, sets again and removals over few keys give what the model gives, after every step")
    func followsTheModel() {
        for seed in UInt64(1)...20 {
            var random = SeededRandom(seed: seed)
            let capacity = Int.random(in: 0...6, using: &random)
            var map = BoundedMap<Int>(capacity: capacity)
            var model = Model(capacity: capacity)
            let keys = (0..<10).map { "k\($0)" }
            for step in 0..<400 {
                let key = keys[Int.random(in: 0..<keys.count, using: &random)]
                let value: Int? = Int.random(in: 0..<4, using: &random) == 0 ? nil : step
                map[key] = value
                model.set(key, value)
                #expect(map.count == model.entries.count, "seed \(seed), step \(step)")
                for probe in keys {
                    #expect(map[probe] == model[probe], "seed \(seed), step \(step), key \(probe)")
                }
                #expect(map.bookkeepingCount <= 2 * capacity + 16)
            }
        }
    }
}
