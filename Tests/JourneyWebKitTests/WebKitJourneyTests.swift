import BridgeCore
import Foundation
import GBGBridgeInspector
import JourneySimulation
import Testing
import TestSupport

@testable import JourneyWebKit

/// The bridge in a real WebKit web view (WebKitGTK, JavaScriptCore), driven through
/// `bridge-inspector-webkit`: what a WKWebView does on iOS, observed rather than simulated.
/// Pages: Troubleshooting (lastError's `evaluateJavaScript failed:` and `WebView not attached`),
/// Security ("Frame Isolation", the bootstrap at document start), and gbgbridge-facts.md
/// (delivery by `window.GBGBridge.receive(...)`, the default bootstrap re-injected on every load).
@Suite("Journeys in real WebKit", .requiresWebKitRunner, .timeLimit(.minutes(10)), .serialized)
@MainActor
struct WebKitJourneyTests {
    private func page(_ directory: String, _ name: String, body: String, script: String) throws {
        let html = """
            <!doctype html><html><head><meta charset="utf-8"><script>
            \(postEventFunction)
            \(script)
            </script></head><body>\(body)</body></html>
            """
        try html.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
    }

    /// A journey of one page whose head runs `script`, loaded: the fixture removes its directory when it stops.
    private func loadedPage(script: String) async throws -> WebKitJourneyFixture {
        let directory = try makeTemporaryDirectory(prefix: "wk")
        try page(directory, "index.html", body: "", script: script)
        let fixture = try await WebKitJourneyFixture.start(directory: directory, ownsDirectory: true)
        try await fixture.wait("the page to load") { !fixture.loadedPages.isEmpty }
        return fixture
    }

    @Test("the example journey runs end to end: capability.query, a capture answered by hand, host.ready, host.ping")
    func exampleJourney() async throws {
        let fixture = try await WebKitJourneyFixture.start(directory: packageRoot.appendingPathComponent("examples/web-journey").path)
        defer { Task { await fixture.stop() } }
        try await fixture.wait("the capture request to wait in pendingRequests") {
            fixture.host.pendingRequests.contains { $0.payload.action == "camera.document.capture" }
        }
        #expect(fixture.received("capability.query").count == 1)
        _ = try await fixture.waitForPage("host.ready shown", "document.getElementById('host-info').dataset.state") { $0 == "\"ready\"" }
        let capture = try #require(fixture.host.pendingRequests.first { $0.payload.action == "camera.document.capture" })
        try fixture.host.respondToPendingRequest(
            capture.correlationId, status: .success,
            data: ["imageBase64": "iVBORw0KGgo=", "imageWidth": 2, "imageHeight": 1, "mimeType": "image/png"])
        _ = try await fixture.waitForPage("the capture shown", "document.getElementById('capture-status').dataset.state") { $0 == "\"success\"" }
        fixture.host.send(event: "host.ping")
        try await fixture.wait("journey.pong") { !fixture.received("journey.pong").isEmpty }
        #expect(fixture.host.lastError == nil)
        #expect(fixture.loadedPages.map(\.id) == [1])
    }

