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
///
/// Kept as they are: ZWJ (U+200D) and ZWNJ (U+200C), which emoji sequences and Persian or
/// Indic text need; emoji tag characters U+E0020–U+E007F (subdivision flags); the visible
/// "prepended concatenation marks" (U+0600–U+0605, U+06DD, U+070F, U+0890–U+0891, U+08E2,
/// U+110BD, U+110CD). Invalid UTF-8 (``sanitize(bytes:)``) becomes U+FFFD.
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

    /// Whether this code point must not reach the terminal raw (see the table on ``Sanitizer``).
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) { return true }
        if value < 0xA0 { return false }
        switch value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029:
            return true
        case 0x200C, 0x200D, 0xE0020...0xE007F,
             0x0600...0x0605, 0x06DD, 0x070F, 0x0890...0x0891, 0x08E2, 0x110BD, 0x110CD:
            return false
        default:
            switch scalar.properties.generalCategory {
            case .format, .control, .lineSeparator, .paragraphSeparator: return true
            default: return false
            }
        }
    }

    /// The visible escape for an unsafe code point (`"\\x1B"`, `"\\u{202E}"`), or `nil` when it is safe to draw.
    public static func escape(_ scalar: Unicode.Scalar) -> String? {
        guard needsEscape(scalar) else { return nil }
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
        !text.unicodeScalars.contains(where: needsEscape)
    }

    /// The text with every unsafe code point replaced by its visible escape.
    /// Returns the input unchanged (no copy) when it is already safe.
    public static func sanitize(_ text: String) -> String {
        guard !isSafe(text) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if let escaped = escape(scalar) {
                result.append(contentsOf: escaped.unicodeScalars)
            } else {
                result.append(scalar)
            }
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
        for scalar in text.unicodeScalars {
            if let escaped = escape(scalar) {
                if !run.isEmpty {
                    segments.append(Segment(String(run)))
                    run = String.UnicodeScalarView()
                }
                segments.append(Segment(escaped, isEscape: true))
            } else {
                run.append(scalar)
            }
        }
        if !run.isEmpty { segments.append(Segment(String(run))) }
        return segments
    }

    /// ``segments(_:)`` for raw bytes: invalid UTF-8 becomes U+FFFD first.
    public static func segments(bytes: some Sequence<UInt8>) -> [Segment] {
        segments(decode(bytes))
    }

    private static func decode(_ bytes: some Sequence<UInt8>) -> String {
        String(decoding: Array(bytes), as: UTF8.self)
    }

    private static func hex(_ value: UInt32, minimumDigits: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, minimumDigits - digits.count)) + digits
    }
}
