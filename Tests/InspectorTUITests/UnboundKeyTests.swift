@testable import InspectorTUI
import TerminalUI
import Testing

/// Issue 27, trap 8: unbound keys (`:` then, `Q`, `z`) did nothing and said nothing. Now the main
/// screen and the list views name the key and point to `?`; a key typed into a text field is
/// text, never a notice.
@Suite("An unbound key says so")
struct UnboundKeyTests {
    @Test("on the main screen, !, Q and Z each give a notice naming the key and pointing to ?", arguments: ["!", "Q", "Z"])
    func mainScreen(key: String) throws {
        var model = journeyModel(width: 80, height: 24)
        #expect(model.press(.char(Character(key))).isEmpty)
        let flash = try #require(model.flash)
        #expect(flash.text == "\(key) does nothing here: ? lists the keys")
        #expect(!flash.isError)
        #expect(model.footer.contains("\(key) does nothing here: ? lists the keys"), "\(model.footer)")
    }

    @Test("a bound key gives no such notice")
    func boundKey() {
        var model = journeyModel(width: 80, height: 24)
        model.press(.char("j"))
        #expect(model.flash == nil)
    }

    @Test("in a list view, an unbound key names the view", arguments: ["R", "E", "A", "S", "?"])
    func listViews(opener: String) throws {
        var model = journeyModel(width: 80, height: 24)
        model.press(.char(Character(opener)))
        #expect(model.overlays.count == 1)
        model.press(.char("z"))
        let flash = try #require(model.flash)
        #expect(flash.text == "z does nothing in this view: ? lists the keys")
        #expect(model.overlays.count == 1, "the view stays open")
    }

    @Test("keys typed into a field or a prompt are text: no notice")
    func textFields() {
        var model = journeyModel(width: 80, height: 24)
        model.press(.char("f"))
        model.type("zQ:")
        #expect(model.flash == nil)
        #expect(model.prompt?.input.text == "zQ:")
        model.press(.escape, .char("e"))
        model.type("zQ:")
        #expect(model.flash == nil)
    }
}