    @Test("the bootstrap runs at document start, before the page's scripts, and again on reload and navigation")
    func bootstrapOrderAndReinjection() async throws {
        let directory = try makeTemporaryDirectory(prefix: "wk")
        defer { removeDirectory(directory) }
        let seen = #"postEvent("fixture.seen", { page: location.pathname.split("/").pop(), bridge: typeof window.GBGBridge, receive: typeof (window.GBGBridge && window.GBGBridge.receive), handler: typeof window.webkit.messageHandlers.gbgBridge });"#
        try page(directory, "index.html", body: "one", script: seen)
        try page(directory, "two.html", body: "two", script: seen)
        let fixture = try await WebKitJourneyFixture.start(directory: directory)
        defer { Task { await fixture.stop() } }
        try await fixture.wait("the first page's post") { fixture.received("fixture.seen").count == 1 }
        let first = try #require(fixture.received("fixture.seen").first)
        #expect(first.payload.data?["bridge"] == "object")
        #expect(first.payload.data?["receive"] == "function")
        #expect(first.payload.data?["handler"] == "object")

        fixture.journey.reload()
        try await fixture.wait("the reloaded page's post") { fixture.received("fixture.seen").count == 2 }
        fixture.journey.load(URL(fileURLWithPath: directory + "/two.html").absoluteString)
        try await fixture.wait("the next page's post") { fixture.received("fixture.seen").count == 3 }
        let pages = fixture.received("fixture.seen").map { $0.payload.data?["page"] }
        #expect(pages == ["index.html", "index.html", "two.html"])
        #expect(fixture.received("fixture.seen").allSatisfy { $0.payload.data?["bridge"] == "object" })
        try await fixture.wait("three pages loaded") { fixture.loadedPages.count == 3 }
        #expect(fixture.loadedPages.map(\.id) == [1, 2, 3])
        let went = fixture.seen.compactMap { if case .went(let page, _) = $0 { return page.id } else { return nil } }
        #expect(went == [1, 2])
    }

