import Foundation

/// A small, strict JSON parser into ``JSONValue``, for the paths that see every message: the
/// host decoding what the journey sends, and an inspector decoding what the agent streams.
///
/// Foundation's `JSONDecoder` spends most of its time in generic `Codable` machinery (and, for
/// `JSONValue`, in the errors its try-each-type decoding throws); parsing straight into
/// `JSONValue` is several times faster. It is also the one place that decides what JSON text
/// means (`docs/bridge-protocol.md`, section 2, "One JSON rule"), together with
/// ``JSONSyntaxCheck``, which refuses exactly what this parser refuses and says where and why:
///
/// ```swift
/// if let problem = JSONSyntaxCheck.firstProblem(in: bytes) { throw problem }  // line, column, reason
/// let value = JSONParser.parse(bytes)                                          // then never nil
/// ```
///
/// It returns `nil` for: invalid syntax (RFC 8259), nesting deeper than `maxDepth` (at most
/// ``JSONSyntaxCheck/maximumDepth``), a number too large for a `Double` (JSON cannot carry the
/// infinity it would become), an unpaired UTF-16 surrogate escape (`"\ud800"`), and invalid
/// UTF-8. A number too small for a `Double` becomes `0` (or the nearest subnormal), and an object
/// with the same key twice keeps the last value, both as the journey's `JSON.parse` does.
public struct JSONParser {
    private let bytes: UnsafeRawBufferPointer
    private let maxDepth: Int
    private var index = 0

    /// Parses `data` as exactly one JSON value, with optional whitespace around it.
    public static func parse(_ data: some ContiguousBytes, maxDepth: Int = JSONSyntaxCheck.defaultMaxDepth) -> JSONValue? {
        data.withUnsafeBytes { buffer -> JSONValue? in
            var parser = JSONParser(bytes: buffer, maxDepth: maxDepth)
            guard let value = parser.value(depth: 0) else { return Optional.none }
            parser.skipWhitespace()
            // Spelled out: `JSONValue` is `ExpressibleByNilLiteral`, so a bare `nil` beside a
            // `JSONValue` would become `.null`.
            guard parser.index == buffer.count else { return Optional.none }
            return value
        }
    }

    private init(bytes: UnsafeRawBufferPointer, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = JSONSyntaxCheck.clampedDepth(maxDepth)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    /// Consumes `byte` if it is next.
    private mutating func take(_ byte: UInt8) -> Bool {
        guard current == byte else { return false }
        index += 1
        return true
    }

    private mutating func value(depth: Int) -> JSONValue? {
        skipWhitespace()
        switch current {
        case UInt8(ascii: "{"): return object(depth: depth + 1)
        case UInt8(ascii: "["): return array(depth: depth + 1)
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        case .some: return number().map(JSONValue.number)
        case nil: return nil
        }
    }

    private mutating func literal(_ word: StaticString, _ result: JSONValue) -> JSONValue? {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return nil }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return nil }
        index += count
        return result
    }

    private mutating func object(depth: Int) -> JSONValue? {
        guard depth <= maxDepth else { return nil }
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if take(UInt8(ascii: "}")) { return .object(members) }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\""), let key = string() else { return nil }
            skipWhitespace()
            guard take(UInt8(ascii: ":")), let member = value(depth: depth) else { return nil }
            // The last of duplicate keys wins, as in the journey's `JSON.parse`.
            members[key] = member
            skipWhitespace()
            if take(UInt8(ascii: ",")) { continue }
            guard take(UInt8(ascii: "}")) else { return Optional.none }
            return .object(members)
        }
    }

    private mutating func array(depth: Int) -> JSONValue? {
        guard depth <= maxDepth else { return nil }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if take(UInt8(ascii: "]")) { return .array(elements) }
        while true {
            guard let element = value(depth: depth) else { return nil }
            elements.append(element)
            skipWhitespace()
            if take(UInt8(ascii: ",")) { continue }
            guard take(UInt8(ascii: "]")) else { return Optional.none }
            return .array(elements)
        }
    }

    /// A string, starting at its opening quote.
    private mutating func string() -> String? {
        index += 1
        let start = index
        // Most strings have no escapes: validate and copy them in one go.
        while let byte = current {
            if byte == UInt8(ascii: "\"") {
                let text = String(validating: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { return nil }
            index += 1
        }
        guard current != nil else { return nil }
        var utf8 = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while let byte = current {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(validating: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escape = current else { return nil }
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = escapedScalar() else { return nil }
                    UTF8.encode(scalar) { utf8.append($0) }
                default:
                    return nil
                }
            default:
                if byte < 0x20 { return nil }
                utf8.append(byte)
            }
        }
        return nil
    }

    /// The scalar of a `\uXXXX` escape (its `\u` already consumed), joining a surrogate pair.
    private mutating func escapedScalar() -> Unicode.Scalar? {
        guard let high = hex4() else { return nil }
        if (0xDC00..<0xE000).contains(high) { return nil }
        guard (0xD800..<0xDC00).contains(high) else { return Unicode.Scalar(high) }
        guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
        return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
    }

    private mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            code = code << 4 | UInt32(digit)
            index += 1
        }
        return code
    }

    private static func isDigit(_ byte: UInt8?) -> Bool {
        guard let byte else { return false }
        return byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func skipDigits() -> Bool {
        let start = index
        while Self.isDigit(current) { index += 1 }
        return index > start
    }

    private mutating func number() -> Double? {
        let start = index
        let negative = take(UInt8(ascii: "-"))
        if take(UInt8(ascii: "0")) {
            // A leading zero stands alone.
        } else if current.map({ $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "9") }) == true {
            _ = skipDigits()
        } else {
            return nil
        }
        var isInteger = true
        if take(UInt8(ascii: ".")) {
            isInteger = false
            guard skipDigits() else { return nil }
        }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            isInteger = false
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard skipDigits() else { return nil }
        }
        let digits = UnsafeRawBufferPointer(rebasing: bytes[(negative ? start + 1 : start)..<index])
        // Up to 15 digits an integer is exact as a Double; build it without a string.
        if isInteger, digits.count <= 15 {
            var value: Int64 = 0
            for byte in digits { value = value * 10 + Int64(byte - UInt8(ascii: "0")) }
            return negative ? -Double(value) : Double(value)
        }
        guard let text = String(validating: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self),
            let value = Double(text), value.isFinite
        else { return nil }
        return value
    }
}
