import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import TestSupport
import Testing

/// `bridge-inspector lifecycle reload` on a served journey in headless Chromium (issue 29, item
/// 2): the page reloads by the host's control frame, attaches again and gets host.ready again,
/// and the request the old page left stays pending.
@Suite("Lifecycle steps in a browser", .serialized)
struct BrowserLifecycleTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    @Test("reload with a capture pending: a new attach and host.ready, the old request still in pendingRequests", .requires(.chromium))
    func reloadWithPending() async throws {
        let executable = try ExternalTool.chromium.require()
        let directory = try TemporaryDirectory()
        let socket = directory.file("h.sock")
        let (host, served) = try await startServedExampleJourney(binary: binary, socket: socket)
        defer { host.kill() }

        let browser = try HeadlessChromium(executable: executable, directory: directory)
        defer { browser.close() }
        let tab = try await browser.openPage()
        try await browser.navigate(tab, to: served)

        let session = try InspectorSession(socketPath: socket, subscribe: false, clientName: "browser-lifecycle-tests")
        defer { session.close() }
        var state = try await webSnapshot(session, until: { $0.pending.contains { $0.action == "camera.document.capture" } })
        let orphan = try #require(state.pending.first)
        let readies = state.messages.filter { $0.direction == .sent && $0.message.payload.action == "host.ready" }.count
        #expect(readies == 1)

        let result = try await runCLI(["lifecycle", "reload", "--socket", socket], binary: binary)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("reload"), "\(result)")

        // The reloaded page asks for its own capture; the old page's stays pending.
        state = try await webSnapshot(session, timeout: .seconds(60)) { $0.pending.count == 2 }
        #expect(state.pending.map(\.correlationId).contains(orphan.correlationId), "nothing is cleared by a reload")
        #expect(state.journeyAttached)
        let sentReadies = state.messages.filter { $0.direction == .sent && $0.message.payload.action == "host.ready" }
        #expect(sentReadies.count == 2, "host.ready again to the new page")
        #expect(await waitUntil(timeout: .seconds(60)) { host.standardError.contains("page 2") && host.standardError.contains("attached") },
            "stderr: \(host.standardError)")
        let page = try await pageState(browser, tab) { ($0["events"] as? [[String: Any]])?.isEmpty == false }
        #expect((page["events"] as? [[String: Any]])?.map { $0["action"] as? String } == ["host.ready"], "a fresh page: only its own host.ready")
    }
}
