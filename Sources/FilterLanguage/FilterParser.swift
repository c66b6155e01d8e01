/// Splits a filter expression into words and operators, remembering the column of each.
///
/// Whitespace separates words; `(`, `)`, `|` and `&` are operators wherever they appear outside
/// quotes; `!` is an operator at the start of a word. See ``LogFilter`` for quoting.
enum FilterLexer {
    /// A word: a term such as `type:request`, or plain text.
    struct Word: Equatable {
        /// The text with escapes resolved (and, for a quoted word, without its quotes).
        var text: String
        /// The word exactly as typed, for error messages.
        var source: String
        /// Whether the whole word was in quotes: plain text, never a `key:value` term.
        var quoted: Bool
    }

    /// What a token is.
    enum Kind: Equatable {
        case word(Word)
        case not, and, or, open, close
    }

    /// One token and the one-based column (in characters) where it starts.
    struct Token: Equatable {
        var kind: Kind
        var column: Int
    }

    /// Characters a backslash makes plain.
    private static let escapable: Set<Character> = ["|", "&", "(", ")", "\"", "!", "\\", " "]
    /// Characters that end a word outside quotes.
    private static let operators: Set<Character> = ["|", "&", "(", ")"]

    /// The tokens of `text`, or where a quote is left open or empty.
    static func tokens(in text: String) throws(LogFilter.ParseError) -> [Token] {
        let characters = Array(text)
        var tokens: [Token] = []
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let column = index + 1
            switch character {
            case " ", "\t", "\n", "\r":
                index += 1
            case "(": tokens.append(Token(kind: .open, column: column)); index += 1
            case ")": tokens.append(Token(kind: .close, column: column)); index += 1
            case "|": tokens.append(Token(kind: .or, column: column)); index += 1
            case "&": tokens.append(Token(kind: .and, column: column)); index += 1
            case "!": tokens.append(Token(kind: .not, column: column)); index += 1
            case "\"":
                tokens.append(Token(kind: .word(try quotedWord(characters, at: &index)), column: column))
            default:
                tokens.append(Token(kind: .word(try word(characters, at: &index)), column: column))
            }
        }
        return tokens
    }

    /// A whole word in quotes, starting at the opening quote: plain text without the quotes.
    private static func quotedWord(_ characters: [Character], at index: inout Int) throws(LogFilter.ParseError) -> Word {
        let start = index
        index += 1
        var text = ""
        while index < characters.count, characters[index] != "\"" {
            if characters[index] == "\\", index + 1 < characters.count, characters[index + 1] == "\"" || characters[index + 1] == "\\" {
                index += 1
            }
            text.append(characters[index])
            index += 1
        }
        let source = String(characters[start..<min(index + 1, characters.count)])
        guard index < characters.count else {
            throw LogFilter.ParseError(term: source, reason: "the quote is never closed; end the text with \"", column: start + 1)
        }
        index += 1
        guard !text.isEmpty else {
            throw LogFilter.ParseError(term: source, reason: "empty quotes match nothing; put the text to find between them", column: start + 1)
        }
        return Word(text: text, source: source, quoted: true)
    }

    /// A word that does not start with a quote. A quote inside it keeps its quotes (`body:"side"`)
    /// and holds spaces and operators together up to the closing quote.
    private static func word(_ characters: [Character], at index: inout Int) throws(LogFilter.ParseError) -> Word {
        let start = index
        var text = ""
        while index < characters.count {
            let character = characters[index]
            if character == " " || character == "\t" || character == "\n" || character == "\r" || operators.contains(character) { break }
            if character == "\\", index + 1 < characters.count, escapable.contains(characters[index + 1]) {
                text.append(characters[index + 1])
                index += 2
                continue
            }
            if character == "\"" {
                let quoteStart = index
                text.append(character)
                index += 1
                while index < characters.count, characters[index] != "\"" {
                    text.append(characters[index])
                    index += 1
                }
                guard index < characters.count else {
                    throw LogFilter.ParseError(
                        term: String(characters[start...]), reason: "the quote at column \(quoteStart + 1) is never closed; add \"", column: start + 1)
                }
            }
            text.append(characters[index])
            index += 1
        }
        return Word(text: text, source: String(characters[start..<index]), quoted: false)
    }
}

/// Builds a ``LogFilter/Expression`` from tokens: `!` binds tightest, then and (`&` or
/// juxtaposition), then `|`; parentheses group.
struct FilterParser {
    /// How deep `!` and `( )` may nest: far more than anyone types, and a bound on the
    /// recursion here and when rows are matched.
    static let maximumDepth = 64

    private let tokens: [FilterLexer.Token]
    private var position = 0
    private var depth = 0

    init(tokens: [FilterLexer.Token]) {
        self.tokens = tokens
    }

    /// The expression, `nil` for no tokens at all.
    mutating func parse() throws(LogFilter.ParseError) -> LogFilter.Expression? {
        guard !tokens.isEmpty else { return nil }
        let expression = try parseOr()
        if let token = peek {
            // parseOr stops only at ')' it did not open.
            throw LogFilter.ParseError(term: ")", reason: "no '(' before it; remove it or add '(' where the group starts", column: token.column)
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

    private mutating func parseOr() throws(LogFilter.ParseError) -> LogFilter.Expression {
        var parts = [try parseAnd()]
        while let token = peek, token.kind == .or {
            position += 1
            guard operandFollows else { throw Self.needsSides("|", token.column) }
            parts.append(try parseAnd())
        }
        return parts.count == 1 ? parts[0] : .or(parts)
    }

    private mutating func parseAnd() throws(LogFilter.ParseError) -> LogFilter.Expression {
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

    private mutating func parseUnary() throws(LogFilter.ParseError) -> LogFilter.Expression {
        guard let token = peek else {
            // Callers check that an operand follows; this is the empty input inside them.
            throw LogFilter.ParseError(term: "", reason: "a term is missing", column: 1)
        }
        switch token.kind {
        case .word(let word):
            position += 1
            return .term(try LogFilter.predicate(word, column: token.column))
        case .not:
            position += 1
            guard operandFollows else { throw LogFilter.ParseError(term: "!", reason: "'!' needs a term after it", column: token.column) }
            try enter(token)
            defer { depth -= 1 }
            return .not(try parseUnary())
        case .open:
            position += 1
            if peek?.kind == .close {
                throw LogFilter.ParseError(term: "()", reason: "the group is empty; put terms between ( and )", column: token.column)
            }
            try enter(token)
            defer { depth -= 1 }
            let inner = try parseOr()
            guard peek?.kind == .close else {
                throw LogFilter.ParseError(term: "(", reason: "the group is never closed; add ')'", column: token.column)
            }
            position += 1
            return inner
        case .or: throw Self.needsSides("|", token.column)
        case .and: throw Self.needsSides("&", token.column)
        case .close:
            throw LogFilter.ParseError(term: ")", reason: "no '(' before it; remove it or add '(' where the group starts", column: token.column)
        }
    }

    private mutating func enter(_ token: FilterLexer.Token) throws(LogFilter.ParseError) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw LogFilter.ParseError(
                term: token.kind == .not ? "!" : "(", reason: "nested more than \(Self.maximumDepth) deep; simplify the expression", column: token.column)
        }
    }

    private static func needsSides(_ symbol: String, _ column: Int) -> LogFilter.ParseError {
        LogFilter.ParseError(term: symbol, reason: "'\(symbol)' needs a term on each side", column: column)
    }
}
