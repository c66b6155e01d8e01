import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `bridge-inspector host --serve examples/web-journey` with the example journey running in
/// Debian's headless Chromium, driven over the DevTools protocol; the inspector side goes
/// through the agent, as the inspector does.
///
/// Chromium is installed by `.ci/run`. Without it the browser test fails under CI (CI=true) and is
/// skipped, with the reason printed, elsewhere; it never passes without running.
@Suite("Web journey in a browser", .serialized)
struct BrowserJourneyTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    /// A 2×1 PNG (red, blue), as a host's capture answer would carry it.
    static let pngBase64 = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAADUlEQVR4nGP4zwAE/wEHAAH/4iOeWQAAAABJRU5ErkJggg=="

    @Test(
        "the example journey: capabilities, a capture answered through the agent, host events, a reload, frames and a foreign origin",
        .requires(.chromium))
    func browserJourney() async throws {
        let executable = try ExternalTool.chromium.require()
        let directory = try TemporaryDirectory()
        let socket = directory.file("h.sock")
        let (host, served) = try await startServedExampleJourney(binary: binary, socket: socket)
        defer { host.kill() }
        // The URL holds the run's token; opening it gives the browser the cookie every later
        // request and the bridge WebSocket carry.
        let (port, _) = try #require(servedAddress(served), "not http://127.0.0.1:<port>/?token=<token>: \(served)")

        let browser = try HeadlessChromium(executable: executable, directory: directory)
        defer { browser.close() }
        let tab = try await browser.openPage()
        try await browser.navigate(tab, to: served)

        let session = try InspectorSession(socketPath: socket, subscribe: false, clientName: "browser-journey-tests")
        defer { session.close() }

        // 1. The page asked for capabilities and then for a document capture, which waits in
        //    pendingRequests (the profile's document slot has no handler).
        var state = try await webSnapshot(session, until: { $0.pending.contains { $0.action == "camera.document.capture" } })
        let capture = try #require(state.pending.first { $0.action == "camera.document.capture" })
        #expect(state.pending.count == 1)
        #expect(state.journeyAttached, "the connected page is the attached journey")
        let received = state.messages.filter { $0.direction == .received }.map(\.message)
        #expect(received.map(\.payload.action) == ["journey.started", "capability.query", "camera.document.capture"],
            "journey.started was posted before the connection opened; it was queued and sent first")
        #expect(received.first?.type == .event)
        let sent = state.messages.filter { $0.direction == .sent }.map(\.message)
        #expect(sent.map(\.payload.action) == ["host.ready", "capability.query"])
        #expect(sent.allSatisfy { $0.correlationId.hasPrefix("ios-event-") || $0.type == .response })

        var page = try await pageState(browser, tab) { ($0["capture"] as? [String: Any])?["status"] as? String == "waiting" }
        #expect(page["bridge"] as? String == "present")
        #expect((page["hostReady"] as? [String: Any])?["version"] as? String == "1.0.0")
        let capabilities = try #require(page["capabilities"] as? [String: Any])
        #expect(capabilities["status"] as? String == "success")
        let reported = (capabilities["data"] as? [String: Any])?["capabilities"] as? [String: [String: Any]]
        #expect(reported?["camera.document"]?["supported"] as? Bool == false)
        #expect(reported?["device.info"]?["supported"] as? Bool == true)
        #expect((page["capture"] as? [String: Any])?["correlationId"] as? String == capture.correlationId)

        // 2. Answer the pending capture through the agent; the page shows the document.
        let reply = try session.run(.respond(.init(
            correlationId: capture.correlationId, status: .success,
            data: ["imageBase64": .string(Self.pngBase64), "imageWidth": 2, "imageHeight": 1, "mimeType": "image/png"])))
        #expect((try? reply.result.get()) != nil, "respond failed: \(reply.result)")
        page = try await pageState(browser, tab) { ($0["capture"] as? [String: Any])?["status"] as? String != "waiting" }
        let answer = try #require(page["capture"] as? [String: Any])
        #expect(answer["status"] as? String == "success")
        #expect((answer["data"] as? [String: Any])?["imageWidth"] as? Int == 2)
        #expect(try await browser.evaluate(tab, "document.getElementById('capture-status').textContent") as? String == "Document captured.")
        #expect(try await browser.evaluate(tab, "document.getElementById('capture-preview').naturalWidth") as? Int == 2,
            "the base64 PNG the inspector sent is shown")
        state = try await webSnapshot(session) { $0.pending.isEmpty }
        #expect(state.pending.isEmpty)

        // 3. A host event from the inspector: the page shows it and answers with journey.pong.
        let ping = try session.run(.sendEvent(.init(name: "host.ping", data: ["from": "inspector"])))
        #expect((try? ping.result.get()) != nil)
        state = try await webSnapshot(session) { $0.messages.contains { $0.message.payload.action == "journey.pong" } }
        page = try await pageState(browser, tab) { state in
            (state["events"] as? [[String: Any]])?.contains { $0["action"] as? String == "host.ping" } == true
        }
        #expect((page["events"] as? [[String: Any]])?.map { $0["action"] as? String } == ["host.ready", "host.ping"])

        // 4. Reload with a capture pending: the old request stays pending in the host, the new
        //    page is a fresh bridge context (host.ready again), and an answer to the old request
        //    reaches the new page, which ignores it as the web SDK does.
        _ = try await browser.evaluate(tab, "document.getElementById('capture-again').click()")
        state = try await webSnapshot(session) { $0.pending.count == 1 }
        let orphan = try #require(state.pending.first)
        try await browser.reload(tab)
        state = try await webSnapshot(session) { $0.pending.count == 2 }
        #expect(state.pending.first?.correlationId == orphan.correlationId, "the old page's request is still pending")
        let fresh = try #require(state.pending.last)
        #expect(fresh.correlationId != orphan.correlationId)
        #expect(await waitUntil(timeout: .seconds(60)) { host.standardError.contains("still pending: camera.document.capture (\(orphan.correlationId))") },
            "stderr: \(host.standardError)")
        page = try await pageState(browser, tab) { ($0["capture"] as? [String: Any])?["correlationId"] as? String == fresh.correlationId }
        #expect((page["events"] as? [[String: Any]])?.map { $0["action"] as? String } == ["host.ready"])
        let late = try session.run(.respond(.init(correlationId: orphan.correlationId, status: .cancelled,
            error: BridgeErrorPayload(code: "CANCELLED", message: "late", recoverable: true))))
        #expect((try? late.result.get()) != nil)
        page = try await pageState(browser, tab) { ($0["ignored"] as? [[String: Any]])?.isEmpty == false }
        #expect((page["ignored"] as? [[String: Any]])?.first?["correlationId"] as? String == orphan.correlationId)
        #expect((page["capture"] as? [String: Any])?["status"] as? String == "waiting", "the new page's own capture still waits")

        // 5. Frames never get the bridge: neither the served page in an iframe (not injected) nor
        //    the bootstrap included by hand in a frame (it checks window.top).
        let frames = try await browser.evaluate(tab, """
            new Promise(function (resolve) {
              var served = document.createElement('iframe');
              served.src = '/index.html';
              var manual = document.createElement('iframe');
              manual.srcdoc = '<script src="/__gbgbridge/bootstrap.js"><' + '/script><p>frame</p>';
              var loaded = 0;
              function done() {
                if (++loaded < 2) return;
                setTimeout(function () {
                  resolve(JSON.stringify({
                    servedWebkit: typeof served.contentWindow.webkit,
                    servedBridge: JSON.parse(served.contentDocument.getElementById('journey-state').textContent).bridge,
                    servedHTML: served.contentDocument.documentElement.outerHTML.indexOf('__gbgbridge') >= 0,
                    manualWebkit: typeof manual.contentWindow.webkit,
                    manualGBGBridge: typeof manual.contentWindow.GBGBridge
                  }));
                }, 300);
              }
              served.onload = done;
              manual.onload = done;
              document.body.appendChild(served);
              document.body.appendChild(manual);
            })
            """)
        let frameReport = try #require((frames as? String).flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect(frameReport["servedWebkit"] as? String == "undefined")
        #expect(frameReport["servedBridge"] as? String == "absent")
        #expect(frameReport["servedHTML"] as? Bool == false)
        #expect(frameReport["manualWebkit"] as? String == "undefined")
        #expect(frameReport["manualGBGBridge"] as? String == "undefined")

        // 6. A page of another origin cannot open the bridge WebSocket. The other origin is a
        //    second host on another loopback port (Chromium itself blocks pages of public or
        //    opaque origins, such as data: URLs, from reaching loopback at all).
        let other = try BinaryProcess([
            "host", "--serve", examplePath("web-journey"), "--socket", directory.file("other.sock"),
        ], binary: binary)
        defer { other.kill() }
        let otherURL = try #require(await other.waitForLine(prefix: "serving: "), "stderr: \(other.standardError)")
        // That page has the cookie of its own host; the browser sends this host's cookie too (cookies
        // ignore ports), so it is the Origin check that refuses it.
        let otherPort = try #require(servedAddress(otherURL)?.port)
        let foreignOrigin = "http://127.0.0.1:\(otherPort)"
        let foreign = try await browser.openPage()
        try await browser.navigate(foreign, to: otherURL)
        let attempt = try await browser.evaluate(foreign, """
            new Promise(function (resolve) {
              var socket = new WebSocket('ws://127.0.0.1:\(port)/__gbgbridge/socket?page=%2Fforeign');
              var outcome = [];
              socket.onopen = function () { outcome.push('open'); };
              socket.onerror = function () { outcome.push('error'); };
              socket.onclose = function (event) { outcome.push('close ' + event.code); resolve(outcome.join(',')); };
              setTimeout(function () { resolve(outcome.join(',') || 'nothing'); }, 5000);
            })
            """)
        #expect(attempt as? String == "error,close 1006")
        #expect(await waitUntil(timeout: .seconds(5)) { host.standardError.contains(#"refused: WebSocket refused: origin "\#(foreignOrigin)" may not connect"#) },
            "stderr: \(host.standardError)")
        other.signal(SIGTERM)
        #expect(await other.waitForExit() == 0)

        // Only the two top-level pages ever attached (two host.ready events), and the foreign
        // attempt and the frames changed nothing in the host.
        state = try await webSnapshot(session) { _ in true }
        #expect(state.messages.filter { $0.message.payload.action == "host.ready" }.count == 2)
        #expect(state.pending.map(\.correlationId) == [fresh.correlationId])
        #expect(state.lastError == nil || state.lastError?.text == nil, "lastError: \(state.lastError?.text ?? "")")

        host.signal(SIGTERM)
        #expect(await host.waitForExit() == 0, "stderr: \(host.standardError)")
        #expect(!FileManager.default.fileExists(atPath: socket))
    }

    @Test("the real binary refuses path traversal, other Host names and foreign WebSocket origins")
    func refusals() async throws {
        let directory = try TemporaryDirectory()
        let socket = directory.file("h.sock")
        let host = try BinaryProcess([
            "host", "--serve", examplePath("web-journey"), "--socket", socket,
        ], binary: binary)
        defer { host.kill() }
        let served = try #require(await host.waitForLine(prefix: "serving: "), "stderr: \(host.standardError)")
        let (port, token) = try #require(servedAddress(served), "not http://127.0.0.1:<port>/?token=<token>: \(served)")
        // The host writes this to standard error after the "serving:" line on standard output:
        // two pipes, read separately, so wait for it.
        #expect(await waitUntil(timeout: .seconds(20)) { host.standardError.contains("open the \"serving:\" URL above, with its token, in a browser") }, "\(host.standardError)")

        // Without the token nothing is served, and the answer says what to do.
        let anonymous = try webTCPRequest(port: port, "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
        #expect(anonymous.hasPrefix("HTTP/1.1 403 Forbidden"))
        #expect(anonymous.contains("open the URL `bridge-inspector host` printed when it started"))
        #expect(!anonymous.contains("__gbgbridge/bootstrap.js"))
        let cookie = "Cookie: gbgbridge_\(port)=\(token)"
        let index = try webTCPRequest(port: port, "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(cookie)\r\nConnection: close\r\n\r\n")
        #expect(index.hasPrefix("HTTP/1.1 200 OK"))
        #expect(index.contains("<head><script src=\"/__gbgbridge/bootstrap.js\"></script>"))

        for path in ["/../../Package.swift", "/%2e%2e/%2e%2e/Package.swift", "/..%2f..%2fPackage.swift", "/%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd"] {
            let response = try webTCPRequest(port: port, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(cookie)\r\nConnection: close\r\n\r\n")
            #expect(response.hasPrefix("HTTP/1.1 403 Forbidden"), "\(path): \(response)")
            #expect(!response.contains("swift-tools-version"))
            #expect(!response.contains("root:"))
        }
        let rebinding = try webTCPRequest(port: port, "GET / HTTP/1.1\r\nHost: attacker.example:\(port)\r\nConnection: close\r\n\r\n")
        #expect(rebinding.hasPrefix("HTTP/1.1 403 Forbidden"))
        // Foreign origins are refused even with the token; the served origin is refused without it
        // (any local program can write that Origin header).
        for (origin, credentials) in [("http://attacker.example", [cookie]), ("http://127.0.0.1:\(port + 1)", [cookie]), ("http://127.0.0.1:\(port)", [])] {
            let handshake = try webTCPRequest(port: port, ([
                "GET /__gbgbridge/socket HTTP/1.1", "Host: 127.0.0.1:\(port)", "Upgrade: websocket", "Connection: Upgrade",
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13", "Origin: \(origin)",
            ] + credentials + ["", ""]).joined(separator: "\r\n"))
            #expect(handshake.hasPrefix("HTTP/1.1 403 Forbidden"), "\(origin): \(handshake)")
        }
        let session = try InspectorSession(socketPath: socket, subscribe: false, clientName: "browser-journey-tests")
        defer { session.close() }
        let state = try await webSnapshot(session) { _ in true }
        #expect(state.messages.isEmpty, "nothing reached the host")
        host.signal(SIGTERM)
        #expect(await host.waitForExit() == 0)
    }

    @Test("--serve is a clear usage error with --scenario, and a missing directory is reported")
    func usageErrors() async throws {
        let both = try BinaryProcess(["host", "--serve", examplePath("web-journey"), "--scenario", examplePath("scenarios/demo.json")], binary: binary)
        defer { both.kill() }
        #expect(await both.waitForExit() == 64)
        #expect(both.standardError.contains("--scenario and --serve/--allow-origin cannot be used together"))
        let port = try BinaryProcess(["host", "--port", "8080"], binary: binary)
        defer { port.kill() }
        #expect(await port.waitForExit() == 64)
        #expect(port.standardError.contains("--port is for --serve or --allow-origin"))
        let missing = try BinaryProcess(["host", "--serve", "/nonexistent/journey"], binary: binary)
        defer { missing.kill() }
        #expect(await missing.waitForExit() == 64, "a journey directory that is not there is a usage error")
        #expect(missing.standardError.contains("cannot serve /nonexistent/journey: it does not exist"))
        #expect(missing.standardOutput.isEmpty, "nothing is announced when the journey cannot be served")
    }
}
