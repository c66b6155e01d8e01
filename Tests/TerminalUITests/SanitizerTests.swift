import Foundation
import Testing
import TerminalUI

@Suite("Sanitizer")
struct SanitizerTests {
    @Test("ESC sequences become visible text")
    func escapeSequence() {
        #expect(Sanitizer.sanitize("a\u{1B}[2Jb") == "a\\x1B[2Jb")
        #expect(Sanitizer.sanitize("\u{1B}]0;pwned\u{07}") == "\\x1B]0;pwned\\x07")
    }

    @Test("Common C0 controls have short names, the rest hex, DEL included")
    func c0Controls() {
        #expect(Sanitizer.sanitize("1\n2\r3\t4") == "1\\n2\\r3\\t4")
        #expect(Sanitizer.sanitize("\u{00}\u{08}\u{7F}") == "\\x00\\x08\\x7F")
        #expect(Sanitizer.sanitize("\r\n") == "\\r\\n")
    }

    @Test("C1 controls such as CSI U+009B and NEL U+0085 are escaped")
    func c1Controls() {
        #expect(Sanitizer.sanitize("x\u{9B}2Jy") == "x\\u{9B}2Jy")
        #expect(Sanitizer.sanitize("\u{85}") == "\\u{85}")
        #expect(Sanitizer.sanitize("\u{80}\u{9F}") == "\\u{80}\\u{9F}")
    }

    @Test("Bidi controls are escaped (Trojan Source)", arguments: [
        0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069,
    ] as [UInt32])
    func bidi(value: UInt32) throws {
        let scalar = try #require(Unicode.Scalar(value))
        let hex = String(value, radix: 16, uppercase: true)
        #expect(Sanitizer.sanitize("a" + String(scalar) + "b") == "a\\u{\(hex)}b")
    }

    @Test("Line and paragraph separators are escaped")
    func separators() {
        #expect(Sanitizer.sanitize("a\u{2028}b\u{2029}c") == "a\\u{2028}b\\u{2029}c")
    }

    @Test("Invisible format characters are escaped, ZWJ and ZWNJ kept")
    func invisibles() {
        #expect(Sanitizer.sanitize("ad\u{200B}min") == "ad\\u{200B}min")
        #expect(Sanitizer.sanitize("\u{FEFF}{}") == "\\u{FEFF}{}")
        let family = "👨\u{200D}👩\u{200D}👧"
        #expect(Sanitizer.sanitize(family) == family)
        let persian = "می\u{200C}خواهم"
        #expect(Sanitizer.sanitize(persian) == persian)
        let scotland = "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}"
        #expect(Sanitizer.sanitize(scotland) == scotland)
    }

    @Test("NUL bytes and invalid UTF-8 from raw bytes")
    func bytes() {
        #expect(Sanitizer.sanitize(bytes: [0x61, 0x00, 0x62]) == "a\\x00b")
        #expect(Sanitizer.sanitize(bytes: [0x61, 0xFF, 0x62]) == "a\u{FFFD}b")
        #expect(Sanitizer.sanitize(bytes: [0xC3]) == "\u{FFFD}")
        #expect(Sanitizer.sanitize(bytes: [0xE2, 0x82, 0x41]) == "\u{FFFD}A")
        #expect(Sanitizer.sanitize(bytes: Array("héllo".utf8)) == "héllo")
        // A C1 control smuggled as valid UTF-8 bytes (C2 9B) is still caught.
        #expect(Sanitizer.sanitize(bytes: [0xC2, 0x9B, 0x41]) == "\\u{9B}A")
    }

    @Test("Normal text passes through unchanged")
    func normalText() {
        for text in ["hello, world", "漢字かな", "café", "e\u{301}", "👩‍💻 ok", "C:\\new", "{\"a\":1}", ""] {
            #expect(Sanitizer.sanitize(text) == text)
            #expect(Sanitizer.isSafe(text))
        }
        #expect(!Sanitizer.isSafe("a\u{1B}"))
    }

