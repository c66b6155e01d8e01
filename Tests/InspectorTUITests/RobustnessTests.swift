import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

/// The views a person can have open, for tests that must hold in all of them.
enum OpenView: String, CaseIterable, Sendable {
    case main, help, detail, respond, event, slot, confirm, errors, actions, filterPrompt, searchPrompt, detailThenRespond, doctor

    func open(_ model: inout InspectorModel) {
        switch self {
        case .main: break
        case .help: model.press(.char("?"))
        case .detail: model.press(.char("g"), .char("j"), .enter)
        case .respond: model.press(.tab, .enter)
        case .event: model.press(.char("e"))
        case .slot: model.press(.char("c"))
        case .confirm: model.press(.char("x"))
        case .errors: model.press(.char("E"))
        case .actions: model.press(.char("A"))
        case .doctor: model.press(.char("D"))
        case .filterPrompt:
            model.press(.char("f"))
            model.type("type:bogus")
        case .searchPrompt:
            model.press(.char("/"))
            model.type("nfc")
        case .detailThenRespond:
            model.press(.char("g"))
            for _ in 0..<4 { model.press(.char("j")) }
            model.press(.enter, .char("r"))
        }
    }
}

@Suite("Robustness")
struct RobustnessTests {
    static let tooSmall = [
        Size(width: 1, height: 1), Size(width: 10, height: 5), Size(width: 59, height: 15), Size(width: 59, height: 40),
        Size(width: 200, height: 15), Size(width: 0, height: 0), Size(width: 30, height: 2),
    ]

    @Test("Terminals below 60x16 show 'Terminal too small', take only q, and never crash", arguments: tooSmall)
    func tooSmallScreens(size: Size) {
        var model = journeyModel(width: size.width, height: size.height)
        let buffer = model.render()
        #expect(buffer.width == size.width && buffer.height == size.height)
        let words = buffer.lines.joined(separator: " ").split(separator: " ").joined(separator: " ")
        if size.width >= 10 && size.height >= 2 {
            #expect(words.contains("Terminal too small"), "\(buffer.lines)")
        }
        if size.width >= 20 && size.height >= 3 {
            #expect(words.contains("needs 60x16"))
        }
        #expect(forbiddenCells(buffer).isEmpty)
        #expect(model.press(.char("f")).isEmpty)
        #expect(model.prompt == nil)
        #expect(model.press(.char("e"), .enter).isEmpty)
        #expect(model.overlays.isEmpty)
        #expect(model.press(.char("q")) == [.quit])
        #expect(model.quitting)
    }

    @Test("Exactly 60x16 is enough for the main screen")
    func minimum() {
        let model = journeyModel(width: 60, height: 16)
        #expect(!model.screenText.contains("too small"))
        #expect(model.screen[0].contains("demo-app"))
        #expect(model.messageLines.count >= 3)
        #expect(model.messageLines.last?.contains("malformed") == true)
    }

    static let sizes = [
        Size(width: 80, height: 24), Size(width: 1, height: 1), Size(width: 60, height: 16), Size(width: 59, height: 15),
        Size(width: 200, height: 60), Size(width: 10, height: 5), Size(width: 109, height: 30), Size(width: 110, height: 30),
        Size(width: 61, height: 17), Size(width: 300, height: 100), Size(width: 80, height: 16), Size(width: 60, height: 80),
    ]

    @Test("Resizing at any time, with any view open, keeps the view and never draws outside the screen", arguments: OpenView.allCases)
    func resizeWithViewOpen(view: OpenView) {
        var model = journeyModel()
        view.open(&model)
        let overlays = model.overlays.count
        let prompt = model.prompt?.kind
        for size in Self.sizes {
            model.handle(.resize(size))
            let buffer = model.render()
            #expect(buffer.width == size.width && buffer.height == size.height)
            #expect(forbiddenCells(buffer).isEmpty)
            // Keys while resized never break the model.
            if !model.layout.isTooSmall, view != .confirm {
                for key: Key in [.char("j"), .char("k"), .down, .pageDown, .up] { model.handle(.key(key)) }
                _ = model.render()
                #expect(model.overlays.count == overlays, "\(size)")
            }
            // Feed a row while at this size.
            let seq = model.live.seq + 1
            model.feed(seq, .traffic(Fixture.request(seq: seq, id: "rs-\(seq)", action: "resize.test", at: Fixture.t0)))
            _ = model.render()
        }
        model.handle(.resize(Size(width: 120, height: 40)))
        #expect(model.overlays.count == overlays)
        #expect(model.prompt?.kind == prompt)
        #expect(!model.screenText.contains("too small"))
    }

    @Test("After any resize the selected row is on screen")
    func cursorStaysVisible() {
        var model = makeModel()
        model.handle(.frame(Fixture.emptySnapshot()))
        for seq in 1...80 {
            model.feed(seq, .traffic(Fixture.request(seq: seq, id: "row-\(seq)", action: "a", at: Fixture.t0)))
        }
        model.press(.char("g"))
        for _ in 0..<40 { model.press(.char("j")) }
        for size in [Size(width: 80, height: 24), Size(width: 120, height: 60), Size(width: 60, height: 16), Size(width: 10, height: 5), Size(width: 130, height: 20)] {
            model.handle(.resize(size))
            if model.layout.isTooSmall { continue }
            #expect(model.selectedEntry?.correlationId == "row-41")
            #expect(model.messageLines.contains { $0.hasSuffix("row-41") }, "\(size)")
        }
    }

