import BridgeCore
import Testing

@testable import JourneyWebSocket

/// The bootstrap goes in at document start, before any of the page's own scripts, like a
/// `WKUserScript` injected `.atDocumentStart`.
@Suite("Bootstrap injection")
struct BootstrapInjectionTests {
    let tag = BootstrapInjection.element

    func inject(_ html: String) -> String {
        String(decoding: BootstrapInjection.inject(into: Array(html.utf8)), as: UTF8.self)
    }

    @Test("after <head> in an ordinary page, so it precedes the page's first script")
    func ordinaryPage() {
        let page = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<script>first()</script></head><body></body></html>"
        let result = inject(page)
        #expect(result == "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\(tag)\n<script>first()</script></head><body></body></html>")
    }

    @Test("attributes with > inside quotes, upper case, comments and a byte-order mark are handled")
    func awkwardPages() {
        #expect(inject("\u{FEFF}<!-- hi --><!doctype html><HTML data-x=\"a>b\"><!-- c --><HEAD id='h>'>x")
            == "\u{FEFF}<!-- hi --><!doctype html><HTML data-x=\"a>b\"><!-- c --><HEAD id='h>'>\(tag)x")
        #expect(inject("<html><body><script>x()</script>") == "<html>\(tag)<body><script>x()</script>")
        #expect(inject("<script>x()</script>") == "\(tag)<script>x()</script>")
        #expect(inject("") == tag)
        #expect(inject("<!doctype html><meta charset=utf-8><script>x()</script>") == "<!doctype html>\(tag)<meta charset=utf-8><script>x()</script>")
        // A tag that only starts with "head" is not <head>.
        #expect(inject("<html><header>") == "<html>\(tag)<header>")
    }

    @Test("the element loads the bootstrap from the fixed path")
    func element() {
        #expect(tag == "<script src=\"/__gbgbridge/bootstrap.js\"></script>")
    }

    @Test("the served script contains the documented bootstrap, top-frame only, and the delivery function")
    func script() {
        let script = BrowserBootstrap.script()
        #expect(script.hasPrefix("/* GBGBridge for web journeys"))
        #expect(script.contains("if (window.top === window) {"))
        #expect(script.contains(BridgeConfiguration.defaultBootstrapScript))
        #expect(script.contains("var PREFIX = \"window.GBGBridge.receive(\";"))
        #expect(script.contains("\"/__gbgbridge/socket\""))
        #expect(script.hasSuffix("\n}\n"))
        let custom = BrowserBootstrap.script(bootstrapScript: "window.GBGBridge = {config: 1};")
        #expect(custom.contains("window.GBGBridge = {config: 1};"))
        #expect(!custom.contains(BridgeConfiguration.defaultBootstrapScript))
    }
}

/// Who may connect: the served origin only, unless another is allowed; requests must name this server.
@Suite("Request policy")
struct RequestPolicyTests {
    @Test("origins are normalized the way browsers send them")
    func normalizedOrigins() {
        #expect(WebJourneyConfiguration.normalizedOrigin("http://localhost:5173") == "http://localhost:5173")
        #expect(WebJourneyConfiguration.normalizedOrigin("HTTP://LocalHost:5173/") == "http://localhost:5173")
        #expect(WebJourneyConfiguration.normalizedOrigin("https://dev.example:443") == "https://dev.example")
        #expect(WebJourneyConfiguration.normalizedOrigin("http://127.0.0.1:80") == "http://127.0.0.1")
        #expect(WebJourneyConfiguration.normalizedOrigin("http://[::1]:8080") == "http://[::1]:8080")
        #expect(WebJourneyConfiguration.normalizedOrigin("http://localhost:5173/app") == nil)
        #expect(WebJourneyConfiguration.normalizedOrigin("file://x") == nil)
        #expect(WebJourneyConfiguration.normalizedOrigin("null") == nil)
        #expect(WebJourneyConfiguration.normalizedOrigin("http://") == nil)
        #expect(WebJourneyConfiguration.normalizedOrigin("http://host:99999") == nil)
    }

    @Test("untrusted text is made printable")
    func printable() {
        #expect(RequestPolicy.printable("a\u{1B}[31mb\u{202E}") == "a?[31mb?")
        #expect(RequestPolicy.printable(String(repeating: "x", count: 300)).count == 203)
    }
}
