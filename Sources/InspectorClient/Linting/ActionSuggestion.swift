/// Finds the known action a mistyped one was probably meant to be: the same letters in another
/// case, or within a small edit distance (Troubleshooting, "Handler Not Called for Requests":
/// "the action property must exactly match the request's payload.action. Check for typos and case
/// sensitivity").
///
/// ```swift
/// ActionSuggestion.closest(to: "camera.document.Capture", among: ["camera.document.capture"])
/// // "camera.document.capture"
/// ```
public enum ActionSuggestion {
    /// The longest action compared; longer ones are not typos of anything we know.
    static let maxLength = 128

    /// The known action `action` was most likely meant to be, or `nil` when none is close: a
    /// case-only difference wins; otherwise the smallest edit distance (insertions, deletions,
    /// substitutions and swaps of neighbours), at most 1 for actions under 8 characters and 2
    /// otherwise. Ties go to the alphabetically first, so the answer never depends on order.
    public static func closest(to action: String, among known: some Sequence<String>) -> String? {
        guard !action.isEmpty else { return nil }
        let typed = Array(action.utf8)
        guard typed.count <= maxLength else { return nil }
        let lowered = action.lowercased()
        let limit = typed.count < 8 ? 1 : 2
        var best: (distance: Int, action: String)?
        for candidate in known where candidate != action {
            if candidate.lowercased() == lowered {
                if best.map({ $0.distance > 0 || candidate < $0.action }) ?? true { best = (0, candidate) }
                continue
            }
            let other = Array(candidate.utf8)
            guard other.count <= maxLength, abs(other.count - typed.count) <= limit else { continue }
            let distance = editDistance(typed, other, limit: limit)
            guard distance <= limit else { continue }
            if let current = best, current.distance < distance || (current.distance == distance && current.action < candidate) {
                continue
            }
            best = (distance, candidate)
        }
        return best?.action
    }

    /// The optimal-string-alignment distance between `a` and `b`, or `limit + 1` once it is
    /// certainly more than `limit`.
    static func editDistance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, beforePrevious[j - 2] + 1)
                }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > limit { return limit + 1 }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
