import BridgeCore
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

/// The main screen's columns and footer at the sizes people use (issue 13, trap 7: "at 80×24
/// request and response ids sit in different columns and the footer is cut").
@Suite("Main screen layouts")
struct MainLayoutTests {
    /// A request, its response, a host event and malformed input that names its id.
    static func mixedModel(width: Int, height: Int) -> InspectorModel {
        var model = makeModel(width: width, height: height)
        model.handle(.frame(Fixture.emptySnapshot()))
        model.feed(1, .traffic(Fixture.request(seq: 1, id: "q-1", action: "nfc.read", at: Fixture.t0)))
        model.feed(2, .traffic(Fixture.response(seq: 2, id: "q-1", action: "nfc.read", at: Fixture.t0 + 250, status: .error,
                                                error: BridgeErrorCode.permissionDenied.payload())))
        model.feed(3, .traffic(Fixture.hostEvent(seq: 3, id: "ios-event-5e5e5e5e-0000-4000-8000-000000000003", name: "host.resumed", at: Fixture.t0 + 300)))
        let raw = #"{"correlationId":"bad-1","type":"request","payload":{}}"#
        model.feed(4, .malformed(WireMalformed(seq: 4, time: Fixture.t0 + 400, raw: raw, bytes: raw.utf8.count, reason: "missing required field 'payload.action'")))
        return model
    }

    @Test("At 80x24, 120x40 and 200x50 the ids of a request, its response, an event and malformed input sit in one column", arguments: [
        Size(width: 80, height: 24), Size(width: 120, height: 40), Size(width: 200, height: 50),
    ])
    func idsInOneColumn(size: Size) throws {
        let model = Self.mixedModel(width: size.width, height: size.height)
        let buffer = model.render()
        let messages = model.layout.messages
        func idColumn(_ rowText: String, _ id: String) throws -> Int? {
            let y = try #require(buffer.lines.indices.first { $0 > messages.y && $0 < messages.maxY && buffer.lines[$0].contains(rowText) },
                                 "no row with \(rowText)\n\(buffer.rendered())")
            return column(of: " " + id, inRow: y, of: buffer)
        }
        let columns = [
            try idColumn("req  nfc.read", "q-1"), try idColumn("resp nfc.read", "q-1"),
            try idColumn("host.resumed", "ios"), try idColumn("malformed:", "bad-1"),
        ]
        #expect(columns.allSatisfy { $0 != nil }, "\(columns)\n\(buffer.rendered())")
        #expect(Set(columns).count == 1, "\(columns)\n\(buffer.rendered())")
        // The error code is whole, at every width.
        #expect(buffer.lines.contains { $0.contains(" PERMISSION_DENIED ") })
    }

    @Test("Malformed input without an id still shows its whole reason")
    func malformedWithoutId() {
        var model = makeModel(width: 80, height: 24)
        model.handle(.frame(Fixture.emptySnapshot()))
        model.feed(1, .malformed(WireMalformed(seq: 1, time: Fixture.t0, raw: "not json", bytes: 8, reason: "the data couldn't be read")))
        #expect(model.messageLines[0] == "22:13:20.000 IN  BAD  malformed: the data couldn't be read")
    }

    @Test("At 80, 100 and 200 columns the footer shows whole hints only, and always ? help and q quit", arguments: [80, 100, 200])
    func footerHintsWhole(width: Int) {
        let model = journeyModel(width: width, height: 24)
        let footer = model.footer
        let shown = FooterHints.fitting(model.footerKeys, width: width - 2)
        // The footer is exactly whole hints, in their listed order: none cut mid-word.
        #expect(footer == " " + shown.map { "\($0.key) \($0.label)" }.joined(separator: "  "), "\(footer)")
        #expect(footer.contains("? help") && footer.hasSuffix("q quit"), "\(footer)")
        #expect(TextWidth.width(of: footer) <= width)
        if width >= 200 { #expect(shown.count == model.footerKeys.count) }
    }

    @Test("Fitting hints: the way out and help first, then in listed order, skipping one too long for what is left")
    func fittingOrder() {
        let hints: [FooterHints.Hint] = [("Enter", "send"), ("Tab", "a very long label"), ("x", "y"), ("Esc", "cancel"), ("?", "help")]
        // Esc cancel (10) + ? help (6) + Enter send (10) + x y (3), with separators: 35.
        let kept = FooterHints.fitting(hints, width: 35).map(\.key)
        #expect(kept == ["Enter", "x", "Esc", "?"])
        #expect(FooterHints.fitting(hints, width: 10).map(\.key) == ["Esc"])
        #expect(FooterHints.fitting(hints, width: 5).map(\.key) == ["x"])
        #expect(FooterHints.fitting(hints, width: 2).isEmpty)
        #expect(FooterHints.fitting(hints, width: 200).count == hints.count)
    }
}
