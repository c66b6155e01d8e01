import Foundation
import GBGBridgeInspector
import TestSupport
import Testing

/// `PageInterceptScript` run in node with a stand-in for WebKit's page surface: a
/// `UserMessageHandler` class whose `postMessage` records what reaches each handler, and timers
/// the test fires by hand (time is an input). What the script must do, whatever the adapter does:
/// keep the journey's order, never stall it, and touch nothing but the journey's own posts.
@Suite("Page intercept script (node)", .enabled(if: nodePath != nil, "node is not installed (apt-get install nodejs): this test cannot run here"))
struct PageInterceptScriptNodeTests {
    /// Runs the script, then `steps` (JavaScript using `journeyPost(value)`, `reports()`,
    /// `verdict(...)`, `fire(ms)`, `page()`), and returns what it prints as JSON.
    private func run(_ steps: String, userMessageHandler: Bool = true) throws -> [String: Any] {
        let node = try #require(nodePath)
        let program = """
            var posted = { gbgBridge: [], gbgBridgeInspector: [], other: [] };
            var timers = [], now = 0;
            function setTimeout(f, ms) { timers.push({ f: f, at: now + ms, live: true }); return timers.length; }
            function clearTimeout(id) { if (id && timers[id - 1]) { timers[id - 1].live = false; } }
            function fire(ms) { now += ms; timers.forEach(function (t) { if (t.live && t.at <= now) { t.live = false; t.f(); } }); }
            function UserMessageHandler(name) { this.name = name; }
            UserMessageHandler.prototype.postMessage = function (m) { posted[this.name].push(m); };
            var handlers = { gbgBridge: new UserMessageHandler("gbgBridge"), gbgBridgeInspector: new UserMessageHandler("gbgBridgeInspector"),
              other: new UserMessageHandler("other") };
            var received = [];
            var window = { webkit: { messageHandlers: handlers }, GBGBridge: { receive: function (m) { received.push(m); } } };
            window.top = window;
            \(userMessageHandler ? "window.UserMessageHandler = UserMessageHandler;" : "")
            (function (window, setTimeout, clearTimeout) { eval(\(String(decoding: try JSONEncoder().encode(PageInterceptScript.source), as: UTF8.self))); })(window, setTimeout, clearTimeout);
            function journeyPost(value) { window.webkit.messageHandlers.gbgBridge.postMessage(value); }
            var delivered = [];
            function deliverySeen(message) { return window.\(PageInterceptScript.entryPoint).askSent(message, function (m) { delivered.push(m); }); }
            function reports() { return posted.gbgBridgeInspector.map(function (r) { return JSON.parse(r); }); }
            function page() { return window.\(PageInterceptScript.entryPoint).page; }
            function run(script) { (function (window) { eval(script); })(window); }
            function verdict(id, what, json, seconds) {
              return window.\(PageInterceptScript.entryPoint).decide(page(), id, what, json === undefined ? null : json, seconds || 0);
            }
            function switchTo(on) { window.\(PageInterceptScript.entryPoint).set(on); }
            var out = {};
            \(steps)
            out.bridge = posted.gbgBridge;
            out.other = posted.other;
            out.received = received;
            out.delivered = delivered;
            process.stdout.write(JSON.stringify(out));
            """
        let result = try SpawnedProcess.run([node, "-e", program], timeout: 120)
        #expect(result.status == 0, "\(result.errors)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any], "\(result.output) \(result.errors)")
    }

    @Test("a new page asks first; switched off, what waited goes on in order and later posts go straight through")
    func asksUntilSwitched() throws {
        let out = try run("""
            journeyPost({ n: 1 }); journeyPost("two");
            out.reported = reports().map(function (r) { return [r.kind, r.id, r.json]; });
            out.before = posted.gbgBridge.length;
            switchTo(false);
            journeyPost({ n: 3 });
            """)
        #expect(out["reported"] as? [[String]] == [["intercept", "1", #"{"n":1}"#], ["intercept", "2", "two"]])
        #expect(out["before"] as? Int == 0, "nothing reached gbgBridge while asking")
        #expect((out["bridge"] as? [Any])?.count == 3)
        #expect(((out["bridge"] as? [Any])?[1] as? String) == "two")
    }

    @Test("verdicts keep the journey's order: a held message lets later ones pass; release, edit, drop and answer do what they say")
    func verdicts() throws {
        let out = try run("""
            journeyPost({ id: "a" }); journeyPost({ id: "b" }); journeyPost({ id: "c" }); journeyPost({ id: "d" }); journeyPost({ id: "e" });
            verdict(2, "pass");
            out.afterPassOfSecond = posted.gbgBridge.length;
            verdict(1, "hold", undefined, 60);
            out.afterHoldOfFirst = posted.gbgBridge.map(function (m) { return m.id; });
            verdict(3, "hold", undefined, 60); verdict(4, "hold", undefined, 60); verdict(5, "drop");
            verdict(1, "release");
            verdict(3, "release", JSON.stringify({ id: "c", edited: true }));
            verdict(4, "answer", JSON.stringify({ type: "response", correlationId: "d" }));
            out.again = verdict(1, "release");
            """)
        #expect(out["afterPassOfSecond"] as? Int == 0, "b waits behind a, which is still asked about")
        #expect(out["afterHoldOfFirst"] as? [String] == ["b"], "a held lets b go on")
        let bridge = try #require(out["bridge"] as? [[String: Any]])
        #expect(bridge.map { $0["id"] as? String } == ["b", "a", "c"])
        #expect(bridge.last?["edited"] as? Bool == true)
        #expect((out["received"] as? [[String: Any]])?.first?["correlationId"] as? String == "d", "the answer went to the journey's receive")
    }

