import BridgeCore
import Foundation
import GBGBridgeInspector
import InspectorClient
import InspectorProtocol
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `bridge-inspector host --serve examples/web-journey --inspect-via public-api` in headless
/// Chromium: the page runs the real page script (`OutgoingTapScript`) after the bridge
/// bootstrap, as an app's WKWebView runs it, and the inspector sees what the host sends only
/// through the script's reports (docs/web-journeys.md, "Seen as an app embedding GBGBridge").
///
/// What the page received is recorded independently of the script: a DevTools document-start
/// script wraps `WebSocket` and keeps every frame the host sent. Without Chromium the test fails
/// under CI (CI=true) and is skipped, with the reason, elsewhere.
@Suite("Web journey seen through the public API", .serialized)
struct ServedPublicAPITests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    /// Keeps each frame the host sends to the page in `window.__hostFrames` (runs before the bootstrap).
    static let frameRecorder = """
        (function () {
          var Native = window.WebSocket, frames = [];
          Object.defineProperty(window, "__hostFrames", { value: frames });
          window.WebSocket = function (url, protocols) {
            var socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
            socket.addEventListener("message", function (event) { frames.push(event.data); });
            return socket;
          };
          window.WebSocket.prototype = Native.prototype;
        })();
        """

    /// Each message the page received (the host's control frames, which are not deliveries, left
    /// out): the host's JSON in the delivery script, and the JSON of
    /// the value `receive` got (`JSON.stringify(JSON.parse(...))`; the host escapes `<` and
    /// U+2028 for the script, which the value does not keep).
    private func received(_ browser: HeadlessChromium, _ tab: String) async throws -> [(host: String, value: String)] {
        let prefix = JavaScriptDelivery.receiveFunction + "(", suffix = ");"
        let text = try #require(try await browser.evaluate(tab, """
            JSON.stringify((window.__hostFrames || []).filter(function (frame) {
              return frame.slice(0, \(prefix.utf16.count)) === \(String(decoding: try JSONEncoder().encode(prefix), as: UTF8.self));
            }).map(function (frame) {
              var json = frame.slice(\(prefix.utf16.count), frame.length - \(suffix.utf16.count));
              return [json, JSON.stringify(JSON.parse(json))];
            }))
            """) as? String)
        let pairs = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String]])
        return pairs.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil }
    }

    /// `bridge-inspector host --serve PATH --inspect-via public-api` on a socket in `directory`,
    /// once it serves: the process (kill it when done), its socket and the URL it serves.
    private func servedHost(
        in directory: TemporaryDirectory, serving path: String, options: [String] = []
    ) async throws -> (host: BinaryProcess, socket: String, served: String) {
        let socket = directory.file("h.sock")
        let host = try BinaryProcess(["host", "--serve", path] + options + ["--socket", socket, "--inspect-via", "public-api"], binary: binary)
        #expect(await host.waitForLine(prefix: "socket: ") == socket)
        guard let served = await host.waitForLine(prefix: "serving: ") else {
            host.kill()
            throw HostStartFailure(description: "the host serves nothing: \(host.standardError)")
        }
        return (host, socket, served)
    }

    /// A headless browser with one tab open on `served` (after `recorder`, if given, was added
    /// to every new document), and an inspector session on `socket`: what each test here
    /// starts with. `close()` ends both.
    private struct OpenPage {
        let browser: HeadlessChromium
        let tab: String
        let session: InspectorSession

        func close() {
            session.close()
            browser.close()
        }
    }

    private func openPage(
        _ executable: String, in directory: TemporaryDirectory, served: String, socket: String, recorder: String? = nil
    ) async throws -> OpenPage {
        let browser = try HeadlessChromium(executable: executable, directory: directory)
        do {
            let tab = try await browser.openPage()
            if let recorder { try await browser.addScriptOnNewDocument(tab, recorder) }
            try await browser.navigate(tab, to: served)
            let session = try InspectorSession(socketPath: socket, subscribe: false, clientName: "served-public-api-tests")
            return OpenPage(browser: browser, tab: tab, session: session)
        } catch {
            browser.close()
            throw error
        }
    }

    /// A journey directory in `directory` whose index.html is `html`.
    private func writeJourney(_ html: String, in directory: TemporaryDirectory) throws -> String {
        let journey = directory.file("journey")
        try FileManager.default.createDirectory(atPath: journey, withIntermediateDirectories: true)
        try html.write(toFile: journey + "/index.html", atomically: true, encoding: .utf8)
        return journey
    }

    /// Checks that the inspector's sent messages are, in order, exactly the messages the page
    /// received: the same message, and the JSON of the very value the page got, byte for byte.
    private func expectSame(_ sent: [WireTraffic], _ received: [(host: String, value: String)], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(sent.count == received.count, "inspector: \(sent.map(\.message.payload.action)); page: \(received.count) frames", sourceLocation: sourceLocation)
        let codec = BridgeMessageCodec()
        for (record, json) in zip(sent, received) {
            guard case .success(let message) = codec.decode(Data(json.host.utf8)) else {
                Issue.record("the page received something that is not a bridge message: \(json.host)", sourceLocation: sourceLocation)
                continue
            }
            #expect(record.message == message, sourceLocation: sourceLocation)
            #expect(record.bytes == json.value.utf8.count, "JSON of \(message.payload.action): \(json.value)", sourceLocation: sourceLocation)
        }
    }

    @Test(
        "the page's own script reports what the host sends: capabilities, an answer through the agent, events, and again after a reload",
        .requires(.chromium))
    func publicAPIInBrowser() async throws {
        let executable = try ExternalTool.chromium.require()
        let directory = try TemporaryDirectory()
        let (host, socket, served) = try await servedHost(
            in: directory, serving: examplePath("web-journey"), options: ["--profile", examplePath("web-journey/host-profile.json")])
        defer { host.kill() }

        let opened = try await openPage(executable, in: directory, served: served, socket: socket, recorder: Self.frameRecorder)
        defer { opened.close() }
        let (browser, tab, session) = (opened.browser, opened.tab, opened.session)

        // 1. host.ready and the capability.query response, reported by the page's script.
        var state = try await webSnapshot(session) { state in
            state.pending.contains { $0.action == "camera.document.capture" }
                && state.messages.filter { $0.direction == .sent }.count >= 2
        }
        #expect(state.host.inspection == "public-api")
        var sent = state.messages.filter { $0.direction == .sent }
        #expect(sent.map(\.message.payload.action) == ["host.ready", "capability.query"], "each once: no stand-in reports as well")
        #expect(sent.map(\.origin) == [.host, .host])
        let capture = try #require(state.pending.first { $0.action == "camera.document.capture" })
        let page = try await pageState(browser, tab) { ($0["capture"] as? [String: Any])?["status"] as? String == "waiting" }
        #expect((page["capabilities"] as? [String: Any])?["status"] as? String == "success")
        expectSame(sent, try await received(browser, tab))

        // 2. An answer to the pending capture and an event, both made through the agent.
        let reply = try session.run(.respond(.init(
            correlationId: capture.correlationId, status: .success,
            data: ["imageBase64": .string(BrowserJourneyTests.pngBase64), "imageWidth": 2, "imageHeight": 1, "mimeType": "image/png"])))
        #expect((try? reply.result.get()) != nil, "respond failed: \(reply.result)")
        let ping = try session.run(.sendEvent(.init(name: "host.ping", data: ["from": "inspector", "text": "é \u{2028} </script>"])))
        #expect((try? ping.result.get()) != nil)
        state = try await webSnapshot(session) { $0.messages.filter { $0.direction == .sent }.count >= 4 }
        sent = state.messages.filter { $0.direction == .sent }
        #expect(sent.map(\.message.payload.action) == ["host.ready", "capability.query", "camera.document.capture", "host.ping"])
        #expect(sent.map(\.origin) == [.host, .host, .inspector, .inspector])
        _ = try await pageState(browser, tab) { state in
            (state["events"] as? [[String: Any]])?.contains { $0["action"] as? String == "host.ping" } == true
        }
        expectSame(sent, try await received(browser, tab))

        // 3. A reload: the new page runs the script again and its reports follow.
        try await browser.reload(tab)
        state = try await webSnapshot(session) { state in
            state.messages.filter { $0.direction == .sent && $0.message.payload.action == "host.ready" }.count == 2
                && state.messages.filter { $0.direction == .sent && $0.message.payload.action == "capability.query" }.count == 2
        }
        sent = state.messages.filter { $0.direction == .sent }
        #expect(Array(sent.map(\.message.payload.action).suffix(2)) == ["host.ready", "capability.query"])
        #expect(state.journeyAttached)
        expectSame(Array(sent.suffix(2)), try await received(browser, tab))
        #expect(!host.standardError.contains("page script could not"), "stderr: \(host.standardError)")

        host.signal(SIGTERM)
        #expect(await host.waitForExit() == 0, "stderr: \(host.standardError)")
        #expect(!host.standardError.contains("ignored page-script reports"), "stderr: \(host.standardError)")
    }

    @Test("inject and replay post in the page as the journey would: the host takes them from the page's own handler", .requires(.chromium))
    func injectThroughThePage() async throws {
        let executable = try ExternalTool.chromium.require()
        let directory = try TemporaryDirectory()
        let (host, socket, served) = try await servedHost(in: directory, serving: examplePath("web-journey"))
        defer { host.kill() }
        // Before a page is open, inject is refused with what to do.
        let early = try await runCLI(["inject", "event", "journey.early", "--socket", socket], binary: binary)
        #expect(early.status == 2, "\(early)")
        #expect(early.stderr.contains("open the \"serving:\" URL"), "\(early)")

        let opened = try await openPage(executable, in: directory, served: served, socket: socket)
        defer { opened.close() }
        let (browser, tab, session) = (opened.browser, opened.tab, opened.session)
        _ = try await webSnapshot(session, timeout: .seconds(120)) { $0.pending.contains { $0.action == "camera.document.capture" } }

        let injected = try await runCLI(["inject", "request", "device.info", "--id", "inspector-served-1", "--timeout", "120", "--socket", socket], binary: binary)
        #expect(injected.status == 0, "\(injected)\nhost: \(host.standardError)")
        #expect(injected.lines.count == 2, "the message and its answer: \(injected)")
        var state = try await webSnapshot(session, timeout: .seconds(120)) { state in
            state.messages.contains { $0.direction == .received && $0.message.correlationId == "inspector-served-1" }
        }
        #expect(state.messages.first { $0.direction == .received && $0.message.correlationId == "inspector-served-1" }?.origin == .inspector)
        let query = try #require(state.messages.first { $0.direction == .received && $0.message.payload.action == "capability.query" })
        let replayed = try await runCLI(["replay", "\(query.seq)", "--timeout", "120", "--socket", socket], binary: binary)
        #expect(replayed.status == 0, "\(replayed)")
        state = try await webSnapshot(session, timeout: .seconds(120)) { state in
            state.messages.filter { $0.direction == .received && $0.message.payload.action == "capability.query" }.count == 2
        }
        // The page's own script saw the replayed query's answer arrive: it lists it as a response nobody waited for.
        _ = try await pageState(browser, tab, timeout: .seconds(120)) { ($0["ignored"] as? [Any])?.isEmpty == false }
    }

    @Test("breakpoints hold in the browser's page too: the journey's request (released, answered) and the host's answer (edited)", .requires(.chromium))
    func breakpointsInThePage() async throws {
        let executable = try ExternalTool.chromium.require()
        let directory = try TemporaryDirectory()
        let journey = try writeJourney(WebKitBreakpointTests.journey, in: directory)
        let (host, socket, served) = try await servedHost(
            in: directory, serving: journey, options: ["--profile", examplePath("web-journey/host-profile.json")])
        defer { host.kill() }
        let opened = try await openPage(executable, in: directory, served: served, socket: socket)
        defer { opened.close() }
        let session = opened.session
        var state = try await webSnapshot(session, timeout: .seconds(120)) { $0.journeyAttached }
        #expect(state.host.unsupported?[HostFeature.intercept.rawValue] == nil, "the handshake offers breakpoints")
        func cli(_ arguments: [String]) async throws -> CLIResult { try await runCLI(arguments + ["--socket", socket], binary: binary) }
        func got(_ id: String) -> (WireState) -> Bool {
            { $0.messages.contains { $0.direction == .received && $0.message.payload.action == "journey.got" && $0.message.payload.data?["id"] == .string(id) } }
        }

        let breaker = try BinaryProcess(["break", "action:device.info", "--hold", "600", "--socket", socket], binary: binary, stdin: .closed)
        defer { breaker.kill() }
        _ = try await webSnapshot(session, timeout: .seconds(120)) { ($0.breakpoints?.count ?? 0) == 1 }

        // The journey's request waits in the page; released, the host answers, and that answer
        // waits in the page too, before the journey's receive; released edited.
        #expect(try await cli(["event", "host.ping", "--quiet"]).status == 0)
        state = try await webSnapshot(session, timeout: .seconds(120)) { ($0.held?.count ?? 0) == 1 }
        let request = try #require(state.held?.first)
        #expect(request.direction == .received && request.message.correlationId == "dev-1")
        #expect(!state.messages.contains { $0.direction == .received && $0.message.correlationId == "dev-1" }, "the host has not got it")
        #expect(try await cli(["release", request.id]).status == 0)
        state = try await webSnapshot(session, timeout: .seconds(120)) { $0.held?.first?.direction == .sent }
        let answer = try #require(state.held?.first)
        #expect(try await cli(["release", answer.id, "--data", #"{"model":"edited in Chromium"}"#]).status == 0)
        state = try await webSnapshot(session, timeout: .seconds(120), until: got("dev-1"))
        let journeyGot = state.messages.first { $0.message.payload.action == "journey.got" && $0.message.payload.data?["id"] == "dev-1" }
        #expect(journeyGot?.message.payload.data?["data"]?["model"] == "edited in Chromium")

        // Answered by hand in the page: the host never gets the request.
        #expect(try await cli(["event", "host.ping", "--quiet"]).status == 0)
        state = try await webSnapshot(session, timeout: .seconds(120)) { $0.held?.first?.message.correlationId == "dev-2" }
        let second = try #require(state.held?.first)
        #expect(try await cli(["answer", second.id, "--status", "error", "--error-code", "BUSY"]).status == 0)
        state = try await webSnapshot(session, timeout: .seconds(120), until: got("dev-2"))
        #expect(!state.messages.contains { $0.direction == .received && $0.message.correlationId == "dev-2" })

        // The breakpoint's process ends: nothing is held any more, and posts go straight on.
        breaker.kill()
        _ = try await webSnapshot(session, timeout: .seconds(120)) { ($0.breakpoints?.count ?? 0) == 0 }
        #expect(try await cli(["event", "host.ping", "--quiet"]).status == 0)
        _ = try await webSnapshot(session, timeout: .seconds(120), until: got("dev-3"))
    }

    /// A journey page that has not set `window.GBGBridge.receive` when the host starts sending.
    static let pageWithoutReceive = """
        <!doctype html><html><head><title>no receive yet</title></head><body>no receive yet</body></html>
        """

    // Troubleshooting page, "Messages Not Being Received by the Web Journey": "window.GBGBridge.receive
    // not defined. The web journey must replace the no-op receive() with its own implementation. Check
    // from Safari Web Inspector: console.log(window.GBGBridge.receive.toString());"
    @Test(
        "a delivery to GBGBridge's no-op receive is marked lost; receive.toString() answers as the journey's own function, with the page script installed",
        .requires(.chromium))
    func lostToTheNoOpReceive() async throws {
        let executable = try ExternalTool.chromium.require()
        let directory = try TemporaryDirectory()
        let journey = try writeJourney(Self.pageWithoutReceive, in: directory)
        let (host, socket, served) = try await servedHost(in: directory, serving: journey)
        defer { host.kill() }

        let opened = try await openPage(executable, in: directory, served: served, socket: socket)
        defer { opened.close() }
        let (browser, tab, session) = (opened.browser, opened.tab, opened.session)

        // host.ready reached the bootstrap's function(){}: seen, and marked lost.
        var state = try await webSnapshot(session) { state in
            state.messages.contains { $0.direction == .sent && $0.message.payload.action == "host.ready" }
        }
        let ready = try #require(state.messages.first { $0.direction == .sent && $0.message.payload.action == "host.ready" })
        #expect(ready.lost?.contains("has not set window.GBGBridge.receive") == true, "\(ready)")
        #expect(try await browser.evaluate(tab, "window.GBGBridge.receive.toString()") as? String == "function(){}")

        // The journey sets its own receive: toString() shows its source, and what follows is not lost.
        let source = "function journeyReceive(message) { (window.__got = window.__got || []).push(message); }"
        let shown = try await browser.evaluate(tab, "window.GBGBridge.receive = \(source); window.GBGBridge.receive.toString()") as? String
        #expect(shown == source)
        #expect(try await browser.evaluate(tab, "String(window.GBGBridge.receive) === window.GBGBridge.receive.toString()") as? Bool == true)
        #expect(try await browser.evaluate(tab, "window.GBGBridge.receive.name") as? String == "journeyReceive")
        let ping = try session.run(.sendEvent(.init(name: "host.ping", data: nil)))
        #expect((try? ping.result.get()) != nil)
        state = try await webSnapshot(session) { state in
            state.messages.contains { $0.direction == .sent && $0.message.payload.action == "host.ping" }
        }
        let delivered = try #require(state.messages.first { $0.direction == .sent && $0.message.payload.action == "host.ping" })
        #expect(delivered.lost == nil)
        #expect(try await browser.evaluate(tab, "(window.__got || []).length") as? Int == 1)
        host.signal(SIGTERM)
        #expect(await host.waitForExit() == 0, "stderr: \(host.standardError)")
    }

    @Test("a dev-server page's bootstrap tag (--allow-origin) carries the page script too, after the bridge bootstrap")
    func allowedOriginGetsTheScript() async throws {
        let directory = try TemporaryDirectory()
        let host = try BinaryProcess([
            "host", "--allow-origin", "http://localhost:5173", "--socket", directory.file("h.sock"), "--inspect-via", "public-api",
        ], binary: binary)
        defer { host.kill() }
        #expect(await host.waitForLine(prefix: "serving: ") != nil, "stderr: \(host.standardError)")
        #expect(await waitUntil(timeout: .seconds(60)) { host.standardError.contains("<script src=\"") }, "stderr: \(host.standardError)")
        let tag = try #require(host.standardError.range(of: #"<script src="([^"]+)">"#, options: .regularExpression).map { host.standardError[$0] })
        let url = try #require(URLComponents(string: String(tag.dropFirst(#"<script src=""#.count).dropLast(2))))
        let port = try #require(url.port)
        let response = try webTCPRequest(port: port, """
            GET \(url.path)?\(url.query ?? "") HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://localhost:5173\r\nConnection: close\r\n\r\n
            """)
        #expect(response.hasPrefix("HTTP/1.1 200 OK"), "\(response.prefix(300))")
        let bridgeAt = try #require(response.range(of: "window.GBGBridge"))
        let tapAt = try #require(response.range(of: OutgoingTapScript.source))
        #expect(bridgeAt.lowerBound < tapAt.lowerBound)
        #expect(response.contains(#"REPORT_HANDLER = "\#(OutgoingTapScript.handlerName)""#))
        host.signal(SIGTERM)
        #expect(await host.waitForExit() == 0)
    }
}
