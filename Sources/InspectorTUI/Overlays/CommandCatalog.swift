import InspectorClient
import TerminalUI

/// One binding of the key table as the command prompt (``CommandPrompt``) and the key browser
/// (``KeyBrowser``) list it: its name (the `:` command), its keys as a person types them, and
/// what it does.
struct CommandEntry: Sendable {
    /// The binding of ``InspectorModel/keyTable``.
    let binding: KeyBinding
    /// The keys as shown: the binding's own keys for a main-screen binding, the help's words
    /// (`Enter (in H)`) for a view's key or a note.
    let keys: String
    /// What it does: its help line's text, or the text of the line it shares (`up`: "down / up").
    let text: String
    /// What it takes after its name at the prompt (`:filter EXPR`), if anything.
    let argument: CommandArgument?

    /// The `:` command's name: the binding's stable name.
    var name: String { binding.name }

    /// Whether the prompt and the browser can run it: a main-screen binding. A view's keys
    /// and notes are listed, not run.
    var isRunnable: Bool {
        if case .main = binding.handler { return true }
        return false
    }

    /// Why a binding that is not runnable from the main screen is not, and what to do instead
    /// ("open H first"); `nil` for a runnable one.
    var notRunnableWhy: String? {
        switch binding.handler {
        case .main:
            return nil
        case .view(let view):
            let opener = view.count == 1 ? "press \(view) to open it" : "open it first (Enter on a message)"
            return "\(name) works in the \(view) view: \(opener), then press \(binding.keys.first.map(CommandCatalog.keyName) ?? "its key")"
        case .note:
            return "\(name) is not a command: it explains a mark in the log (\(keys))"
        }
    }
}

/// What a command takes after its name at the prompt, run directly instead of opening a prompt.
enum CommandArgument: Sendable {
    /// `:filter EXPR`: applies the filter, as `f` then Enter does.
    case filter
    /// `:search TEXT`: searches, as `/` then Enter does.
    case search
    /// `:keys WORDS`: opens the key browser searching for them.
    case keysQuery

    /// How the prompt names the argument (`filter EXPR`).
    var placeholder: String {
        switch self {
        case .filter: "EXPR"
        case .search: "TEXT"
        case .keysQuery: "WORDS"
        }
    }
}

/// The key table read as commands: one ``CommandEntry`` per binding, in the table's order, and
/// the prompt's ranking of them for what was typed (``CommandMatch``).
enum CommandCatalog {
    /// The commands that take an argument, by name.
    static let arguments: [String: CommandArgument] = ["filter": .filter, "search": .search, "keys": .keysQuery]

    /// Every binding of the key table, in its order.
    static let entries: [CommandEntry] = {
        var entries: [CommandEntry] = []
        var lastText = ""
        for binding in InspectorModel.keyTable {
            let keys: String
            switch (binding.handler, binding.help) {
            case (.main, _), (_, .withPrevious):
                keys = binding.keys.map(keyName).joined(separator: " ")
            case (_, .line(let helpKeys, _)):
                keys = helpKeys
            }
            if case .line(_, let text) = binding.help { lastText = text }
            entries.append(CommandEntry(binding: binding, keys: keys, text: lastText, argument: arguments[binding.name]))
        }
        return entries
    }()

    /// The entry named `name` exactly (any case), runnable or not.
    static func entry(named name: String) -> CommandEntry? {
        let lowered = name.lowercased()
        return entries.first { $0.name == lowered }
    }

    /// The commands the prompt offers for `query`, best first: the runnable bindings (in a
    /// read-only inspector, only those that send nothing, as the help and footer do).
    static func matches(_ query: String, readOnly: Bool) -> [CommandEntry] {
        let offered = entries.enumerated().filter { $0.element.isRunnable && (!readOnly || $0.element.binding.allowedReadOnly) }
        let ranked = offered.compactMap { index, entry in
            CommandMatch.rank(query, name: entry.name, text: entry.text).map { (rank: $0, index: index, entry: entry) }
        }
        return ranked.sorted { ($0.rank, $0.index) < ($1.rank, $1.index) }.map(\.entry)
    }

    /// The closest command names to a mistyped `word` (edit distance, as an action typo is
    /// found), for the prompt's "did you mean".
    static func closest(to word: String, readOnly: Bool) -> String? {
        let names = entries.filter { $0.isRunnable && (!readOnly || $0.binding.allowedReadOnly) }.map(\.name)
        return ActionSuggestion.closest(to: word.lowercased(), among: names)
    }

    /// A key as the help names it: `space`, `Ctrl-C`, `Enter`, `?`.
    static func keyName(_ key: Key) -> String {
        key == .char(" ") ? "space" : key.description
    }
}