    @Test("nothing stalls the journey: an unanswered ask goes on, a held message goes on after its limit and a grace")
    func neverStalls() throws {
        let out = try run("""
            journeyPost({ id: "asked" });
            fire(\(PageInterceptScript.askMilliseconds - 1)); out.early = posted.gbgBridge.length;
            fire(1); out.asked = posted.gbgBridge.length;
            journeyPost({ id: "held" });
            verdict(2, "hold", undefined, 10);
            fire(10000 + \(PageInterceptScript.graceMilliseconds) - 1); out.beforeGrace = posted.gbgBridge.length;
            fire(1);
            """)
        #expect(out["early"] as? Int == 0)
        #expect(out["asked"] as? Int == 1)
        #expect(out["beforeGrace"] as? Int == 1)
        #expect((out["bridge"] as? [Any])?.count == 2)
    }

    @Test("switching off lets held messages go at once; other handlers and other pages' verdicts are left alone")
    func switchOffAndBoundaries() throws {
        let out = try run("""
            window.webkit.messageHandlers.other.postMessage("not the bridge");
            journeyPost({ id: "x" }); verdict(1, "hold", undefined, 600);
            out.wrongPage = window.\(PageInterceptScript.entryPoint).decide("another-page", 1, "drop", undefined, 0);
            switchTo(false);
            """)
        #expect(out["other"] as? [String] == ["not the bridge"])
        #expect(out["wrongPage"] as? Bool == false)
        #expect((out["bridge"] as? [[String: Any]])?.first?["id"] as? String == "x")
    }

    @Test("without WebKit's UserMessageHandler (host --serve's shim) nothing is wrapped: the shim hands posts over with askReceived")
    func noUserMessageHandler() throws {
        let out = try run("""
            journeyPost({ id: "straight" });
            var shimPosted = [];
            out.held = window.\(PageInterceptScript.entryPoint).askReceived({ id: "asked" }, function (m) { shimPosted.push(m.id); });
            out.reported = reports().map(function (r) { return r.direction + " " + r.json; });
            verdict(1, "pass");
            out.shim = shimPosted;
            """, userMessageHandler: false)
        #expect((out["bridge"] as? [Any])?.count == 1, "the journey's own post was not wrapped")
        #expect(out["held"] as? Bool == true)
        #expect(out["reported"] as? [String] == [#"received {"id":"asked"}"#], "reports go through the report handler's own postMessage")
        #expect(out["shim"] as? [String] == ["asked"])
    }

    @Test("the adapter's commands, evaluated as scripts, call the entry point with their arguments")
    func commandScripts() throws {
        let node = try #require(nodePath)
        let commands: [PageInterceptCommand] = [
            .setHolding(true), .decide(page: "p-1", id: 7, verdict: .release, json: Data(#"{"a":"</script>\u2028"}"#.utf8), seconds: nil),
            .decide(page: "p-1", id: 8, verdict: .hold, seconds: 60),
        ]
        let scripts = String(decoding: try JSONEncoder().encode(commands.map(\.script)), as: UTF8.self)
        let program = """
            var calls = [];
            var window = { \(PageInterceptScript.entryPoint): { set: function () { calls.push(["set"].concat([].slice.call(arguments))); },
              decide: function () { calls.push(["decide"].concat([].slice.call(arguments))); } } };
            \(scripts).forEach(function (script) { (function (window) { eval(script); })(window); });
            process.stdout.write(JSON.stringify(calls));
            """
        let result = try SpawnedProcess.run([node, "-e", program], timeout: 120)
        #expect(result.status == 0, "\(result.errors)")
        let calls = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[Any]])
        #expect(calls.count == 3)
        #expect(calls[0].first as? String == "set" && calls[0].last as? Bool == true)
        #expect(calls[1].count == 6)
        #expect(calls[1][1] as? String == "p-1" && calls[1][2] as? Int == 7 && calls[1][3] as? String == "release")
        #expect(calls[1][4] as? String == #"{"a":"</script>\u2028"}"#, "the edited message arrives as its text")
        #expect(calls[2][3] as? String == "hold" && calls[2][5] as? Int == 60)
        #expect(commands.allSatisfy { !$0.script.contains("</script>") })
    }

    @Test("deliveries wait before the journey's receive in a queue of their own; release (edited), drop; an answer is never held again")
    func sentDirection() throws {
        let out = try run("""
            switchTo(true);
            journeyPost({ id: "request" });
            out.asked = deliverySeen({ id: "one" });
            deliverySeen({ id: "two" }); deliverySeen({ id: "three" });
            out.kinds = reports().map(function (r) { return r.direction + " " + r.id; });
            verdict(2, "pass");
            out.afterFirst = delivered.map(function (m) { return m.id; });
            verdict(3, "hold", undefined, 60); verdict(4, "drop");
            verdict(3, "release", JSON.stringify({ id: "two", edited: true }));
            verdict(1, "hold", undefined, 60);
            verdict(1, "answer", JSON.stringify({ type: "response", correlationId: "request" }));
            switchTo(false);
            out.off = deliverySeen({ id: "after" });
            """)
        #expect(out["asked"] as? Bool == true)
        #expect(out["kinds"] as? [String] == ["received 1", "sent 2", "sent 3", "sent 4"])
        #expect(out["afterFirst"] as? [String] == ["one"], "the sent queue does not wait for the journey's post")
        let delivered = try #require(out["delivered"] as? [[String: Any]])
        #expect(delivered.map { $0["id"] as? String } == ["one", "two"])
        #expect(delivered.last?["edited"] as? Bool == true)
        #expect((out["received"] as? [[String: Any]])?.count == 1, "the answer reached the journey's receive once, not held again")
        #expect(out["off"] as? Bool == false, "switched off, deliveries are not asked about")
    }
}
