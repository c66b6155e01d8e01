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
}
