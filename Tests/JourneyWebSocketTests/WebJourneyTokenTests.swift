import BridgeCore
import Foundation
import TestSupport
import Testing

@testable import JourneyWebSocket

// Issue 11, point 3: the Origin header is only what the client says, so any local program could
// take over the journey. These reproduce that attack and check the token keeps it out.
extension WebJourneyServerTests {
    @Test("a forged-Origin WebSocket without the token is refused; the attached page keeps the journey and the intruder gets nothing")
    func forgedOriginWithoutToken() async throws {
        let server = try await start()
        let port = server.port
        let origin = "http://127.0.0.1:\(port)"
        let page = try await TestPage.connect(port: port, origin: origin, token: server.token.value)
        #expect(await eventually { host.isJourneyAttached && log.attached.count == 1 })
        host.send(event: "host.ping", data: ["n": 1])
        #expect(await page.waitFor { $0.count == 1 })

        // A local program that writes the served origin: no token, a wrong cookie, a wrong query token.
        await #expect(throws: HandshakeRefused(status: 403)) {
            _ = try await TestPage.connect(port: port, origin: origin, token: nil)
        }
        await #expect(throws: HandshakeRefused(status: 403)) {
            _ = try await TestPage.connect(port: port, origin: origin, token: String(server.token.value.reversed()))
        }
        await #expect(throws: HandshakeRefused(status: 403)) {
            _ = try await TestPage.connect(port: port, origin: origin, token: "short", tokenInQuery: true)
        }
        let raw = try await http(port: port, handshakeRequest(port: port, origin: origin))
        #expect(raw.status == 403)
        #expect(raw.body.contains("carries no token of this host: open the URL `bridge-inspector host` printed"))
        #expect(!raw.body.contains("GBGBridge.receive"))
        #expect(!raw.body.contains(server.token.value))

        // Nothing changed for the page that has the journey: not closed, not superseded, still fed.
        #expect(await eventually { log.refusals.count == 4 })
        #expect(log.attached.count == 1)
        #expect(log.notices.allSatisfy { if case .superseded = $0 { return false } else { return true } })
        #expect(server.connectedPages.map(\.id) == [1])
        #expect(!page.isClosed)
        host.send(event: "host.ping", data: ["n": 2])
        #expect(await page.waitFor { $0.count == 2 })
        #expect(page.texts.allSatisfy { $0.hasPrefix("window.GBGBridge.receive(") })
        #expect(log.refusals.allSatisfy { !$0.contains(server.token.value) }, "the token never reaches a notice")
        #expect(log.refusals.allSatisfy { $0.hasPrefix("WebSocket refused: ") })
        await page.close()
        await server.stop()
    }

    @Test("HTTP requests without the token, or with a wrong one, get 403 saying to open the printed URL; the URL sets the cookie")
    func httpNeedsToken() async throws {
        let server = try await start()
        let port = server.port
        let token = server.token.value
        #expect(token.count == 43, "256 bits in base64url")
        #expect(token.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" })
        #expect(server.journeyURL == "http://127.0.0.1:\(port)/?token=\(token)")
        let other = try await start()
        #expect(other.token.value != token, "every run has its own token")
        await other.stop()

        for (request, says) in [
            (getRequest("/", port: port), "carries no token of this host"),
            (getRequest("/js/app.js", port: port), "carries no token of this host"),
            (getRequest("/__gbgbridge/bootstrap.js", port: port), "carries no token of this host"),
            (getRequest("/", port: port, token: String(token.reversed())), "carries a token that is not this host's"),
            (getRequest("/?token=wrong", port: port), "carries a token that is not this host's"),
            (getRequest("/", port: port, extra: ["Cookie: gbgbridge_\(port + 1)=\(token)"]), "carries no token of this host"),
        ] {
            let response = try await http(port: port, request)
            #expect(response.status == 403, "\(request)")
            #expect(response.body.contains(says), "\(response.body)")
            #expect(response.body.contains("open the URL `bridge-inspector host` printed when it started (http://127.0.0.1:\(port)/?token=...)"))
            #expect(!response.body.contains("pageScript"))
            #expect(!response.body.contains(token))
        }

        // The printed URL: the browser gets the cookie and goes on to the same address without the token.
        let landing = try await http(port: port, getRequest("/?token=\(token)", port: port))
        #expect(landing.status == 200)
        #expect(landing.header("Set-Cookie") == "gbgbridge_\(port)=\(token); Path=/; HttpOnly; SameSite=Strict")
        #expect(landing.body.contains(#"location.replace("/");"#))
        #expect(!landing.body.contains(token))
        let deeper = try await http(port: port, getRequest("/js/app.js?x=1&token=\(token)&y=%22", port: port))
        #expect(deeper.body.contains(#"location.replace("/js/app.js?x=1&y=%22");"#))
        #expect(deeper.body.contains(#"url=/js/app.js?x=1&amp;y=%22""#))
        let elsewhere = try await http(port: port, getRequest("//evil.example/?token=\(token)", port: port))
        #expect(elsewhere.body.contains(#"location.replace("/");"#), "never a redirect to another site")
        let quoted = try await http(port: port, getRequest("/it's?token=\(token)", port: port))
        #expect(quoted.body.contains(#"location.replace("/it%27s");"#))

        // With the cookie, everything is served as before.
        let page = try await http(port: port, getRequest("/", port: port, token: token))
        #expect(page.status == 200)
        #expect(page.body.contains("window.pageScript"))
        #expect(await eventually { log.refusals.count == 6 })
        #expect(log.refusals.allSatisfy { !$0.contains(token) })
        await server.stop()
    }

    @Test("the token is compared whole: prefixes, longer strings and empty values do not match")
    func tokenComparison() {
        let token = AccessToken(value: "abcDEF-_123")
        #expect(token.matches("abcDEF-_123"))
        #expect(!token.matches("abcDEF-_12"))
        #expect(!token.matches("abcDEF-_1234"))
        #expect(!token.matches(""))
        #expect(!token.matches("abcDEF-_124"))
        #expect(AccessToken.removingQueryToken(from: "/a?token=x") == "/a")
        #expect(AccessToken.removingQueryToken(from: "/a?b=1&token=x&c=2") == "/a?b=1&c=2")
        #expect(AccessToken.queryTokens(in: "/s?page=%2F&token=t1#token=t2") == ["t1"])
    }
}
