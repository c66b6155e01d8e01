/// Turns untrusted text into text that is safe to draw on a terminal (terminal-injection hygiene).
///
/// Anything a bridge peer sends (message bodies, names, errors) can contain bytes that a
/// terminal interprets: escape sequences that clear the screen or retitle the window,
/// carriage returns and backspaces that overwrite what is already shown, bidi overrides
/// that reorder text (Trojan Source), invisible characters that make two names look equal.
/// The sanitizer replaces every such code point with a visible escape, so the user sees
/// exactly what was sent and the terminal receives only printable text.
///
/// Escape scheme (one consistent, Swift/C-like notation):
///
/// | Input                                   | Shown as                 |
/// |-----------------------------------------|--------------------------|
/// | newline, carriage return, tab           | `\n`, `\r`, `\t`         |
/// | other C0 controls (incl. ESC, BEL, NUL) and DEL | `\x1B`, `\x07`, `\x00`, `\x7F` |
/// | C1 controls U+0080–U+009F               | `\u{9B}`, `\u{85}`       |
/// | bidi controls U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069 | `\u{202E}` |
/// | line/paragraph separators U+2028, U+2029 | `\u{2028}`              |
/// | other invisible format characters (general category Cf: ZWSP U+200B, BOM U+FEFF, soft hyphen, word joiner…) | `\u{200B}` |
/// | other invisible characters: every Unicode Default_Ignorable_Code_Point (Hangul fillers U+115F, U+1160, U+3164, U+FFA0, combining grapheme joiner U+034F, Khmer U+17B4/U+17B5, U+E0000–U+E0FFF…) and the blank braille pattern U+2800 | `\u{3164}` |
///
/// Kept as they are: ZWJ (U+200D) and ZWNJ (U+200C), which emoji ZWJ sequences and Persian or
/// Indic text need; the visible "prepended concatenation marks" (U+0600–U+0605, U+06DD, U+070F,
/// U+0890–U+0891, U+08E2, U+110BD, U+110CD). Invalid UTF-8 (``sanitize(bytes:)``) becomes U+FFFD.
///
/// Kept only where they are part of a valid sequence, escaped anywhere else (so they can neither
/// hide text nor make two names look equal, yet emoji are drawn whole):
/// - a variation selector (U+FE00–U+FE0F, U+E0100–U+E01EF, Mongolian U+180B–U+180D, U+180F)
///   directly after a visible base: a code point that is not whitespace, not escaped and not
///   itself default-ignorable. The emoji selectors U+FE0E/U+FE0F need a base with the Emoji
///   property (`❤️`, the keycap `1️⃣`). A second selector in a row, or one after a space, a
///   control or ZWJ, is escaped.
/// - tag characters, only in an emoji tag sequence as flags of subdivisions use it: U+1F3F4
///   (black flag), then 3 to 7 tags for lower-case letters and digits (U+E0030–U+E0039,
///   U+E0061–U+E007A; a CLDR subdivision id such as `gbeng`), then CANCEL TAG U+E007F. The
///   England flag `🏴` + `gbeng` + U+E007F is kept whole; any other tag character (hidden
///   "ASCII smuggling" text, a sequence without its end, a lone CANCEL TAG) is escaped one by one.
///
/// All of these rules look only inside one grapheme cluster, so sanitizing a string or each of
/// its `Character`s gives the same result, and sanitizing twice changes nothing.
///
/// A literal backslash is *not* doubled, so `C:\new` stays readable; to tell a real escape from
/// text that merely looks like one, draw with ``segments(_:)`` (``Buffer`` does: escapes are dim).
///
/// Policy: sanitize where data comes in, and again in every widget that draws it.
/// ``Buffer/write(_:at:style:maxWidth:)`` always sanitizes, so even a forgotten call cannot
/// put a control character on screen.
///
/// ```swift
/// Sanitizer.sanitize("evil\u{1B}[2Jname")      // "evil\\x1B[2Jname"
/// Sanitizer.sanitize(bytes: [0x61, 0xFF, 0x62]) // "a\u{FFFD}b"
/// ```
public enum Sanitizer {
    /// A run of display text: either text copied through unchanged, or the visible escape of
    /// one unsafe code point (``isEscape`` is true), which a renderer should style distinctly (dim).
    public struct Segment: Hashable, Sendable {
        /// The characters to draw; never contains a character that needs escaping.
        public var text: String
        /// True when ``text`` is an escape such as `\x1B` standing for one unsafe code point.
        public var isEscape: Bool

