import BridgeCore
import Foundation

/// The filter of a breakpoint: an expression in the filter language (``FilterSyntax``),
/// evaluated on a message in flight, before the host routes a request from the journey or
/// delivers a message to it.
///
/// A term means what it means in the inspector's log, so a filter that shows a row in the log
/// holds the same message in flight. Terms about what happens to a message later, or about
/// messages that are never held, are refused when the filter is parsed:
/// `is:pending` (a held request has not reached pendingRequests yet), `is:malformed` (input that
/// fails to decode is never routed), `is:manual` and `is:rule` (messages an inspector makes are
/// never held), `is:lint` (the linter marks a row once it is in the log), `is:marked` (a person
/// marks a row in an inspector's log, after the message went by).
///
/// ```swift
/// let filter = try InFlightMessageFilter(parsing: "dir:in action:camera.*")
/// if filter.matches(message, direction: .received, json: bytes) { /* hold it */ }
/// ```
public struct InFlightMessageFilter: Sendable, Equatable {
    /// The text it was parsed from, without leading and trailing spaces.
    public let source: String
    /// What must match.
    public let expression: FilterExpression

    /// Parses `text`. Throws for a mistake in the expression, for an empty filter (a breakpoint
    /// holding every message is never what is meant), and for a term that cannot apply to a
    /// message in flight; the error names the term and its column, says why and what to use.
    public init(parsing text: String) throws(FilterParseError) {
        let parsed = try FilterSyntax.parseWithTerms(text)
        guard let expression = parsed.expression else {
            throw FilterParseError(
                term: text, reason: "a breakpoint needs a filter, such as action:camera.document.capture",
                column: 1)
        }
        for term in parsed.terms {
            if let reason = Self.refusal(of: term.predicate) {
                throw FilterParseError(term: term.source, reason: reason, column: term.column)
            }
        }
        self.source = text.trimmingCharacters(in: .whitespaces)
        self.expression = expression
    }

    /// Why `predicate` cannot apply to a message in flight, and what to use instead; `nil` when it can.
    private static func refusal(of predicate: FilterPredicate) -> String? {
        switch predicate {
        case .pending:
            return "a held request has not reached pendingRequests yet, so is:pending never applies to it; "
                + "use type:request dir:in to hold requests from the journey"
        case .malformed:
            return "input that fails to decode is never routed, so it cannot be held; "
                + "watch for it in the log with is:malformed instead"
        case .manual:
            return "messages an inspector makes are never held, so is:manual never applies; "
                + "use dir:out with type: or action: to hold what the host sends"
        case .rule:
            return "responses a reply rule makes are never held, so is:rule never applies; "
                + "use type:response with action: to hold the host's responses"
        case .lint:
            return "the linter marks a row once it is in the log, so is:lint never applies to a message in flight; "
                + "use action:, code: or type: for what it marks"
        case .marked:
            return "marks are made in an inspector's log once a message is there, so is:marked never applies to a message in flight; "
                + "use action:, id: or type: for the messages you would mark"
        case .fault:
            return "a fault rule marks a message as it changes it, so is:fault never applies to a message still in flight; "
                + "use action:, dir: or type: for the messages a fault rule changes"
        case .type, .direction, .action, .status, .code, .id, .error, .body, .text:
            return nil
        }
    }

    /// Whether `message`, crossing the bridge in `direction` as the bytes `json`, matches: the
    /// same meaning as a row of the inspector's log (`LogFilter`), terms about text compared the
    /// same way (``TextMatching``).
    public func matches(_ message: BridgeMessage, direction: TrafficRecord.Direction, json: Data) -> Bool {
        Self.evaluate(expression, message, direction, json)
    }

    private static func evaluate(
        _ expression: FilterExpression, _ message: BridgeMessage, _ direction: TrafficRecord.Direction, _ json: Data
    ) -> Bool {
        switch expression {
        case .term(let predicate): return test(predicate, message, direction, json)
        case .not(let inner): return !evaluate(inner, message, direction, json)
        case .and(let parts): return parts.allSatisfy { evaluate($0, message, direction, json) }
        case .or(let parts): return parts.contains { evaluate($0, message, direction, json) }
        }
    }

    private static func test(
        _ predicate: FilterPredicate, _ message: BridgeMessage, _ direction: TrafficRecord.Direction, _ json: Data
    ) -> Bool {
        let errorCode = message.payload.error?.code
        switch predicate {
        case .type(let type): return message.type == type
        case .direction(let wanted): return direction == wanted
        case .action(let pattern): return TextMatching.glob(pattern, message.payload.action)
        case .status(let status): return message.payload.status == status
        case .code(let code): return errorCode?.uppercased() == code
        case .id(let text): return TextMatching.containsLowercased(message.correlationId, text)
        case .error: return message.payload.status == .error || errorCode != nil
        case .body(let text): return TextMatching.containsBytes(json, text)
        case .text(let text):
            return TextMatching.containsLowercased(message.payload.action, text) || TextMatching.containsLowercased(message.correlationId, text)
                || (errorCode.map { TextMatching.containsLowercased($0, text) } ?? false)
        // Refused by init(parsing:): never true of a message in flight.
        case .pending, .malformed, .manual, .rule, .lint, .marked, .fault: return false
        }
    }
}