    // MARK: Hostile text

    static let hostile = [
        "\u{1B}[2J\u{1B}]0;pwned\u{07}",
        "csi\u{9B}31mred\u{85}",
        "abc\u{202E}gnp.exe",
        "line\u{2028}break\u{2029}para",
        "nul\u{0}byte\r\n\t\u{8}x",
        "family 👨‍👩‍👧‍👦 coder 👩🏽‍💻",
        "漢字テスト한국어",
        "\u{7F}del\u{200B}zwsp\u{FEFF}bom\u{2066}iso\u{2069}\u{061C}\u{200E}",
    ]

    static func hostileModel(width: Int = 120, height: Int = 40) -> InspectorModel {
        var model = makeModel(width: width, height: height)
        let t0 = Fixture.t0
        var messages: [WireTraffic] = []
        var seq = 0
        for (index, text) in hostile.enumerated() {
            seq += 1
            messages.append(Fixture.request(seq: seq, id: "h-\(index)", action: text, at: t0 - 1000, data: [text: .string(text)]))
        }
        seq += 1
        messages.append(Fixture.request(seq: seq, id: "ok-1", action: "ok.action", at: t0 - 1000))
        seq += 1
        messages.append(Fixture.response(seq: seq, id: "ok-1", action: "ok.action", at: t0 - 900))
        for (index, text) in hostile.enumerated() {
            seq += 1
            messages.append(Fixture.request(seq: seq, id: text + "\(index)", action: "id.test", at: t0 - 1000))
            seq += 1
            messages.append(Fixture.response(seq: seq, id: text + "\(index)", action: "id.test", at: t0 - 900))
        }
        seq += 1
        let malformed = WireMalformed(seq: seq, time: t0, raw: hostile.joined(separator: " "), bytes: 100, reason: hostile[0] + hostile[2])
        let error = WireError(seq: seq + 1, time: t0, text: "Failed to decode message: " + hostile.joined(), cause: seq)
        let pending = hostile.enumerated().map { Fixture.pending($1 + "\($0)", $1, since: t0 - 1000 * Double($0 + 1)) }
        var document = Fixture.slot(.document, active: hostile[0], since: t0 - 1000)
        document.activeAction = hostile[2]
        let host = WireHostInfo(name: hostile[0] + hostile[2], pid: 1, hostVersion: hostile[3], environment: hostile[4], startedAt: 0)
        let state = Fixture.state(
            host: host, messages: messages, malformed: [malformed], pending: pending, slots: [document, Fixture.slot(.selfie)],
            lastError: error, errorHistory: [error])
        model.handle(.frame(.snapshot(seq: seq + 1, state: state)))
        return model
    }

    @Test("Hostile text never puts a control or bidi character into any cell, in any view", arguments: OpenView.allCases)
    func hostileNeverReachesCells(view: OpenView) {
        for size in [Size(width: 120, height: 40), Size(width: 80, height: 24)] {
            var model = Self.hostileModel(width: size.width, height: size.height)
            view.open(&model)
            #expect(forbiddenCells(model.render()).isEmpty, "\(view) \(size)")
            // Move through everything the view shows.
            for _ in 0..<30 {
                model.press(.char("j"))
                #expect(forbiddenCells(model.render()).isEmpty, "\(view) \(size)")
            }
        }
    }

    @Test("Every row's detail view, every pending request's dialog and the flash stay clean")
    func hostileEverywhere() {
        var model = Self.hostileModel()
        model.press(.char("g"))
        for _ in 0..<model.visible.count {
            model.press(.enter)
            #expect(forbiddenCells(model.render()).isEmpty)
            model.press(.tab)
            #expect(forbiddenCells(model.render()).isEmpty)
            model.press(.char("m"))
            #expect(forbiddenCells(model.render()).isEmpty)
            model.press(.escape, .char("j"))
        }
        model.press(.tab)
        for _ in 0..<Self.hostile.count {
            model.press(.enter)
            #expect(forbiddenCells(model.render()).isEmpty)
            model.press(.ctrl("t"))
            #expect(forbiddenCells(model.render()).isEmpty)
            model.press(.escape, .char("j"))
        }
        model.press(.tab, .char("c"))
        #expect(forbiddenCells(model.render()).isEmpty)
        model.press(.escape, .char("x"))
        #expect(forbiddenCells(model.render()).isEmpty)
        model.press(.escape)
        model.handle(.frame(.reply(id: nil, result: .failure(InspectorError(code: "x", message: Self.hostile.joined())), sent: [])))
        #expect(forbiddenCells(model.render()).isEmpty)
        model.handle(.commandFailed(label: Self.hostile[0], error: Self.hostile[2]))
        #expect(forbiddenCells(model.render()).isEmpty)
        // Typed or pasted control characters never get into a prompt.
        model.press(.char("/"))
        model.type("a\u{1B}b\u{202E}c")
        #expect(model.prompt?.input.text == "abc")
        model.press(.enter)
        #expect(forbiddenCells(model.render()).isEmpty)
        model.handle(.disconnected)
        #expect(forbiddenCells(model.render()).isEmpty)
    }

