import BridgeCore
import Foundation

/// The inspector's filter language: small enough to remember, shared by the TUI and the CLI
/// (`tail --filter`, `wait-for --filter`, ...).
///
/// Terms are separated by spaces and must all match (`&` between them says the same);
/// `|` between them means either; `!` in front negates a term or a group; `( )` groups.
/// `!` binds tightest, then and, then `|` (as in mitmproxy): `a b | c` is `(a b) | c`.
///
/// | term | matches |
/// | --- | --- |
/// | `type:request` (`response`, `event`; also `req`, `resp`, `evt`) | the message type |
/// | `dir:in` / `dir:out` | received from / sent to the journey |
/// | `action:camera.*` | the action, `*` matching anything |
/// | `status:error` | a response's status |
/// | `code:BUSY` | a response's error code |
/// | `id:a1b2` | part of the correlation id |
/// | `is:pending` | requests still waiting in pendingRequests |
/// | `is:error` | error responses, malformed input, failed deliveries |
/// | `is:malformed`, `is:manual` (made by an inspector), `is:rule` (answered by a rule) | |
/// | `body:text` | text anywhere in the message's JSON |
/// | anything else | text in the action, correlation id or reason (case-insensitive) |
///
/// A word in double quotes (`"a | b"`) is plain text, spaces and operators included; a
/// backslash makes the next operator character plain (`\|`). After a key the quotes are part of
/// the value (`body:"side"` finds the JSON string with its quotes) and still keep what is inside
/// together (`body:"a b"`).
///
/// ```swift
/// let filter = try LogFilter.parse("type:request !action:capability.* | is:error")
/// filter.matches(entry, pending: pendingIds)
/// ```
public struct LogFilter: Sendable, Equatable {
    /// One condition.
    public enum Predicate: Sendable, Equatable {
        case type(MessageType)
        case direction(TrafficRecord.Direction)
        case action(pattern: String)
        case status(BridgeResponseStatus)
        case code(String)
        case id(String)
        case pending
        case error
        case malformed
        case manual
        case rule
        case body(String)
        case text(String)
    }

    /// A parsed expression: terms combined with not, and, or.
    public indirect enum Expression: Sendable, Equatable {
        /// One condition.
        case term(Predicate)
        /// The expression must not match.
        case not(Expression)
        /// Every expression must match.
        case and([Expression])
        /// At least one expression must match.
        case or([Expression])

        /// Whether `predicate` appears anywhere in the expression.
        func uses(_ predicate: Predicate) -> Bool {
            switch self {
            case .term(let own): return own == predicate
            case .not(let inner): return inner.uses(predicate)
            case .and(let parts), .or(let parts): return parts.contains { $0.uses(predicate) }
            }
        }
    }

