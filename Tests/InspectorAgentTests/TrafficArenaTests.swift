import BridgeCore
import Foundation
@testable import InspectorAgent
import TestSupport
import Testing

/// The inbox's byte arena (`TrafficArena`) hands back exactly the records written into it, in
/// order and in their place among the batch's other items, whatever their sizes, bytes and times
/// and wherever the agent drains: what the array of records and the `[UInt8]` of their bytes it
/// replaced gave.
@Suite("TrafficArena")
struct TrafficArenaTests {
    /// One entry of a batch as the agent reads it.
    enum Entry: Equatable {
        case traffic(TrafficRecord.Direction, Date, [UInt8])
        case attached(Bool)
    }

    static func entries(_ batch: AgentInbox.Batch) -> [Entry] {
        var entries: [Entry] = []
        batch.forEach { record in
            entries.append(.traffic(record.direction, record.time, Array(record.json)))
        } other: { item in
            if case .change(.journeyAttachment(let attached), _, _) = item { entries.append(.attached(attached)) }
        }
        return entries
    }

    /// Sizes around the header and alignment, the first buffer's size and far past it.
    static let sizes = [0, 1, 2, 7, 8, 9, 15, 16, 17, 23, 24, 100, 4079, 4080, 4081, 4095, 4096, 4097, 10_000, 70_000, 300_000]
    /// Times a record must give back exactly: fractions, before 1970 and the reference date, huge.
    static let times = [
        Date(timeIntervalSince1970: 1_764_000_000.123), Date(timeIntervalSince1970: 0.000_1), Date(timeIntervalSince1970: -86_400.5),
        Date(timeIntervalSinceReferenceDate: 0), Date.distantPast, Date.distantFuture, Date(timeIntervalSinceReferenceDate: .leastNonzeroMagnitude),
    ]

    static func bytes(_ count: Int, _ random: inout SeededRandom) -> [UInt8] {
        // Every byte value, line breaks and zeros among them.
        (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }

    @Test("Records come back byte for byte, in order, among the other items, in any batching")
    func roundTripThroughInbox() throws {
        let (message, _) = try CompactTrafficTests.message("a", "event", action: "x")
        var random = SeededRandom(seed: 3030)
        for drainChance in [1, 3, 17, 1000] {
            let inbox = try AgentInbox()
            var expected: [Entry] = []
            var taken: [Entry] = []
            var drains = 0
            for step in 0..<300 {
                if random.next() % 4 == 0 {
                    let attached = random.next() % 2 == 0
                    inbox.push(.change(.journeyAttachment(attached), tag: nil))
                    expected.append(.attached(attached))
                } else {
                    let size = Self.sizes[Int(random.next() % UInt64(Self.sizes.count))]
                    let text = Self.bytes(size, &random)
                    let direction: TrafficRecord.Direction = random.next() % 2 == 0 ? .received : .sent
                    let time = Self.times[Int(random.next() % UInt64(Self.times.count))]
                    if step % 2 == 0 {
                        inbox.pushTraffic(direction, message, json: Data(text), time: time, marks: TrafficMarks())
                    } else {
                        inbox.push(.traffic(TrafficRecord(direction: direction, message: message, json: Data(text), time: time)))
                    }
                    expected.append(.traffic(direction, time, text))
                }
                if random.next() % UInt64(drainChance) == 0 {
                    let count = inbox.drain { taken += Self.entries($0) }
                    drains += count > 0 ? 1 : 0
                }
            }
            inbox.drain { taken += Self.entries($0) }
            #expect(taken.count == expected.count)
            #expect(taken == expected, "draining about one step in \(drainChance)")
            #expect(drains > 0 || drainChance == 1000)
        }
    }

    @Test("A drain reports every change and record, and an empty inbox none")
    func counts() throws {
        let inbox = try AgentInbox()
        let (message, _) = try CompactTrafficTests.message("a", "event", action: "x")
        #expect(inbox.drain { _ in Issue.record("called for nothing") } == 0)
        for index in 0..<10 {
            inbox.pushTraffic(.received, message, json: Data([UInt8](repeating: 65, count: index)), time: Self.times[0], marks: TrafficMarks())
        }
        inbox.push(.change(.journeyAttachment(true), tag: nil))
        inbox.pushTraffic(.sent, message, json: Data(), time: Self.times[1], marks: TrafficMarks())
        #expect(inbox.park() == false)
        var items = 0
        let count = inbox.drain { items = $0.items.count }
        #expect(count == 12)
        // The ten records are one item, written when the change after them came.
        #expect(items == 2)
        #expect(inbox.park() == true)
        inbox.unpark()
    }

    @Test("A copy of an arena keeps its records when either is written to")
    func valueSemantics() {
        var random = SeededRandom(seed: 7)
        var first = TrafficArena()
        let shared = Self.bytes(40, &random)
        shared.withUnsafeBytes { first.append(.received, time: Self.times[0], json: $0) }
        var second = first
        let left = Self.bytes(5000, &random)
        let right = Self.bytes(9, &random)
        left.withUnsafeBytes { first.append(.sent, time: Self.times[1], json: $0) }
        right.withUnsafeBytes { second.append(.received, time: Self.times[2], json: $0) }
        func read(_ arena: TrafficArena) -> [[UInt8]] {
            var out: [[UInt8]] = []
            arena.forEach { out.append(Array($0.json)) }
            return out
        }
        #expect(read(first) == [shared, left])
        #expect(read(second) == [shared, right])
        first.removeAll()
        #expect(read(first).isEmpty)
        #expect(read(second) == [shared, right])
    }
    /// A record's room is checked up to the next record's aligned start. A buffer sized for an
    /// odd-sized message is not a multiple of 8; counted unrounded, a small record that fit its
    /// last bytes moved `used` past the end, and the next growth copied from beyond the buffer.
    @Test("Records never take more room than the buffer has, after a message of odd size")
    func roomStaysWithinTheBuffer() {
        var random = SeededRandom(seed: 11)
        var arena = TrafficArena()
        var written: [[UInt8]] = []
        func append(_ bytes: [UInt8]) {
            bytes.withUnsafeBytes { arena.append(.received, time: Self.times[0], json: $0) }
            written.append(bytes)
            #expect(arena.usedBytes <= arena.capacityBytes, "after record \(written.count) of \(bytes.count) bytes")
        }
        // 300,001 bytes: a buffer of exactly that record's room; then empty records up to the
        // point where two one-byte records reach the end of the doubled buffer.
        append(Self.bytes(300_001, &random))
        for _ in 0..<18_749 { append([]) }
        append([1])
        append([2])
        append(Self.bytes(3, &random))
        var read: [[UInt8]] = []
        arena.forEach { read.append(Array($0.json)) }
        #expect(read == written)
    }
}
