import Foundation
import InspectorProtocol
import Testing

/// `JSONWriter`'s strings and numbers, written without going byte by byte and without `String`
/// for integers, are byte for byte what the writer wrote before (kept here as the reference):
/// the wire format clients and tests depend on.
@Suite("JSONWriter escaping and numbers, against the reference")
struct JSONWriterEscapingTests {
    /// The escaping the writer used before, one byte at a time.
    static func referenceString(_ text: String) -> [UInt8] {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
            case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
            case 0x0A: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "t"))
            case 0..<0x20, 0x7F:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
        return bytes
    }

    /// How the writer spelled a `Double` before.
    static func referenceNumber(_ value: Double) -> String {
        if !value.isFinite { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// Hostile and ordinary texts: every control character, quotes and backslashes at the ends
    /// and in runs, non-ASCII (two, three and four bytes), U+2028 and U+2029, a string of a
    /// megabyte, and random texts from a fixed seed.
    static func texts() -> [String] {
        var texts = [
            "", "a", "\"", "\\", "\"\"", "\\\\\\", "plain ascii text", "ends with quote\"", "\"starts with quote",
            "é", "日本語", "🙂", "a\u{2028}b\u{2029}c", "\u{7F}", "tab\there", "line\nbreak\r\n", "mixed \"q\" \\ é \u{1} 🙂",
            String(repeating: "x", count: 1 << 20), String(repeating: "ab\"c\\\u{0}", count: 10_000),
        ]
        texts.append(String(decoding: (0..<0x80).map { UInt8($0) }, as: UTF8.self))
        for scalar in 0..<0x20 { texts.append("x" + String(UnicodeScalar(UInt8(scalar))) + "y") }
        var random = SplitMix64(seed: 30)
        let alphabet: [Character] = ["a", "Z", "0", " ", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}", "é", "€", "🙂", "\u{2028}", "/"]
        for _ in 0..<500 {
            let length = Int(random.next() % 64)
            texts.append(String((0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }))
        }
        return texts
    }

    @Test("Strings and keys escape exactly as the byte-by-byte reference")
    func stringsMatchReference() {
        for text in Self.texts() {
            var writer = JSONWriter()
            writer.string(text)
            #expect(writer.bytes == Self.referenceString(text), "\(text.prefix(40).debugDescription)")
            var keyed = JSONWriter()
            keyed.objectStart()
            keyed.key(text)
            keyed.null()
            keyed.objectEnd()
            #expect(keyed.bytes == [UInt8(ascii: "{")] + Self.referenceString(text) + Array(":null}".utf8))
        }
    }

    @Test("Integers and numbers read as String wrote them")
    func numbersMatchReference() {
        var integers = [0, 1, -1, 9, 10, -10, 99, 100, 12345, -98765, Int.max, Int.min, Int.max - 1, Int.min + 1, 1_000_000_000_000]
        var random = SplitMix64(seed: 31)
        for _ in 0..<2000 { integers.append(Int(truncatingIfNeeded: random.next()) >> Int(random.next() % 64)) }
        for value in integers {
            var writer = JSONWriter()
            writer.number(value)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == String(value))
        }
        var doubles: [Double] = [0, -0.0, 1, -1, 0.5, 1e15, 1e15 - 1, -1e15 + 1, 1e20, .infinity, -.infinity, .nan, 1_764_000_000_123, 0.1, 123.456]
        for _ in 0..<2000 {
            let bits = random.next()
            doubles.append(Double(Int64(truncatingIfNeeded: bits) >> Int(bits % 64)) / (bits % 3 == 0 ? 1 : 7))
        }
        for value in doubles {
            var writer = JSONWriter()
            writer.number(value)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == Self.referenceNumber(value), "\(value)")
        }
    }

    @Test("Spliced bytes, slices and buffers are copied as they are")
    func spliceForms() {
        let json = Array(#"{"a":"\u0000é"}"#.utf8) + [0xFF, 0xC0]  // invalid UTF-8 is copied too
        var array = JSONWriter()
        array.arrayStart(); array.splice(json); array.splice(json); array.arrayEnd()
        var slice = JSONWriter()
        slice.arrayStart(); slice.splice(json[...]); slice.splice(([0] + json)[1...]); slice.arrayEnd()
        var raw = JSONWriter()
        raw.arrayStart()
        json.withUnsafeBytes { raw.splice($0); raw.splice($0) }
        raw.arrayEnd()
        #expect(slice.bytes == array.bytes)
        #expect(raw.bytes == array.bytes)
        #expect(array.bytes == [UInt8(ascii: "[")] + json + [UInt8(ascii: ",")] + json + [UInt8(ascii: "]")])
    }
}
