import BridgeCore
@testable import InspectorAgent
import TestSupport
import Testing

/// `DecimalDigits` keeps a number's text from frame to frame and adds small steps to it digit by
/// digit; whatever the sequence of values (steps of one, clock-like steps, jumps, going back,
/// negative numbers, the ends of `Int64`, a digit gained), it must write what `DecimalText`
/// writes for each value.
@Suite("DecimalDigits")
struct DecimalDigitsTests {
    static func fresh(_ value: Int64) -> [UInt8] {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: DecimalText.maxBytes) { buffer in
            let count = DecimalText.write(value, to: buffer.baseAddress!)
            return Array(buffer[..<count])
        }
    }

    static func kept(_ value: Int64, _ digits: inout DecimalDigits) -> [UInt8] {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: DecimalText.maxBytes) { buffer in
            let count = digits.write(value, to: buffer.baseAddress!)
            return Array(buffer[..<count])
        }
    }

    @Test("Every value reads as DecimalText writes it, in any order of values")
    func followsDecimalText() {
        var random = SeededRandom(seed: 3035)
        var values: [Int64] = Array(0...1_200) + [9, 10, 99, 100, 999, 1_000, 9_999, 10_000, 99_999, 100_000]
        // Steps of one across digit boundaries, clock-like steps, steps at the limit and past it.
        for start: Int64 in [8, 95, 9_990, 99_999_990, 1_764_000_000_000, 9_999_999_999_990, 999_999_999_999_999_990] {
            var value = start
            for _ in 0..<40 {
                values.append(value)
                value += Int64(random.next() % 4)
            }
            values += [start + DecimalDigits.largestStep, start + DecimalDigits.largestStep + 1, start + 3 * DecimalDigits.largestStep]
        }
        values += [-1, -10, 0, 5, Int64.min, Int64.max - 5, Int64.max - 1, Int64.max, 0, Int64.max - 9_999, Int64.max]
        // Past `Int64.max` the step wraps around to a small positive number: each pair must still
        // be written afresh.
        values += [Int64.max, Int64.min, Int64.max - 3, Int64.min + 2, Int64.max, Int64.min + 9_998]
        for _ in 0..<2_000 {
            values.append(Int64(bitPattern: random.next()) >> Int64(random.next() % 64))
        }
        var digits = DecimalDigits()
        for (index, value) in values.enumerated() {
            #expect(Self.kept(value, &digits) == Self.fresh(value), "value \(index): \(value)")
        }
    }
}