    /// A mistake in a filter expression: the text it is about, where it starts, and what is wrong.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The offending term or operator.
        public var term: String
        /// What is wrong and what would be right.
        public var reason: String
        /// One-based column (in characters) of the term in the text as typed, leading spaces included.
        public var column: Int
        public var description: String { "'\(term)' at column \(column): \(reason)" }
    }

    /// What must match; `nil` matches everything.
    public var expression: Expression?
    /// The text it was parsed from.
    public var source: String

    /// The filter that matches everything.
    public static let all = LogFilter(expression: nil, source: "")

    /// Whether the filter matches everything.
    public var isEmpty: Bool { expression == nil }

    /// Whether the filter depends on pendingRequests (`is:pending`), so rows must be looked at
    /// again when it changes.
    public var usesPending: Bool { expression?.uses(.pending) ?? false }

    /// The keys the language knows, for help and error messages.
    public static let keys = ["type:", "dir:", "action:", "status:", "code:", "id:", "is:", "body:"]

    /// Parses an expression (see the type's table).
    public static func parse(_ text: String) throws(ParseError) -> LogFilter {
        var parser = FilterParser(tokens: try FilterLexer.tokens(in: text))
        let expression = try parser.parse()
        return LogFilter(expression: expression, source: text.trimmingCharacters(in: .whitespaces))
    }

    /// The condition a word stands for (`type:request`, plain text, ...).
    static func predicate(_ word: FilterLexer.Word, column: Int) throws(ParseError) -> Predicate {
        if word.quoted { return .text(word.text.lowercased()) }
        do {
            return try predicate(word.text)
        } catch {
            throw ParseError(term: word.source, reason: error.reason, column: column)
        }
    }

    private static func predicate(_ word: String) throws(WordError) -> Predicate {
        guard let colon = word.firstIndex(of: ":") else { return .text(word.lowercased()) }
        let key = word[..<colon].lowercased()
        let value = String(word[word.index(after: colon)...])
        guard !value.isEmpty else { throw WordError(reason: "needs a value after '\(key):'") }
        switch key {
        case "type", "t":
            switch value.lowercased() {
            case "request", "req": return .type(.request)
            case "response", "resp", "res": return .type(.response)
            case "event", "evt": return .type(.event)
            default: throw WordError(reason: "type is request, response or event")
            }
        case "dir", "d":
            switch value.lowercased() {
            case "in", "received", "recv": return .direction(.received)
            case "out", "sent": return .direction(.sent)
            default: throw WordError(reason: "dir is in or out")
            }
        case "action", "a":
            return .action(pattern: value)
        case "status", "s":
            guard let status = BridgeResponseStatus(rawValue: value.lowercased()) else {
                throw WordError(reason: "status is success, error, cancelled or unsupported")
            }
            return .status(status)
        case "code":
            return .code(value.uppercased())
        case "id":
            return .id(value.lowercased())
        case "is":
            switch value.lowercased() {
            case "pending": return .pending
            case "error", "err": return .error
            case "malformed": return .malformed
            case "manual", "inspector", "handmade": return .manual
            case "rule": return .rule
            default: throw WordError(reason: "is: takes pending, error, malformed, manual or rule")
            }
        case "body", "b":
            return .body(value)
        default:
            throw WordError(reason: "unknown key; use \(keys.joined(separator: " "))")
        }
    }

    /// What is wrong with one word, before it is known where the word is.
    private struct WordError: Error {
        var reason: String
    }

    /// Whether `entry` matches; `pending` holds the correlation ids waiting in pendingRequests.
    /// Markers (gaps, disconnects) always show, so an interruption is never hidden.
    public func matches(_ entry: LogEntry, pending: Set<String>) -> Bool {
        withUnsafePointer(to: entry) { matches(at: $0, pending: pending) }
    }

    /// ``matches(_:pending:)`` for a row read where it is (the log's storage): only the fields a
    /// term needs are read, so looking at a million rows does not copy (and retain) a million rows.
    package func matches(at entry: UnsafePointer<LogEntry>, pending: Set<String>) -> Bool {
        switch entry.pointee.kind {
        case .gap, .disconnected, .reattached, .hostRestarted: return true
        case .message, .malformed: break
        }
        guard let expression else { return true }
        return Self.evaluate(expression, entry, pending)
    }

    private static func evaluate(_ expression: Expression, _ entry: UnsafePointer<LogEntry>, _ pending: Set<String>) -> Bool {
        switch expression {
        case .term(let predicate): return test(predicate, entry, pending)
        case .not(let inner): return !evaluate(inner, entry, pending)
        case .and(let parts): return parts.allSatisfy { evaluate($0, entry, pending) }
        case .or(let parts): return parts.contains { evaluate($0, entry, pending) }
        }
    }

    private static func test(_ predicate: Predicate, _ entry: UnsafePointer<LogEntry>, _ pending: Set<String>) -> Bool {
        switch predicate {
        case .type(let type): return entry.pointee.type == type
        case .direction(let direction): return entry.pointee.direction == direction
        case .action(let pattern): return entry.pointee.kind == .message && glob(pattern, entry.pointee.summary)
        case .status(let status): return entry.pointee.status == status
        case .code(let code): return entry.pointee.errorCode?.uppercased() == code
        case .id(let text): return containsLowercased(entry.pointee.correlationId, text)
        case .pending:
            return entry.pointee.type == .request && entry.pointee.direction == .received && pending.contains(entry.pointee.correlationId)
        case .error:
            return entry.pointee.kind == .malformed || entry.pointee.status == .error || entry.pointee.deliveryError != nil
                || entry.pointee.errorCode != nil
        case .malformed: return entry.pointee.kind == .malformed
        case .manual: return entry.pointee.origin == .inspector
        case .rule: return entry.pointee.answeredByRule
        case .body(let text):
            return containsBytes(entry.pointee.json, text)
        case .text(let text):
            return containsLowercased(entry.pointee.summary, text) || containsLowercased(entry.pointee.correlationId, text)
                || (entry.pointee.errorCode.map { containsLowercased($0, text) } ?? false)
        }
    }

    // The tests above run once per row, for every row, whenever the filter changes (a million
    // rows in a long session), so the common all-ASCII case is matched on the UTF-8 bytes
    // without allocating; anything else takes the general (slower) path with the same result.

    /// `haystack.lowercased().contains(needle)`, for a needle that is already lowercased.
    static func containsLowercased(_ haystack: String, _ needle: String) -> Bool {
        let fast = haystack.utf8.withContiguousStorageIfAvailable { hay in
            needle.utf8.withContiguousStorageIfAvailable { pattern -> Bool? in
                guard !pattern.isEmpty, isASCII(hay), isASCII(pattern) else { return nil }
                return asciiFoldedIndex(of: pattern, in: hay) != nil
            } ?? nil
        } ?? nil
        return fast ?? haystack.lowercased().contains(needle)
    }

    /// Whether the bytes of `text` occur in `data`.
    static func containsBytes(_ data: Data, _ text: String) -> Bool {
        let fast = data.withUnsafeBytes { raw in
            text.utf8.withContiguousStorageIfAvailable { pattern -> Bool? in
                guard !pattern.isEmpty else { return nil }
                return byteIndex(of: pattern, in: raw.assumingMemoryBound(to: UInt8.self), from: 0) != nil
            } ?? nil
        }
        return fast ?? (data.range(of: Data(text.utf8)) != nil)
    }

    /// Printable ASCII only: no multi-byte characters and no `\r\n` (one Swift character).
    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    /// The first index at or after `start` where `needle` occurs in `hay`.
    private static func byteIndex(of needle: UnsafeBufferPointer<UInt8>, in hay: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard !needle.isEmpty else { return start <= hay.count ? start : nil }
        guard let base = hay.baseAddress, let pattern = needle.baseAddress, hay.count - start >= needle.count else { return nil }
        let first = Int32(needle[0])
        var index = start
        let last = hay.count - needle.count
        while index <= last {
            // Jump to the next occurrence of the first byte, then compare the rest.
            guard let found = memchr(base + index, first, last - index + 1) else { return nil }
            index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if memcmp(base + index, pattern, needle.count) == 0 { return index }
            index += 1
        }
        return nil
    }

    /// The first index where `needle` (lowercase ASCII) occurs in `hay` (ASCII) ignoring case.
    private static func asciiFoldedIndex(of needle: UnsafeBufferPointer<UInt8>, in hay: UnsafeBufferPointer<UInt8>) -> Int? {
        guard hay.count >= needle.count else { return nil }
        @inline(__always) func lower(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte | 0x20 : byte }
        for index in 0...(hay.count - needle.count) {
            var offset = 0
            while offset < needle.count, lower(hay[index + offset]) == needle[offset] { offset += 1 }
            if offset == needle.count { return index }
        }
        return nil
    }

    /// ``ActionPattern/matches(_:_:)``, with a byte-level fast path for ASCII (the common case,
    /// run once per row when a million rows are filtered).
    static func glob(_ pattern: String, _ text: String) -> Bool {
        let fast = pattern.utf8.withContiguousStorageIfAvailable { pattern in
            text.utf8.withContiguousStorageIfAvailable { text -> Bool? in
                guard isASCII(pattern), isASCII(text) else { return nil }
                return asciiGlob(pattern, text)
            } ?? nil
        } ?? nil
        return fast ?? ActionPattern.matches(pattern, text)
    }

    /// ``glob(_:_:)`` on ASCII bytes: the same first-prefix, leftmost-middle, last-suffix match.
    private static func asciiGlob(_ pattern: UnsafeBufferPointer<UInt8>, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let star = UInt8(ascii: "*")
        guard pattern.contains(star) else { return pattern.elementsEqual(text) }
        var partStart = 0
        var position = 0
        var isFirst = true
        while true {
            var partEnd = partStart
            while partEnd < pattern.count, pattern[partEnd] != star { partEnd += 1 }
            let part = UnsafeBufferPointer(rebasing: pattern[partStart..<partEnd])
            if partEnd == pattern.count {
                // The last part must end the text (after what the earlier parts took).
                guard !part.isEmpty else { return true }
                return text.count - position >= part.count && text[(text.count - part.count)...].elementsEqual(part)
            }
            if isFirst {
                guard text.count >= part.count, text[0..<part.count].elementsEqual(part) else { return false }
                position = part.count
            } else if !part.isEmpty {
                guard let found = byteIndex(of: part, in: text, from: position) else { return false }
                position = found + part.count
            }
            isFirst = false
            partStart = partEnd + 1
        }
    }
}
