import TerminalUI

/// Chooses the footer's key hints for its width: whole hints only, never one cut mid-word, and
/// the most important kept when not all fit.
///
/// Importance: first the way out (`q quit`, or an `Esc` hint: back, cancel, no), then `? help`,
/// then the others in the order they are listed (each screen lists its hints most useful
/// first). A hint that does not fit is left out and the next, shorter one may still fit. The
/// hints kept are shown in their listed order.
enum FooterHints {
    /// One hint: the key, and what it does.
    typealias Hint = (key: String, label: String)

    /// The columns between two hints.
    static let separator = 2

    /// The columns one hint takes, without the separator: key, space, label.
    static func width(_ hint: Hint) -> Int {
        TextWidth.width(of: hint.key) + 1 + TextWidth.width(of: hint.label)
    }

    /// The columns `hints` take in a row, separators between them.
    static func width(of hints: [Hint]) -> Int {
        hints.isEmpty ? 0 : hints.map(width).reduce(0, +) + separator * (hints.count - 1)
    }

    /// How much keeping `hint` matters: lower is kept first.
    static func rank(_ hint: Hint) -> Int {
        if hint.key == "q" || hint.key.contains("Esc") { return 0 }
        if hint.key == "?" { return 1 }
        return 2
    }

    /// The hints of `hints` that fit in `width` columns, in their listed order.
    static func fitting(_ hints: [Hint], width: Int) -> [Hint] {
        if Self.width(of: hints) <= width { return hints }
        // Stable: within a rank, the listed order is the order of importance.
        let byImportance = hints.indices.sorted { (rank(hints[$0]), $0) < (rank(hints[$1]), $1) }
        var kept = Set<Int>()
        var used = 0
        for index in byImportance {
            let cost = Self.width(hints[index]) + (kept.isEmpty ? 0 : separator)
            guard used + cost <= width else { continue }
            kept.insert(index)
            used += cost
        }
        return hints.indices.filter(kept.contains).map { hints[$0] }
    }
}
