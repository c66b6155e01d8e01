@testable import InspectorTUI
import TerminalUI
import Testing

/// The key browser (`K`, `:keys`): every binding of the key table by section, searchable, and
/// runnable with Enter (issue 27, "a key browser").
@Suite("The key browser")
struct KeyBrowserTests {
    static func browser(_ model: InspectorModel) throws -> KeyBrowser {
        try #require(model.topOverlay as? KeyBrowser)
    }

    @Test("K opens it; it lists every binding of the key table, in its order, under the help's sections")
    func listsEveryBinding() throws {
        var model = journeyModel(width: 120, height: 40)
        model.press(.char("K"))
        let browser = try Self.browser(model)
        #expect(browser.entries(readOnly: false).map(\.name) == InspectorModel.keyTable.map(\.name))
        let (lines, entries) = KeyBrowser.lines(browser.entries(readOnly: false), width: 116, chosen: 0)
        let text = lines.map { $0.map(\.text).joined() }
        for binding in InspectorModel.keyTable {
            #expect(text.contains { $0.contains(" \(binding.name) ") }, "\(binding.name) is not listed")
        }
        for section in HelpSection.allCases {
            #expect(text.contains(section.rawValue), "\(section.rawValue) heading")
        }
        #expect(entries.filter { $0 >= 0 }.count == InspectorModel.keyTable.count)
        // Each line has the key, the name and the text: `r  respond  respond to the selected…`.
        let respondEntry = try #require(browser.entries(readOnly: false).firstIndex { $0.name == "respond" })
        let respond = try #require(entries.firstIndex(of: respondEntry).map { text[$0] })
        #expect(respond.hasPrefix("  r "), "\(respond)")
        #expect(respond.contains("respond to the selected pending request"), "\(respond)")
        #expect(model.screenText.contains("Keys and commands: \(InspectorModel.keyTable.count) bindings"))
    }

    @Test("typing searches names, keys and text; Enter runs the chosen binding as its key would")
    func searchAndRun() throws {
        var model = journeyModel(width: 80, height: 24)
        model.press(.char("K"))
        model.type("zoom")
        let browser = try Self.browser(model)
        let listed = browser.entries(readOnly: false)
        #expect(listed.map(\.name).contains("zoom"))
        #expect(listed[browser.cursor].name == "zoom", "the best match is chosen, not the first listed")
        #expect(model.press(.enter).isEmpty)
        #expect(model.overlays.isEmpty)
        #expect(model.zoomed)
        // A key finds its binding; a word of the text finds it too.
        model.press(.char("K"))
        model.type("J")
        #expect(try Self.browser(model).entries(readOnly: false).map(\.name).contains("jump-to-cause"))
        model.press(.ctrl("u"))
        model.type("clipboard")
        #expect(try Self.browser(model).entries(readOnly: false).map(\.name).contains("copy-json"))
    }

    @Test("↓ moves the choice; Enter on a view's key says which view to open and keeps the browser")
    func viewKey() throws {
        var model = journeyModel(width: 80, height: 24)
        model.press(.char("K"))
        model.type("held")
        let names = try Self.browser(model).entries(readOnly: false).map(\.name)
        #expect(names[try Self.browser(model).cursor] == "held")
        let index = try #require(names.firstIndex(of: "drop-held"))
        for _ in try Self.browser(model).cursor..<index { model.press(.down) }
        model.press(.enter)
        #expect(model.flash?.text == "drop-held works in the H view: press H to open it, then press d")
        #expect(model.topOverlay is KeyBrowser)
    }

    @Test("in a read-only inspector it leaves out what sends, and what it runs is refused as the key is")
    func readOnly() throws {
        var model = journeyModel(width: 80, height: 24)
        model.readOnly = true
        model.press(.char("K"))
        let names = try Self.browser(model).entries(readOnly: true).map(\.name)
        #expect(!names.contains("respond"))
        #expect(names.contains("stats"))
        model.type("stats")
        model.press(.enter)
        #expect(model.topOverlay is StatsView)
        // Run by name from the browser's action: the same refusal as r.
        model.press(.escape)
        _ = model.runCommand(named: "respond", argument: nil)
        #expect(model.flash?.text == "this inspector is read-only (--read-only): nothing can be sent")
        #expect(model.overlays.isEmpty)
    }

    @Test("? is typed into the search; Esc closes")
    func typing() throws {
        var model = journeyModel(width: 80, height: 24)
        model.press(.char("K"))
        model.type("?")
        #expect(try Self.browser(model).search.text == "?")
        #expect(try Self.browser(model).entries(readOnly: false).first?.name == "help")
        model.press(.escape)
        #expect(model.overlays.isEmpty)
    }
}
