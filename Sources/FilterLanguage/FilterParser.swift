/// Builds a ``FilterExpression`` from tokens: `!` binds tightest, then and (`&` or
/// juxtaposition), then `|`; parentheses group.
struct FilterParser {
    /// How deep `!` and `( )` may nest: far more than anyone types, and a bound on the
    /// recursion here and when rows are matched.
    static let maximumDepth = 64

    /// A term of the expression as typed: what it means, the word and where it starts.
    struct Term {
        var predicate: FilterPredicate
        /// The word exactly as typed.
        var source: String
        /// One-based column (in characters) where the word starts.
        var column: Int
    }

    private let tokens: [FilterLexer.Token]
    private var position = 0
    private var depth = 0
    /// Every term parsed so far, in the order typed (for checks that must point at one).
    private(set) var terms: [Term] = []

    init(tokens: [FilterLexer.Token]) {
        self.tokens = tokens
    }

    /// The expression, `nil` for no tokens at all.
    mutating func parse() throws(FilterParseError) -> FilterExpression? {
        guard !tokens.isEmpty else { return nil }
        let expression = try parseOr()
        if let token = peek {
            // parseOr stops only at ')' it did not open.
            throw FilterParseError(term: ")", reason: "no '(' before it; remove it or add '(' where the group starts", column: token.column)
        }
        return expression
    }

    private var peek: FilterLexer.Token? { position < tokens.count ? tokens[position] : nil }

    /// Whether the next token can start an operand.
    private var operandFollows: Bool {
        switch peek?.kind {
        case .word, .not, .open: return true
        case .and, .or, .close, nil: return false
        }
    }

    private mutating func parseOr() throws(FilterParseError) -> FilterExpression {
        var parts = [try parseAnd()]
        while let token = peek, token.kind == .or {
            position += 1
            guard operandFollows else { throw Self.needsSides("|", token.column) }
            parts.append(try parseAnd())
        }
        return parts.count == 1 ? parts[0] : .or(parts)
    }

    private mutating func parseAnd() throws(FilterParseError) -> FilterExpression {
        var parts = [try parseUnary()]
        while let token = peek {
            if token.kind == .and {
                position += 1
                guard operandFollows else { throw Self.needsSides("&", token.column) }
            } else if !operandFollows {
                break
            }
            parts.append(try parseUnary())
        }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    private mutating func parseUnary() throws(FilterParseError) -> FilterExpression {
        guard let token = peek else {
            // Callers check that an operand follows; this is the empty input inside them.
            throw FilterParseError(term: "", reason: "a term is missing", column: 1)
        }
        switch token.kind {
        case .word(let word):
            position += 1
            let predicate = try FilterSyntax.predicate(word, column: token.column)
            terms.append(Term(predicate: predicate, source: word.source, column: token.column))
            return .term(predicate)
        case .not:
            position += 1
            guard operandFollows else { throw FilterParseError(term: "!", reason: "'!' needs a term after it", column: token.column) }
            try enter(token)
            defer { depth -= 1 }
            return .not(try parseUnary())
        case .open:
            position += 1
            if peek?.kind == .close {
                throw FilterParseError(term: "()", reason: "the group is empty; put terms between ( and )", column: token.column)
            }
            try enter(token)
            defer { depth -= 1 }
            let inner = try parseOr()
            guard peek?.kind == .close else {
                throw FilterParseError(term: "(", reason: "the group is never closed; add ')'", column: token.column)
            }
            position += 1
            return inner
        case .or: throw Self.needsSides("|", token.column)
        case .and: throw Self.needsSides("&", token.column)
        case .close:
            throw FilterParseError(term: ")", reason: "no '(' before it; remove it or add '(' where the group starts", column: token.column)
        }
    }

    private mutating func enter(_ token: FilterLexer.Token) throws(FilterParseError) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw FilterParseError(
                term: token.kind == .not ? "!" : "(", reason: "nested more than \(Self.maximumDepth) deep; simplify the expression", column: token.column)
        }
    }

    private static func needsSides(_ symbol: String, _ column: Int) -> FilterParseError {
        FilterParseError(term: symbol, reason: "'\(symbol)' needs a term on each side", column: column)
    }
}
