import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

@Suite("Filter and search on screen")
struct FilterScreenTests {
    @Test("f, a filter and Enter narrow the rows; the title counts shown/total")
    func filterNarrows() {
        var model = journeyModel()
        model.press(.char("f"))
        #expect(model.prompt?.kind == .filter)
        model.type("type:request")
        #expect(model.footer.hasPrefix("filter: type:request"))
        model.press(.enter)
        #expect(model.prompt == nil)
        #expect(model.visible.count == 5)
        #expect(model.messagesTitle.contains("Messages 5/10"))
        let rows = model.messageLines.filter { !$0.isEmpty }
        #expect(rows.count == 5)
        #expect(rows.allSatisfy { $0.contains(" IN  req ") })
        #expect(model.footer.contains("filter: type:request (5 rows)"))
    }

    @Test("The filter applies to rows that arrive later")
    func filterAppliesToNewRows() {
        var model = journeyModel()
        model.press(.char("f"))
        model.type("action:nfc.*")
        model.press(.enter)
        #expect(model.visible.count == 1)
        model.feed(12, .traffic(Fixture.response(seq: 12, id: "nfc-1", action: "nfc.read", at: Fixture.t0)))
        model.feed(13, .traffic(Fixture.request(seq: 13, id: "cap-3", action: "capability.query", at: Fixture.t0)))
        #expect(model.visible.count == 2)
        #expect(model.selectedEntry?.correlationId == "nfc-1")
        #expect(model.selectedEntry?.type == .response)
    }

    /// The visible rows are kept up to date row by row as frames arrive (issue 30: straight
    /// onto the list, without an array of the new matches first): after every frame they are
    /// the rows filtering the whole log gives.
    @Test("Rows added frame by frame are those filtering the whole log finds", arguments: ["", "type:request", "action:nfc.* | dir:out", "!type:event"])
    func incrementalRowsMatchTheWholeLog(filterText: String) {
        var model = journeyModel()
        if !filterText.isEmpty {
            model.press(.char("f"))
            model.type(filterText)
            model.press(.enter)
        }
        #expect(model.filter.isEmpty == filterText.isEmpty)
        var random = SplitMix64(seed: UInt64(filterText.utf8.count))
        var seq = 12
        for step in 0..<120 {
            let id = "r-\(step)"
            switch random.next() % 4 {
            case 0: model.feed(seq, .traffic(Fixture.request(seq: seq, id: id, action: "nfc.read", at: Fixture.t0)))
            case 1: model.feed(seq, .traffic(Fixture.response(seq: seq, id: id, action: "capability.query", at: Fixture.t0)))
            case 2: model.feed(seq, .traffic(Fixture.hostEvent(seq: seq, id: id, name: "host.ping", at: Fixture.t0)))
            default:
                // Several rows at once (a snapshot merged), or none (a frame that adds no row).
                model.feed(seq, .lastError(WireError(seq: seq, time: Fixture.t0, text: nil, cause: nil)))
            }
            seq += 1
            let expected = model.live.log.indices.filter { model.filter.matches(model.live.log[$0], pending: []) }
            #expect(model.visible == expected, "after \(step + 1) frames")
        }
        // Most frames added a row (a quarter add none).
        #expect(model.live.log.count > 60)
    }

    @Test("A bad filter shows its parse error in the prompt as it is typed")
    func parseErrorWhileTyping() {
        var model = journeyModel()
        model.press(.char("f"))
        model.type("type:bogus")
        #expect(model.prompt?.error != nil)
        #expect(model.footer.contains("'type:bogus' at column 1: type is request, response or event"))
        for _ in 0..<5 { model.press(.backspace) }
        model.type("event")
        #expect(model.prompt?.error == nil)
        #expect(!model.footer.contains("type is"))
        model.type(" colour:red")
        #expect(model.footer.contains("unknown key"))
        // Enter on a bad filter keeps the prompt open with what was typed; nothing is applied.
        model.press(.enter)
        #expect(model.prompt?.input.text == "type:event colour:red")
        #expect(model.filter.isEmpty)
        #expect(model.visible.count == 10)
    }

    @Test("A filter error too long for the prompt line is shown whole, wrapped between words, never cut mid-word")
    func longErrorShownWhole() throws {
        var model = journeyModel(width: 60, height: 20)
        model.press(.char("f"))
        model.type("type:request colour:red")
        let error = try #require(model.prompt?.error)
        #expect(error == "'colour:red' at column 14: unknown key; use type: dir: action: status: code: id: is: body:")
        let screen = model.screen
        // Every word of the error is on screen, in order, across the rows above the prompt.
        let shown = screen.suffix(4).joined(separator: " ").split(separator: " ").joined(separator: " ")
        #expect(shown.contains(error), "\(screen.suffix(4))")
        // The prompt keeps the whole line for what is being typed.
        #expect(model.footer.contains("type:request colour:red"))
        // A short error still fits beside the input on a wide screen.
        var wide = journeyModel(width: 160)
        wide.press(.char("f"))
        wide.type("type:request |")
        #expect(wide.footer.contains("'|' at column 14: '|' needs a term on each side"))
    }

