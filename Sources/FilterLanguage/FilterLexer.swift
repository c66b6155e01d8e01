/// Splits a filter expression into words and operators, remembering the column of each.
///
/// Whitespace separates words; `(`, `)`, `|` and `&` are operators wherever they appear outside
/// quotes; `!` is an operator at the start of a word. See ``FilterSyntax`` for quoting.
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
    static let escapable: Set<Character> = ["|", "&", "(", ")", "\"", "!", "\\", " "]
    /// Characters that end a word outside quotes.
    private static let operators: Set<Character> = ["|", "&", "(", ")"]

    /// The tokens of `text`, or where a quote is left open or empty.
    static func tokens(in text: String) throws(FilterParseError) -> [Token] {
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
    private static func quotedWord(_ characters: [Character], at index: inout Int) throws(FilterParseError) -> Word {
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
            throw FilterParseError(term: source, reason: "the quote is never closed; end the text with \"", column: start + 1)
        }
        index += 1
        guard !text.isEmpty else {
            throw FilterParseError(term: source, reason: "empty quotes match nothing; put the text to find between them", column: start + 1)
        }
        return Word(text: text, source: source, quoted: true)
    }

    /// A word that does not start with a quote. A quote inside it keeps its quotes (`body:"side"`)
    /// and holds spaces and operators together up to the closing quote.
    private static func word(_ characters: [Character], at index: inout Int) throws(FilterParseError) -> Word {
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
                    throw FilterParseError(
                        term: String(characters[start...]), reason: "the quote at column \(quoteStart + 1) is never closed; add \"", column: start + 1)
                }
            }
            text.append(characters[index])
            index += 1
        }
        return Word(text: text, source: String(characters[start..<index]), quoted: false)
    }
}
