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

    @Test("a native host shows no path and C still asks to clear lastError")
    func nativeUnchanged() {
        var model = journeyModel()
        #expect(!model.screen[0].contains("public API"))
        model.press(.char("C"))
        #expect(model.overlays.count == 1)
    }
}
