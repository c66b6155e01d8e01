@testable import BridgeCore
import Testing

/// `DecimalText`, the digit writer of `BridgeMessageWriter` and the agent's traffic frames.
@Suite("DecimalText writes integers as String does")
struct DecimalTextTests {
    @Test("Numbers are written as String writes them, at every length and at both ends of Int64")
    func decimals() {
        var values: [Int64] = [0, 1, -1, 9, -9, Int64.max, Int64.min, Int64.max - 1, Int64.min + 1]
        var power: Int64 = 10
        while true {
            values += [power - 1, power, power + 1, -(power - 1), -power]
            let (next, overflow) = power.multipliedReportingOverflow(by: 10)
            if overflow { break }
            power = next
        }
        for value in values {
            var digits = [UInt8](repeating: 0, count: DecimalText.maxBytes)
            let count = digits.withUnsafeMutableBufferPointer { buffer in
                buffer.baseAddress.map { DecimalText.write(value, to: $0) } ?? 0
            }
            #expect(String(decoding: digits.prefix(count), as: UTF8.self) == String(value))
        }
    }
}
