/// Finds the first syntax mistake in JSON text and says where it is, in words a person can act on:
/// `JSONParser`'s single pass, run without building the value.
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
    public static let defaultMaxDepth = BridgeMessageCodec.defaultMaxDepth

    /// The most any `maxDepth` given to this check or to `JSONParser` can be: a larger one is
    /// taken as this. The parser recurses once per level; 256 levels stay inside a 512 KiB thread stack
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
    ///
    /// This is `JSONParser`'s own pass, building nothing: what it refuses, the parser refuses.
    public static func firstProblem(in bytes: some Collection<UInt8>, maxDepth: Int = defaultMaxDepth) -> Problem? {
        let result: Problem?? = bytes.withContiguousStorageIfAvailable { buffer in
            JSONParser.firstProblem(in: buffer, maxDepth: maxDepth)
        }
        if let result { return result }
        return Array(bytes).withUnsafeBufferPointer { JSONParser.firstProblem(in: $0, maxDepth: maxDepth) }
    }

    /// Returns the first problem in `text`, or `nil` when it is valid JSON.
    public static func firstProblem(in text: String, maxDepth: Int = defaultMaxDepth) -> Problem? {
        var text = text
        return text.withUTF8 { firstProblem(in: $0, maxDepth: maxDepth) }
    }
}
