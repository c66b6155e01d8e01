import BridgeCore
import Foundation
import TestSupport
import Testing

@testable import JourneyWebSocket

/// Notices the server gave, in order.
@MainActor
final class NoticeLog {
    var notices: [WebJourneyNotice] = []

    var attached: [WebPage] { notices.compactMap { if case .attached(let page) = $0 { return page } else { return nil } } }
    var detached: [(WebPage, [BridgeMessage])] {
        notices.compactMap { if case .detached(let page, let pending) = $0 { return (page, pending) } else { return nil } }
    }
    var refusals: [String] { notices.compactMap { if case .refused(let text) = $0 { return text } else { return nil } } }
    var protocolErrors: [String] { notices.compactMap { if case .protocolError(_, let text) = $0 { return text } else { return nil } } }
}

/// Input the host could not decode, in order.
@MainActor
final class MalformedLog {
    var inputs: [MalformedInput] = []
}

/// `rawHTTP` off the main actor.
func http(port: Int, _ request: String) async throws -> RawResponse {
    try await Task.detached { try rawHTTP(port: port, request) }.value
}

/// The server in this process, driven by a raw HTTP client and by SwiftNIO WebSocket clients
/// standing in for pages.
@Suite("Web journey server", .serialized)
@MainActor
struct WebJourneyServerTests {
    let sandbox: Sandbox
    let host: BridgeHost
    let log = NoticeLog()

    init() throws {
        sandbox = try Sandbox()
        host = BridgeHost(hostVersion: "9.9.9")
    }

    func start(
        directory: Bool = true, origins: [String] = [], requestTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(60)
    ) async throws -> WebJourneyServer {
        let log = log
        return try await WebJourneyServer.start(
            host: host,
            configuration: WebJourneyConfiguration(
                servedDirectory: directory ? sandbox.served : nil, allowedOrigins: origins,
                requestTimeout: requestTimeout, idleTimeout: idleTimeout)
        ) { notice in log.notices.append(notice) }
    }

    // MARK: Files

    @Test("HTML pages get the bootstrap at document start; frames, scripts and the bootstrap itself are served as they are")
    func serving() async throws {
        let server = try await start()
        let port = server.port
        #expect(server.url == "http://127.0.0.1:\(port)/")

        let page = try await http(port: port, getRequest("/", port: port, token: server.token.value))
        #expect(page.status == 200)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.header("Cache-Control") == "no-store")
        #expect(page.body.hasPrefix("<!doctype html><html><head><script src=\"/__gbgbridge/bootstrap.js\"></script><title>"))
        let bootstrapAt = try #require(page.body.range(of: "/__gbgbridge/bootstrap.js"))
        let pageScriptAt = try #require(page.body.range(of: "window.pageScript"))
        #expect(bootstrapAt.lowerBound < pageScriptAt.lowerBound)

        let localhost = try await http(port: port, getRequest("/index.html", port: port, token: server.token.value, host: "localhost:\(port)", extra: ["Sec-Fetch-Dest: document"]))
        #expect(localhost.body.contains("/__gbgbridge/bootstrap.js"))

        // A frame gets the page without the bridge (forMainFrameOnly).
        let framed = try await http(port: port, getRequest("/index.html", port: port, token: server.token.value, extra: ["Sec-Fetch-Dest: iframe"]))
        #expect(framed.status == 200)
        #expect(!framed.body.contains("__gbgbridge"))

        let script = try await http(port: port, getRequest("/js/app.js", port: port, token: server.token.value))
        #expect(script.body == "window.app = 1;")
        #expect(script.header("Content-Type") == "text/javascript; charset=utf-8")

        let bootstrap = try await http(port: port, getRequest("/__gbgbridge/bootstrap.js", port: port, token: server.token.value))
        #expect(bootstrap.status == 200)
        #expect(bootstrap.body == BrowserBootstrap.script(bootstrapScript: BridgeConfiguration.defaultBootstrapScript))

        let redirect = try await http(port: port, getRequest("/js?x=1", port: port, token: server.token.value))
        #expect(redirect.status == 301)
        #expect(redirect.header("Location") == "/js/?x=1")

        let head = try await http(port: port, "HEAD /js/app.js HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(cookieHeader(port: port, token: server.token.value))\r\nConnection: close\r\n\r\n")
        #expect(head.status == 200)
        #expect(head.header("Content-Length") == "15")
        #expect(head.body.isEmpty)

        let post = try await http(port: port, "POST / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(cookieHeader(port: port, token: server.token.value))\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi")
        #expect(post.status == 405)
        await server.stop()
    }

