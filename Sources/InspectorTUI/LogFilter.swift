import BridgeCore
import Foundation
import InspectorClient

/// The inspector's filter language: small enough to remember, shared by the TUI and `tail`.
///
/// Terms are separated by spaces and must all match; `!` in front negates a term:
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
/// ```swift
/// let filter = try LogFilter.parse("type:request !action:capability.*")
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

    /// A condition, possibly negated.
    public struct Term: Sendable, Equatable {
        /// The condition.
        public var predicate: Predicate
        /// Whether it must not match.
        public var negated: Bool
    }

    /// A mistake in a filter expression, with the term it is about.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The offending term.
        public var term: String
        /// What is wrong and what would be right.
        public var reason: String
        public var description: String { "'\(term)': \(reason)" }
    }

    /// The terms, all of which must match.
    public var terms: [Term]
    /// The text it was parsed from.
    public var source: String

    /// The filter that matches everything.
    public static let all = LogFilter(terms: [], source: "")

    /// Whether the filter matches everything.
    public var isEmpty: Bool { terms.isEmpty }

    /// The keys the language knows, for help and error messages.
    public static let keys = ["type:", "dir:", "action:", "status:", "code:", "id:", "is:", "body:"]

    /// Parses an expression (see the type's table).
    public static func parse(_ text: String) throws(ParseError) -> LogFilter {
        var terms: [Term] = []
        for raw in text.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            var word = String(raw)
            var negated = false
            while word.hasPrefix("!") {
                negated.toggle()
                word.removeFirst()
            }
            guard !word.isEmpty else { throw ParseError(term: String(raw), reason: "'!' needs a term after it") }
            terms.append(Term(predicate: try predicate(word), negated: negated))
        }
        return LogFilter(terms: terms, source: text.trimmingCharacters(in: .whitespaces))
    }

    private static func predicate(_ word: String) throws(ParseError) -> Predicate {
        guard let colon = word.firstIndex(of: ":") else { return .text(word.lowercased()) }
        let key = word[..<colon].lowercased()
        let value = String(word[word.index(after: colon)...])
        guard !value.isEmpty else { throw ParseError(term: word, reason: "needs a value after '\(key):'") }
        switch key {
        case "type", "t":
            switch value.lowercased() {
            case "request", "req": return .type(.request)
            case "response", "resp", "res": return .type(.response)
            case "event", "evt": return .type(.event)
            default: throw ParseError(term: word, reason: "type is request, response or event")
            }
        case "dir", "d":
            switch value.lowercased() {
            case "in", "received", "recv": return .direction(.received)
            case "out", "sent": return .direction(.sent)
            default: throw ParseError(term: word, reason: "dir is in or out")
            }
        case "action", "a":
            return .action(pattern: value)
        case "status", "s":
            guard let status = BridgeResponseStatus(rawValue: value.lowercased()) else {
                throw ParseError(term: word, reason: "status is success, error, cancelled or unsupported")
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
            default: throw ParseError(term: word, reason: "is: takes pending, error, malformed, manual or rule")
            }
        case "body", "b":
            return .body(value)
        default:
            throw ParseError(term: word, reason: "unknown key; use \(keys.joined(separator: " "))")
        }
    }

    /// Whether `entry` matches; `pending` holds the correlation ids waiting in pendingRequests.
    /// Markers (gaps, disconnects) always show, so an interruption is never hidden.
    public func matches(_ entry: LogEntry, pending: Set<String>) -> Bool {
        switch entry.kind {
        case .gap, .disconnected, .reattached: return true
        case .message, .malformed: break
        }
        for term in terms where Self.test(term.predicate, entry, pending) == term.negated {
            return false
        }
        return true
    }

    private static func test(_ predicate: Predicate, _ entry: LogEntry, _ pending: Set<String>) -> Bool {
        switch predicate {
        case .type(let type): return entry.type == type
        case .direction(let direction): return entry.direction == direction
        case .action(let pattern): return entry.kind == .message && glob(pattern, entry.summary)
        case .status(let status): return entry.status == status
        case .code(let code): return entry.errorCode?.uppercased() == code
        case .id(let text): return entry.correlationId.lowercased().contains(text)
        case .pending: return entry.type == .request && entry.direction == .received && pending.contains(entry.correlationId)
        case .error:
            return entry.kind == .malformed || entry.status == .error || entry.deliveryError != nil || entry.errorCode != nil
        case .malformed: return entry.kind == .malformed
        case .manual: return entry.origin == .inspector
        case .rule: return entry.answeredByRule
        case .body(let text):
            return entry.json.range(of: Data(text.utf8)) != nil
        case .text(let text):
            return entry.summary.lowercased().contains(text) || entry.correlationId.lowercased().contains(text)
                || (entry.errorCode?.lowercased().contains(text) ?? false)
        }
    }

    /// `*` matches any run of characters; everything else literally (case-sensitive, like routing).
    static func glob(_ pattern: String, _ text: String) -> Bool {
        if !pattern.contains("*") { return pattern == text }
        let parts = pattern.split(separator: "*", omittingEmptySubsequences: false)
        var rest = Substring(text)
        for (index, part) in parts.enumerated() {
            if index == 0 {
                guard rest.hasPrefix(part) else { return false }
                rest = rest.dropFirst(part.count)
            } else if index == parts.count - 1 {
                return part.isEmpty || rest.hasSuffix(part)
            } else if !part.isEmpty {
                guard let range = rest.range(of: part) else { return false }
                rest = rest[range.upperBound...]
            }
        }
        return true
    }
}
