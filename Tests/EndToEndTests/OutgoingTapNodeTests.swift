import Foundation
import GBGBridgeInspector
import TestSupport
import Testing

/// The outgoing tap (`OutgoingTapScript.source`) run in node against a stand-in `window`: GBGBridge's
/// documented bootstrap (gbgbridge-facts.md, "Messages": the default bootstrap script; delivery by
/// `window.GBGBridge.receive(...)`), a stub `window.webkit.messageHandlers.gbgBridgeInspector`, and
/// journeys that assign, replace, re-wrap and throw. Quick coverage of the script's logic; the
/// same script runs in a real browser in `OutgoingTapBrowserTests`.
///
/// Each case is a function of the harness below; the test runs one per node process and expects "ok".
@Suite("Outgoing tap script in node")
struct OutgoingTapNodeTests {
    static let cases = [
        "pageMarkerFirst",
        "bootstrapReceiveIsTapped",
        "journeyAssignsAfterInstall",
        "journeyAssignedBeforeInstall",
        "tapBeforeBootstrap",
        "journeyReplacesNamespace",
        "throwPropagatesAndIsReportedOnce",
        "readBackIsStableAndUnwrapped",
        "journeyRewrapsReceive",
        "injectedTwiceIsInjectedOnce",
        "withoutHandlerNothingChanges",
        "inAFrameNothingChanges",
        "throwingHandlerNeverReachesTheJourney",
        "unrepresentableValuesAreMarkedNotThrown",
        "jsonRulesInsideAMessage",
        "overTheLimitIsMarked",
        "frozenNamespaceIsBlindButWorks",
        "pageBuiltinsChangedLater",
        "strictModeJourney",
        "noOpReceiveIsLost",
        "toStringAnswersAsTheJourneysOwn",
    ]

    @Test("the tap script", arguments: cases)
    func tapCase(_ name: String) async throws {
        let results = try await OutgoingTapNode.run(case: name)
        #expect(results[name] == "ok", "\(name): \(results[name] ?? "no result: \(results)")")
    }

    @Test("every harness case is listed above")
    func allCasesListed() async throws {
        let results = try await OutgoingTapNode.run(case: "")
        #expect(results.keys.sorted() == Self.cases.sorted())
    }
}

