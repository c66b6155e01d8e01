import BridgeCore
import Foundation
import Testing

/// `JSONParser` takes a string's plain bytes eight at a time and stops at the first one that
/// needs a look (`"`, `\`, a control character, a UTF-8 lead or continuation byte). Wherever
/// such a byte falls in a word, and whatever follows the string, the result must be the one the
/// byte-at-a-time reading gives: checked here against a string built by hand. Issue 30.
@Suite("JSON strings read eight bytes at a time")
struct JSONStringScanTests {
    /// What may stand at one place in a string: its JSON spelling, and what it reads as (`nil`:
    /// the string is refused).
    static let pieces: [(json: [UInt8], text: String?)] = [
        (Array(#"\""#.utf8), "\""), (Array(#"\\"#.utf8), "\\"), (Array(#"\n"#.utf8), "\n"), (Array(#"\u00e9"#.utf8), "é"),
        (Array("é".utf8), "é"), (Array("😀".utf8), "😀"), ([0x01], nil), ([0x1F], nil), ([0x7F], "\u{7F}"), ([0xFF], nil),
        ([0xC3], nil), (Array("~ ".utf8), "~ "),
    ]

    @Test("a special byte at every position of strings up to 24 bytes, with text after the string")
    func everyPosition() {
        var mismatches: [String] = []
        for length in 0...24 {
            for position in 0...length {
                for piece in Self.pieces {
                    let before = String(repeating: "a", count: position)
                    let after = String(repeating: "b", count: length - position)
                    let json = Array("[\"".utf8) + Array(before.utf8) + piece.json + Array(after.utf8) + Array("\",\"x\"]".utf8)
                    let expected: JSONValue? = piece.text.map { .array([.string(before + $0 + after), .string("x")]) }
                    let value = JSONParser.parse(json)
                    if value != expected { mismatches.append("\(json): \(String(describing: value)), expected \(String(describing: expected))") }
                    // The string at the very end of the text (fewer than eight bytes left).
                    let alone = Array("\"".utf8) + Array(before.utf8) + piece.json + Array(after.utf8) + Array("\"".utf8)
                    if JSONParser.parse(alone) != piece.text.map({ .string(before + $0 + after) }) { mismatches.append("alone: \(alone)") }
                }
            }
        }
        #expect(mismatches.prefix(5) == [])
    }

    @Test("an unterminated string is refused wherever the text ends")
    func unterminated() {
        for length in 0...20 {
            let text = Array("\"".utf8) + Array(repeating: UInt8(ascii: "a"), count: length)
            #expect(JSONParser.parse(text) == nil, "\(length)")
        }
    }
}
