@testable import BridgeCore
import Foundation
import TestSupport
import Testing

/// `JSONParser.text(_:)` writes a short string straight into a `String`'s own storage (issue 30):
/// it must give the very string `String(decoding:as:)` gives, for every length around the
/// 15 bytes a `String` holds in itself, ASCII or not, valid UTF-8 or not.
@Suite("JSON strings made without checking their bytes twice")
struct JSONStringTextTests {
    @Test("every length from 0 to 40, ASCII, UTF-8 and broken bytes: the same string as String(decoding:as:)")
    func sameAsDecoding() {
        var random = SeededRandom(seed: 15)
        let pieces: [[UInt8]] = [Array("a".utf8), Array("Z~".utf8), [0x00], [0x7F], Array("é".utf8), Array("€".utf8), Array("😀".utf8), [0xFF], [0xC3], [0x80]]
        var differences: [String] = []
        var nonASCII = 0
        for length in 0...40 {
            for _ in 0..<40 {
                var bytes: [UInt8] = []
                while bytes.count < length {
                    // Mostly plain ASCII, as the parser's strings are.
                    bytes += random.next() % 4 == 0 ? pieces[Int(random.next() % UInt64(pieces.count))] : [UInt8(0x20 + random.next() % 0x5F)]
                }
                if bytes.contains(where: { $0 >= 0x80 }) { nonASCII += 1 }
                let made = bytes.withUnsafeBufferPointer { JSONParser.text($0) }
                let decoded = String(decoding: bytes, as: UTF8.self)
                if made != decoded || Array(made.utf8) != Array(decoded.utf8) || made.count != decoded.count {
                    differences.append("\(bytes): \(made.debugDescription), expected \(decoded.debugDescription)")
                }
            }
        }
        #expect(differences.prefix(5) == [])
        #expect(nonASCII > 100)
        // Pinned: a short ASCII string, an empty one, and a short one with a multi-byte character.
        #expect(Array("journey.step".utf8).withUnsafeBufferPointer { JSONParser.text($0) } == "journey.step")
        #expect([UInt8]().withUnsafeBufferPointer { JSONParser.text($0) } == "")
        #expect(Array("café".utf8).withUnsafeBufferPointer { JSONParser.text($0) } == "café")
    }

    /// `text` read by `read`, on a parser at its first byte, building or not: the string or the
    /// failure, and where the parser stopped.
    static func reading(_ text: [UInt8], builds: Bool, _ read: (inout JSONParser) throws(JSONParser.Failure) -> String) -> String {
        text.withUnsafeBytes { raw in
            var parser = JSONParser(lending: raw, maxDepth: 10)
            parser.builds = builds
            do throws(JSONParser.Failure) {
                let value = try read(&parser)
                return "\(value.debugDescription) \(Array(value.utf8)) end \(parser.offset)"
            } catch {
                return "failure at \(error.offset): \(error.reason)"
            }
        }
    }

    @Test("string()'s shortcut for a plain string gives what the byte-by-byte reading gives, on every kind of string and its end")
    func shortcutSameAsByteByByte() {
        var random = SeededRandom(seed: 16)
        let pieces: [[UInt8]] = [
            Array("a".utf8), Array(#"\""#.utf8), Array(#"\\"#.utf8), Array(#"\n"#.utf8), Array(#"\u00e9"#.utf8), Array(#"\ud83d\ude00"#.utf8),
            Array(#"\ud800"#.utf8), Array(#"\x"#.utf8), Array("é".utf8), Array("😀".utf8), [0xFF], [0xC3], [0x01], [0x7F], Array("\"".utf8),
        ]
        var differences: [String] = []
        var plain = 0
        for length in 0...40 {
            for round in 0..<60 {
                var body: [UInt8] = []
                while body.count < length {
                    body += random.next() % 5 == 0 ? pieces[Int(random.next() % UInt64(pieces.count))] : [UInt8(0x20 + random.next() % 0x5F)]
                }
                // Closed or not, with text after it or not: the shortcut must not read past the end.
                var text = [UInt8(ascii: "\"")] + body
                if round % 3 != 0 { text.append(UInt8(ascii: "\"")) }
                if round % 2 == 0 { text += Array(#",1]"#.utf8) }
                if !body.contains(where: { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 || $0 >= 0x80 }) { plain += 1 }
                for builds in [true, false] {
                    let shortcut = Self.reading(text, builds: builds) { parser throws(JSONParser.Failure) in try parser.string() }
                    let byteByByte = Self.reading(text, builds: builds) { parser throws(JSONParser.Failure) in try parser.stringWithAnyBytes() }
                    if shortcut != byteByByte { differences.append("\(text): \(shortcut), expected \(byteByByte)") }
                }
            }
        }
        #expect(differences.prefix(5) == [])
        #expect(plain > 300)
    }
}