        /// Creates a segment (mainly for tests comparing ``Sanitizer/segments(_:)`` output).
        public init(_ text: String, isEscape: Bool = false) {
            self.text = text
            self.isEscape = isEscape
        }
    }

    /// Whether this code point is escaped wherever it stands (see the table on ``Sanitizer``).
    ///
    /// Variation selectors and the tag characters U+E0020–U+E007F return `false`: they are
    /// kept or escaped depending on their neighbours, so check text with ``isSafe(_:)``.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) { return true }
        if value < 0xA0 { return false }
        switch value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029, 0x2800:
            return true
        case 0x200C, 0x200D, 0xE0020...0xE007F:
            return false
        default:
            if isPrependedConcatenationMark(value) { return false }
            if isVariationSelector(value) { return false }
            let properties = scalar.properties
            if properties.isDefaultIgnorableCodePoint { return true }
            switch properties.generalCategory {
            case .format, .control, .lineSeparator, .paragraphSeparator: return true
            default: return false
            }
        }
    }

    /// The visible escape for a code point that is escaped wherever it stands (`"\\x1B"`,
    /// `"\\u{202E}"`), or `nil` when ``needsEscape(_:)`` is false.
    public static func escape(_ scalar: Unicode.Scalar) -> String? {
        guard needsEscape(scalar) else { return nil }
        return visibleEscape(scalar)
    }

    /// The visible escape of any code point, whether or not it needs one.
    static func visibleEscape(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        case let value where value < 0x20 || value == 0x7F:
            return "\\x" + hex(value, minimumDigits: 2)
        case let value:
            return "\\u{" + hex(value, minimumDigits: 2) + "}"
        }
    }

    /// Whether the text can be drawn as it is (no code point needs escaping). Fast check before copying.
    public static func isSafe(_ text: some StringProtocol) -> Bool {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return true }
        return walk(text.unicodeScalars) { _, escaped in !escaped }
    }

    /// The text with every unsafe code point replaced by its visible escape.
    /// Returns the input unchanged (no copy) when it is already safe.
    public static func sanitize(_ text: String) -> String {
        guard !isSafe(text) else { return text }
        var result = String.UnicodeScalarView()
        walk(text.unicodeScalars) { scalar, escaped in
            if escaped {
                result.append(contentsOf: visibleEscape(scalar).unicodeScalars)
            } else {
                result.append(scalar)
            }
            return true
        }
        return String(result)
    }

    /// Decodes untrusted bytes as UTF-8 (each invalid sequence becomes U+FFFD) and sanitizes the result.
    /// Use this for payloads read from a socket before they are ever turned into a `String` elsewhere.
    public static func sanitize(bytes: some Sequence<UInt8>) -> String {
        sanitize(decode(bytes))
    }

    /// Splits text into runs of safe text and escapes, so a renderer can style the escapes.
    ///
    /// ```swift
    /// Sanitizer.segments("a\tb")
    /// // [Segment("a"), Segment("\\t", isEscape: true), Segment("b")]
    /// ```
    public static func segments(_ text: String) -> [Segment] {
        guard !isSafe(text) else { return text.isEmpty ? [] : [Segment(text)] }
        var segments: [Segment] = []
        var run = String.UnicodeScalarView()
        walk(text.unicodeScalars) { scalar, escaped in
            if escaped {
                if !run.isEmpty {
                    segments.append(Segment(String(run)))
                    run = String.UnicodeScalarView()
                }
                segments.append(Segment(visibleEscape(scalar), isEscape: true))
            } else {
                run.append(scalar)
            }
            return true
        }
        if !run.isEmpty { segments.append(Segment(String(run))) }
        return segments
    }

    /// ``segments(_:)`` for raw bytes: invalid UTF-8 becomes U+FFFD first.
    public static func segments(bytes: some Sequence<UInt8>) -> [Segment] {
        segments(decode(bytes))
    }

    /// Calls `body` with each code point and whether it is escaped, in order, until `body`
    /// returns false; false when it stopped early. The one place the rules that depend on
    /// neighbours (variation selectors, emoji tag sequences) are applied.
    @discardableResult
    static func walk(_ scalars: some Sequence<Unicode.Scalar>, _ body: (Unicode.Scalar, Bool) -> Bool) -> Bool {
        // The last code point when it was kept (a variation selector may follow it if it is a base).
        var previous: Unicode.Scalar?
        // After U+1F3F4: the tag characters seen so far, kept only if CANCEL TAG ends them.
        var inFlag = false
        var tags: [Unicode.Scalar] = []
        for scalar in scalars {
            let value = scalar.value
            if inFlag {
                if tags.count < maximumTags, (0xE0030...0xE0039).contains(value) || (0xE0061...0xE007A).contains(value) {
                    tags.append(scalar)
                    continue
                }
                inFlag = false
                if value == 0xE007F, tags.count >= minimumTags {
                    for tag in tags where !body(tag, false) { return false }
                    tags.removeAll()
                    previous = nil
                    if !body(scalar, false) { return false }
                    continue
                }
                for tag in tags where !body(tag, true) { return false }
                tags.removeAll()
            }
            let escaped: Bool
            if value < 0x7F {
                escaped = value < 0x20
                previous = escaped ? nil : scalar
            } else if isVariationSelector(value) {
                if let previous, isBase(previous), value != 0xFE0E && value != 0xFE0F || previous.properties.isEmoji {
                    escaped = false
                } else {
                    escaped = true
                }
                previous = nil
            } else if (0xE0020...0xE007F).contains(value) {
                escaped = true
                previous = nil
            } else {
                escaped = needsEscape(scalar)
                previous = escaped ? nil : scalar
                if value == 0x1F3F4 { inFlag = true }
            }
            if !body(scalar, escaped) { return false }
        }
        for tag in tags where !body(tag, true) { return false }
        return true
    }

    /// Whether a kept code point is a visible base a variation selector may follow: not a space,
    /// not ZWJ/ZWNJ or another default-ignorable code point.
    private static func isBase(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x7F { return scalar.value != 0x20 }
        let properties = scalar.properties
        return !properties.isWhitespace && !properties.isDefaultIgnorableCodePoint
    }

    /// Whether a grapheme cluster of this one code point is escaped (a lone variation selector
    /// or tag character has nothing to belong to).
    static func escapesAlone(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x7F { return value < 0x20 }
        return needsEscape(scalar) || isVariationSelector(value) || (0xE0020...0xE007F).contains(value)
    }

    /// The length of a CLDR subdivision id (`gbeng`, `usca`) in an emoji tag sequence.
    private static let minimumTags = 3
    private static let maximumTags = 7

    /// The format characters that are drawn (Arabic number sign and the like): kept, one column.
    static func isPrependedConcatenationMark(_ value: UInt32) -> Bool {
        switch value {
        case 0x0600...0x0605, 0x06DD, 0x070F, 0x0890...0x0891, 0x08E2, 0x110BD, 0x110CD: return true
        default: return false
        }
    }

    /// Variation selectors: U+FE00–U+FE0F, U+E0100–U+E01EF and the Mongolian free variation selectors.
    static func isVariationSelector(_ value: UInt32) -> Bool {
        (0xFE00...0xFE0F).contains(value) || (0xE0100...0xE01EF).contains(value)
            || (0x180B...0x180D).contains(value) || value == 0x180F
    }

    private static func decode(_ bytes: some Sequence<UInt8>) -> String {
        String(decoding: Array(bytes), as: UTF8.self)
    }

    private static func hex(_ value: UInt32, minimumDigits: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, minimumDigits - digits.count)) + digits
    }
}
