/// A parsed filter: terms combined with not, and, or.
public indirect enum FilterExpression: Sendable, Equatable {
    /// One condition.
    case term(FilterPredicate)
    /// The expression must not match.
    case not(FilterExpression)
    /// Every expression must match.
    case and([FilterExpression])
    /// At least one expression must match.
    case or([FilterExpression])

    /// Whether `predicate` appears anywhere in the expression.
    public func uses(_ predicate: FilterPredicate) -> Bool {
        switch self {
        case .term(let own): return own == predicate
        case .not(let inner): return inner.uses(predicate)
        case .and(let parts), .or(let parts): return parts.contains { $0.uses(predicate) }
        }
    }
}
