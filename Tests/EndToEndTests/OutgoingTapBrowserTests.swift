import BridgeCore
import Foundation
import GBGBridgeInspector
import TestSupport
import Testing

/// The outgoing tap in headless Chromium, set up as a WKWebView with GBGBridge would set it up:
/// the message handler exists before any script (a stub that collects posts), then GBGBridge's
/// documented bootstrap, a script that puts a journey function in `receive` before the tap runs,
/// and the tap, all at document start (DevTools `Page.addScriptToEvaluateOnNewDocument`, which
/// runs again on every load, like a `WKUserScript`). Messages are delivered as the host delivers
/// them (gbgbridge-facts.md, "Messages": `evaluateJavaScript` calling
/// `window.GBGBridge.receive(...)`, here through `JavaScriptDelivery.script(forMessageJSON:)`).
///
/// Without Chromium the test fails under CI (CI=true) and is skipped, with the reason, elsewhere.
@Suite("Outgoing tap in a browser", .serialized)
struct OutgoingTapBrowserTests {
    /// Stands in for WebKit's `window.webkit.messageHandlers.gbgBridgeInspector`.
    static let handlerStub = """
        (function () {
          var posts = [];
          Object.defineProperty(window, "__tapPosts", { value: posts });
          window.webkit = { messageHandlers: { \(OutgoingTapScript.handlerName): { postMessage: function (body) { posts.push(body); } } } };
        })();
        """

    /// A journey function already in `receive` when the tap runs.
    static let earlyReceive = """
        window.GBGBridge.receive = function early(message) { (window.__early = window.__early || []).push(message); return "early"; };
        """

    /// The journey page: reads what was in `receive` before it, calls it once, then assigns its own.
    static let journeyPage = """
        <!doctype html><html><head><script>
        var journey = window.journey = { got: [] };
        var before = window.GBGBridge.receive;
        journey.early = before({ phase: "early" });
        window.GBGBridge.receive = function journeyReceive(message) {
          journey.got.push(message);
          if (message && message.payload && message.payload.action === "journey.throw") {
            throw new Error("journey rejected " + message.correlationId);
          }
          return "handled";
        };
        journey.stableReadBack = window.GBGBridge.receive === window.GBGBridge.receive && window.GBGBridge.receive.name === "journeyReceive";
        </script></head><body>journey</body></html>
        """

    /// One message as a GBGBridge host sends it, with `data` as JSON text.
    static func message(_ id: String, _ action: String, data: String) -> String {
        #"{"version":"1.0","correlationId":"\#(id)","type":"response","timestamp":1732400000000,"payload":{"action":"\#(action)","status":"success","data":\#(data)}}"#
    }