    @Test("Segments flag the escapes so a renderer can dim them")
    func segments() {
        #expect(Sanitizer.segments("a\tb") == [
            Sanitizer.Segment("a"), Sanitizer.Segment("\\t", isEscape: true), Sanitizer.Segment("b"),
        ])
        #expect(Sanitizer.segments("\u{1B}\u{1B}") == [
            Sanitizer.Segment("\\x1B", isEscape: true), Sanitizer.Segment("\\x1B", isEscape: true),
        ])
        #expect(Sanitizer.segments("plain") == [Sanitizer.Segment("plain")])
        #expect(Sanitizer.segments("") == [])
        #expect(Sanitizer.segments(bytes: [0x41, 0x0A]) == [Sanitizer.Segment("A"), Sanitizer.Segment("\\n", isEscape: true)])
    }

    @Test("No output of the sanitizer ever needs escaping")
    func outputIsSafe() {
        var everything = ""
        for value in UInt32(0)..<0x3000 {
            if let scalar = Unicode.Scalar(value) { everything.unicodeScalars.append(scalar) }
        }
        let sanitized = Sanitizer.sanitize(everything)
        #expect(Sanitizer.isSafe(sanitized))
        #expect(!sanitized.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }

    // MARK: Invisible characters (issue 11, point 4)

    @Test("Invisible characters are shown as escapes: Hangul fillers, CGJ, blank braille, unassigned ignorables", arguments: [
        0x115F, 0x1160, 0x3164, 0xFFA0, 0x034F, 0x2800, 0x17B4, 0x17B5, 0x180E, 0xFFF0, 0xE0080, 0xE0100 + 0xF0, 0xE0FFF, 0xE0001,
    ] as [UInt32])
    func invisibleClasses(value: UInt32) throws {
        let scalar = try #require(Unicode.Scalar(value))
        let hex = String(value, radix: 16, uppercase: true)
        #expect(Sanitizer.sanitize("a" + String(scalar) + "b") == "a\\u{\(hex)}b")
        #expect(!Sanitizer.isSafe(" " + String(scalar)))
    }

    @Test("Tag characters outside an emoji tag sequence are escaped (hidden ASCII smuggling)")
    func strayTags() {
        let hidden = "ok\u{E0068}\u{E0069}"
        #expect(Sanitizer.sanitize(hidden) == "ok\\u{E0068}\\u{E0069}")
        // Black flag, but hidden words that are no subdivision id (too long, upper case, space).
        let smuggled = "🏴" + "ignore all".unicodeScalars.map { String(Unicode.Scalar($0.value + 0xE0000)!) }.joined() + "\u{E007F}"
        #expect(!Sanitizer.isSafe(smuggled))
        #expect(Sanitizer.sanitize(smuggled).hasPrefix("🏴\\u{E0069}"))
        // A flag sequence without its CANCEL TAG, or a lone CANCEL TAG.
        #expect(Sanitizer.sanitize("🏴\u{E0067}\u{E0062}\u{E0065}x") == "🏴\\u{E0067}\\u{E0062}\\u{E0065}x")
        #expect(Sanitizer.sanitize("a\u{E007F}") == "a\\u{E007F}")
        // Too short to be a subdivision id.
        #expect(Sanitizer.sanitize("🏴\u{E0067}\u{E007F}") == "🏴\\u{E0067}\\u{E007F}")
    }

    @Test("Emoji sequences are kept whole: subdivision flags, VS16, keycaps, ZWJ, modifiers, ideographic variation")
    func emojiSequencesKept() {
        for text in [
            "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}",  // England
            "🏴\u{E0067}\u{E0062}\u{E0077}\u{E006C}\u{E0073}\u{E007F}",  // Wales
            "❤\u{FE0F}", "☺\u{FE0E}", "1\u{FE0F}\u{20E3}", "#\u{FE0F}\u{20E3}",
            "❤\u{FE0F}\u{200D}🔥", "🏳\u{FE0F}\u{200D}🌈", "🏴\u{200D}☠\u{FE0F}",
            "👩🏽\u{200D}💻", "👨\u{200D}👩\u{200D}👧\u{200D}👦",
            "葛\u{E0100}", "≩\u{FE00}", "ᠠ\u{180B}",
        ] {
            #expect(Sanitizer.sanitize(text) == text, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(Sanitizer.isSafe(text))
        }
    }

    @Test("Variation selectors without a visible base are escaped")
    func strayVariationSelectors() {
        #expect(Sanitizer.sanitize("\u{FE0F}x") == "\\u{FE0F}x")
        #expect(Sanitizer.sanitize("a \u{FE0F}") == "a \\u{FE0F}")
        #expect(Sanitizer.sanitize("a\u{FE0F}") == "a\\u{FE0F}", "a is no emoji")
        #expect(Sanitizer.sanitize("❤\u{FE0F}\u{FE0F}") == "❤\u{FE0F}\\u{FE0F}", "a second selector hides nothing")
        #expect(Sanitizer.sanitize("\n\u{E0100}") == "\\n\\u{E0100}")
        #expect(Sanitizer.sanitize("\u{200D}\u{FE0F}") == "\u{200D}\\u{FE0F}")
    }

    @Test("Sanitizing is idempotent and the same per character as for the whole string")
    func perCharacterAndIdempotent() {
        let text = "a\u{FE0F}b🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}\u{3164}❤\u{FE0F}\u{E0041}\n\u{FE0F}x\u{2800}"
        let whole = Sanitizer.sanitize(text)
        #expect(text.map { Sanitizer.sanitize(String($0)) }.joined() == whole)
        #expect(Sanitizer.sanitize(whole) == whole)
        #expect(Sanitizer.isSafe(whole))
    }

    // MARK: JSON

    @Test("JSON: unsafe code points in strings become \\u escapes; the JSON decodes to the same value")
    func json() throws {
        let value = "e\u{1B}]0;t\u{07} \u{9B}2J \u{202E}x \u{2028}y \u{3164} \u{E0041} ❤\u{FE0F} 🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}"
        let encoded = String(decoding: try JSONSerialization.data(withJSONObject: ["k": value, "q\"\\": ["\u{85}"]]), as: UTF8.self)
        let safe = Sanitizer.sanitize(json: encoded)
        #expect(Sanitizer.isSafe(safe))
        #expect(safe.contains("\\u009b") && safe.contains("\\u2028") && safe.contains("\\u202e") && safe.contains("\\udb40\\udc41"))
        #expect(safe.contains("❤\u{FE0F}"), "emoji stay readable")
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(safe.utf8)) as? [String: Any])
        #expect(decoded["k"] as? String == value)
        #expect(decoded["q\"\\"] as? [String] == ["\u{85}"])
        #expect(Sanitizer.sanitize(json: "{\n  \"a\" : 1\r\t}") == "{\n  \"a\" : 1  }", "line breaks between tokens kept")
        #expect(Sanitizer.sanitize(json: "{\"a\":1}") == "{\"a\":1}")
    }
}
