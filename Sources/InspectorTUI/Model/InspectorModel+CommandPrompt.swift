import InspectorClient
import TerminalUI

/// Running the key table's bindings by name, for the `:` command prompt (``CommandPrompt``) and
/// the key browser (``KeyBrowser``): through the same path as their keys
/// (``run(_:key:argument:)``), so a recording refuses what sends exactly as the key does, and
/// each binding makes its own checks (`supports(...)`) as ever.
extension InspectorModel {
    /// Runs the binding named `name` on the main screen as its first key would, or says why not
    /// (an unknown name, a view's key); `argument` is what followed the name at the prompt.
    mutating func runCommand(named name: String, argument: String?) -> [InspectorEffect] {
        guard let entry = CommandCatalog.entry(named: name) else {
            showFlash(CommandPrompt.unknown(name, readOnly: readOnly), isError: true)
            return []
        }
        if let why = entry.notRunnableWhy {
            showFlash(why, isError: false)
            return []
        }
        guard let key = entry.binding.keys.first else { return [] }
        return run(entry.binding, key: key, argument: argument)
    }

    /// A command with what followed its name: `:filter EXPR` and `:search TEXT` put it in force
    /// as their prompts' Enter does; `:keys WORDS` opens the key browser searching for them.
    mutating func runCommand(_ kind: CommandArgument, argument: String) -> [InspectorEffect] {
        switch kind {
        case .filter, .search:
            do {
                apply(try LogFilter.parse(argument), as: kind == .filter ? .filter : .search)
            } catch {
                showFlash(error.description, isError: true)
            }
            return []
        case .keysQuery:
            return open(KeyBrowser(query: argument, readOnly: readOnly))
        }
    }
}
