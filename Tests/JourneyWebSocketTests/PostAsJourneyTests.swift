import BridgeCore
import Foundation
import TestSupport
import Testing

@testable import JourneyWebSocket

/// Posting as the journey (`WebJourneyServer.postAsJourney`): the host's control frame, the
/// shim run in node against a stand-in `window`, `document` and `WebSocket`, and the server's
/// refusal without a page.
@Suite("Posting as the journey", .serialized)
@MainActor
struct PostAsJourneyTests {
    // MARK: The frame

    @Test("the control frame is exactly {\"kind\":\"post\",\"text\":...,\"object\":...}, and JSON")
    func frame() throws {
        #expect(WebSocketJourneyTransport.postControlFrame(text: #"{"a":1}"#, asObject: true) == #"{"kind":"post","text":"{\"a\":1}","object":true}"#)
        #expect(WebSocketJourneyTransport.postControlFrame(text: "hi", asObject: false) == #"{"kind":"post","text":"hi","object":false}"#)
        #expect(
            WebSocketJourneyTransport.postControlFrame(text: "q\"b\\s/\n\r\t\u{8}\u{C}\u{1}\u{1F}é\u{2028}😀", asObject: false)
                == #"{"kind":"post","text":"q\"b\\s/\n\r\t\b\f\u0001\u001fé"# + "\u{2028}😀" + #"","object":false}"#)
        // Whatever the text, the frame is a JSON object that gives the text back unchanged.
        for text in [ShimNode.message, "", "\u{0}", "\u{7F}\u{85}\u{FEFF}", String(repeating: "\\\"", count: 100)] {
            let frame = WebSocketJourneyTransport.postControlFrame(text: text, asObject: true)
            #expect(frame.hasPrefix("{"))
            let decoded = try #require(try JSONSerialization.jsonObject(with: Data(frame.utf8)) as? [String: Any])
            #expect(decoded["kind"] as? String == "post")
            #expect(decoded["text"] as? String == text)
            #expect(decoded["object"] as? Bool == true)
        }
    }

    @Test("the bootstrap tells control frames from deliveries without eval")
    func noEval() {
        let script = BrowserBootstrap.script()
        #expect(!script.contains("eval("))
        #expect(!script.contains("Function("))
        #expect(script.contains(#"event.data.charAt(0) === "{""#))
        #expect(!JavaScriptDelivery.script(forMessageJSON: Data("{}".utf8)).hasPrefix("{"), "a delivery never looks like a control frame")
    }

    // MARK: The shim in node

    @Test("the shim in node", arguments: ShimNode.cases)
    func shimCase(_ name: String) async throws {
        let results = try await ShimNode.run(case: name)
        #expect(results[name] == "ok", "\(name): \(results[name] ?? "no result: \(results)")")
    }

    @Test("every shim case of the harness is listed")
    func allCasesListed() async throws {
        let results = try await ShimNode.run(case: "")
        #expect(results.keys.sorted() == ShimNode.cases.sorted())
    }

    // MARK: The server

    @Test("postAsJourney without a page attached throws noPageAttached, which says to open the page")
    func noPage() async throws {
        let sandbox = try Sandbox()
        let host = BridgeHost(hostVersion: "9.9.9")
        let server = try await WebJourneyServer.start(host: host, configuration: WebJourneyConfiguration(servedDirectory: sandbox.served))
        #expect(throws: WebJourneyError.noPageAttached) { try server.postAsJourney(ShimNode.message, asObject: true) }
        #expect(WebJourneyError.noPageAttached.description.contains("open the journey's page"))
        await server.stop()
    }

