import Foundation
import TerminalUI

/// Every binding of the key table, grouped by the help's sections, each with its keys, its
/// name (the `:` command that runs it) and what it does; typing searches names, keys and
/// text (k9s's `?`, lazygit's keybindings menu). Enter runs the chosen binding as its key
/// would (``OverlayAction/run(name:argument:)``); a view's key says which view to open instead.
/// Opened with `K` or `:keys`; Esc closes.
struct KeyBrowser: OverlayView {
    /// What is typed: the search.
    var search: TextInput
    /// The chosen entry, an index into ``entries(readOnly:)``.
    var cursor = 0

    /// A browser searching for `query` (`:keys camera`), the best match chosen.
    init(query: String = "", readOnly: Bool = false) {
        search = TextInput(text: query)
        cursor = bestMatch(readOnly: readOnly)
    }

    var takesText: Bool { true }

    var footerKeys: [(key: String, label: String)] { [("Esc", "back"), ("Enter", "run"), ("↑/↓", "choose"), ("type", "search")] }

    /// The bindings listed for the search, in the table's order (which groups them by section).
    /// A read-only inspector leaves out what sends, as its help does.
    func entries(readOnly: Bool) -> [CommandEntry] {
        CommandCatalog.entries.filter { (!readOnly || $0.binding.allowedReadOnly) && rank(of: $0) != nil }
    }

    /// How well `entry` matches the search (``CommandMatch``), lower is better; one of its keys
    /// typed exactly (`J`, `?`) matches best.
    func rank(of entry: CommandEntry) -> Int? {
        let query = search.text.trimmingCharacters(in: .whitespaces)
        if !query.isEmpty, entry.keys.split(separator: " ").contains(where: { $0 == query }) { return 0 }
        return CommandMatch.rank(query, name: entry.name, text: entry.text)
    }

    /// The entry that matches the search best (the first of the best), where the choice goes
    /// as the search changes, so Enter runs what was searched for.
    func bestMatch(readOnly: Bool) -> Int {
        let ranks = entries(readOnly: readOnly).map { rank(of: $0) ?? Int.max }
        return ranks.indices.min { (ranks[$0], $0) < (ranks[$1], $1) } ?? 0
    }

    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
        let listed = entries(readOnly: context.readOnly)
        let page = max(1, context.size.height - 8)
        switch key {
        case .escape:
            return .close
        case .enter:
            guard let entry = listed[safe: cursor] else { return .none }
            if let why = entry.notRunnableWhy { return .flash(why, isError: false) }
            return .run(name: entry.name, argument: nil)
        case .down, .ctrl("n"): cursor += 1
        case .up, .ctrl("p"): cursor -= 1
        case .pageDown: cursor += page
        case .pageUp: cursor -= page
        default:
            _ = search.handle(key)
            cursor = bestMatch(readOnly: context.readOnly)
        }
        cursor = min(max(0, cursor), max(0, entries(readOnly: context.readOnly).count - 1))
        return .none
    }

    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        let listed = entries(readOnly: context.readOnly)
        let all = context.readOnly ? CommandCatalog.entries.filter(\.binding.allowedReadOnly).count : CommandCatalog.entries.count
        let count = search.isEmpty ? "\(all) bindings" : "\(listed.count) of \(all) match"
        let inner = DialogFrame.full(&buffer, area: area, title: "Keys and commands: \(count) (Enter runs, : names them)")
        guard inner.height >= 2 else { return }
        let x = inner.x + buffer.write("search: ", at: inner.origin, style: Theme.paneTitleFocused, maxWidth: inner.width)
        _ = search.draw(into: &buffer, in: Rect(x: x, y: inner.y, width: max(1, inner.maxX - x), height: 1), placeholder: "type a name, a key or a word")
        let rect = Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: inner.height - 1)
        if listed.isEmpty {
            DialogFrame.emptyListNote(["Nothing matches.", "Backspace to search again, Esc to go back."], into: &buffer, rect: rect)
            return
        }
        let (lines, entryOfLine) = Self.lines(listed, width: inner.width, chosen: cursor)
        let chosen = DialogFrame.lines(of: cursor, in: entryOfLine, entryOf: { $0 })
        DialogFrame.drawList(lines, keepingInView: chosen, highlighted: { entryOfLine[$0] == cursor }, into: &buffer, rect: rect)
    }

    /// The lines of `listed` in `width` columns: a heading for each section, then one line an
    /// entry (keys, name, text cut to fit; the `chosen` one in the selection's colours); beside
    /// them, the entry each line is (-1 for headings).
    static func lines(_ listed: [CommandEntry], width: Int, chosen: Int) -> (lines: [[Span]], entries: [Int]) {
        let keyWidth = min(14, listed.map { TextWidth.width(of: $0.keys) }.max() ?? 0)
        let nameWidth = min(18, listed.map { TextWidth.width(of: $0.name) }.max() ?? 0)
        var lines: [[Span]] = []
        var entries: [Int] = []
        var section: HelpSection?
        for (index, entry) in listed.enumerated() {
            if entry.binding.section != section {
                section = entry.binding.section
                lines.append([Span(entry.binding.section.rawValue, Theme.paneTitleFocused)])
                entries.append(-1)
            }
            let textWidth = max(0, width - 2 - keyWidth - 2 - nameWidth - 2)
            let selected = index == chosen
            lines.append([
                Span("  " + TextWidth.pad(TextWidth.fit(entry.keys, to: keyWidth), to: keyWidth) + "  ", selected ? Theme.selection : Theme.paneTitle),
                Span(TextWidth.pad(TextWidth.fit(entry.name, to: nameWidth), to: nameWidth) + "  ", selected ? Theme.selection : entry.isRunnable ? .plain : Theme.dim),
                Span(TextWidth.fit(entry.text, to: textWidth), selected ? Theme.selection : Theme.dim),
            ])
            entries.append(index)
        }
        return (lines, entries)
    }
}
