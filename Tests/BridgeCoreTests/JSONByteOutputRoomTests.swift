@testable import BridgeCore
import Foundation
import Testing

/// `JSONByteOutput` stores a string's bytes a whole word at a time, its last few too: every such
/// store must land inside the buffer, however full it is and however many escapes came before the
/// last word (each takes up to 6 bytes where 1 was counted). A debug build asserts the room before
/// each store, so a store past the end stops the test instead of writing over the heap unseen.
@Suite("JSONByteOutput room")
struct JSONByteOutputRoomTests {
    /// Strings whose escapes use up the room reserved for the last word: escapes in a full word,
    /// then a tail of 1 to 7 plain bytes; and plain and unicode strings around them.
    static let strings: [String] = [
        "\u{01}aaaaaaab", "\"\"\"aaaaab", "a\"b\"c\"d\"e", "\u{01}\u{02}\u{03}\u{04}\u{05}\u{06}\u{07}\u{08}abc",
        "\\\\\\\\\\\\\\\\a", "\n\n\n\n\n\n\n\nabcdefg", "\u{1F}\u{1F}\u{1F}\u{1F}\u{1F}\u{1F}\u{1F}\u{1F}\u{1F}x",
        "", "a", "abcdefg", "abcdefgh", "abcdefghi", "é\u{01}ü\"x", "tail\u{0}", String(repeating: "\u{01}", count: 17) + "ab",
    ]

    @Test("every string at every fill of a small buffer is written as JSONEncoder writes it, inside the buffer")
    func everyFill() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        for text in Self.strings {
            let expected = try encoder.encode(text)
            for fill in 0..<80 {
                var output = JSONByteOutput(capacity: 64)
                for _ in 0..<fill { output.append(UInt8(ascii: "x")) }
                output.appendString(text)
                output.append(UInt8(ascii: "]"))
                let written = output.data()
                #expect(written == Data(repeating: UInt8(ascii: "x"), count: fill) + expected + Data("]".utf8),
                        "fill \(fill), \(text.debugDescription)")
            }
        }
    }
}
