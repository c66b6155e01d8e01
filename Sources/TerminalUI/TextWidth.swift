/// Display width of text in terminal columns, for layout that lines up.
///
/// `String.count` counts characters, not columns: `"漢字"` has 2 characters but fills 4
/// columns, `"é"` written as `e` + U+0301 is one column, `"👩‍💻"` is 3 code points drawn in
/// 2 columns. Every piece of layout (truncating a name to a column, padding a table cell,
/// clipping at the edge) must count columns, and this is the one place that does.
///
/// Rules, applied to grapheme clusters (Swift `Character`s):
/// - combining marks, ZWJ/ZWNJ, variation selectors and Hangul medial/final jamo add 0
///   (Swift already joins them into the preceding character);
/// - East Asian Wide and Fullwidth characters (CJK, kana, Hangul, fullwidth forms) and
///   emoji with emoji presentation are 2;
/// - emoji sequences (ZWJ families, skin tones, flags, keycaps, anything with VS16 U+FE0F)
///   are 2 as a whole;
/// - everything else (including East Asian Ambiguous like `…` and box drawing) is 1;
/// - a character that would be escaped by ``Sanitizer`` counts as the width of its escape
///   (`"\n"` is 2, drawn as `\n`), and a lone combining mark counts 1 (``Buffer`` draws it on
///   a dotted circle `◌`), so widths always equal what ``Buffer`` actually draws.
///
/// ```swift
/// TextWidth.width(of: "漢字")                           // 4
/// TextWidth.truncate("こんにちは", to: 7)                // "こんに…"
/// TextWidth.fit("id", to: 6, alignment: .right)         // "    id"
/// ```
public enum TextWidth {
    /// Where ``pad(_:to:alignment:)`` puts the text inside the wider field.
    public enum Alignment: Hashable, Sendable {
        /// Text first, spaces after.
        case left
        /// Spaces split around the text (the extra one goes after).
        case center
        /// Spaces first, text after (numbers, sizes, timestamps).
        case right
    }

