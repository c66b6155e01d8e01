import BridgeCore
import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

/// The `:` command prompt (issue 27: "a `:` command prompt with completion of every action and
/// key"): it runs the key table's bindings by name through the keys' own path.
@Suite("The : command prompt")
struct CommandPromptTests {
    /// A model at 80x24 showing the journey, with `text` typed at the `:` prompt (`base`, when
    /// given, instead of the journey).
    static func typed(_ text: String, on base: InspectorModel = journeyModel(width: 80, height: 24)) -> InspectorModel {
        var model = base
        model.press(.char(":"))
        model.type(text)
        return model
    }

    /// The open prompt, or a failed expectation.
    static func prompt(_ model: InspectorModel) throws -> CommandPrompt {
        try #require(model.topOverlay as? CommandPrompt)
    }

    @Test(": opens the prompt at the bottom; Esc closes it and nothing else changes")
    func opensAndCloses() throws {
        var model = journeyModel(width: 80, height: 24)
        let before = model.screenText
        #expect(model.press(.char(":")).isEmpty)
        _ = try Self.prompt(model)
        #expect(model.flash == nil, "no unbound-key notice any more")
        #expect(model.screen[22].hasPrefix(":"), "\(model.screen[22])")
        #expect(model.footer.contains("Tab complete"), "\(model.footer)")
        model.press(.escape)
        #expect(model.overlays.isEmpty)
        #expect(model.screenText == before)
    }

    @Test(":res then Enter opens the respond dialog for the selected pending request, as r does")
    func respondByName() throws {
        var byKey = journeyModel(width: 80, height: 24)
        byKey.press(.tab, .char("r"))
        var byName = journeyModel(width: 80, height: 24)
        byName.press(.tab, .char(":"))
        byName.type("res")
        #expect(try Self.prompt(byName).matches(readOnly: false).first?.name == "respond")
        #expect(byName.press(.enter).isEmpty)
        #expect(byName.topOverlay is RespondDialog)
        #expect(byName.overlays.count == 1, "the prompt closed")
        #expect(byName.screenText == byKey.screenText)
    }

    @Test("a binding that checks what the host supports checks it from the prompt too")
    func supportChecks() {
        let host = WireHostInfo(
            name: "MyApp", pid: 901, hostVersion: "3.0.0", environment: "ios", startedAt: Fixture.t0 - 60_000,
            unsupported: [HostFeature.sendEvent.rawValue: "this host cannot fire events"])
        var byKey = makeModel(width: 80, height: 24)
        byKey.handle(.frame(Fixture.journeySnapshot(host: host)))
        var byName = Self.typed("event", on: byKey)
        byKey.press(.char("e"))
        byName.press(.enter)
        #expect(byName.overlays.isEmpty)
        #expect(byName.flash?.text == "not available for this host: this host cannot fire events")
        #expect(byName.flash == byKey.flash)
    }

    @Test("Tab completes the longest common start, then cycles through the list; Shift-Tab goes back")
    func tabCompletion() throws {
        var model = Self.typed("z")
        model.press(.tab)
        #expect(try Self.prompt(model).input.text == "zoom")
        model.press(.ctrl("u"))
        model.type("cl")
        model.press(.tab)
        #expect(try Self.prompt(model).input.text == "clear-")
        model.press(.tab)
        #expect(try Self.prompt(model).input.text == "clear-log")
        model.press(.tab)
        #expect(try Self.prompt(model).input.text == "clear-error")
        model.press(.backTab)
        #expect(try Self.prompt(model).input.text == "clear-log")
        // The list stays the one for what was typed while Tab fills the input.
        #expect(try Self.prompt(model).matches(readOnly: false).map(\.name).prefix(2) == ["clear-log", "clear-error"])
        model.press(.enter)
        #expect(model.topOverlay is ConfirmDialog, "clear-log asks first, as L does")
    }

    @Test("the list shows each match with its key and text, best first, the chosen one highlighted")
    func list() throws {
        let model = Self.typed("st")
        let names = try Self.prompt(model).matches(readOnly: false).map(\.name)
        #expect(names.first == "stats", "a name's start ranks first: \(names)")
        let screen = model.screen
        let row = try #require(screen.index(containing: "stats "))
        #expect(screen[row].contains("S "), "\(screen[row])")
        #expect(screen[row].contains("statistics per action"), "\(screen[row])")
        let buffer = model.render()
        let x = try #require(column(of: "stats", inRow: row, of: buffer))
        #expect(buffer.cell(at: Point(x: x, y: row))?.style == Theme.selection)
        #expect(names.allSatisfy { CommandCatalog.entry(named: $0)?.isRunnable == true }, "only what runs from the main screen is offered")
    }

