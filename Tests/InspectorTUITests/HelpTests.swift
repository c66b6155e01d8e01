import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

@Suite("Help")
struct HelpTests {
    /// Every key named in the help's key column.
    static var documented: Set<String> {
        var tokens = Set<String>()
        for section in HelpView.sections {
            for (key, _) in section.keys {
                for token in key.split(separator: " ") { tokens.insert(String(token)) }
            }
        }
        return tokens
    }

    /// How the help names a key.
    static func name(_ key: Key) -> String {
        switch key {
        case .char(" "): return "space"
        case .char(let c): return String(c)
        case .ctrl(let c): return "Ctrl-" + String(c).uppercased()
        case .enter: return "Enter"
        case .escape: return "Esc"
        case .tab: return "Tab"
        case .backTab: return "Shift-Tab"
        case .up: return "↑"
        case .down: return "↓"
        case .home: return "Home"
        case .end: return "End"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .function(let n): return "F\(n)"
        default: return key.description
        }
    }

    @Test("? lists every binding of the key table, each key named on its line or the line before")
    func listsEveryBinding() {
        let documented = Self.documented
        for binding in InspectorModel.keyTable {
            for key in binding.keys { #expect(documented.contains(Self.name(key)), "\(binding.name): \(Self.name(key)) is not in the help") }
        }
        // The keys that existed before the table, S D H b i I y Y R among them, stay listed.
        let keys = [
            "?", "F1", "q", "Esc", "Ctrl-C", "Tab", "Shift-Tab", "j", "k", "↓", "↑", "g", "G", "Home", "End", "PgDn", "PgUp",
            "Ctrl-F", "Ctrl-B", "Enter", "f", "/", "n", "N", "space", "p", "F", "L", "A", "r", "e", "c", "x", "t", "P", "E", "J", "C",
            "S", "D", "H", "b", "i", "I", "y", "Y", "R",
        ]
        for key in keys { #expect(documented.contains(key), "\(key) is not in the help") }
    }

    @Test("The key table binds each key once, names each binding once, and a recording refuses exactly the keys that send")
    func keyTableIsConsistent() {
        let table = InspectorModel.keyTable
        #expect(Set(table.map(\.name)).count == table.count, "a binding name is used twice")
        var bound: [Key: String] = [:]
        for binding in table {
            guard case .main = binding.handler else { continue }
            for key in binding.keys {
                #expect(bound[key] == nil, "\(Self.name(key)) is bound by \(bound[key] ?? "") and \(binding.name)")
                bound[key] = binding.name
            }
        }
        func isMain(_ binding: KeyBinding) -> Bool { if case .main = binding.handler { true } else { false } }
        let sending = Set(table.filter { $0.sends && isMain($0) }.flatMap(\.keys))
        #expect(sending == Set("rcxetPCLiIW".map { Key.char($0) }))
        // The help's lines for keys of views that send (a recording's help leaves them out).
        #expect(
            Set(table.filter { $0.sends && !isMain($0) }.map(\.name))
                == ["new-rule", "release-held", "edit-held", "answer-held", "drop-held", "release-all-held", "new-fault", "remove-fault", "load-faults"])
        #expect(InspectorModel.binding(named: "respond")?.keys == [.char("r")])
        // Every line the help shows for a binding comes from the table.
        let lines = table.filter { if case .line = $0.help { return true } else { return false } }.count
        #expect(HelpView.sections.dropLast(HelpView.reference.count).map(\.keys.count).reduce(0, +) == lines)
    }

    /// What a person can see of the model's state.
    static func fingerprint(_ model: InspectorModel) -> String {
        "\(model.overlays.count) \(String(describing: model.prompt?.kind)) \(model.flash?.text ?? "") \(model.focus) \(model.cursor) "
            + "\(model.scroll) \(String(describing: model.pausedAt)) \(model.following) \(model.quitting) \(model.search?.source ?? "") \(model.filter.source)"
    }

    @Test("Every key that does something on the main screen is in the help")
    func everyWorkingKeyIsDocumented() {
        var candidates: [Key] = (0x20...0x7E).map { .char(Character(Unicode.Scalar(UInt8($0)))) }
        candidates += "abcdefghijklmnopqrstuvwxyz".map { .ctrl($0) }
        candidates += [.enter, .escape, .tab, .backTab, .up, .down, .left, .right, .home, .end, .pageUp, .pageDown, .delete, .insert, .backspace]
        candidates += (1...12).map { .function($0) }
        let documented = Self.documented
        for pane in 0..<3 {
            var base = journeyModel(width: 80, height: 24)
            for _ in 0..<pane { base.press(.tab) }
            base.press(.char("k"))
            if pane == 1 { base.press(.char("j")) }
            for key in candidates {
                var model = base
                let before = Self.fingerprint(model)
                let effects = model.press(key)
                // A key that only says it does nothing (and points to ?) is not a working key.
                if model.flash?.text.hasSuffix("does nothing here: ? lists the keys") == true { continue }
                if Self.fingerprint(model) != before || !effects.isEmpty {
                    #expect(documented.contains(Self.name(key)), "\(Self.name(key)) works in pane \(pane) but the help does not name it")
                }
            }
        }
    }

    @Test("The help opens over the screen and closes with Esc, q, ? or F1")
    func opensAndCloses() {
        for close: Key in [.escape, .char("q"), .char("?"), .function(1)] {
            var model = journeyModel()
            model.press(.char("?"))
            #expect(model.screen[1].contains("Help: keys"))
            #expect(model.footer.contains("Esc back"))
            #expect(model.press(close).isEmpty)
            #expect(model.overlays.isEmpty)
            #expect(!model.quitting)
        }
        var model = journeyModel()
        model.press(.function(1))
        #expect(model.screen[1].contains("Help: keys"))
    }

    @Test("The help scrolls to its end on a small screen")
    func scrolls() {
        var model = journeyModel(width: 80, height: 24)
        model.press(.char("?"))
        #expect(!model.screenText.contains("Markers in the log"))
        model.press(.char("G"))
        // The end: the last lines of the last section, the markers in the log.
        #expect(model.screenText.contains("changed by a fault rule"))
        #expect(model.screenText.contains("past the journey's timeout"))
    }

    @Test("The help uses the terminal's width: at 80, 120 and 200 columns no key runs into its meaning and no meaning is cut")
    func layoutAtWidths() throws {
        for width in [80, 120, 200] {
            var model = journeyModel(width: width, height: 40)
            model.press(.char("?"))
            var seen: [String] = []
            for _ in 0..<40 {
                let rows = text(in: Rect(x: 1, y: 2, width: width - 2, height: 36), of: model.render())
                seen += rows
                model.press(.pageDown)
            }
            let all = seen.joined(separator: "\n")
            for section in HelpView.sections {
                for (key, meaning) in section.keys {
                    // The key stands alone: followed by two spaces or the end of its line.
                    #expect(all.contains("  " + key + "  ") || seen.contains { $0.hasSuffix("  " + key) }, "\(width): \(key) runs into its meaning")
                    // The meaning is all there, wrapped maybe, never cut.
                    let words = meaning.split(separator: " ").map(String.init)
                    #expect(words.allSatisfy { all.contains($0) }, "\(width): part of \"\(meaning)\" is missing")
                    #expect(!all.contains(meaning.prefix(20) + "…"), "\(width): \(meaning) is cut")
                }
            }
            // Nothing touches the right border: every line fits the box.
            let box = model.render().lines.dropFirst(1).prefix(38)
            #expect(box.allSatisfy { !$0.contains("…│") }, "\(width)")
            // The pending markers are explained.
            for marker in ["! (Pending)", "✗ (Pending)", "⊘ (Pending)"] { #expect(all.contains(marker), "\(width): \(marker)") }
        }
        // Wide terminals use their width: a long meaning stays on one line at 200 columns.
        var wide = journeyModel(width: 200, height: 60)
        wide.press(.char("?"))
        let longest = try #require(HelpView.sections.flatMap(\.keys).map(\.1).max { $0.count < $1.count })
        #expect(longest.count > 80, "the test needs a meaning longer than an 80-column line")
        #expect(wide.screenText.contains(longest))
    }
}