/// Runs the harness in node.
enum OutgoingTapNode {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The harness's results (case name to "ok" or the failure) for `name`, or for all cases when empty.
    static func run(case name: String) async throws -> [String: String] {
        let node = try #require(
            executableOnPath("node"), "node is required for the outgoing tap tests (.ci/run installs it): install Node.js 18 or later")
        let directory = try TemporaryDirectory()
        try harness.write(toFile: directory.file("harness.js"), atomically: true, encoding: .utf8)
        try OutgoingTapScript.source.write(toFile: directory.file("tap.js"), atomically: true, encoding: .utf8)
        let process = try BinaryProcess(
            [directory.file("harness.js"), directory.file("tap.js"), name, String(OutgoingTapScript.maximumMessageLength)],
            binary: node, stdin: .closed)
        defer { process.kill() }
        guard await process.waitForExit(timeout: .seconds(60)) == 0 else {
            throw Failure(description: "node failed: \(process.standardError.prefix(2_000))")
        }
        let output = Data(process.standardOutput.utf8)
        guard let results = try JSONSerialization.jsonObject(with: output) as? [String: String] else {
            throw Failure(description: "node printed no results: \(process.standardOutput.prefix(2_000))")
        }
        return results
    }

    /// The first executable called `name` in a directory of `PATH`.
    static func executableOnPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The harness: `node harness.js TAP_SCRIPT CASE MAX_LENGTH` prints `{"case": "ok" | failure}`.
    static let harness = #"""
        "use strict";
        const fs = require("fs");
        const assert = require("assert");
        const tapSource = fs.readFileSync(process.argv[2], "utf8");
        const only = process.argv[3];
        const BOOT = "window.GBGBridge = window.GBGBridge || {};\nwindow.GBGBridge.receive = window.GBGBridge.receive || function(){};";
        const MAX = Number(process.argv[4]);

        // A page: `window` with a stub handler, GBGBridge's bootstrap and the tap, in the given order.
        function page(options = {}) {
          const posts = [];
          const window = {};
          window.top = options.frame ? {} : window;
          if (!options.noHandler) {
            window.webkit = { messageHandlers: { gbgBridgeInspector: {
              postMessage: options.post || function (body) { posts.push(body); } } } };
          }
          const location = { href: "https://journey.example/start?x=1#a" };
          const run = (source) => new Function("window", "location", source)(window, location);
          if (!options.tapFirst) run(BOOT);
          for (let i = 0; i < (options.injections || 1); i++) run(tapSource);
          if (options.tapFirst) run(BOOT);
          const reports = () => posts.map((body) => { assert.strictEqual(typeof body, "string"); return JSON.parse(body); });
          return {
            window, posts, reports,
            sent: () => reports().filter((r) => r.kind === "sent").map((r) => r.json),
            others: () => reports().filter((r) => r.kind !== "sent" && r.kind !== "page"),
            // The host's delivery: the message's JSON as an expression.
            deliver: (json) => new Function("window", "return window.GBGBridge.receive(" + json + ");")(window),
          };
        }

        // A journey receive that keeps what it got.
        function journey() {
          const got = [];
          const receive = function (message) { got.push({ message, self: this }); return "returned"; };
          return { receive, got };
        }

        const cases = {
          pageMarkerFirst() {
            const p = page();
            assert.deepStrictEqual(p.reports(), [{ kind: "page", url: "https://journey.example/start?x=1#a" }]);
          },
          bootstrapReceiveIsTapped() {
            const p = page();
            assert.strictEqual(p.deliver('{"type":"event","payload":{"action":"host.ready"}}'), undefined);
            assert.deepStrictEqual(p.sent(), ['{"type":"event","payload":{"action":"host.ready"}}']);
          },
          journeyAssignsAfterInstall() {
            const p = page();
            const j = journey();
            p.window.GBGBridge.receive = j.receive;
            const message = { correlationId: "c1", payload: { action: "a", data: { n: 1.5, s: "é" } } };
            const result = p.window.GBGBridge.receive(message);
            assert.strictEqual(result, "returned");
            assert.strictEqual(j.got.length, 1);
            assert.strictEqual(j.got[0].message, message, "the very same object");
            assert.strictEqual(j.got[0].self, p.window.GBGBridge, "the same this");
            assert.deepStrictEqual(p.sent(), [JSON.stringify(message)]);
          },
          journeyAssignedBeforeInstall() {
            // The journey's function is already there when the tap runs (the bootstrap's || keeps it).
            const posts = [];
            const window = { webkit: { messageHandlers: { gbgBridgeInspector: { postMessage: (b) => posts.push(b) } } } };
            window.top = window;
            const j = journey();
            window.GBGBridge = { receive: j.receive };
            new Function("window", "location", BOOT)(window, {});
            new Function("window", "location", tapSource)(window, { href: "x" });
            window.GBGBridge.receive({ a: 1 });
            assert.strictEqual(j.got.length, 1);
            assert.deepStrictEqual(posts.map((b) => JSON.parse(b)), [{ kind: "page", url: "x" }, { kind: "sent", json: '{"a":1}' }]);
          },
          tapBeforeBootstrap() {
            const p = page({ tapFirst: true });
            const j = journey();
            assert.strictEqual(typeof p.window.GBGBridge.receive, "function", "the bootstrap ran through the accessors");
            p.window.GBGBridge.receive = j.receive;
            p.deliver('{"x":[1,2]}');
            assert.deepStrictEqual(p.sent(), ['{"x":[1,2]}']);
            assert.strictEqual(j.got.length, 1);
          },
          journeyReplacesNamespace() {
            const p = page();
            const first = journey(), second = journey();
            const mine = { receive: first.receive, other: 1 };
            p.window.GBGBridge = mine;
            assert.strictEqual(p.window.GBGBridge, mine, "reading window.GBGBridge gives the journey's own object");
            p.deliver('{"n":1}');
            p.window.GBGBridge = { receive: second.receive };
            p.deliver('{"n":2}');
            assert.deepStrictEqual(p.sent(), ['{"n":1}', '{"n":2}']);
            assert.strictEqual(first.got.length, 1);
            assert.strictEqual(second.got.length, 1);
            assert.deepStrictEqual(Object.keys(mine), ["receive", "other"], "receive stays enumerable, in place");
          },
          throwPropagatesAndIsReportedOnce() {
            const p = page();
            const failure = new Error("journey failed");
            let got = null;
            p.window.GBGBridge.receive = function (message) { got = message; throw failure; };
            const message = { id: "m" };
            assert.throws(() => p.window.GBGBridge.receive(message), (error) => error === failure);
            assert.strictEqual(got, message);
            assert.deepStrictEqual(p.sent(), ['{"id":"m"}']);
            p.window.GBGBridge.receive = function () { throw "a string"; };
            assert.throws(() => p.deliver("{}"), (error) => error === "a string");
            assert.deepStrictEqual(p.sent(), ['{"id":"m"}', "{}"]);
          },
          readBackIsStableAndUnwrapped() {
            const p = page();
            const j = journey();
            j.receive.custom = 7;
            p.window.GBGBridge.receive = j.receive;
            const seen = p.window.GBGBridge.receive;
            assert.strictEqual(seen, p.window.GBGBridge.receive, "the same wrapper each read");
            assert.strictEqual(typeof seen, "function");
            assert.strictEqual(seen.name, j.receive.name);
            assert.strictEqual(seen.length, 1);
            assert.strictEqual(seen.custom, 7);
            // A journey that stores back what it read does not get a wrapper of a wrapper.
            p.window.GBGBridge.receive = seen;
            p.window.GBGBridge.receive = p.window.GBGBridge.receive;
            assert.strictEqual(p.window.GBGBridge.receive, seen);
            p.deliver('{"once":true}');
            assert.deepStrictEqual(p.sent(), ['{"once":true}']);
            assert.strictEqual(j.got.length, 1);
          },
          journeyRewrapsReceive() {
            const p = page();
            const j = journey();
            p.window.GBGBridge.receive = j.receive;
            const previous = p.window.GBGBridge.receive;
            const outer = [];
            p.window.GBGBridge.receive = function (message) { outer.push(message); return previous.call(this, message); };
            const message = { chained: true };
            assert.strictEqual(p.window.GBGBridge.receive(message), "returned");
            assert.deepStrictEqual(p.sent(), ['{"chained":true}'], "reported once along the chain");
            assert.strictEqual(outer[0], message);
            assert.strictEqual(j.got[0].message, message);
            // A different message handed on inside a call is a call of its own.
            p.window.GBGBridge.receive = function (message) { if (message.first) previous({ second: true }); };
            p.deliver('{"first":true}');
            assert.deepStrictEqual(p.sent(), ['{"chained":true}', '{"first":true}', '{"second":true}']);
          },
          injectedTwiceIsInjectedOnce() {
            const p = page({ injections: 2 });
            const j = journey();
            p.window.GBGBridge.receive = j.receive;
            p.deliver("[1]");
            assert.deepStrictEqual(p.reports(), [{ kind: "page", url: "https://journey.example/start?x=1#a" }, { kind: "sent", json: "[1]" }]);
          },
          withoutHandlerNothingChanges() {
            const p = page({ noHandler: true });
            const descriptor = Object.getOwnPropertyDescriptor(p.window, "GBGBridge");
            assert.ok("value" in descriptor, "window.GBGBridge is left a plain property");
            const j = journey();
            p.window.GBGBridge.receive = j.receive;
            assert.strictEqual(p.window.GBGBridge.receive, j.receive);
            p.deliver("{}");
            assert.strictEqual(j.got.length, 1);
          },
          inAFrameNothingChanges() {
            const p = page({ frame: true });
            assert.deepStrictEqual(p.posts, []);
            assert.ok("value" in Object.getOwnPropertyDescriptor(p.window, "GBGBridge"));
          },
          throwingHandlerNeverReachesTheJourney() {
            const p = page({ post() { throw new Error("handler gone"); } });
            const j = journey();
            p.window.GBGBridge.receive = j.receive;
            assert.strictEqual(p.deliver('{"a":1}'), "returned");
            assert.strictEqual(j.got.length, 1);
          },
          unrepresentableValuesAreMarkedNotThrown() {
            const p = page();
            const j = journey();
            p.window.GBGBridge.receive = j.receive;
            const cyclic = { a: 1 }; cyclic.self = cyclic;
            const hostile = [
              cyclic,
              { toJSON() { throw new Error("toJSON says no"); } },
              { get bad() { throw new Error("getter says no"); } },
              { big: BigInt(1) },
              undefined,
              function () {},
              Symbol("s"),
              { toJSON() { throw { toString() { throw new Error("nor can I be described"); } }; } },
            ];
            for (const value of hostile) { assert.strictEqual(p.window.GBGBridge.receive(value), "returned"); }
            assert.strictEqual(j.got.length, hostile.length);
            hostile.forEach((value, i) => assert.strictEqual(j.got[i].message, value));
            const others = p.others();
            assert.strictEqual(others.length, hostile.length);
            assert.ok(others.every((r) => r.kind === "unreportable" && typeof r.reason === "string" && r.reason.length > 0), JSON.stringify(others));
            assert.deepStrictEqual(p.sent(), []);
          },
          jsonRulesInsideAMessage() {
            const p = page();
            p.window.GBGBridge.receive(JSON.parse('{"__proto__":{"x":1},"a":"\\u2028\\u2029</script>"}'));
            p.window.GBGBridge.receive({ n: NaN, i: -Infinity, u: undefined, f() {}, list: [undefined, 1] });
            p.window.GBGBridge.receive({ lone: "\ud800", pair: "\ud83d\ude00" });
            const sent = p.sent();
            assert.strictEqual(sent[0], '{"__proto__":{"x":1},"a":"\u2028\u2029</script>"}');
            assert.strictEqual(sent[1], '{"n":null,"i":null,"list":[null,1]}');
            assert.strictEqual(sent[2], '{"lone":"\\ud800","pair":"\ud83d\ude00"}', "a lone surrogate is escaped, so the report is well-formed");
          },
          overTheLimitIsMarked() {
            const p = page();
            p.window.GBGBridge.receive({ s: "x".repeat(MAX) });
            const others = p.others();
            assert.strictEqual(others.length, 1);
            assert.strictEqual(others[0].kind, "unreportable");
            assert.ok(others[0].reason.includes(String(MAX + 8)), others[0].reason);
            p.window.GBGBridge.receive("x".repeat(MAX - 2));
            assert.strictEqual(p.sent()[0].length, MAX);
          },
          frozenNamespaceIsBlindButWorks() {
            const p = page();
            const j = journey();
            p.window.GBGBridge = Object.freeze({ receive: j.receive });
            p.deliver("{}");
            assert.strictEqual(j.got.length, 1);
            assert.deepStrictEqual(p.others().map((r) => r.kind), ["blind"]);
            assert.deepStrictEqual(p.sent(), []);
          },
          pageBuiltinsChangedLater() {
            const p = page();
            const j = journey();
            p.window.GBGBridge.receive = j.receive;
            const saved = JSON.stringify;
            const savedApply = Reflect.apply;
            try {
              JSON.stringify = () => "tampered";
              Reflect.apply = () => "tampered";
              p.deliver('{"k":"v"}');
            } finally { JSON.stringify = saved; Reflect.apply = savedApply; }
            assert.deepStrictEqual(p.sent(), ['{"k":"v"}']);
            assert.strictEqual(j.got.length, 1);
          },
          strictModeJourney() {
            const p = page();
            const j = journey();
            new Function("window", "j", '"use strict"; window.GBGBridge.receive = j.receive; window.GBGBridge = { receive: null }; window.GBGBridge.receive = j.receive;')(p.window, j);
            p.deliver("{}");
            assert.strictEqual(j.got.length, 1);
            assert.deepStrictEqual(p.sent(), ["{}"]);
          },
          // Troubleshooting page, "Messages Not Being Received by the Web Journey": "window.GBGBridge.receive
          // not defined. The web journey must replace the no-op receive() with its own implementation."
          noOpReceiveIsLost() {
            const LOST = "the journey has not set window.GBGBridge.receive yet: the message reached GBGBridge's no-op bootstrap receive";
            for (const options of [{}, { tapFirst: true }]) {
              const p = page(options);
              p.deliver('{"n":1}');
              const j = journey();
              p.window.GBGBridge.receive = j.receive;
              p.deliver('{"n":2}');
              // Only GBGBridge's no-op (function(){} modulo whitespace) counts: an empty function with a
              // parameter or a name is the journey's own.
              p.window.GBGBridge.receive = new Function("window", "return function ( ) {\n }")();
              p.deliver('{"n":3}');
              p.window.GBGBridge.receive = function (message) {};
              p.deliver('{"n":4}');
              p.window.GBGBridge.receive = function named() {};
              p.deliver('{"n":5}');
              const sent = p.reports().filter((r) => r.kind === "sent");
              assert.deepStrictEqual(sent, [
                { kind: "sent", json: '{"n":1}', lost: LOST },
                { kind: "sent", json: '{"n":2}' },
                { kind: "sent", json: '{"n":3}', lost: LOST },
                { kind: "sent", json: '{"n":4}' },
                { kind: "sent", json: '{"n":5}' },
              ], JSON.stringify(options));
            }
            // A page that changes Function.prototype.toString does not change the verdict.
            const p = page();
            const saved = Function.prototype.toString;
            try {
              Function.prototype.toString = () => "function(){}";
              p.window.GBGBridge.receive = function (m) { return m; };
              p.deliver("{}");
            } finally { Function.prototype.toString = saved; }
            assert.deepStrictEqual(p.reports().filter((r) => r.kind === "sent"), [{ kind: "sent", json: "{}" }]);
          },
          // Troubleshooting page, "Messages Not Being Received by the Web Journey": the check
          // console.log(window.GBGBridge.receive.toString()) answers as the journey's own function does.
          toStringAnswersAsTheJourneysOwn() {
            const p = page();
            assert.strictEqual(p.window.GBGBridge.receive.toString(), "function(){}", "GBGBridge's no-op, as the bootstrap wrote it");
            const j = journey();
            p.window.GBGBridge.receive = j.receive;
            const receive = p.window.GBGBridge.receive;
            assert.strictEqual(receive.toString(), j.receive.toString());
            assert.strictEqual(String(receive), j.receive.toString());
            assert.strictEqual("" + receive, j.receive.toString());
            assert.strictEqual(receive.toString, receive.toString, "the same function each read");
            assert.strictEqual(receive.toString.name, "toString");
            assert.strictEqual(receive.name, j.receive.name);
            assert.strictEqual(receive.length, j.receive.length);
            // What still differs: Function.prototype.toString called on the wrapper itself.
            assert.ok(Function.prototype.toString.call(receive).includes("[native code]"));
            // A journey function with a toString of its own keeps it.
            const own = function (m) {};
            own.toString = () => "mine";
            p.window.GBGBridge.receive = own;
            assert.strictEqual(p.window.GBGBridge.receive.toString(), "mine");
            p.deliver("{}");
            assert.deepStrictEqual(p.sent(), ["{}"]);
          },
        };

        const names = only ? [only] : Object.keys(cases);
        const results = {};
        for (const name of names) {
          if (!cases[name]) { results[name] = "no such case"; continue; }
          try { cases[name](); results[name] = "ok"; } catch (error) { results[name] = String(error && error.stack || error); }
        }
        process.stdout.write(JSON.stringify(results));
        """#
}
