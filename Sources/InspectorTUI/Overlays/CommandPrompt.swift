import Foundation
import InspectorClient
import TerminalUI

/// The `:` command prompt (mitmproxy's and k9s's `:`): a one-line input at the bottom of the
/// screen that runs any binding of the key table by its name, with a list above it of the
/// commands that match what is typed, each with its key and what it does, best first
/// (``CommandMatch``).
///
/// Tab completes the longest common start of the names that start with what is typed, and
/// when there is none to add, cycles through the list (Shift-Tab backwards; ↑ ↓ choose too);
/// Enter runs the chosen command exactly as its key would (``OverlayAction/run(name:argument:)``:
/// the model runs it through the key's own path, read-only refusals and all); Esc closes.
/// `:filter EXPR`, `:search TEXT` and `:keys WORDS` take what follows the name.
struct CommandPrompt: OverlayView {
    /// What is typed: a command's name, then an argument after a space.
    var input = TextInput()
    /// What the list is filtered by: what was typed, kept while Tab and ↑ ↓ fill the input
    /// with the names of the list.
    var query = ""
    /// The chosen row of the list.
    var selection = 0
    /// Why Enter did not run anything (an unknown name, a bad filter), shown until the next edit.
    var error: String?

    var takesText: Bool { true }

    var footerKeys: [(key: String, label: String)] {
        [("Esc", "close"), ("Enter", "run"), ("Tab", "complete"), ("↑/↓", "choose"), (":keys", "all keys")]
    }

    /// The name typed (before the first space) and the argument after it, trimmed (`nil` when
    /// there is none).
    static func split(_ text: String) -> (word: String, argument: String?) {
        let trimmed = text.drop { $0 == " " }
        guard let space = trimmed.firstIndex(of: " ") else { return (String(trimmed), nil) }
        let argument = trimmed[space...].trimmingCharacters(in: .whitespaces)
        return (String(trimmed[..<space]), argument.isEmpty ? nil : argument)
    }

