import BridgeCore
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

/// An app embedding GBG's GBGBridge, seen through its public API (issue 12): the status line says
/// so, and what the API cannot do is explained instead of failing obscurely.
@Suite("A host seen through GBGBridge's public API")
struct PublicAPIHostScreenTests {
    static let host = WireHostInfo(
        name: "MyApp", pid: 901, hostVersion: "3.0.0", environment: "ios", startedAt: Fixture.t0 - 60_000,
        inspection: HostFeature.publicAPIPath,
        unsupported: [HostFeature.clearError.rawValue: "GBGBridge's iOS API has no clearError()", HostFeature.clearLog.rawValue: "no way to clear receivedMessages"])

    @Test("the status line names the path; C and L say why they cannot act and open nothing")
    func statusAndUnsupportedKeys() {
        var model = makeModel()
        model.handle(.frame(Fixture.journeySnapshot(host: Self.host)))
        #expect(model.screen[0].contains("MyApp (pid 901) v3.0.0 ios │ via GBGBridge public API │ ● connected"))
        model.press(.char("C"))
        #expect(model.overlays.isEmpty)
        #expect(model.footer.contains("not available for this host: GBGBridge's iOS API has no clearError()"))
        model.press(.char("L"))
        #expect(model.overlays.isEmpty)
        #expect(model.footer.contains("not available for this host: no way to clear receivedMessages"))
        // What the API can do still works: the event dialog opens.
        model.press(.char("e"))
        #expect(model.overlays.count == 1)
    }

    @Test("unread page reports: counted in the status line only when there are any; the row shows OUT BAD unread and the raw text, made safe")
    func unreadPageReports() {
        var model = makeModel()
        model.handle(.frame(Fixture.journeySnapshot(host: Self.host)))
        #expect(!model.screen[0].contains("unread"))
        let raw = "{\"type\":\"response\u{1B}[31m\"}"
        model.feed(12, .malformed(WireMalformed(seq: 12, time: Fixture.t0, raw: raw, bytes: raw.utf8.count, reason: "missing \u{1B}]52;c;x\u{07} field", direction: .sent)))
        model.feed(13, .malformed(WireMalformed(seq: 13, time: Fixture.t0, raw: "", bytes: 0, reason: "the page script cannot see deliveries", direction: .sent)))
        #expect(model.screen[0].contains("│ ⚠ 2 unread from page │"), "\(model.screen[0])")
        let text = model.screenText
        #expect(text.contains("OUT BAD  unread: missing"), "\(text)")
        #expect(!text.contains("\u{1B}]52") && !text.contains("\u{07}"), "page text is made safe before the terminal")
        #expect(model.live.lastUnreadSentReport?.seq == 13)
        #expect(model.live.log.last?.lint == .unreadSentReport)
    }

    @Test("a native host shows no path and C still asks to clear lastError")
    func nativeUnchanged() {
        var model = journeyModel()
        #expect(!model.screen[0].contains("public API"))
        model.press(.char("C"))
        #expect(model.overlays.count == 1)
    }
}
