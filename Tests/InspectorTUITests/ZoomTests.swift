@testable import InspectorTUI
import TerminalUI
import Testing

/// `z` zooms the focused pane to the whole screen and back (issue 27: at 80×24 the Messages
/// pane got 8 rows and no pane could be zoomed).
@Suite("Zooming a pane")
struct ZoomTests {
    @Test("z gives the focused pane the whole body, Tab moves the zoom, z again brings every pane back")
    func zoom() {
        var model = journeyModel(width: 80, height: 24)
        let rowsBefore = model.layout.messageRows
        #expect(model.screenText.contains("Pending"))
        model.press(.char("z"))
        #expect(model.zoomed)
        #expect(model.layout.messageRows == 24 - 3 - 2, "the body (the screen less the status line, the lastError banner and the footer) less the box")
        #expect(model.layout.messageRows > rowsBefore)
        var screen = model.screenText
        #expect(screen.contains("zoomed (z: all panes)"))
        #expect(!screen.contains("Pending 2"), "\(screen)")
        #expect(!screen.contains("Capture slots"))
        var wide = journeyModel(width: 160, height: 40)
        wide.press(.char("z"))
        #expect(wide.footer.contains("z unzoom"), "\(wide.footer)")

        model.press(.tab)
        screen = model.screenText
        #expect(screen.contains("Pending 2"), "\(screen)")
        #expect(!screen.contains("Messages"))
        model.press(.tab)
        #expect(model.screenText.contains("Capture slots"))

        model.press(.char("z"))
        #expect(!model.zoomed)
        #expect(model.layout.messageRows == rowsBefore)
        screen = model.screenText
        #expect(screen.contains("Pending 2") && screen.contains("Capture slots") && screen.contains("Messages"))
    }

    @Test("zoomed at every size and on every pane, nothing is drawn outside the screen", arguments: [Pane.messages, .pending, .slots])
    func everySize(pane: Pane) {
        for (width, height) in [(60, 16), (80, 24), (200, 50)] {
            var model = journeyModel(width: width, height: height)
            while model.focus != pane { model.press(.tab) }
            model.press(.char("z"))
            let buffer = model.render()
            #expect(buffer.width == width && buffer.height == height)
        }
    }
}
