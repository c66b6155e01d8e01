/// Finds the first syntax mistake in JSON text and says where it is, in words a person can act on.
///
/// Foundation's decoders only say "The given data was not valid JSON". The bridge uses this check
/// to turn that into `Failed to decode message: invalid JSON at line 1, column 17: expected ':' after
/// an object key`, and the inspector uses it to validate JSON as it is typed.
///
/// It also bounds nesting depth, so a hostile, deeply nested message is refused before any
/// recursive decoder sees it.
///
/// ```swift
/// if let problem = JSONSyntaxCheck.firstProblem(in: Array(text.utf8)) {
///     print(problem)   // "line 1, column 9: expected a value, found '}'"
/// }
/// ```
public enum JSONSyntaxCheck {
    /// The default limit on nesting of objects and arrays.
    public static let defaultMaxDepth = 100

    /// The most any `maxDepth` given to this check or to ``JSONParser`` can be: a larger one is
    /// taken as this. Both recurse once per level; 256 levels stay inside a 512 KiB thread stack
    /// even in a debug build (measured: about 350 fill it), so nesting 100,000 deep is refused,
    /// never a crash.
    public static let maximumDepth = 256

    /// `maxDepth` within `1...maximumDepth`.
    public static func clampedDepth(_ maxDepth: Int) -> Int { min(max(maxDepth, 1), maximumDepth) }

    /// Where JSON text goes wrong.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// Zero-based byte offset of the mistake.
        public var offset: Int
        /// One-based line of the mistake.
        public var line: Int
        /// One-based column (in bytes) of the mistake.
        public var column: Int
        /// What was expected, and what was found instead.
        public var reason: String

        /// `line L, column C: reason`.
        public var description: String { "line \(line), column \(column): \(reason)" }

        /// The one-based column of the mistake in characters, what a person sees and counts
        /// (`column` counts bytes, so `é` counts two there), from the first character of its
        /// line in `bytes` (the text that was checked), leading spaces included: the column
        /// both the inspector's data fields and the CLI's `--data` report.
        public func characterColumn(in bytes: some BidirectionalCollection<UInt8>) -> Int {
            let end = min(max(offset, 0), bytes.count)
            let before = bytes.prefix(end)
            let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { before.index(after: $0) } ?? before.startIndex
            return String(decoding: before[lineStart...], as: UTF8.self).count + 1
        }

