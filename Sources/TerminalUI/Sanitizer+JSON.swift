extension Sanitizer {
    /// JSON text made safe to print on a terminal, still valid JSON that decodes to the same values.
    ///
    /// Inside strings, every code point ``sanitize(_:)`` would show as a visible escape (C0, DEL,
    /// C1, bidi controls, U+2028/U+2029, invisible characters, stray variation selectors and tag
    /// characters) is written as a JSON escape instead: `\u001b`, `\u009b`, `\u202e`, `\u2028`,
    /// and a UTF-16 surrogate pair above U+FFFF (`\udb40\udc41` for U+E0041). JSON Lines readers
    /// that split on U+2028 therefore keep each record whole. Between tokens, newlines are kept
    /// (pretty-printed JSON keeps its lines) and a carriage return or tab becomes a space.
    ///
    /// Use it for every JSON line printed where a person may be watching, including JSON
    /// received from a socket and printed as it is.
    ///
    /// ```swift
    /// Sanitizer.sanitize(json: "{\"a\":\"x\u{9B}2J\"}")   // {"a":"x\u009b2J"}
    /// ```
    public static func sanitize(json: String) -> String {
        if json.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return json }
        var output = String.UnicodeScalarView()
        var content: [Unicode.Scalar] = []
        var inString = false
        var escapeNext = false
        for scalar in json.unicodeScalars {
            if inString {
                if escapeNext {
                    escapeNext = false
                } else if scalar == "\\" {
                    escapeNext = true
                } else if scalar == "\"" {
                    appendJSONString(content, to: &output)
                    content.removeAll(keepingCapacity: true)
                    inString = false
                    output.append(scalar)
                    continue
                }
                content.append(scalar)
                continue
            }
            switch scalar {
            case "\"":
                inString = true
                output.append(scalar)
            case "\n", " ":
                output.append(scalar)
            case "\r", "\t":
                output.append(" ")
            default:
                appendJSONString([scalar], to: &output)
            }
        }
        if inString { appendJSONString(content, to: &output) }
        return String(output)
    }

    private static func appendJSONString(_ scalars: [Unicode.Scalar], to output: inout String.UnicodeScalarView) {
        walk(scalars) { scalar, escaped in
            if escaped {
                for unit in String(scalar).utf16 { output.append(contentsOf: jsonEscape(unit).unicodeScalars) }
            } else {
                output.append(scalar)
            }
            return true
        }
    }

    private static func jsonEscape(_ unit: UInt16) -> String {
        let digits = String(unit, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
    }
}