    @Test("paths that leave the served directory are refused and nothing outside is read", arguments: [
        ("/../secret.txt", 403), ("/%2e%2e/secret.txt", 403), ("/%2e%2e%2fsecret.txt", 403), ("/js/..%2f..%2fsecret.txt", 403),
        ("/out-link.txt", 403), ("/out-dir/secret.txt", 403), ("/etc-link/passwd", 403), ("/.env", 404), ("/.git/config", 404),
        ("/%00/secret.txt", 400), ("/..\\secret.txt", 400), ("/%252e%252e/secret.txt", 404),
    ])
    func traversal(path: String, status: Int) async throws {
        let server = try await start()
        let response = try await http(port: server.port, getRequest(path, port: server.port, token: server.token.value))
        #expect(response.status == status, "\(path): \(response.body)")
        #expect(!response.body.contains("TOP SECRET"))
        #expect(!response.body.contains("SECRET=1"))
        #expect(!response.body.contains("root:"))
        if status == 403 {
            #expect(await eventually { !log.refusals.isEmpty })
        }
        await server.stop()
    }

    @Test("requests that name another host are refused (DNS rebinding)")
    func wrongHost() async throws {
        let server = try await start()
        let port = server.port
        for host in ["evil.example:\(port)", "127.0.0.1:\(port + 1)", "evil.example"] {
            let response = try await http(port: port, getRequest("/", port: port, token: server.token.value, host: host))
            #expect(response.status == 403, "Host \(host)")
            #expect(!response.body.contains("pageScript"))
        }
        let missing = try await http(port: port, "GET / HTTP/1.0\r\n\r\n")
        #expect(missing.status == 403)
        await server.stop()
    }

    // MARK: Origins

