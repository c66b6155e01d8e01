import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import TestSupport
import Testing

/// The capability view (`v`, issue 27): slots and custom capabilities, which slot shadows which,
/// and what `capability.query` would answer now, by the rules a real `BridgeHost` answers with.
@Suite("The capability view")
@MainActor
struct CapabilityViewTests {
    /// A host with a document slot that has a handler (granted), a selfie slot without one, a
    /// custom capability the selfie slot shadows, one with a handler and one declared only.
    func makeHost() -> (BridgeHost, RecordingJourneyTransport) {
        let host = BridgeHost(hostVersion: "3.4.5")
        let journey = RecordingJourneyTransport()
        host.attach(journey)
        host.documentCapture.handler = { _ in .cancelled(reason: "test") }
        host.documentCapture.permissionState = .granted
        host.registerCustomCapability("device.info", version: "1.2") { request, responder in
            responder.respond(status: .success, data: [:], error: nil)
        }
        host.declareCustomCapability("camera.selfie", version: "9.0")
        host.declareCustomCapability("nfc.read")
        return (host, journey)
    }

    /// A model attached to `host` as the agent would show it: its snapshot in wire form.
    func model(showing host: BridgeHost, width: Int = 120, height: Int = 40) -> InspectorModel {
        let snapshot = host.snapshot()
        let info = WireHostInfo(name: "caps-app", pid: 77, hostVersion: snapshot.hostVersion, environment: snapshot.environment, startedAt: Fixture.t0 - 1_000)
        let state = WireState(
            host: info, journeyAttached: true, lastError: nil, errorHistory: [], messages: [], malformed: [], pending: [],
            slots: snapshot.slots.map(WireSlot.init), customCapabilities: snapshot.customCapabilities.map(WireCapability.init),
            counts: WireCounts())
        var model = makeModel(width: width, height: height)
        model.handle(.frame(.snapshot(seq: 1, state: state)))
        return model
    }

    /// The `data` of the host's own answer to a `capability.query` request.
    func askHost(_ host: BridgeHost, _ journey: RecordingJourneyTransport, id: String) async -> JSONValue? {
        host.receive(text: #"{"version":"1.0","type":"request","correlationId":"\#(id)","timestamp":1,"payload":{"action":"capability.query"}}"#)
        #expect(host.lastError == nil, "\(host.lastError ?? "")")
        #expect(await eventually(timeout: .seconds(60)) { journey.messages.contains { $0.correlationId == id } })
        return journey.messages.last { $0.correlationId == id }?.payload.data.map(JSONValue.object)
    }

    /// What the view computes, decoded back into a value to compare.
    func viewAnswer(_ model: InspectorModel) -> JSONValue? {
        CapabilityView.answerJSON(model.live).flatMap { JSONParser.parse($0) }
    }

    @Test("the JSON it shows is exactly what the host answers to capability.query, and follows a slot change")
    func answerMatchesRealHost() async throws {
        let (host, journey) = makeHost()
        var model = model(showing: host)
        model.press(.char("v"))
        #expect(model.topOverlay is CapabilityView)
        let hostAnswer = await askHost(host, journey, id: "q-1")
        #expect(hostAnswer != nil)
        #expect(viewAnswer(model) == hostAnswer)
        // The slot shadows the custom capability: the answer reports the slot's version.
        #expect(model.screen.contains { $0.contains("\"camera.selfie\"") })
        // Live: the selfie slot gets a handler; the view follows the slot event.
        host.selfieCapture.handler = { _ in .cancelled(reason: "test") }
        model.feed(2, .slot(WireSlot(host.selfieCapture.state)))
        let after = await askHost(host, journey, id: "q-2")
        #expect(after != hostAnswer, "the change must change the answer, or the test proves nothing")
        #expect(viewAnswer(model) == after)
    }

    @Test("each slot and custom capability is listed; a shadowed one names the slot that hides it")
    func listsAndShadowing() {
        let (host, _) = makeHost()
        var model = model(showing: host)
        model.press(.char("v"))
        #expect(model.screen.contains { $0.contains("│  document  camera.document  v1.0  enabled · handler set · permission granted → supported") }, "\(model.screenText)")
        // Each entry as one line (wide enough not to wrap).
        let text = CapabilityView.lines(context: model.overlayContext, width: 400).map { $0.map(\.text).joined() }
        #expect(text.line(containing: "selfie  camera.selfie")?.hasSuffix("enabled · no handler · permission notDetermined → unsupported; shadows the custom capability camera.selfie in the answer") == true, "\(text)")
        #expect(text.line(containing: "camera.selfie  v9.0")?.hasSuffix("shadowed by the selfie slot: the answer reports the slot's camera.selfie") == true)
        #expect(text.line(containing: "camera.selfie  v9.0")?.contains("→ supported") == false, "a shadowed capability is not reported itself")
        #expect(text.line(containing: "device.info  v1.2")?.hasSuffix("handler set → supported") == true)
        #expect(text.line(containing: "nfc.read  v1.0")?.contains("declared, no handler") == true)
    }

    @Test("compared with the host's last answer in the log: a capability reported differently then is named")
    func comparedWithLastAnswer() {
        // The journey's capability.query was answered with no capabilities at all.
        var model = journeyModel()
        model.press(.char("v"))
        let text = model.screenText
        #expect(text.contains("Differs from the host's last answer in the log: camera.document not reported then, supported now"), "\(text)")
        let fresh = CapabilityView.comparison(makeModel().live)
        #expect(fresh == "The journey has not asked capability.query while this inspector watched.")
    }

    @Test("it opens in a recording and read-only (it sends nothing), and v or Esc closes it")
    func recordingAndReadOnly() {
        var recording = InspectorModel(recording: [Fixture.journeySnapshot()], size: Size(width: 120, height: 40), path: Fixture.socketPath)
        recording.press(.char("v"))
        #expect(recording.topOverlay is CapabilityView)
        #expect(recording.screenText.contains("capability.query would answer now"))
        recording.press(.char("v"))
        #expect(recording.overlays.isEmpty)
        var readOnly = journeyModel()
        readOnly.readOnly = true
        readOnly.press(.char("v"))
        #expect(readOnly.topOverlay is CapabilityView)
        readOnly.press(.escape)
        #expect(readOnly.overlays.isEmpty)
    }

    @Test("ids and versions from the host are made safe before the terminal")
    func hostileIds() {
        var model = journeyModel()
        model.feed(12, .customCapabilities([WireCapability(id: "evil\u{1B}]52;c;x\u{07}\u{202E}", version: "1\u{1B}[2J", hasHandler: true, shadowedBySlot: false)]))
        model.press(.char("v"))
        #expect(forbiddenCells(model.render()).isEmpty)
        #expect(!model.screenText.contains("\u{1B}"))
    }

    @Test("a long view scrolls with j and says where it is in the title")
    func scrolls() {
        var model = journeyModel(width: 80, height: 24)
        model.press(.char("v"))
        let top = model.screen
        #expect(top[1].contains("(j/k, 1-"), "\(top[1])")
        model.press(.char("j"))
        #expect(model.screen[1].contains("(j/k, 2-"))
        #expect(model.screen != top)
    }
}