    @Test("Esc in the prompt leaves the filter as it was; Esc on the main screen clears it")
    func escapeClears() {
        var model = journeyModel()
        model.press(.char("f"))
        model.type("dir:out")
        model.press(.enter)
        #expect(model.visible.count == 4)
        model.press(.char("f"))
        #expect(model.prompt?.input.text == "dir:out")
        model.type(" is:manual")
        model.press(.escape)
        #expect(model.prompt == nil)
        #expect(model.filter.source == "dir:out")
        #expect(model.visible.count == 4)
        model.press(.escape)
        #expect(model.filter.isEmpty)
        #expect(model.visible.count == 10)
        #expect(!model.screen[0].contains("filter:"))
        #expect(model.footer.contains("filter cleared"))
    }

    @Test("An empty filter clears it")
    func emptyFilterClears() {
        var model = journeyModel()
        model.press(.char("f"))
        model.type("is:error")
        model.press(.enter)
        #expect(model.visible.count == 2)  // the INVALID_REQUEST response and the malformed input
        model.press(.char("f"), .ctrl("u"), .enter)
        #expect(model.filter.isEmpty)
        #expect(model.visible.count == 10)
    }

    @Test("A filter that matches nothing says so and how to clear it")
    func nothingMatches() {
        var model = journeyModel()
        model.press(.char("f"))
        model.type("nothing-has-this")
        model.press(.enter)
        #expect(model.messageLines[0] == "no message matches the filter (Esc clears it)")
        #expect(model.selectedEntry == nil)
        model.press(.enter, .char("j"), .char("k"), .char("G"))  // nothing to open or move to
        #expect(model.overlays.isEmpty)
    }

    @Test("Markers stay visible whatever the filter")
    func markersStay() {
        var model = journeyModel()
        model.handle(.frame(.gap(from: 12, to: 15)))
        model.press(.char("f"))
        model.type("is:manual")
        model.press(.enter)
        #expect(model.visible.count == 2)
        #expect(model.messageLines[0].contains("host.ping"))
        #expect(model.messageLines[1].contains("gap: missed events 12–15"))
    }

    @Test("/ searches: the cursor moves to the first match, n and N move between matches, matches are highlighted")
    func search() {
        var model = journeyModel()
        model.press(.char("/"))
        #expect(model.prompt?.kind == .search)
        model.type("action:capability.query")
        model.press(.enter)
        #expect(model.search?.source == "action:capability.query")
        #expect(model.screen[0].contains("search: action:capability.query"))
        #expect(model.selectedEntry?.seq == 2)
        model.press(.char("n"))
        #expect(model.selectedEntry?.seq == 3)
        model.press(.char("n"))
        #expect(model.selectedEntry?.seq == 6)
        model.press(.char("n"))
        #expect(model.selectedEntry?.seq == 2)  // wraps
        model.press(.char("N"))
        #expect(model.selectedEntry?.seq == 6)
        // Search does not narrow the rows.
        #expect(model.visible.count == 10)

        let buffer = model.render()
        let inner = model.layout.messages.inset(1)
        func background(row: Int) -> Style? { buffer.style(at: Point(x: inner.x + 2, y: inner.y + row)) }
        #expect(background(row: 1) == Theme.highlight)  // cap-1 request
        #expect(background(row: 2) == Theme.highlight)  // cap-1 response
        #expect(background(row: 5) == Theme.selection)  // cap-2, selected
        #expect(background(row: 0) != Theme.highlight)  // host.ready
        #expect(background(row: 4) != Theme.highlight)  // nfc.read
    }

    @Test("Search never highlights markers, and n skips them")
    func searchSkipsMarkers() {
        var model = journeyModel()
        model.handle(.frame(.gap(from: 12, to: 15)))
        model.press(.char("/"))
        model.type("nfc")
        model.press(.enter)
        #expect(model.selectedEntry?.correlationId == "nfc-1")
        let buffer = model.render()
        let inner = model.layout.messages.inset(1)
        let gapRow = inner.y + 10
        #expect(text(in: Rect(x: inner.x, y: gapRow, width: inner.width, height: 1), of: buffer)[0].contains("gap"))
        #expect(buffer.style(at: Point(x: inner.x + 3, y: gapRow)) != Theme.highlight)
        model.press(.char("n"))
        #expect(model.selectedEntry?.correlationId == "nfc-1")
    }

    @Test("A search without matches says so; Esc ends the search")
    func searchNoMatch() {
        var model = journeyModel()
        model.press(.char("/"))
        model.type("zzz")
        model.press(.enter)
        #expect(model.footer.contains("no match for zzz"))
        #expect(model.selectedEntry?.seq == 10)
        model.press(.escape)
        #expect(model.search == nil)
        model.press(.char("n"))
        #expect(model.footer.contains("no search"))
    }
}

/// After `f` or `/` the focus is on what they act on (issue 27, trap 6).
@Suite("Filter and search move the focus to Messages")
struct FilterFocusTests {
    @Test("f or / typed from the Slots pane: the focus moves to Messages, and Enter opens the message found, not the slot dialog", arguments: ["f", "/"])
    func focusMoves(key: String) throws {
        var model = journeyModel()
        model.press(.tab, .tab)
        #expect(model.focus == .slots)
        model.press(.char(Character(key)))
        _ = model.type("action:nfc.read")
        model.press(.enter)
        #expect(model.focus == .messages)
        model.press(.enter)
        #expect(detailView(model) != nil, "Enter opens the message: \(String(describing: model.topOverlay))")
        #expect(detailView(model).flatMap { model.live.log[safe: $0.logIndex]?.correlationId } == "nfc-1")
    }
}