    /// Hostile payloads, by name; the second value says whether the host's JSON means exactly what
    /// the page got (false where JavaScript itself changes it: see the checks below).
    static var hostilePayloads: [(String, String, Bool)] {
        let deep = String(repeating: #"{"d":["#, count: 100) + "0" + String(repeating: "]}", count: 100)
        let large = String(repeating: "ab\u{20AC}\u{1F600}\\n", count: 25_000)
        return [
            ("separators", "{\"text\":\"line\u{2028}sep\u{2029}end\"}", true),
            ("lone surrogates", #"{"lone":"\ud800 and \udfff","pair":"\ud83d\ude00"}"#, false),
            ("script end", #"{"html":"</script><!-- <script>alert(1)</script> -->"}"#, true),
            ("deep nesting", deep, true),
            ("large string", #"{"big":""# + large + #""}"#, true),
            ("proto keys", #"{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}"#, false),
            ("numbers", #"{"n":1.5e300,"neg":-0,"int":9007199254740993,"small":5e-324}"#, true),
            ("escapes", #"{"q":"\"\\\/\b\f\n\r\t\u0000\u001f"}"#, true),
        ]
    }

    @Test(
        "every delivery is reported once, exactly, and the journey gets the very same object; also on a replaced namespace and after a reload",
        .requires(.chromium))
    func outgoingTap() async throws {
        let executable = try ExternalTool.chromium.require()
        let directory = try TemporaryDirectory()
        let browser = try HeadlessChromium(executable: executable, directory: directory)
        defer { browser.close() }
        let tab = try await browser.openPage()
        for script in [Self.handlerStub, BridgeConfiguration.defaultBootstrapScript, Self.earlyReceive, OutgoingTapScript.source] {
            try await browser.addScriptOnNewDocument(tab, script)
        }
        let url = "data:text/html;charset=utf-8," + (Self.journeyPage.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        try await browser.navigate(tab, to: url)

        #expect(try await browser.evaluate(tab, "journey.early") as? String == "early", "the function assigned before the tap ran was called")
        #expect(try await browser.evaluate(tab, "window.__early.length") as? Int == 1)
        #expect(try await browser.evaluate(tab, "journey.stableReadBack") as? Bool == true)

        // 1. Hostile payloads, delivered exactly as the host delivers them.
        var hostJSON: [String] = []
        for (index, (name, data, _)) in Self.hostilePayloads.enumerated() {
            let json = Self.message("m\(index)", "payload.\(name.replacingOccurrences(of: " ", with: "-"))", data: data)
            hostJSON.append(json)
            let result = try await browser.evaluate(tab, JavaScriptDelivery.script(forMessageJSON: Data(json.utf8)))
            #expect(result as? String == "handled", "\(name)")
        }

        // 2. Identity: the delivery keeps a handle on the object it passes and compares.
        for (id, action) in [("same", "identity.check"), ("same-throw", "journey.throw")] {
            let expression = JavaScriptDelivery.escapedExpression(Data(Self.message(id, action, data: #"{"k":"v"}"#).utf8))
            let outcome = try await browser.evaluate(tab, """
                (function () {
                  var sent = \(expression);
                  var outcome;
                  try { outcome = window.GBGBridge.receive(sent); } catch (error) { outcome = "threw: " + error.message; }
                  return JSON.stringify({ same: journey.got[journey.got.length - 1] === sent, outcome: outcome });
                })()
                """) as? String
            let expected = action == "journey.throw" ? "threw: journey rejected \(id)" : "handled"
            #expect(outcome == #"{"same":true,"outcome":"\#(expected)"}"#)
        }

        // 3. A throw from the journey's receive reaches the host's evaluate unchanged.
        do {
            _ = try await browser.evaluate(tab, JavaScriptDelivery.script(forMessageJSON: Data(Self.message("host-throw", "journey.throw", data: "{}").utf8)))
            Issue.record("the journey's exception did not reach the delivery")
        } catch let error as HeadlessChromium.ProtocolError {
            #expect(error.description.contains("the page threw"), "\(error)")
        }

        // 4. Values JSON cannot carry (only the page itself can pass them): marked, and the journey
        //    still gets them.
        let unreportable = try await browser.evaluate(tab, """
            (function () {
              var cyclic = { a: 1 }; cyclic.self = cyclic;
              var hostile = { toJSON: function () { throw new Error("no"); } };
              return [window.GBGBridge.receive(cyclic), window.GBGBridge.receive(hostile),
                journey.got[journey.got.length - 2] === cyclic && journey.got[journey.got.length - 1] === hostile].join(",");
            })()
            """) as? String
        #expect(unreportable == "handled,handled,true")

        // 5. The journey replaces window.GBGBridge itself.
        _ = try await browser.evaluate(tab, "window.GBGBridge = { receive: function replaced(m) { journey.got.push(m); return 'replaced'; } }; 0")
        let replacedJSON = Self.message("after-replace", "host.ping", data: "{}")
        #expect(try await browser.evaluate(tab, JavaScriptDelivery.script(forMessageJSON: Data(replacedJSON.utf8))) as? String == "replaced")

        // What was reported, decoded by the Swift side, against what the journey got.
        let reports = try await posts(browser, tab)
        // page, early, the hostile payloads, 2 identity checks, the host's throw, 2 unreportable, the replaced namespace.
        guard reports.count == 2 + Self.hostilePayloads.count + 6 else {
            Issue.record("\(reports.count) reports: \(reports.map { "\($0)".prefix(120) })")
            return
        }
        #expect(reports[0] == .page(url: url))
        #expect(reports[1] == .sent(json: #"{"phase":"early"}"#))
        let journeySaw = try #require(try await browser.evaluate(tab, """
            JSON.stringify(journey.got.map(function (m) { try { return JSON.stringify(m); } catch (error) { return null; } }))
            """) as? String)
        let expected = try #require(try JSONSerialization.jsonObject(with: Data(journeySaw.utf8)) as? [Any]).map { $0 as? String }
        let reported = reports.dropFirst(2).map { report -> String? in
            if case .sent(let json) = report { return json }
            return nil
        }
        #expect(reported == expected, "each report is byte-equal to JSON.stringify of what the journey got")
        #expect(reports.filter { if case .unreportable = $0 { return true } else { return false } }.count == 2)
        for (index, (name, _, meansTheSame)) in Self.hostilePayloads.enumerated() where meansTheSame {
            let sent = reported[index].flatMap { JSONParser.parse(Array($0.utf8), maxDepth: 256) }
            #expect(sent != nil && sent == JSONParser.parse(Array(hostJSON[index].utf8), maxDepth: 256), "\(name): the host's JSON and the report mean the same")
        }
        // The lone surrogates arrive as the escapes JSON.stringify writes, so the report is well-formed.
        #expect(reported[1]?.contains(#""lone":"\ud800 and \udfff""#) == true)
        #expect(reported.last == replacedJSON)

        // 6. After a reload the scripts run again on the new page: a fresh tap, the journey's new
        //    function, one report per delivery.
        try await browser.reload(tab)
        let ready = JavaScriptDelivery.script(forMessageJSON: Data(Self.message("reloaded", "host.ready", data: #"{"version":"1.0.0"}"#).utf8))
        #expect(try await browser.evaluate(tab, ready) as? String == "handled")
        #expect(try await browser.evaluate(tab, "journey.got.length") as? Int == 1)
        let afterReload = try await posts(browser, tab)
        #expect(afterReload == [
            .page(url: url), .sent(json: #"{"phase":"early"}"#), .sent(json: Self.message("reloaded", "host.ready", data: #"{"version":"1.0.0"}"#)),
        ])
    }

    /// The page's posts so far, decoded as the WebKit glue decodes them.
    private func posts(_ browser: HeadlessChromium, _ tab: String) async throws -> [OutgoingTapReport] {
        let text = try #require(try await browser.evaluate(tab, "JSON.stringify(window.__tapPosts)") as? String)
        let bodies = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any])
        return bodies.map { OutgoingTapReport(body: $0) }
    }
}

extension HeadlessChromium {
    /// Adds `source` to run at document start in every later document of the page, in the order
    /// added, as a WKUserScript does (`Page.addScriptToEvaluateOnNewDocument`).
    func addScriptOnNewDocument(_ session: String, _ source: String) async throws {
        let work = ScriptingHandOver((self, session, source))
        _ = try await onThread { () -> Bool in
            try work.value.0.call("Page.addScriptToEvaluateOnNewDocument", ["source": work.value.2], session: work.value.1)
            return true
        }
    }
}