    @Test("in an iframe the top-frame-only bootstrap is absent, but WebKit still exposes the message handler")
    func iframes() async throws {
        let directory = try makeTemporaryDirectory(prefix: "wk")
        defer { removeDirectory(directory) }
        try page(directory, "index.html", body: #"<iframe src="frame.html"></iframe>"#, script: "")
        try page(
            directory, "frame.html", body: "frame",
            script: #"postEvent("fixture.frame", { bridge: typeof window.GBGBridge, handler: typeof (window.webkit && window.webkit.messageHandlers && window.webkit.messageHandlers.gbgBridge) });"#)
        let fixture = try await WebKitJourneyFixture.start(directory: directory)
        defer { Task { await fixture.stop() } }
        try await fixture.wait("the frame's post") { !fixture.received("fixture.frame").isEmpty }
        let frame = try #require(fixture.received("fixture.frame").first)
        #expect(frame.payload.data?["bridge"] == "undefined")
        // WebKitGTK's UI-process signal does not say which frame posted (WKScriptMessage.frameInfo
        // does on iOS): docs/web-journeys.md says so.
        #expect(frame.payload.data?["handler"] == "object")
    }

    @Test("a throwing receive and a syntax error in a delivery reach lastError as evaluateJavaScript failed")
    func evaluationErrors() async throws {
        let fixture = try await loadedPage(script: #"window.GBGBridge.receive = function (message) { if (message.payload.action === "host.ping") { throw new TypeError("the journey broke on " + message.payload.action); } };"#)
        defer { Task { await fixture.stop() } }
        fixture.host.send(event: "host.ping")
        try await fixture.wait("lastError") { fixture.host.lastError != nil }
        let thrown = try #require(fixture.host.lastError)
        #expect(thrown.hasPrefix("evaluateJavaScript failed: "))
        #expect(thrown.contains("the journey broke on host.ping"))
        #expect(thrown.contains("(in page 1)"))
        #expect(thrown.contains("'host.ping'"))

        fixture.host.clearError()
        let broken = JourneyDelivery(message: BridgeMessage(correlationId: "ios-event-broken", type: .event, payload: .init(action: "host.orientation")), json: Data(#"{"payload":"#.utf8))
        try fixture.journey.transport.deliver(broken)
        try await fixture.wait("lastError for the syntax error") { fixture.host.lastError != nil }
        let syntax = try #require(fixture.host.lastError)
        #expect(syntax.hasPrefix("evaluateJavaScript failed: "))
        #expect(syntax.contains("SyntaxError"))
    }

    @Test("a message delivered before the journey set receive reaches the no-op and is reported lost; later ones arrive")
    func lostBeforeReceive() async throws {
        let fixture = try await loadedPage(script: "")
        defer { Task { await fixture.stop() } }
        // host.ready went to the bootstrap's no-op: this page never sets receive by itself.
        try await fixture.wait("host.ready reported lost") { fixture.journey.lostDeliveries == 1 }
        let lost = fixture.seen.compactMap { if case .lostDelivery(let message, _) = $0 { return message.payload.action } else { return nil } }
        #expect(lost == ["host.ready"])
        _ = try await fixture.journey.query("window.got = []; window.GBGBridge.receive = function (m) { window.got.push(m.payload.action); }; 1")
        fixture.host.send(event: "host.ping")
        _ = try await fixture.waitForPage("host.ping to arrive", "window.got") { $0 == #"["host.ping"]"# }
        #expect(fixture.journey.lostDeliveries == 1)
        #expect(fixture.host.lastError == nil)
    }

    @Test("a killed web content process makes deliveries fail into lastError")
    func killedWebProcess() async throws {
        let fixture = try await loadedPage(script: "window.GBGBridge.receive = function () {};")
        defer { Task { await fixture.stop() } }
        fixture.journey.terminateWebProcess()
        try await fixture.wait("the web process to end") {
            fixture.seen.contains { if case .webProcessTerminated = $0 { return true } else { return false } }
        }
        fixture.host.send(event: "host.ping")
        try await fixture.wait("lastError") { fixture.host.lastError != nil }
        #expect(fixture.host.lastError?.hasPrefix("evaluateJavaScript failed: ") == true)
    }

    @Test("a destroyed web view detaches the host: later sends fail with WebView not attached")
    func destroyedView() async throws {
        let fixture = try await loadedPage(script: "window.GBGBridge.receive = function () {};")
        defer { Task { await fixture.stop() } }
        #expect(fixture.host.isJourneyAttached)
        fixture.journey.destroyView()
        try await fixture.wait("the view to go") { fixture.journey.isViewDestroyed }
        #expect(!fixture.host.isJourneyAttached)
        fixture.host.send(event: "host.ping")
        #expect(fixture.host.lastError?.hasPrefix("WebView not attached") == true)
        await #expect(throws: WebKitJourneyError.self) { _ = try await fixture.journey.query("1") }
    }

    @Test("the GBGBridge adapter's page script, added before or after the bootstrap, reports every delivery, also after a reload", arguments: [false, true])
    func pageScriptInBothOrders(pageScriptFirst: Bool) async throws {
        let directory = try makeTemporaryDirectory(prefix: "wk")
        defer { removeDirectory(directory) }
        try page(directory, "index.html", body: "", script: "window.got = []; window.GBGBridge.receive = function (m) { window.got.push(m.payload.action); };")
        let fixture = try await WebKitJourneyFixture.start(directory: directory, pageScript: OutgoingTapScript.source, pageScriptFirst: pageScriptFirst)
        defer { Task { await fixture.stop() } }
        func sentActions() -> [String] {
            fixture.reports.compactMap { report -> String? in
                guard case .sent(let json) = report, case .success(let message) = BridgeMessageCodec().decode(Data(json.utf8)) else { return nil }
                return message.payload.action
            }
        }
        try await fixture.wait("host.ready reported") { sentActions() == ["host.ready"] }
        fixture.host.send(event: "host.ping")
        try await fixture.wait("host.ping reported") { sentActions() == ["host.ready", "host.ping"] }
        _ = try await fixture.waitForPage("the journey to get both", "window.got") { $0 == #"["host.ready","host.ping"]"# }
        #expect(fixture.reports.contains { if case .page = $0 { return true } else { return false } })
        #expect(!fixture.reports.contains { if case .blind = $0 { return true } else { return false } })

        fixture.journey.reload()
        try await fixture.wait("the reloaded page's host.ready reported") { sentActions() == ["host.ready", "host.ping", "host.ready"] }
        let pages = fixture.reports.filter { if case .page = $0 { return true } else { return false } }
        #expect(pages.count == 2)
        #expect(fixture.journey.lostDeliveries == 0)
    }
}
