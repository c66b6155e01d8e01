import Foundation
import InspectorClient
import InspectorProtocol
import TestSupport
import Testing

/// `bridge-inspector lifecycle reload` on a journey in real WebKit (issue 29, item 2): the
/// runner's `reload`, then a new load that gets host.ready, the old request still pending.
@Suite("Lifecycle steps in real WebKit", .enabled(if: WebKitRunnerBuild.runs, Comment(rawValue: WebKitRunnerBuild.skipNote)), .timeLimit(.minutes(10)))
struct WebKitLifecycleTests {
    let binary: String
    let runner: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
        runner = try #require(WebKitRunnerBuild.path, Comment(rawValue: WebKitRunnerBuild.missingNote))
    }

    @Test("reload with a capture pending: the page loads again and gets host.ready; the old request stays pending")
    func reloadWithPending() async throws {
        let webkit = try await WebKitHost.start(journey: examplePath("web-journey"), binary: binary, runner: runner)
        let host = webkit.process
        defer { host.kill() }
        #expect(try await webkit.cli(["wait-for", "--filter", "action:camera.document.capture", "--timeout", "120"]).status == 0, "\(host.standardError)")
        let orphan = try #require(try webkit.state().pending.first)

        let result = try await webkit.cli(["lifecycle", "reload"])
        #expect(result.status == 0, "\(result)")
        let reloaded = await waitUntil(timeout: .seconds(120)) {
            guard let state = try? webkit.state() else { return false }
            let readies = state.messages.filter { $0.direction == .sent && $0.message.payload.action == "host.ready" }.count
            return readies == 2 && state.pending.count == 2
        }
        #expect(reloaded, "host: \(host.standardError)")
        #expect(try webkit.state().pending.map(\.correlationId).contains(orphan.correlationId), "nothing is cleared by a reload")
    }
}
