@testable import BridgeCore
import Foundation
import TestSupport
import Testing

/// `JSONParser.number()` passes digits over the raw bytes (issue 30): every value must be the
/// one `Double(text)` gives, bit for bit, and every refusal the one the byte-at-a-time reading it
/// replaced gives (``ReferenceNumber``, kept here), at the same offset with the same words, and
/// it must stop at the same byte.
@Suite("JSON numbers read over the raw bytes")
struct JSONNumberReadingTests {
    /// The outcome of reading the number at the start of `bytes`: its value's bits or the
    /// failure's offset and reason, and where the reader stopped (successes only).
    enum Outcome: Equatable, CustomStringConvertible {
        case value(UInt64, end: Int)
        case failure(offset: Int, reason: String)

        var description: String {
            switch self {
            case .value(let bits, let end): "\(Double(bitPattern: bits)) to \(end)"
            case .failure(let offset, let reason): "refused at \(offset): \(reason)"
            }
        }
    }

    static func read(_ bytes: [UInt8], builds: Bool) -> Outcome {
        bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: buffer, maxDepth: 100, builds: builds, paths: [])
            do throws(JSONParser.Failure) {
                let value = try parser.number()
                return .value(value.bitPattern, end: parser.index)
            } catch {
                return .failure(offset: error.offset, reason: error.reason)
            }
        }
    }

    /// What differs on `text` between the new reading, the reference, and `Double(text)`, or `nil`.
    static func difference(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        let new = read(bytes, builds: true)
        let old = ReferenceNumber.read(bytes)
        if new != old { return "\(text): \(new), before \(old)" }
        // Building nothing, it refuses the same and stops at the same byte.
        let quiet = read(bytes, builds: false)
        switch (quiet, new) {
        case (.value(_, let end), .value(_, let expected)) where end == expected: break
        case (.failure, .failure) where quiet == new: break
        default: return "\(text): not building, \(quiet); building, \(new)"
        }
        // A value is Double(text) of the number's own text, bit for bit.
        if case .value(let bits, let end) = new {
            let own = String(decoding: bytes[..<end], as: UTF8.self)
            guard let expected = Double(own), expected.bitPattern == bits else { return "\(text): \(new), Double(\(own)) is \(String(describing: Double(own)))" }
        }
        return nil
    }

    @Test("numbers at the edges: the Double boundary, 15 and 16 digits, the grammar's mistakes, the end of the text")
    func edges() {
        var differences: [String] = []
        var values = 0
        for number in JSONCheckingTests.edgeNumbers + ["7", "-3", "42", "999999999999999", "-999999999999999", "1000000000000000", "5,", "12]", "3 ", "9e", "0.", "-.1"] {
            for text in [number, number + ",", number + "}", number + "x", number + " 1"] {
                if let difference = Self.difference(text) { differences.append(difference) }
            }
            if case .value = Self.read(Array(number.utf8), builds: true) { values += 1 }
        }
        #expect(differences.prefix(5) == [])
        #expect(values > 20)
        // Pinned: a negative zero stays negative, and 1e400 is refused with its words.
        #expect(Self.read(Array("-0".utf8), builds: true) == .value((-0.0).bitPattern, end: 2))
        #expect(Self.read(Array("1e400".utf8), builds: true) == .failure(offset: 0, reason: "the number 1e400 is too large to represent"))
    }

    @Test("many random numbers of every shape, and random damage of them", arguments: [1, 2, 3, 42, 2026] as [UInt64])
    func random(seed: UInt64) {
        var maker = RandomJSON(seed: seed)
        var differences: [String] = []
        var values = 0
        var refusals = 0
        for _ in 0..<4000 {
            var bytes = maker.number()
            if maker.chance(0.2) { maker.damage(&bytes) }
            if maker.chance(0.3) { bytes += maker.pick([Array(",".utf8), Array("]".utf8), Array(" ".utf8), Array("e".utf8)]) }
            // The reader is only called at a '-' or a digit.
            guard let first = bytes.first, first == UInt8(ascii: "-") || first &- UInt8(ascii: "0") < 10 else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            if let difference = Self.difference(text) { differences.append(difference) }
            if case .value = Self.read(bytes, builds: true) { values += 1 } else { refusals += 1 }
        }
        #expect(differences.prefix(5) == [], "seed \(seed)")
        #expect(values > 1000)
        #expect(refusals > 20)
    }

    @Test("whole numbers of 1 to 21 digits, every sign, at the end of the text or before any byte, eight digits at a time or one")
    func wholeNumbers() {
        var random = SeededRandom(seed: 30)
        var differences: [String] = []
        // After the digits: the bytes just below '0' and just above '9', bytes from 0x80 up
        // (`°` is C2 B0, `º` C2 BA: the edges of the word-at-a-time test), and usual ends.
        let tails = ["", ",", "]", "}", " ", "/", ":", "x", "°", "º", "\u{7F}", "é", "\n", ".5", "e3", "0"]
        for length in 1...21 {
            for round in 0..<60 {
                var digits = String(1 + random.next() % 9)
                for _ in 1..<length { digits += String(random.next() % 10) }
                let tail = tails[round % tails.count]
                // Padded or not, so that the digits are read eight at a time or one at a time.
                for text in [digits + tail, "-" + digits + tail, digits + tail + "        ", "-" + digits + tail + "        "] {
                    if let difference = Self.difference(text) { differences.append(difference) }
                }
            }
        }
        #expect(differences.prefix(5) == [])
        // Pinned: the digits are all taken, eight at a time and after.
        #expect(Self.read(Array("1234567890123,   ".utf8), builds: true) == .value(Double(1_234_567_890_123).bitPattern, end: 13))
        #expect(Self.read(Array("12345678/".utf8), builds: true) == .value(Double(12_345_678).bitPattern, end: 8))
    }
}

/// `JSONParser.number()` as it was before it read over the raw bytes: the reference the new
/// reading must give the same values, refusals and ends as.
enum ReferenceNumber {
    static func read(_ bytes: [UInt8]) -> JSONNumberReadingTests.Outcome {
        var index = 0
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        func describe(_ position: Int) -> String {
            guard position < bytes.count else { return "end of text" }
            let byte = bytes[position]
            if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
            if byte == 0x20 { return "a space" }
            return "byte 0x" + String(byte, radix: 16, uppercase: true)
        }
        let start = index
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else {
            return .failure(offset: index, reason: "expected a digit in a number, found \(describe(index))")
        }
        var integerValue: Int64 = 0
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                return .failure(offset: start, reason: "numbers must not have leading zeros")
            }
        } else {
            while index < bytes.count, isDigit(bytes[index]) {
                integerValue = integerValue &* 10 &+ Int64(bytes[index] &- UInt8(ascii: "0"))
                index += 1
            }
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                return .failure(offset: index, reason: "expected a digit after '.', found \(describe(index))")
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else {
                return .failure(offset: index, reason: "expected a digit in an exponent, found \(describe(index))")
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let digitsStart = negative ? start + 1 : start
        if isInteger, index - digitsStart <= 15 {
            return .value((negative ? -Double(integerValue) : Double(integerValue)).bitPattern, end: index)
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            return .failure(offset: start, reason: "the number \(text) is too large to represent")
        }
        return .value(value.bitPattern, end: index)
    }
}
