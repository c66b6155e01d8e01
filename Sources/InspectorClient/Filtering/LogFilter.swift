import BridgeCore
import FilterLanguage
import Foundation

/// The filter of the inspector's message log: an expression in the filter language
/// (``FilterSyntax``, shared by the TUI, the CLI's `tail --filter`, `wait-for --filter`, ...,
/// and breakpoints), matched against the log's rows.
///
/// Terms are separated by spaces and must all match (`&` between them says the same);
/// `|` between them means either; `!` in front negates a term or a group; `( )` groups.
/// `type:`, `dir:`, `action:`, `status:`, `code:`, `id:`, `is:` (`pending`, `error`,
/// `malformed`, `manual`, `rule`, `lint`, `marked`) and `body:` are the keys; anything else is text to find.
/// ``FilterSyntax`` has the whole table.
///
/// ```swift
/// let filter = try LogFilter.parse("type:request !action:capability.* | is:error")
/// filter.matches(entry, pending: pendingIds)
/// ```
public struct LogFilter: Sendable, Equatable {
    /// One condition.
    public typealias Predicate = FilterPredicate
    /// A parsed expression: terms combined with not, and, or.
    public typealias Expression = FilterExpression
    /// A mistake in a filter expression: the text it is about, where it starts, and what is wrong.
    public typealias ParseError = FilterParseError

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
    public static let keys = FilterSyntax.keys

    /// A term that matches `value` as given (``FilterSyntax/term(_:matching:)``): `term("id:", id)`.
    public static func term(_ key: String, matching value: String) -> String {
        FilterSyntax.term(key, matching: value)
    }

    /// Parses an expression (see ``FilterSyntax``).
    public static func parse(_ text: String) throws(ParseError) -> LogFilter {
        LogFilter(expression: try FilterSyntax.parse(text), source: text.trimmingCharacters(in: .whitespaces))
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
        case .action(let pattern): return entry.pointee.kind == .message && TextMatching.glob(pattern, entry.pointee.summary)
        case .status(let status): return entry.pointee.status == status
        case .code(let code): return entry.pointee.errorCode?.uppercased() == code
        case .id(let text): return TextMatching.containsLowercased(entry.pointee.correlationId, text)
        case .pending:
            return entry.pointee.type == .request && entry.pointee.direction == .received && pending.contains(entry.pointee.correlationId)
        case .error:
            return entry.pointee.kind == .malformed || entry.pointee.status == .error || entry.pointee.deliveryError != nil
                || entry.pointee.errorCode != nil
        case .malformed: return entry.pointee.kind == .malformed
        case .manual: return entry.pointee.origin == .inspector
        case .rule: return entry.pointee.answeredByRule
        case .lint: return entry.pointee.countsAsLint
        case .marked: return entry.pointee.marked
        case .fault: return entry.pointee.fault != nil
        case .body(let text):
            return TextMatching.containsBytes(entry.pointee.json, text)
        case .text(let text):
            return TextMatching.containsLowercased(entry.pointee.summary, text) || TextMatching.containsLowercased(entry.pointee.correlationId, text)
                || (entry.pointee.errorCode.map { TextMatching.containsLowercased($0, text) } ?? false)
        }
    }
}