    @Test("Hostile actions and ids do not move the right-hand columns", arguments: [120, 80])
    func alignment(width: Int) throws {
        let model = Self.hostileModel(width: width, height: 60)
        let buffer = model.render()
        let inner = model.layout.messages.inset(1)
        // Requests with hostile actions: the id column starts at the same place in every row.
        var idColumns: Set<Int> = []
        for index in Self.hostile.indices {
            let y = try #require(row(containing: "h-\(index)", in: buffer))
            idColumns.insert(try #require(column(of: "h-\(index)", inRow: y, of: buffer)))
        }
        #expect(idColumns.count == 1)
        let okRow = try #require((0..<buffer.height).first { y in
            let line = text(in: Rect(x: inner.x, y: y, width: inner.width, height: 1), of: buffer)[0]
            return line.contains("OUT resp") && line.contains(" ok-1") && line.contains(" success ")
        })
        let statusColumn = try #require(column(of: "success", inRow: okRow, of: buffer))
        let responseIdColumn = try #require(column(of: "ok-1", inRow: okRow, of: buffer))
        // Responses with hostile ids: the status column and the column before the id are where they are for a plain id.
        let responseRows = (inner.y..<inner.maxY).filter { y in
            let line = text(in: Rect(x: inner.x, y: y, width: inner.width, height: 1), of: buffer)[0]
            return line.contains("OUT resp") && line.contains("id.test")
        }
        #expect(responseRows.count == Self.hostile.count)
        for y in responseRows {
            #expect(column(of: "success", inRow: y, of: buffer) == statusColumn, "\(buffer.lines[y])")
            #expect(buffer.cell(at: Point(x: responseIdColumn - 1, y: y))?.text == " ", "\(buffer.lines[y])")
            #expect(buffer.cell(at: Point(x: inner.maxX, y: y))?.text == "│")
        }
        // Request rows with hostile ids: the id starts where plain ids start.
        let requestRows = (inner.y..<inner.maxY).filter { y in
            let line = text(in: Rect(x: inner.x, y: y, width: inner.width, height: 1), of: buffer)[0]
            return line.contains("IN  req") && line.contains("id.test")
        }
        #expect(requestRows.count == Self.hostile.count)
        let idColumn = try #require(idColumns.first)
        for y in requestRows {
            #expect(buffer.cell(at: Point(x: idColumn - 1, y: y))?.text == " ", "\(buffer.lines[y])")
        }
        // Pending ages stay right-aligned.
        let pendingInner = model.layout.pending.inset(1)
        var ageEnds: Set<Int> = []
        for y in pendingInner.y..<pendingInner.maxY {
            let line = text(in: Rect(x: pendingInner.x, y: y, width: pendingInner.width, height: 1), of: buffer)[0]
            guard !line.isEmpty else { continue }
            var x = pendingInner.maxX - 1
            while x > pendingInner.x, buffer.cell(at: Point(x: x, y: y))?.text == " " { x -= 1 }
            ageEnds.insert(x)
            #expect(buffer.cell(at: Point(x: pendingInner.maxX, y: y))?.text == "│")
        }
        #expect(ageEnds.count == 1)
        // The lastError keys stay at the right end of the banner.
        #expect(buffer.lines[1].hasSuffix("[E:history J:jump C:clear]"))
        #expect(TextWidth.width(of: buffer.lines[1]) == width)
    }

    // MARK: Read-only

    @Test("A read-only model refuses to send anything, and says why")
    func readOnly() {
        var model = journeyModel()
        model.readOnly = true
        var effects: [InspectorEffect] = []
        effects += model.press(.tab, .enter)
        effects += model.press(.enter)
        #expect(model.footer.contains("this inspector is read-only (--read-only): nothing can be sent"))
        effects += model.press(.char("e"), .enter)
        effects += model.press(.tab)
        effects += model.press(.char("c"))
        effects += model.press(.enter)
        effects += model.press(.char("x"), .char("y"))
        effects += model.press(.char("t"), .char("y"))
        effects += model.press(.char("P"))
        effects += model.press(.char("C"), .char("y"))
        effects += model.press(.char("L"), .char("y"))
        #expect(effects.isEmpty)
        #expect(model.actions.isEmpty)
        #expect(model.eventHistory.isEmpty)
    }

    @Test("In a read-only model the sending keys say so at once instead of opening a dialog", arguments: ["r", "c", "x", "e", "t", "P", "C", "L"])
    func readOnlyKeysOpenNothing(key: String) {
        var model = journeyModel()
        model.readOnly = true
        _ = model.press(.char(Character(key)))
        #expect(model.overlays.isEmpty, "\(key) opened \(model.overlays)")
        #expect(model.footer.contains("this inspector is read-only (--read-only): nothing can be sent"))
    }
}
