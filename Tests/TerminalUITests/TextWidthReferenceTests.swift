import Testing
import TerminalUI
#if canImport(Glibc)
import Glibc
#endif

/// Issue 11, point 7: ``TextWidth`` agrees with the terminal. Every code point is compared with
/// glibc's `wcwidth` in C.UTF-8; the deliberate differences are the ones `TextWidth`'s doc
/// comment lists, and nothing else.
@Suite("TextWidth against glibc wcwidth")
struct TextWidthReferenceTests {
    /// Where `TextWidth` deliberately differs from glibc 2.36 (Unicode 14), with the width it gives.
    static let deliberate: [(range: ClosedRange<UInt32>, width: Int)] = [
        (0x2630...0x2637, 2), (0x268A...0x268F, 2), (0x1D300...0x1D356, 2), (0x1D360...0x1D376, 2),  // wide since Unicode 16
        (0x1F1E6...0x1F1FF, 2),  // regional indicators
        (0x3248...0x324F, 1),  // East Asian Ambiguous
        (0x1171E...0x1171E, 1),  // a spacing mark since Unicode 16
    ]

    @Test("Every code point's width is glibc's wcwidth, but for the documented differences")
    func everyCodePoint() {
        #if canImport(Glibc)
        // uselocale changes this thread's locale only: tests running in parallel are not affected.
        guard let utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil) else {
            Issue.record("the C.UTF-8 locale is not available")
            return
        }
        let previous = uselocale(utf8)
        defer {
            uselocale(previous)
            freelocale(utf8)
        }
        // Glibc's Swift module leaves wcwidth out (it needs _XOPEN_SOURCE): look it up by name.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "wcwidth") else {
            Issue.record("glibc's wcwidth not found")
            return
        }
        let wcwidth = unsafeBitCast(symbol, to: (@convention(c) (wchar_t) -> Int32).self)
        #expect(wcwidth(0x6F22) == 2, "glibc's wcwidth works in C.UTF-8")
        var mismatches: [String] = []
        var compared = 0
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let ours = TextWidth.scalarWidth(scalar)
            if let difference = Self.deliberate.first(where: { $0.range.contains(value) }) {
                if ours != difference.width { mismatches.append(String(format: "U+%04X: %d, documented %d", value, ours, difference.width)) }
                continue
            }
            let glibc = Int(wcwidth(wchar_t(bitPattern: value)))
            if glibc < 0 { continue }  // unknown to glibc's Unicode 14, or a control
            if !Sanitizer.isSafe(String(scalar)) {
                if ours != 0 { mismatches.append(String(format: "U+%04X: escaped but %d", value, ours)) }
                continue
            }
            compared += 1
            if ours != glibc { mismatches.append(String(format: "U+%04X: %d, glibc %d", value, ours, glibc)) }
        }
        #expect(compared > 280_000, "most code points are compared")
        #expect(mismatches.isEmpty, "\(mismatches.count) differences: \(mismatches.prefix(60).joined(separator: "; "))")
        #endif
    }

    @Test("Yijing hexagrams and the symbols Unicode 16 made wide take two columns")
    func newlyWide() {
        for text in ["\u{4DC0}", "\u{4DFF}", "\u{2630}", "\u{268A}", "\u{1D300}", "\u{1D376}", "\u{1FAE9}"] {
            #expect(TextWidth.width(of: text) == 2, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test("Invisible characters count the width of their visible escape; emoji sequences stay 2")
    func invisibleWidths() {
        #expect(TextWidth.width(of: "\u{3164}") == "\\u{3164}".count)
        #expect(TextWidth.width(of: "a\u{FE0F}") == 1 + "\\u{FE0F}".count)
        #expect(TextWidth.width(of: "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}") == 2)
        #expect(TextWidth.width(of: "🏴\u{E0041}\u{E007F}") == 2 + 2 * "\\u{E0041}".count)
        #expect(TextWidth.width(of: "❤\u{FE0F}") == 2)
    }
}
