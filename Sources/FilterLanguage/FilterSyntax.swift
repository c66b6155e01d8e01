import BridgeCore

/// The inspector's filter language: small enough to remember, shared by the TUI, the CLI
/// (`tail --filter`, `wait-for --filter`, ...) and breakpoints (``InFlightMessageFilter``).
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
/// | `is:lint` | rows the protocol linter marked (a BUSY answer, an action typo, a lost message, …), but those an inspector made |
/// | `is:marked` | rows marked in the inspector (`m`), kept in a recording saved with `w` |
/// | `is:fault` | messages a fault rule changed (delayed, errored, never answered, dropped, duplicated, reordered) |
/// | `body:text` | text anywhere in the message's JSON |
/// | anything else | text in the action, correlation id or reason (case-insensitive) |
///
/// A word in double quotes (`"a | b"`) is plain text, spaces and operators included; a
/// backslash makes the next operator character plain (`\|`). After a key the quotes are part of
/// the value (`body:"side"` finds the JSON string with its quotes) and still keep what is inside
/// together (`body:"a b"`).
///
/// ```swift
/// let expression = try FilterSyntax.parse("type:request !action:capability.* | is:error")
/// ```
public enum FilterSyntax {
    /// The keys the language knows, for help and error messages.
    public static let keys = ["type:", "dir:", "action:", "status:", "code:", "id:", "is:", "body:"]

    /// `key` (such as `id:`) and `value` as one term that matches `value` as given: each
    /// character the lexer would read as an operator, a quote, an escape or the end of the word
    /// gets a backslash (`term("id:", "a|b c")` is `id:a\|b\ c`). Tabs and line breaks cannot be
    /// escaped and still end the word.
    public static func term(_ key: String, matching value: String) -> String {
        var term = key
        for character in value {
            if FilterLexer.escapable.contains(character) { term.append("\\") }
            term.append(character)
        }
        return term
    }

    /// Parses an expression (see the type's table); `nil` for an empty or blank text.
    public static func parse(_ text: String) throws(FilterParseError) -> FilterExpression? {
        try parseWithTerms(text).expression
    }

    /// ``parse(_:)``, with every term in the order typed and the column where it starts.
    static func parseWithTerms(_ text: String) throws(FilterParseError) -> (expression: FilterExpression?, terms: [FilterParser.Term]) {
        var parser = FilterParser(tokens: try FilterLexer.tokens(in: text))
        let expression = try parser.parse()
        return (expression, parser.terms)
    }

    /// The condition a word stands for (`type:request`, plain text, ...).
    static func predicate(_ word: FilterLexer.Word, column: Int) throws(FilterParseError) -> FilterPredicate {
        if word.quoted { return .text(word.text.lowercased()) }
        do {
            return try predicate(word.text)
        } catch {
            throw FilterParseError(term: word.source, reason: error.reason, column: column)
        }
    }

    private static func predicate(_ word: String) throws(WordError) -> FilterPredicate {
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
            case "lint", "problem": return .lint
            case "marked", "mark": return .marked
            case "fault", "faulted": return .fault
            default: throw WordError(reason: "is: takes pending, error, malformed, manual, rule, lint, marked or fault")
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
}