    @Test("WebSockets from other origins, or without one, are refused; the host stays detached")
    func foreignOrigins() async throws {
        let server = try await start()
        let port = server.port
        for origin in ["http://evil.example", "null", "http://127.0.0.1:\(port + 1)", "https://127.0.0.1:\(port)", nil] as [String?] {
            let response = try await http(port: port, handshakeRequest(port: port, origin: origin, token: server.token.value))
            #expect(response.status == 403, "origin \(origin ?? "none")")
            #expect(response.body.contains("Refused"))
        }
        let wrongHost = try await http(port: port, handshakeRequest(port: port, origin: "http://127.0.0.1:\(port)", host: "evil.example:\(port)"))
        #expect(wrongHost.status == 403)
        #expect(!host.isJourneyAttached)
        #expect(log.attached.isEmpty)
        #expect(await eventually { log.refusals.count >= 5 })
        #expect(log.refusals.contains { $0.contains("origin \"http://evil.example\" may not connect") })

        await #expect(throws: HandshakeRefused(status: 403)) {
            _ = try await TestPage.connect(port: port, origin: "http://evil.example", token: server.token.value)
        }
        // Both served origins may connect.
        for origin in ["http://127.0.0.1:\(port)", "http://localhost:\(port)"] {
            let page = try await TestPage.connect(port: port, origin: origin, token: server.token.value)
            #expect(await eventually { host.isJourneyAttached })
            await page.close()
        }
        await server.stop()
    }

    @Test("an allowed dev-server origin may connect to a host that serves no files")
    func devServerOrigin() async throws {
        let server = try await start(directory: false, origins: ["http://LOCALHOST:5173/"])
        let port = server.port
        let files = try await http(port: port, getRequest("/index.html", port: port, token: server.token.value))
        #expect(files.status == 404)
        #expect(files.body.contains("serves no files"))
        // The dev-server page has no cookie of the host: its script URL carries the token, and so
        // does the socket URL the bootstrap makes from it.
        #expect(server.bootstrapScriptURL == "http://127.0.0.1:\(port)/__gbgbridge/bootstrap.js?token=\(server.token.value)")
        let bootstrap = try await http(port: port, getRequest("/__gbgbridge/bootstrap.js?token=\(server.token.value)", port: port))
        #expect(bootstrap.status == 200)
        #expect(bootstrap.header("Cross-Origin-Resource-Policy") == "cross-origin")
        #expect(bootstrap.header("Set-Cookie") == nil)
        let page = try await TestPage.connect(port: port, origin: "http://localhost:5173", path: "/app", token: server.token.value, tokenInQuery: true)
        #expect(await eventually { log.attached.count == 1 })
        #expect(log.attached.first?.origin == "http://localhost:5173")
        #expect(log.attached.first?.path == "/app")
        await #expect(throws: HandshakeRefused(status: 403)) {
            _ = try await TestPage.connect(port: port, origin: "http://localhost:5174", token: server.token.value, tokenInQuery: true)
        }
        await page.close()
        await server.stop()
    }

    @Test("bad configurations are refused before anything listens")
    func badConfiguration() async throws {
        await #expect(throws: WebJourneyError.invalidOrigin("localhost:5173")) {
            _ = try await WebJourneyServer.start(host: host, configuration: WebJourneyConfiguration(servedDirectory: nil, allowedOrigins: ["localhost:5173"]))
        }
        await #expect(throws: WebJourneyError.invalidPort(70000)) {
            _ = try await WebJourneyServer.start(host: host, configuration: WebJourneyConfiguration(servedDirectory: nil, port: 70000))
        }
        await #expect(throws: WebJourneyError.invalidTimeout(name: "requestTimeout", .zero)) {
            _ = try await WebJourneyServer.start(host: host, configuration: WebJourneyConfiguration(servedDirectory: nil, requestTimeout: .zero))
        }
        #expect(WebJourneyError.invalidTimeout(name: "idleTimeout", .seconds(-1)).description == "idleTimeout is -1.0 seconds: a timeout must be longer than zero")
        await #expect(throws: WebJourneyError.servedDirectory(path: sandbox.base + "/none", problem: "it does not exist")) {
            _ = try await WebJourneyServer.start(host: host, configuration: WebJourneyConfiguration(servedDirectory: sandbox.base + "/none"))
        }
        let first = try await start()
        do {
            _ = try await WebJourneyServer.start(host: host, configuration: WebJourneyConfiguration(servedDirectory: nil, port: first.port))
            Issue.record("a second server bound the same port")
        } catch {
            guard case .cannotListen(let port, _) = error else { Issue.record("unexpected \(error)"); return }
            #expect(port == first.port)
        }
        await first.stop()
    }

    // MARK: The transport

    @Test("posts reach the host in order; host messages arrive as the core's delivery script")
    func messagesBothWays() async throws {
        let server = try await start()
        let page = try await TestPage.connect(port: server.port, origin: "http://127.0.0.1:\(server.port)", token: server.token.value)
        #expect(await eventually { host.isJourneyAttached && log.attached.count == 1 })
        #expect(log.attached.first == WebPage(id: 1, origin: "http://127.0.0.1:\(server.port)", path: "/index.html"))

        for index in 1...50 {
            try await page.post(#"{"version":"1.0","correlationId":"e-\#(index)","type":"event","timestamp":1,"payload":{"action":"journey.step"}}"#)
        }
        try await page.post(#"{"version":"1.0","correlationId":"q-1","type":"request","timestamp":1,"payload":{"action":"capability.query"}}"#)
        #expect(await eventually { host.receivedMessages.count == 51 })
        #expect(host.receivedMessages.map(\.correlationId) == (1...50).map { "e-\($0)" } + ["q-1"])

        // The answer: exactly the script a WKWebView would evaluate.
        #expect(await page.waitFor { $0.count >= 1 })
        let script = try #require(page.texts.first)
        #expect(script.hasPrefix("window.GBGBridge.receive({"))
        #expect(script.hasSuffix("});"))
        let json = try #require(JavaScriptDelivery.messageJSON(fromScript: script))
        #expect(JavaScriptDelivery.script(forMessageJSON: json) == script)
        let response = try JSONSerialization.jsonObject(with: json) as? [String: Any]
        #expect(response?["correlationId"] as? String == "q-1")
        #expect(response?["type"] as? String == "response")
        #expect(((response?["payload"] as? [String: Any])?["data"] as? [String: Any])?["hostVersion"] as? String == "9.9.9")

        // A host event; characters that would break a script are escaped as the core does.
        host.send(event: "host.ping", data: ["text": "</script>\u{2028}"])
        #expect(await page.waitFor { $0.count >= 2 })
        let event = page.texts[1]
        #expect(event.contains(#"\u003c/script>\u2028"#))
        #expect(!event.contains("</script>"))
        await page.close()
        await server.stop()
    }

    @Test("a delivery the page could not run is reported in lastError, as evaluateJavaScript failures are")
    func evaluationFailure() async throws {
        let server = try await start()
        let page = try await TestPage.connect(port: server.port, origin: "http://127.0.0.1:\(server.port)", token: server.token.value)
        #expect(await eventually { host.isJourneyAttached })
        host.send(event: "host.ping")
        #expect(await page.waitFor { $0.count == 1 })
        try await page.send(#"{"kind":"evaluateFailed","seq":1,"error":"TypeError: receive is not a function"}"#)
        #expect(await eventually { host.lastError?.hasPrefix("evaluateJavaScript failed: TypeError: receive is not a function (in page 1) (event 'host.ping', ios-event-") == true })

        try await page.send(#"{"kind":"evaluateFailed","seq":99,"error":"x"}"#)
        try await page.send("not json")
        try await page.send(#"{"kind":"other"}"#)
        #expect(await eventually { log.protocolErrors.count == 3 })
        #expect(!page.isClosed)
        await page.close()
        await server.stop()
    }

    // Security, "Incoming Message Decoding": input that does not decode sets lastError and goes
    // no further. A journey string with a lone surrogate is such input: the shim's
    // JSON.stringify writes it as the escape \ud800, which no JSON parser may accept, and the
    // frame around it must not take the message down with it unseen.
    @Test("a post whose text holds a lone UTF-16 surrogate becomes a malformed row and lastError, not a vanished frame")
    func loneSurrogatePost() async throws {
        let malformed = MalformedLog()
        _ = host.addObserver { change in
            if case .malformed(let input) = change { MainActor.assumeIsolated { malformed.inputs.append(input) } }
        }
        let server = try await start()
        let page = try await TestPage.connect(port: server.port, origin: "http://127.0.0.1:\(server.port)", token: server.token.value)
        #expect(await eventually { host.isJourneyAttached })
        // Exactly the frame the shim sends for postMessage('{"version":…,"data":{"s":"x\uD800y"}}')
        // (JSON.stringify({kind: "post", text}) in node and every browser since 2019).
        try await page.send(#"{"kind":"post","text":"{\"version\":\"1.0\",\"correlationId\":\"s-1\",\"type\":\"event\",\"timestamp\":1,\"payload\":{\"action\":\"journey.step\",\"data\":{\"s\":\"x\ud800y\"}}}"}"#)
        #expect(await eventually { malformed.inputs.count == 1 })
        #expect(host.lastError?.contains(#"lone UTF-16 surrogate '\ud800'"#) == true, "\(host.lastError ?? "nil")")
        #expect(String(decoding: malformed.inputs[0].raw, as: UTF8.self).contains(#""s":"x\ud800y""#))
        #expect(log.protocolErrors.isEmpty)
        // A paired surrogate is text: the message decodes.
        try await page.post(#"{"version":"1.0","correlationId":"s-2","type":"event","timestamp":1,"payload":{"action":"journey.step","data":{"s":"\ud83d\ude00"}}}"#)
        #expect(await eventually { host.receivedMessages.map(\.correlationId) == ["s-2"] })
        #expect(host.receivedMessages.first?.payload.data?["s"] == .string("\u{1F600}"))
        await page.close()
        await server.stop()
    }

    @Test("a page that goes is detached; its pending requests stay pending, and the next page is a fresh context")
    func reload() async throws {
        let server = try await start()
        let origin = "http://127.0.0.1:\(server.port)"
        let first = try await TestPage.connect(port: server.port, origin: origin, token: server.token.value)
        #expect(await eventually { host.isJourneyAttached })
        try await first.post(#"{"version":"1.0","correlationId":"nfc-1","type":"request","timestamp":1,"payload":{"action":"nfc.read"}}"#)
        #expect(await eventually { host.pendingRequests.count == 1 })
        await first.close()

        #expect(await eventually { log.detached.count == 1 })
        #expect(log.detached.first?.0.id == 1)
        #expect(log.detached.first?.1.map(\.correlationId) == ["nfc-1"])
        #expect(!host.isJourneyAttached)
        #expect(host.pendingRequests.map(\.correlationId) == ["nfc-1"])
        host.send(event: "host.ping")
        #expect(host.lastError?.hasPrefix("WebView not attached") == true)

        let second = try await TestPage.connect(port: server.port, origin: origin, token: server.token.value)
        #expect(await eventually { log.attached.map(\.id) == [1, 2] && host.isJourneyAttached })
        // An answer to the first page's request goes to whichever page is attached now.
        try host.respondToPendingRequest("nfc-1", status: .success, data: ["uid": "04A2"])
        #expect(await second.waitFor { $0.count == 1 })
        #expect(second.texts.first?.contains(#""correlationId":"nfc-1""#) == true)
        #expect(host.pendingRequests.isEmpty)
        await second.close()
        await server.stop()
    }

    @Test("a newer page takes over: the older one is closed with 4001 and gets nothing more")
    func superseded() async throws {
        let server = try await start()
        let origin = "http://127.0.0.1:\(server.port)"
        let first = try await TestPage.connect(port: server.port, origin: origin, token: server.token.value)
        #expect(await eventually { log.attached.count == 1 })
        let second = try await TestPage.connect(port: server.port, origin: origin, token: server.token.value)
        #expect(await eventually { log.attached.count == 2 })
        #expect(await first.waitFor { $0.contains { if case .close(4001, _) = $0 { return true } else { return false } } })
        host.send(event: "host.ping")
        #expect(await second.waitFor { $0.count == 1 })
        #expect(first.texts.isEmpty)
        #expect(await eventually { log.detached.map(\.0.id) == [1] })
        #expect(host.isJourneyAttached, "closing the superseded page leaves the newer one attached")
        await second.close()
        await server.stop()
    }

    @Test("binary frames close the connection with 1003")
    func binary() async throws {
        let server = try await start()
        let page = try await TestPage.connect(port: server.port, origin: "http://127.0.0.1:\(server.port)", token: server.token.value)
        try await page.sendBinary([1, 2, 3])
        #expect(await page.waitFor { $0.contains(.close(code: 1003, reason: "the bridge carries text frames only")) })
        #expect(await eventually { !host.isJourneyAttached })
        await page.close()
        await server.stop()
    }

    @Test("stopping closes every page with 1001 and detaches the host")
    func stop() async throws {
        let server = try await start()
        let page = try await TestPage.connect(port: server.port, origin: "http://127.0.0.1:\(server.port)", token: server.token.value)
        #expect(await eventually { host.isJourneyAttached })
        await server.stop()
        #expect(page.received.contains(.close(code: 1001, reason: "the host is shutting down")))
        #expect(!host.isJourneyAttached)
        await page.close()
    }
}

/// Which escapes ``LoneSurrogateEscapes`` neutralises, and which it leaves alone.
@Suite("Lone surrogate escapes")
struct LoneSurrogateEscapesTests {
    func escaped(_ text: String) -> String? {
        LoneSurrogateEscapes.escapingLoneSurrogates(Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("lone high and low surrogate escapes become literal text; pairs, other escapes and escaped backslashes stay")
    func cases() {
        #expect(escaped(#""a\ud800b""#) == #""a\\ud800b""#)
        #expect(escaped(#""\uDC00""#) == #""\\uDC00""#)
        #expect(escaped(#""\ud800\u0041""#) == #""\\ud800\u0041""#)
        #expect(escaped(#""\ude00\ud83d""#) == #""\\ude00\\ud83d""#)
        #expect(escaped(#""\ud83d\ude00""#) == nil)
        #expect(escaped(#""\\ud800""#) == nil)
        #expect(escaped(#""\n\"\u0041""#) == nil)
        #expect(escaped(#""\ud8"#) == nil)
        #expect(escaped(#""x\ud800"#) == #""x\\ud800"#)
    }
}