    @Test("postAsJourney sends the control frame to the attached page only, and it is no delivery")
    func toAttachedPage() async throws {
        let sandbox = try Sandbox()
        let host = BridgeHost(hostVersion: "9.9.9")
        let log = NoticeLog()
        let server = try await WebJourneyServer.start(host: host, configuration: WebJourneyConfiguration(servedDirectory: sandbox.served)) {
            log.notices.append($0)
        }
        let origin = "http://127.0.0.1:\(server.port)"
        let first = try await TestPage.connect(port: server.port, origin: origin, token: server.token.value)
        #expect(await eventually { log.attached.count == 1 })
        let second = try await TestPage.connect(port: server.port, origin: origin, token: server.token.value)
        #expect(await eventually { log.attached.count == 2 && log.detached.count == 1 })

        try server.postAsJourney(ShimNode.message, asObject: true)
        try server.postAsJourney("plain", asObject: false)
        #expect(await second.waitFor { $0.count >= 2 })
        #expect(second.texts == [
            WebSocketJourneyTransport.postControlFrame(text: ShimNode.message, asObject: true),
            WebSocketJourneyTransport.postControlFrame(text: "plain", asObject: false),
        ])
        #expect(first.texts.isEmpty)
        // A delivery after it is still delivery 1: the page reports it as seq 1.
        host.send(event: "host.ping")
        #expect(await second.waitFor { $0.count == 3 })
        try await second.send(#"{"kind":"evaluateFailed","seq":1,"error":"TypeError: x"}"#)
        #expect(await eventually { host.lastError?.contains("(event 'host.ping'") == true })

        // What the page posts back is an ordinary post.
        try await second.post(ShimNode.message)
        #expect(await eventually { host.receivedMessages.map(\.correlationId) == ["inj-1"] })

        await second.close()
        #expect(await eventually { !host.isJourneyAttached })
        #expect(throws: WebJourneyError.noPageAttached) { try server.postAsJourney("x", asObject: false) }
        await first.close()
        await server.stop()
    }
}

/// Runs `BrowserBootstrap.script` in node with a stand-in page: `window` (top-level), `document`
/// (already parsed), `location` and a `WebSocket` that records what the page sends and lets the
/// harness hand it frames. Each case is a function of the harness; one node process per case.
enum ShimNode {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A bridge message whose text needs escaping in every way.
    static let message = #"{"version":"1.0","correlationId":"inj-1","type":"event","timestamp":1,"payload":{"action":"journey.step","data":{"s":"é \"q\" \\ </script>\u2028\n\u0001"}}}"#

    static let cases = [
        "objectPostGoesThroughPostMessage",
        "stringPostIsSentAsItIs",
        "handlerLookedUpAtCallTime",
        "controlFramesDoNotCountAsDeliveries",
        "malformedControlFramesNeitherThrowNorPost",
        "unknownKindIsWarnedAndIgnored",
        "throwingHandlerIsAConsoleError",
    ]

    /// A bootstrap that records what `receive` got, and throws for a message with `"throw":true`.
    static let bootstrap = """
        window.GBGBridge = { receive: function (message) {
          window.receivedByJourney.push(message);
          if (message && message.throw) { throw new TypeError("receive refused " + message.n); }
        } };
        """

