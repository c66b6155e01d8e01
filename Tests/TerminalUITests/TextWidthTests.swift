import Testing
import TerminalUI

@Suite("TextWidth")
struct TextWidthTests {
    @Test("ASCII, accents and ambiguous-width symbols are one column")
    func narrow() {
        #expect(TextWidth.width(of: "hello") == 5)
        #expect(TextWidth.width(of: "café") == 4)
        #expect(TextWidth.width(of: "…─│") == 3)
    }

    @Test("Combining marks add nothing (decomposed é is one column)")
    func combining() {
        let decomposed = "e\u{301}"
        #expect(decomposed.count == 1)
        #expect(TextWidth.width(of: decomposed) == 1)
        #expect(TextWidth.width(of: "a\u{300}\u{301}\u{302}b") == 2)
        #expect(TextWidth.width(of: Character("e\u{301}")) == 1)
    }

    @Test("East Asian wide and fullwidth characters are two columns")
    func wide() {
        #expect(TextWidth.width(of: "漢字") == 4)
        #expect(TextWidth.width(of: "こんにちは") == 10)
        #expect(TextWidth.width(of: "한국어") == 6)
        #expect(TextWidth.width(of: "ＡＢ") == 4)
        #expect(TextWidth.width(of: "\u{1100}\u{1161}\u{11A8}") == 2)   // decomposed Hangul syllable
    }

    @Test("Emoji, ZWJ sequences, flags, skin tones and keycaps are two columns each")
    func emoji() {
        #expect(TextWidth.width(of: "🙂") == 2)
        #expect(TextWidth.width(of: "👨\u{200D}👩\u{200D}👧\u{200D}👦") == 2)
        #expect(TextWidth.width(of: "👩\u{200D}💻") == 2)
        #expect(TextWidth.width(of: "🇩🇪") == 2)
        #expect(TextWidth.width(of: "👍🏽") == 2)
        #expect(TextWidth.width(of: "❤\u{FE0F}") == 2)
        #expect(TextWidth.width(of: "1\u{FE0F}\u{20E3}") == 2)
        #expect(TextWidth.width(of: "❤") == 1)
        #expect(TextWidth.width(of: "a👩\u{200D}💻b") == 4)
    }

    @Test("Unsafe characters count as the escape Buffer draws")
    func escapes() {
        #expect(TextWidth.width(of: "a\nb") == 4)
        #expect(TextWidth.width(of: "\u{1B}") == 4)
        #expect(TextWidth.width(of: "\u{202E}") == 8)
        #expect(TextWidth.width(of: "\r\n") == 4)
    }

    @Test("Truncate counts columns and never splits a wide character")
    func truncate() {
        #expect(TextWidth.truncate("hello world", to: 8) == "hello w…")
        #expect(TextWidth.truncate("hello", to: 5) == "hello")
        #expect(TextWidth.truncate("漢字漢字", to: 6) == "漢字…")
        #expect(TextWidth.width(of: TextWidth.truncate("漢字漢字", to: 6)) == 5)
        #expect(TextWidth.truncate("漢字漢字", to: 5) == "漢字…")
        #expect(TextWidth.truncate("漢字", to: 1) == "…")
        #expect(TextWidth.truncate("abc", to: 0) == "")
        #expect(TextWidth.truncate("abcdef", to: 4, ellipsis: "...") == "a...")
        #expect(TextWidth.truncate("abcdef", to: 2, ellipsis: "...") == "ab")
        #expect(TextWidth.truncate("👩\u{200D}💻👩\u{200D}💻", to: 3) == "👩\u{200D}💻…")
    }

    @Test("Pad and fit produce exact column counts with wide characters")
    func pad() {
        #expect(TextWidth.pad("漢", to: 4) == "漢  ")
        #expect(TextWidth.pad("7", to: 3, alignment: .right) == "  7")
        #expect(TextWidth.pad("ab", to: 5, alignment: .center) == " ab  ")
        #expect(TextWidth.pad("toolong", to: 3) == "toolong")
        #expect(TextWidth.fit("漢字漢字", to: 6) == "漢字… ")
        #expect(TextWidth.width(of: TextWidth.fit("漢字漢字", to: 6)) == 6)
        #expect(TextWidth.fit("ok", to: 4, alignment: .right) == "  ok")
    }

    @Test("Per-code-point widths follow wcwidth conventions")
    func scalarWidths() {
        #expect(TextWidth.scalarWidth("a") == 1)
        #expect(TextWidth.scalarWidth("漢") == 2)
        #expect(TextWidth.scalarWidth("\u{301}") == 0)
        #expect(TextWidth.scalarWidth("\u{200D}") == 0)
        #expect(TextWidth.scalarWidth("\u{1B}") == 0)
        #expect(TextWidth.scalarWidth("🙂") == 2)
    }
}