    @Test("an unknown name keeps the prompt open and says what to do, with the closest name")
    func unknown() throws {
        var model = Self.typed("qiut")
        #expect(model.press(.enter).isEmpty)
        let error = try #require(try Self.prompt(model).error)
        #expect(error == "no command \"qiut\". Did you mean :quit? :help lists the keys, :keys browses every command")
        #expect(model.screenText.contains("Did you mean :quit?"))
        #expect(!model.quitting)
        model.press(.ctrl("u"))
        model.type("xyzzy")
        model.press(.enter)
        #expect(try Self.prompt(model).error == "no command \"xyzzy\". :help lists the keys, :keys browses every command")
    }

    @Test(":filter EXPR applies the filter as f does; :search TEXT searches as / does")
    func filterAndSearch() throws {
        var byKey = journeyModel(width: 80, height: 24)
        byKey.press(.char("f"))
        byKey.type("action:camera.*")
        byKey.press(.enter)
        var byName = Self.typed("filter action:camera.*")
        byName.press(.enter)
        #expect(byName.overlays.isEmpty)
        #expect(byName.filter.source == "action:camera.*")
        #expect(byName.visible == byKey.visible)
        #expect(byName.visible.count == 1)
        #expect(byName.flash?.text == byKey.flash?.text)

        byName = Self.typed("search nfc", on: byName)
        byName.press(.enter)
        #expect(byName.search?.source == "nfc")
    }

    @Test("a filter with a mistake stays in the prompt with the parse error")
    func badFilter() throws {
        var model = Self.typed("filter type:requst")
        model.press(.enter)
        #expect(try Self.prompt(model).error?.contains("type is request, response or event") == true)
        #expect(model.filter.isEmpty)
        model.press(.char("e"))
        #expect(try Self.prompt(model).error == nil, "an edit clears it")
    }

    @Test("a command that takes nothing refuses an argument")
    func argumentRefused() throws {
        var model = Self.typed("zoom now")
        model.press(.enter)
        #expect(try Self.prompt(model).error == "zoom takes nothing after its name: Enter on :zoom alone runs it")
        #expect(!model.zoomed)
    }

    @Test("in a read-only inspector a command that sends is refused exactly as its key is")
    func readOnlyRefusal() throws {
        var byKey = journeyModel(width: 80, height: 24)
        byKey.readOnly = true
        var byName = Self.typed("respond", on: byKey)
        let keyEffects = byKey.press(.char("r"))
        #expect(CommandCatalog.matches("", readOnly: true).allSatisfy { $0.binding.allowedReadOnly }, "the list offers none that send")
        let listed = try Self.prompt(byName).matches(readOnly: true).map(\.name)
        #expect(!listed.contains("respond"), "nor respond itself")
        let nameEffects = byName.press(.enter)
        #expect(keyEffects.isEmpty && nameEffects.isEmpty)
        #expect(byName.overlays.isEmpty)
        #expect(byName.flash == byKey.flash)
        #expect(byName.flash?.text == "this inspector is read-only (--read-only): nothing can be sent")
    }

    @Test(":help opens the help; :keys the key browser, searching for what follows it")
    func helpAndKeys() throws {
        var model = Self.typed("help")
        model.press(.enter)
        #expect(model.topOverlay is HelpView)
        model.press(.escape, .char(":"))
        model.type("keys slot")
        model.press(.enter)
        let browser = try #require(model.topOverlay as? KeyBrowser)
        #expect(browser.search.text == "slot")
        #expect(model.overlays.count == 1)
    }

    @Test("a key of a view is not run from the main screen: the notice says which view to open")
    func viewKey() throws {
        var model = Self.typed("release-held")
        #expect(try Self.prompt(model).matches(readOnly: false).isEmpty, "a view's key is not offered")
        model.press(.enter)
        #expect(model.overlays.isEmpty)
        #expect(model.flash?.text == "release-held works in the H view: press H to open it, then press Enter")
    }

    @Test("the footer offers : after the pane hints, where it fits")
    func footerHint() {
        let narrow = journeyModel(width: 80, height: 24)
        #expect(!narrow.footer.contains(": command"), "80 columns keep the pane hints: \(narrow.footer)")
        #expect(narrow.footer.contains("r respond") && narrow.footer.contains("Tab pane"))
        let wide = journeyModel(width: 160, height: 40)
        #expect(wide.footer.contains(": command"), "\(wide.footer)")
        #expect(HelpView.sections.first?.keys.contains { $0.0 == ":" } == true, "the help lists it")
    }
}