        /// `line L, column C: reason`, with the column in characters of `bytes` (the text that
        /// was checked; see ``characterColumn(in:)``).
        public func describe(in bytes: some BidirectionalCollection<UInt8>) -> String {
            "line \(line), column \(characterColumn(in: bytes)): \(reason)"
        }
    }

    /// Returns the first problem in `bytes`, or `nil` when they hold exactly one valid JSON value
    /// (surrounded by optional whitespace) nested at most `maxDepth` deep.
    public static func firstProblem(in bytes: some Collection<UInt8>, maxDepth: Int = defaultMaxDepth) -> Problem? {
        let result: Problem?? = bytes.withContiguousStorageIfAvailable { buffer in
            var scanner = Scanner(bytes: buffer, maxDepth: maxDepth)
            return scanner.run()
        }
        if let result { return result }
        let copy = Array(bytes)
        return copy.withUnsafeBufferPointer { buffer in
            var scanner = Scanner(bytes: buffer, maxDepth: maxDepth)
            return scanner.run()
        }
    }

    /// Returns the first problem in `text`, or `nil` when it is valid JSON.
    public static func firstProblem(in text: String, maxDepth: Int = defaultMaxDepth) -> Problem? {
        var text = text
        return text.withUTF8 { firstProblem(in: $0, maxDepth: maxDepth) }
    }

    private struct Failure: Error {
        var offset: Int
        var reason: String
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        let maxDepth: Int
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
            self.bytes = bytes
            self.maxDepth = JSONSyntaxCheck.clampedDepth(maxDepth)
        }

        mutating func run() -> Problem? {
            do {
                skipWhitespace()
                if index == bytes.count { throw Failure(offset: index, reason: "the text is empty; expected a JSON value") }
                try value(depth: 0)
                skipWhitespace()
                if index < bytes.count {
                    throw Failure(offset: index, reason: "unexpected \(describe(index)) after the end of the JSON value")
                }
                return nil
            } catch let failure as Failure {
                return problem(failure)
            } catch {
                return nil
            }
        }

        func problem(_ failure: Failure) -> Problem {
            var line = 1
            var lineStart = 0
            var position = 0
            let end = min(failure.offset, bytes.count)
            while position < end {
                if bytes[position] == UInt8(ascii: "\n") {
                    line += 1
                    lineStart = position + 1
                }
                position += 1
            }
            return Problem(offset: failure.offset, line: line, column: failure.offset - lineStart + 1, reason: failure.reason)
        }

        func describe(_ position: Int) -> String {
            guard position < bytes.count else { return "end of text" }
            let byte = bytes[position]
            if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
            if byte == 0x20 { return "a space" }
            return "byte 0x" + String(byte, radix: 16, uppercase: true)
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x0A, 0x0D, 0x09: index += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) throws {
            guard index < bytes.count else { throw Failure(offset: index, reason: "unexpected end of text; expected a value") }
            switch bytes[index] {
            case UInt8(ascii: "{"): try object(depth: depth + 1)
            case UInt8(ascii: "["): try array(depth: depth + 1)
            case UInt8(ascii: "\""): try string()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            default:
                throw Failure(offset: index, reason: "expected a value, found \(describe(index))")
            }
        }

        mutating func checkDepth(_ depth: Int) throws {
            if depth > maxDepth {
                throw Failure(offset: index, reason: "nesting is deeper than \(maxDepth) levels")
            }
        }

        mutating func object(depth: Int) throws {
            try checkDepth(depth)
            index += 1
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return
            }
            while true {
                skipWhitespace()
                guard index < bytes.count else { throw Failure(offset: index, reason: "unexpected end of text inside an object; expected '\"' to start a key") }
                guard bytes[index] == UInt8(ascii: "\"") else {
                    throw Failure(offset: index, reason: "expected '\"' to start an object key, found \(describe(index))")
                }
                try string()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                    throw Failure(offset: index, reason: "expected ':' after an object key, found \(describe(index))")
                }
                index += 1
                skipWhitespace()
                try value(depth: depth)
                skipWhitespace()
                guard index < bytes.count else { throw Failure(offset: index, reason: "unexpected end of text inside an object; expected ',' or '}'") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return
                }
                throw Failure(offset: index, reason: "expected ',' or '}' in an object, found \(describe(index))")
            }
        }

        mutating func array(depth: Int) throws {
            try checkDepth(depth)
            index += 1
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return
            }
            while true {
                skipWhitespace()
                try value(depth: depth)
                skipWhitespace()
                guard index < bytes.count else { throw Failure(offset: index, reason: "unexpected end of text inside an array; expected ',' or ']'") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return
                }
                throw Failure(offset: index, reason: "expected ',' or ']' in an array, found \(describe(index))")
            }
        }

        mutating func literal(_ word: StaticString) throws {
            let start = index
            let count = word.utf8CodeUnitCount
            let matches = word.withUTF8Buffer { expected -> Bool in
                guard bytes.count - index >= count else { return false }
                for offset in 0..<count where bytes[index + offset] != expected[offset] { return false }
                return true
            }
            guard matches else { throw Failure(offset: start, reason: "expected a value, found \(describe(start)) (did you mean \(word)?)") }
            index += count
        }

        mutating func number() throws {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw Failure(offset: index, reason: "expected a digit in a number, found \(describe(index))")
            }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
                if index < bytes.count, isDigit(bytes[index]) {
                    throw Failure(offset: start, reason: "numbers must not have leading zeros")
                }
            } else {
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard index < bytes.count, isDigit(bytes[index]) else {
                    throw Failure(offset: index, reason: "expected a digit after '.', found \(describe(index))")
                }
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard index < bytes.count, isDigit(bytes[index]) else {
                    throw Failure(offset: index, reason: "expected a digit in an exponent, found \(describe(index))")
                }
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            // A number too large for a Double (1e400) is valid JSON text but no decoder can hold it.
            let digits = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            if let parsed = Double(digits), !parsed.isFinite {
                throw Failure(offset: start, reason: "the number \(digits) is too large to represent")
            }
        }

        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

        func isHex(_ byte: UInt8) -> Bool {
            isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
        }

        mutating func string() throws {
            let start = index
            index += 1
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return
                }
                if byte == UInt8(ascii: "\\") {
                    index += 1
                    guard index < bytes.count else { break }
                    switch bytes[index] {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                        UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        index += 1
                    case UInt8(ascii: "u"):
                        index += 1
                        try surrogateAwareEscape(escapeStart: index - 2)
                    default:
                        throw Failure(offset: index, reason: "invalid escape '\\\(describe(index).trimmingQuotes)' in a string")
                    }
                    continue
                }
                if byte < 0x20 {
                    throw Failure(offset: index, reason: "control character \(describe(index)) inside a string must be escaped")
                }
                if byte < 0x80 {
                    index += 1
                    continue
                }
                try utf8Sequence()
            }
            throw Failure(offset: start, reason: "unterminated string (no closing '\"')")
        }

        /// The 4 hex digits of a `\\u` escape at `index`, as a number.
        mutating func hex4() throws -> UInt32 {
            var code: UInt32 = 0
            for _ in 0..<4 {
                guard index < bytes.count, isHex(bytes[index]) else {
                    throw Failure(offset: index, reason: "expected 4 hex digits after '\\u' in a string")
                }
                let byte = bytes[index]
                let digit = isDigit(byte) ? byte - UInt8(ascii: "0") : (byte | 0x20) - UInt8(ascii: "a") + 10
                code = code << 4 | UInt32(digit)
                index += 1
            }
            return code
        }

        /// The rest of a `\\u` escape (after `\\u`), and the low half that must follow a high
        /// surrogate: a string must be valid Unicode, and a lone surrogate is not.
        mutating func surrogateAwareEscape(escapeStart: Int) throws {
            let code = try hex4()
            let spelled = "'\\u" + String(code, radix: 16, uppercase: false).leftPadded(to: 4) + "'"
            if (0xDC00...0xDFFF).contains(code) {
                throw Failure(
                    offset: escapeStart,
                    reason: "lone UTF-16 surrogate \(spelled) in a string: a low surrogate is only valid right after a high one (\\ud800-\\udbff)")
            }
            guard (0xD800...0xDBFF).contains(code) else { return }
            let lowStart = index
            if bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                index += 2
                if (0xDC00...0xDFFF).contains(try hex4()) { return }
            }
            index = lowStart
            throw Failure(
                offset: escapeStart,
                reason: "lone UTF-16 surrogate \(spelled) in a string: a high surrogate must be followed by a low one (\\udc00-\\udfff)")
        }

        /// Validates one multi-byte UTF-8 sequence starting at `index`.
        mutating func utf8Sequence() throws {
            let lead = bytes[index]
            let length: Int
            var minimum: UInt32
            var scalar: UInt32
            switch lead {
            case 0xC2...0xDF: length = 2; scalar = UInt32(lead & 0x1F); minimum = 0x80
            case 0xE0...0xEF: length = 3; scalar = UInt32(lead & 0x0F); minimum = 0x800
            case 0xF0...0xF4: length = 4; scalar = UInt32(lead & 0x07); minimum = 0x10000
            default: throw Failure(offset: index, reason: "invalid UTF-8 (\(describe(index)))")
            }
            guard bytes.count - index >= length else { throw Failure(offset: index, reason: "truncated UTF-8 sequence") }
            for offset in 1..<length {
                let next = bytes[index + offset]
                guard next & 0xC0 == 0x80 else { throw Failure(offset: index + offset, reason: "invalid UTF-8 (\(describe(index + offset)))") }
                scalar = scalar << 6 | UInt32(next & 0x3F)
            }
            if scalar < minimum || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) {
                throw Failure(offset: index, reason: "invalid UTF-8 sequence")
            }
            index += length
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }

    fileprivate var trimmingQuotes: String {
        count >= 2 && first == "'" && last == "'" ? String(dropFirst().dropLast()) : self
    }
}
