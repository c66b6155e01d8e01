@testable import InspectorTUI
import TerminalUI
import Testing

/// `--read-only` on a live host (issue 27's conventions: a read-only mode for pairing and demos):
/// the panes follow the host as ever, and nothing can be sent.
@Suite("A live inspector in read-only mode")
struct ReadOnlyLiveTests {
    func readOnlyModel() -> InspectorModel {
        var model = journeyModel(width: 120, height: 40)
        model.readOnly = true
        return model
    }

    @Test("the status line says read-only, keys that send are not offered, and pressed they say why without sending")
    func refuses() {
        var model = readOnlyModel()
        #expect(model.screen[0].contains("● connected · read-only"), "\(model.screen[0])")
        #expect(!model.screen[0].contains("recording"))
        #expect(!model.footer.contains("respond"), "\(model.footer)")
        for key in ["r", "e", "c", "x", "i"] {
            let effects = model.press(.char(Character(key)))
            #expect(effects.isEmpty, "\(key) sends nothing")
            #expect(model.flash?.text == "this inspector is read-only (--read-only): nothing can be sent", "\(key): \(String(describing: model.flash))")
        }
        #expect(model.overlays.isEmpty)
    }

    @Test("views that read still work: detail, help, doctor, stats")
    func readingWorks() {
        var model = readOnlyModel()
        model.press(.enter)
        #expect(model.topOverlay is DetailView)
        model.press(.escape, .char("S"))
        #expect(model.topOverlay is StatsView)
        model.press(.escape, .char("b"), .char("n"))
        #expect(model.flash?.text == "this inspector is read-only (--read-only): nothing can be held from here")
    }
}
