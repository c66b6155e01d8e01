import BridgeCore

/// How a contract violation quotes a value it found: short, and with every control character
/// (C0, DEL, C1) and bidirectional override written as an escape, so a 1 MB string, a newline
/// or an escape sequence in a message makes a short, one-line reason.
enum ContractText {
    /// The most characters of a string quoted.
    static let limit = 40

    /// `text` in double quotes, at most ``limit`` characters (then `…`), control characters
    /// escaped (`\n`, `\u{1b}`). Reads no more of `text` than it shows.
    static func quoted(_ text: String) -> String {
        var shown = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit { return "\"" + shown + "…\"" }
            shown += escaped(scalar)
            count += 1
        }
        return "\"" + shown + "\""
    }

    /// A JSON value in a few words, never its whole text: a string quoted, a number, a boolean,
    /// or only the kind of a container ("an object", "an array").
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): return "the string " + quoted(text)
        case .number(let number): return "the number " + numberText(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// A number as JSON shows it: whole numbers without a fraction.
    static func numberText(_ number: Double) -> String {
        if number.isFinite, number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        return String(number)
    }

    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        case 0x22: return "\\\""
        case 0x5C: return "\\\\"
        case 0x00..<0x20, 0x7F..<0xA0, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029:
            return "\\u{" + String(scalar.value, radix: 16) + "}"
        default: return String(scalar)
        }
    }
}