    /// Columns of one code point on its own, like POSIX `wcwidth`: 0, 1 or 2.
    ///
    /// Code points the ``Sanitizer`` escapes count 0 here (they never reach the screen raw);
    /// use `width(of:)` for what is actually drawn.
    public static func scalarWidth(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value >= 0x20 ? 1 : 0 }
        if Sanitizer.needsEscape(scalar) { return 0 }
        if value < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format:
            return 0
        default:
            break
        }
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return 0 }
        if isWide(value) || scalar.properties.isEmojiPresentation { return 2 }
        return 1
    }

    /// Columns one grapheme cluster takes when ``Buffer`` draws it (at least 1).
    public static func width(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.count == 1 {
            if let escaped = Sanitizer.escape(first) { return escaped.unicodeScalars.count }
            return max(1, scalarWidth(first))
        }
        if scalars.contains(where: Sanitizer.needsEscape) {
            return width(of: Sanitizer.sanitize(String(character)))
        }
        if !scalars.contains("\u{FE0E}") {
            let properties = first.properties
            if properties.isEmojiPresentation { return 2 }
            if properties.isEmoji, scalars.contains(where: { scalar in
                scalar == "\u{FE0F}" || scalar == "\u{200D}" || scalar == "\u{20E3}"
                    || scalar.properties.isEmojiModifier
            }) {
                return 2
            }
        }
        return max(1, scalars.reduce(0) { $0 + scalarWidth($1) })
    }

    /// Columns a whole string takes when ``Buffer`` draws it: the sum over its characters.
    public static func width(of text: some StringProtocol) -> Int {
        var total = 0
        for character in text { total += width(of: character) }
        return total
    }

    /// Shortens text to at most `width` columns, ending in `ellipsis` when something was cut.
    ///
    /// Whole characters only: a wide character that does not fit is dropped, so the result
    /// can be one column narrower than `width` (``fit(_:to:alignment:ellipsis:)`` pads it).
    /// Text that already fits is returned unchanged. If even the ellipsis does not fit, the
    /// text is cut without one.
    ///
    /// ```swift
    /// TextWidth.truncate("hello world", to: 8)   // "hello w…"
    /// TextWidth.truncate("漢字漢字", to: 6)       // "漢字…"  (5 columns)
    /// ```
    public static func truncate(_ text: String, to width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        if self.width(of: text) <= width { return text }
        let ellipsisWidth = self.width(of: ellipsis)
        let fitsEllipsis = ellipsisWidth <= width
        let budget = fitsEllipsis ? width - ellipsisWidth : width
        var result = ""
        var used = 0
        for character in text {
            let w = self.width(of: character)
            if used + w > budget { break }
            result.append(character)
            used += w
        }
        return fitsEllipsis ? result + ellipsis : result
    }

    /// Pads text with spaces to exactly `width` columns; text already that wide or wider is returned unchanged.
    ///
    /// ```swift
    /// TextWidth.pad("漢", to: 4)                      // "漢  "
    /// TextWidth.pad("7", to: 3, alignment: .right)    // "  7"
    /// ```
    public static func pad(_ text: String, to width: Int, alignment: Alignment = .left) -> String {
        let missing = width - self.width(of: text)
        guard missing > 0 else { return text }
        switch alignment {
        case .left:
            return text + String(repeating: " ", count: missing)
        case .right:
            return String(repeating: " ", count: missing) + text
        case .center:
            let before = missing / 2
            return String(repeating: " ", count: before) + text + String(repeating: " ", count: missing - before)
        }
    }

    /// Exactly `width` columns: truncated with `ellipsis` if too long, padded if too short. The table-cell helper.
    ///
    /// ```swift
    /// TextWidth.fit("request", to: 5)   // "requ…"
    /// TextWidth.fit("ok", to: 5)        // "ok   "
    /// ```
    public static func fit(_ text: String, to width: Int, alignment: Alignment = .left, ellipsis: String = "…") -> String {
        pad(truncate(text, to: width, ellipsis: ellipsis), to: width, alignment: alignment)
    }

    private static func isWide(_ value: UInt32) -> Bool {
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let mid = (low + high) / 2
            let range = wideRanges[mid]
            if value < range.lowerBound {
                high = mid - 1
            } else if value > range.upperBound {
                low = mid + 1
            } else {
                return true
            }
        }
        return false
    }

    /// East Asian Width W and F code points (Unicode 14 EastAsianWidth.txt, assigned code points,
    /// plus the CJK blocks and planes 2–3 that default to W). Newer emoji are caught by
    /// `isEmojiPresentation`, which follows the Swift runtime's Unicode version.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0,
        0x23F3...0x23F3, 0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F,
        0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
        0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5,
        0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728,
        0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x2E99, 0x2E9B...0x2EF3, 0x2F00...0x2FD5, 0x2FF0...0x2FFB, 0x3000...0x303E,
        0x3041...0x3096, 0x3099...0x30FF, 0x3105...0x312F, 0x3131...0x318E, 0x3190...0x31E3,
        0x31F0...0x321E, 0x3220...0x3247, 0x3250...0x4DBF, 0x4E00...0xA48C, 0xA490...0xA4C6,
        0xA960...0xA97C, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE52,
        0xFE54...0xFE66, 0xFE68...0xFE6B, 0xFF01...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4,
        0x16FF0...0x16FF1, 0x17000...0x187F7, 0x18800...0x18CD5, 0x18D00...0x18D08, 0x1AFF0...0x1AFF3,
        0x1AFF5...0x1AFFB, 0x1AFFD...0x1AFFE, 0x1B000...0x1B122, 0x1B150...0x1B152, 0x1B164...0x1B167,
        0x1B170...0x1B2FB, 0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A,
        0x1F200...0x1F202, 0x1F210...0x1F23B, 0x1F240...0x1F248, 0x1F250...0x1F251, 0x1F260...0x1F265,
        0x1F300...0x1F320, 0x1F32D...0x1F335, 0x1F337...0x1F37C, 0x1F37E...0x1F393, 0x1F3A0...0x1F3CA,
        0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0, 0x1F3F4...0x1F3F4, 0x1F3F8...0x1F43E, 0x1F440...0x1F440,
        0x1F442...0x1F4FC, 0x1F4FF...0x1F53D, 0x1F54B...0x1F54E, 0x1F550...0x1F567, 0x1F57A...0x1F57A,
        0x1F595...0x1F596, 0x1F5A4...0x1F5A4, 0x1F5FB...0x1F64F, 0x1F680...0x1F6C5, 0x1F6CC...0x1F6CC,
        0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6D7, 0x1F6DD...0x1F6DF, 0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC,
        0x1F7E0...0x1F7EB, 0x1F7F0...0x1F7F0, 0x1F90C...0x1F93A, 0x1F93C...0x1F945, 0x1F947...0x1F9FF,
        0x1FA70...0x1FA74, 0x1FA78...0x1FA7C, 0x1FA80...0x1FA86, 0x1FA90...0x1FAAC, 0x1FAB0...0x1FABA,
        0x1FAC0...0x1FAC5, 0x1FAD0...0x1FAD9, 0x1FAE0...0x1FAE7, 0x1FAF0...0x1FAF6, 0x20000...0x3FFFD,
    ]
}
