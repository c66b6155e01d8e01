/// How the command prompt and the key browser rank a command for what was typed: the name
/// exactly, then its start, then the start of one of its words (`held` finds `release-held`),
/// then anywhere in it, then its letters in order (`cs` finds `complete-slot`, as fzf does),
/// and last the words of its help text (`clipboard` finds `copy-json`). Case does not matter.
enum CommandMatch {
    /// The rank of `name` (and its help `text`) for `query`, lower is better: 0 for an empty
    /// query or the name itself, up to 5 for a match in the text alone; `nil` when nothing
    /// matches.
    static func rank(_ query: String, name: String, text: String) -> Int? {
        let query = query.lowercased()
        guard !query.isEmpty else { return 0 }
        let name = name.lowercased()
        if name == query { return 0 }
        if name.hasPrefix(query) { return 1 }
        if name.split(separator: "-").contains(where: { $0.hasPrefix(query) }) { return 2 }
        if name.contains(query) { return 3 }
        if isSubsequence(query, of: name) { return 4 }
        // One letter in a sentence matches nearly everything: the text counts from two on.
        if query.count >= 2, text.lowercased().contains(query) { return 5 }
        return nil
    }

    /// Whether the characters of `query` appear in `text` in order.
    static func isSubsequence(_ query: String, of text: String) -> Bool {
        var remaining = query[...]
        for character in text where character == remaining.first {
            remaining = remaining.dropFirst()
            if remaining.isEmpty { return true }
        }
        return remaining.isEmpty
    }
}
