/// A mistake in a filter expression: the text it is about, where it starts, and what is wrong.
public struct FilterParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The offending term or operator.
    public var term: String
    /// What is wrong and what would be right.
    public var reason: String
    /// One-based column (in characters) of the term in the text as typed, leading spaces included.
    public var column: Int
    /// `'term' at column N: reason`.
    public var description: String { "'\(term)' at column \(column): \(reason)" }

    /// A mistake in `term`, which starts at `column` (one-based, in characters).
    public init(term: String, reason: String, column: Int) {
        self.term = term
        self.reason = reason
        self.column = column
    }
}