    /// The commands listed now.
    func matches(readOnly: Bool) -> [CommandEntry] {
        CommandCatalog.matches(Self.split(query).word, readOnly: readOnly)
    }

    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
        let listed = matches(readOnly: context.readOnly)
        switch key {
        case .escape:
            return .close
        case .enter:
            return submit(listed, readOnly: context.readOnly)
        case .tab:
            complete(listed)
        case .backTab, .up:
            choose(listed, step: -1)
        case .down:
            choose(listed, step: 1)
        default:
            _ = input.handle(key)
            query = input.text
            selection = 0
            error = nil
        }
        return .none
    }

    /// Tab: the longest common start of the names that start with the word typed, else the
    /// next name of the list.
    private mutating func complete(_ listed: [CommandEntry]) {
        let (word, argument) = Self.split(input.text)
        guard argument == nil, !input.text.hasSuffix(" ") || word.isEmpty else { return }
        let starting = listed.map(\.name).filter { $0.hasPrefix(word.lowercased()) }
        let common = Self.commonPrefix(starting)
        if common.count > word.count {
            input.text = common
            query = common
            selection = 0
            error = nil
            return
        }
        choose(listed, step: 1)
    }

    /// Moves the choice by `step` through the list (round), filling the input with its name.
    private mutating func choose(_ listed: [CommandEntry], step: Int) {
        guard !listed.isEmpty else { return }
        let current = min(selection, listed.count - 1)
        // The first Tab or ↓ takes the highlighted row itself when its name is not typed yet.
        let next = input.text == listed[current].name || step < 0 ? current + step : current
        selection = (next % listed.count + listed.count) % listed.count
        input.text = listed[selection].name
        error = nil
    }

    /// Enter: the command named exactly, else the chosen row of the list; what it takes is
    /// checked here, so a mistake is fixed in place.
    private mutating func submit(_ listed: [CommandEntry], readOnly: Bool) -> OverlayAction {
        let (word, argument) = Self.split(input.text)
        if word.isEmpty { return .close }
        guard let entry = CommandCatalog.entry(named: word) ?? listed[safe: selection] else {
            error = Self.unknown(word, readOnly: readOnly)
            return .none
        }
        // A view's key: the model closes the prompt and says which view to open.
        guard entry.isRunnable, let argument else { return .run(name: entry.name, argument: nil) }
        switch entry.argument {
        case nil:
            error = "\(entry.name) takes nothing after its name: Enter on :\(entry.name) alone runs it"
            return .none
        case .filter?, .search?:
            do {
                _ = try LogFilter.parse(argument)
            } catch {
                self.error = error.description
                return .none
            }
        case .keysQuery?:
            break
        }
        return .run(name: entry.name, argument: argument)
    }

    /// What the prompt says of a name no command has, with the closest name when there is one.
    static func unknown(_ word: String, readOnly: Bool) -> String {
        let guess = CommandCatalog.closest(to: word, readOnly: readOnly).map { " Did you mean :\($0)?" } ?? ""
        return "no command \"\(word)\".\(guess) :help lists the keys, :keys browses every command"
    }

    /// The longest start `names` share.
    static func commonPrefix(_ names: [String]) -> String {
        guard var common = names.first else { return "" }
        for name in names.dropFirst() {
            while !name.hasPrefix(common) { common.removeLast() }
        }
        return common
    }

    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        guard area.height >= 1 else { return }
        let inputRow = Rect(x: area.x, y: area.maxY - 1, width: area.width, height: 1)
        buffer.fill(inputRow)
        let x = inputRow.x + buffer.write(":", at: inputRow.origin, style: Theme.paneTitleFocused, maxWidth: inputRow.width)
        _ = input.draw(
            into: &buffer, in: Rect(x: x, y: inputRow.y, width: max(1, inputRow.width - 1), height: 1),
            placeholder: "a command: respond, filter EXPR, search TEXT, keys… (Tab completes)")
        // What is wrong, whole, on the rows above the input.
        var bottom = inputRow.y
        if let error {
            let lines = TextWrap.wrap(error, width: max(1, area.width - 2)).suffix(max(1, area.height - 1))
            bottom -= lines.count
            for (row, line) in lines.enumerated() {
                let y = bottom + row
                buffer.fill(Rect(x: area.x, y: y, width: area.width, height: 1), style: Theme.flashError)
                buffer.write(" " + line, at: Point(x: area.x, y: y), style: Theme.flashError, maxWidth: area.width)
            }
        }
        renderList(into: &buffer, area: Rect(x: area.x, y: area.y, width: area.width, height: bottom - area.y), context: context)
    }

    /// The matching commands in a box just above the input (or what to do when none match).
    private func renderList(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        let listed = matches(readOnly: context.readOnly)
        let word = Self.split(query).word
        let rows = listed.isEmpty ? 1 : min(listed.count, max(1, min(10, area.height / 2 - 2)))
        guard area.height >= rows + 2 else { return }
        let box = Rect(x: area.x, y: area.maxY - rows - 2, width: area.width, height: rows + 2)
        buffer.fill(box)
        let title = listed.isEmpty ? "Commands" : "Commands: \(listed.count)\(word.isEmpty ? "" : " match")"
        let inner = buffer.box(box, style: Theme.borderFocused, title: title, titleStyle: Theme.paneTitleFocused)
        guard !listed.isEmpty else {
            buffer.write(Self.unknown(word, readOnly: context.readOnly), at: inner.origin, style: Theme.dim, maxWidth: inner.width)
            return
        }
        let chosen = min(selection, listed.count - 1)
        let first = min(max(0, chosen - rows + 1), listed.count - rows)
        let nameWidth = min(22, listed.map { TextWidth.width(of: Self.usage($0)) }.max() ?? 0)
        let keyWidth = min(12, listed.map { TextWidth.width(of: $0.keys) }.max() ?? 0)
        for row in 0..<rows {
            let entry = listed[first + row]
            let y = inner.y + row
            let selected = first + row == chosen && !input.isEmpty
            let base: Style = selected ? Theme.selection : .plain
            if selected { buffer.fill(Rect(x: inner.x, y: y, width: inner.width, height: 1), style: Theme.selection) }
            var x = inner.x
            x += buffer.write(TextWidth.pad(TextWidth.fit(Self.usage(entry), to: nameWidth), to: nameWidth) + "  ", at: Point(x: x, y: y), style: selected ? base : Theme.paneTitle, maxWidth: inner.maxX - x)
            x += buffer.write(TextWidth.pad(TextWidth.fit(entry.keys, to: keyWidth), to: keyWidth) + "  ", at: Point(x: x, y: y), style: base, maxWidth: inner.maxX - x)
            buffer.write(TextWidth.fit(entry.text, to: max(0, inner.maxX - x)), at: Point(x: x, y: y), style: selected ? base : Theme.dim, maxWidth: inner.maxX - x)
        }
    }

    /// A command as typed at the prompt: its name, and what it takes (`filter EXPR`).
    static func usage(_ entry: CommandEntry) -> String {
        entry.argument.map { "\(entry.name) [\($0.placeholder)]" } ?? entry.name
    }
}