    /// The harness's results (case name to "ok" or the failure) for `name`, or for all cases when empty.
    static func run(case name: String) async throws -> [String: String] {
        let node = try #require(
            executableOnPath("node"), "node is required for the bootstrap tests (.ci/run installs it): install Node.js 18 or later")
        let directory = try TemporaryDirectory()
        try harness.write(toFile: directory.file("harness.js"), atomically: true, encoding: .utf8)
        try BrowserBootstrap.script(bootstrapScript: bootstrap).write(toFile: directory.file("shim.js"), atomically: true, encoding: .utf8)
        let frames: [String: String] = [
            "object": WebSocketJourneyTransport.postControlFrame(text: message, asObject: true),
            "string": WebSocketJourneyTransport.postControlFrame(text: #"{ "a" :  1 }"#, asObject: false),
            "notJSON": WebSocketJourneyTransport.postControlFrame(text: "{not json", asObject: true),
            "message": message,
            "throwing": JavaScriptDelivery.script(forMessageJSON: Data(#"{"throw":true,"n":1}"#.utf8)),
            "throwing2": JavaScriptDelivery.script(forMessageJSON: Data(#"{"throw":true,"n":2}"#.utf8)),
            "plain": JavaScriptDelivery.script(forMessageJSON: Data(#"{"n":0}"#.utf8)),
        ]
        try JSONSerialization.data(withJSONObject: frames).write(to: URL(fileURLWithPath: directory.file("frames.json")))
        let arguments = [node, directory.file("harness.js"), directory.file("shim.js"), directory.file("frames.json"), name]
        let result = try await Task.detached { try SpawnedProcess.run(arguments, timeout: 60) }.value
        guard result.status == 0 else {
            throw Failure(description: "node failed (\(result.status.map(String.init) ?? "killed")): \(result.errors.prefix(2_000))")
        }
        guard let results = try? JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: String] else {
            throw Failure(description: "node printed no results: \(result.output.prefix(2_000)) \(result.errors.prefix(2_000))")
        }
        return results
    }

    /// The first executable called `name` in a directory of `PATH`.
    static func executableOnPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// `node harness.js SHIM FRAMES CASE` prints `{"case": "ok" | failure}`.
    static let harness = #"""
        "use strict";
        const fs = require("fs");
        const vm = require("vm");
        const assert = require("assert");
        const shim = fs.readFileSync(process.argv[2], "utf8");
        const frames = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
        const only = process.argv[4];

        // A parsed top-level page with the shim loaded and its socket open.
        function page() {
          const errors = [], warnings = [], sockets = [];
          const window = { receivedByJourney: [] };
          window.top = window;
          class FakeWebSocket {
            constructor(url) { this.url = url; this.sent = []; sockets.push(this); }
            send(frame) { this.sent.push(frame); }
          }
          const context = {
            window, URL, TextEncoder, WebSocket: FakeWebSocket,
            location: { href: "http://127.0.0.1:4000/index.html", pathname: "/index.html" },
            document: { readyState: "complete", currentScript: { src: "http://127.0.0.1:4000/__gbgbridge/bootstrap.js" } },
            console: {
              error: (...parts) => errors.push(parts.join(" ")),
              warn: (...parts) => warnings.push(parts.join(" ")),
              log: () => {},
            },
          };
          vm.runInNewContext(shim, context);
          assert.strictEqual(sockets.length, 1, "the shim connects once");
          const socket = sockets[0];
          socket.onopen();
          // The host hands the page a frame; onmessage must never throw.
          const receive = (data) => { socket.onmessage({ data }); };
          // The page's frames to the host, parsed.
          const sent = () => socket.sent.map((frame) => JSON.parse(frame));
          return { window, socket, errors, warnings, receive, sent };
        }

        const cases = {
          objectPostGoesThroughPostMessage() {
            const p = page();
            p.receive(frames.object);
            // Exactly what the journey's postMessage(object) sends: JSON.stringify of the object.
            assert.deepStrictEqual(p.socket.sent, [JSON.stringify({ kind: "post", text: JSON.stringify(JSON.parse(frames.message)) })]);
            assert.deepStrictEqual(JSON.parse(p.sent()[0].text), JSON.parse(frames.message));
            assert.deepStrictEqual(p.errors, []);
            assert.deepStrictEqual(p.window.receivedByJourney, [], "a control frame is not handed to receive");
          },
          stringPostIsSentAsItIs() {
            const p = page();
            p.receive(frames.string);
            assert.deepStrictEqual(p.sent(), [{ kind: "post", text: '{ "a" :  1 }' }]);
            assert.deepStrictEqual(p.errors, []);
          },
          handlerLookedUpAtCallTime() {
            const p = page();
            const original = p.window.webkit.messageHandlers.gbgBridge;
            const seen = [];
            // The journey's environment replaced window.webkit (as a test double would): the
            // control frame reaches whatever the journey's own code would call now.
            p.window.webkit = { messageHandlers: { gbgBridge: { postMessage: (m) => { seen.push(m); original.postMessage(m); } } } };
            p.receive(frames.object);
            assert.strictEqual(seen.length, 1);
            assert.strictEqual(typeof seen[0], "object");
            assert.strictEqual(seen[0].correlationId, "inj-1");
            assert.strictEqual(p.sent().length, 1);
          },
          controlFramesDoNotCountAsDeliveries() {
            const p = page();
            p.receive(frames.object);
            p.receive(frames.throwing);
            p.receive(frames.string);
            p.receive(frames.plain);
            p.receive(frames.object);
            p.receive(frames.throwing2);
            const failed = p.sent().filter((f) => f.kind === "evaluateFailed");
            assert.deepStrictEqual(failed.map((f) => f.seq), [1, 3]);
            assert.ok(failed[0].error.includes("receive refused 1"), failed[0].error);
            assert.ok(failed[1].error.includes("receive refused 2"), failed[1].error);
            assert.deepStrictEqual(p.sent().filter((f) => f.kind === "post").length, 3);
            assert.deepStrictEqual(p.window.receivedByJourney.map((m) => m.n), [1, 0, 2]);
          },
          malformedControlFramesNeitherThrowNorPost() {
            const p = page();
            for (const frame of ["{", "{not json", "{}x", '{"kind":"post"}', '{"kind":"post","text":5}', frames.notJSON, "{\"kind\":\"post\",\"text\":\"[1,\",\"object\":true}"]) {
              p.receive(frame);
            }
            assert.deepStrictEqual(p.socket.sent, [], "nothing posted");
            assert.strictEqual(p.errors.length, 7, p.errors.join("\n"));
            assert.ok(p.errors.every((e) => e.startsWith("[GBGBridge] ")), p.errors.join("\n"));
            assert.ok(p.errors[0].includes("not JSON"), p.errors[0]);
            assert.ok(p.errors[5].includes("cannot be posted as an object"), p.errors[5]);
            // ... and still count nothing: the next delivery is delivery 1.
            p.receive(frames.throwing);
            assert.deepStrictEqual(p.sent().map((f) => [f.kind, f.seq]), [["evaluateFailed", 1]]);
          },
          unknownKindIsWarnedAndIgnored() {
            const p = page();
            p.receive('{"kind":"eval","text":"window.x = 1"}');
            p.receive('{"text":"y"}');
            p.receive("null");
            assert.deepStrictEqual(p.socket.sent.filter((f) => JSON.parse(f).kind === "post"), []);
            assert.strictEqual(p.warnings.length, 2, p.warnings.join("\n"));
            assert.ok(p.warnings[0].includes("unknown kind") && p.warnings[0].includes("eval"), p.warnings[0]);
            assert.strictEqual(p.window.x, undefined);
            // "null" is not a control frame: it is a delivery the shim cannot run (seq 1).
            assert.deepStrictEqual(p.sent().map((f) => [f.kind, f.seq]), [["evaluateFailed", 1]]);
          },
          throwingHandlerIsAConsoleError() {
            const p = page();
            const hostile = { toString() { throw new Error("no"); } };
            p.window.webkit = { messageHandlers: { gbgBridge: { postMessage: () => { throw hostile; } } } };
            p.receive(frames.object);
            p.window.webkit = {};
            p.receive(frames.string);
            assert.deepStrictEqual(p.socket.sent, []);
            assert.strictEqual(p.errors.length, 2, p.errors.join("\n"));
            assert.ok(p.errors.every((e) => e.includes("postMessage")), p.errors.join("\n"));
          },
        };

        const results = {};
        for (const [name, run] of Object.entries(cases)) {
          if (only && name !== only) continue;
          try { run(); results[name] = "ok"; } catch (error) { results[name] = String(error && error.stack || error); }
        }
        process.stdout.write(JSON.stringify(results));
        """#
}
