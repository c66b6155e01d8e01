import InspectorProtocol
import Testing

@testable import InspectorClient

/// `SeqIndex` (LiveState's index of rows by sequence number) answers as the dictionary it
/// replaced (issue 30), whatever order the numbers come in.
@Suite("SeqIndex: the same answers as a dictionary")
struct SeqIndexTests {
    @Test("random sets (mostly ascending, some repeated, older or extreme), clears and look-ups", arguments: [1, 2, 3, 4] as [UInt64])
    func followsADictionary(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var index = SeqIndex()
        var expected: [Int: Int] = [:]
        var next = 0
        var row = 0
        var mismatches: [String] = []
        for _ in 0..<5_000 {
            let seq: Int
            switch random.next() % 20 {
            case 0: seq = next - Int(random.next() % 50)  // older, or given again
            case 1: seq = [Int.min, Int.max, -1, 0][Int(random.next() % 4)]
            case 2:
                index.removeAll()
                expected.removeAll()
                continue
            default:
                next += 1 + Int(random.next() % 3)
                seq = next
            }
            index.set(row, for: seq)
            expected[seq] = row
            row += 1
            // Look-ups of numbers set, near them, and never set.
            for probe in [seq, seq &- 1, seq &+ 1, next - Int(random.next() % 100), Int.min, Int.max] where index[probe] != expected[probe] {
                mismatches.append("\(probe): \(String(describing: index[probe])), not \(String(describing: expected[probe]))")
            }
        }
        for (seq, row) in expected where index[seq] != row { mismatches.append("\(seq) lost") }
        #expect(mismatches.prefix(3) == [])
        #expect(!expected.isEmpty)
    }

    @Test("the last index set for a number wins, in either part")
    func lastWins() {
        var index = SeqIndex()
        index.set(0, for: 5)
        index.set(1, for: 9)
        #expect(index[5] == 0 && index[9] == 1 && index[7] == nil)
        index.set(2, for: 5)
        index.set(3, for: 9)
        #expect(index[5] == 2 && index[9] == 3)
        index.set(4, for: 12)
        #expect(index[12] == 4 && index[9] == 3)
        index.removeAll()
        #expect(index[5] == nil && index[12] == nil)
        index.set(5, for: 1)
        #expect(index[1] == 5)
    }
}
