import BridgeCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import ThreadSupport

/// The JavaScript that delivers a message to the journey, run in a real JavaScript engine (node).
/// Pages: Security, "Message Channel" (Native → Web: webView.evaluateJavaScript()); Troubleshooting,
/// "Messages Not Being Received by the Web Journey" (window.GBGBridge.receive).
@MainActor
@Suite("JavaScript delivery")
struct JavaScriptDeliveryTests {
    // Security, "Message Channel": the host's delivery script, evaluated by a JavaScript engine,
    // hands receive() exactly the original message, whatever the strings hold.
    @Test(
        "Hostile strings reach receive() unchanged when run in node (Security: Message Channel)",
        arguments: Hostile.hostile.map(\.0))
    func hostileStringsInNode(_ name: String) async throws {
        let text = try #require(Hostile.hostile.first { $0.0 == name }?.1)
        let (host, journey) = makeHost()
        let original = Hostile.hostileMessage(text)
        let json = try BridgeMessageCodec().encode(original)
        let script = JavaScriptDelivery.script(forMessageJSON: json)

        // What the host itself delivers for this data is the same kind of script.
        host.send(event: "host.hostile", data: original.payload.data)
        let delivered = try #require(journey.deliveries.first)

        let received = try await NodeHarness.run(scripts: [script, delivered.javaScript])
        #expect(received.count == 2)
        #expect(received.first == original)
        #expect(received.last == delivered.message)
    }

    // Security, "Bootstrap Script Injection": the default bootstrap script defines the namespace
    // and a no-op receive, and keeps a receive the journey already set.
    @Test("The default bootstrap script defines window.GBGBridge.receive (Security: Bootstrap Script Injection)")
    func bootstrapScriptInNode() async throws {
        let bootstrap = BridgeConfiguration.defaultBootstrapScript
        #expect(
            bootstrap == """
                window.GBGBridge = window.GBGBridge || {};
                window.GBGBridge.receive = window.GBGBridge.receive || function(){};
                """)
        #expect(BridgeConfiguration(hostVersion: "1.0.0").bootstrapScript == bootstrap)
        let output = try await NodeHarness.evaluate(
            """
            const window = {};
            vm.runInNewContext(bootstrapText, { window });
            const first = typeof window.GBGBridge.receive;
            const mine = m => m;
            window.GBGBridge.receive = mine;
            vm.runInNewContext(bootstrapText, { window });
            const kept = window.GBGBridge.receive === mine;
            // A message delivered to the no-op receive does not throw (FAQ: Can I send messages before the web page loads?).
            const fresh = {};
            vm.runInNewContext(bootstrapText, { window: fresh });
            vm.runInNewContext(deliveryText, { window: fresh });
            output = { first, kept };
            """,
            bootstrap: bootstrap,
            delivery: JavaScriptDelivery.script(forMessageJSON: try BridgeMessageCodec().encode(Hostile.hostileMessage("x"))))
        #expect(output == #"{"first":"function","kept":true}"#)
    }

    // Security, "Message Channel" / this project's escaping rules: no raw '<' and no raw
    // U+2028/U+2029 in the script, and the JSON is passed as an expression, not a quoted string.
    @Test("The script has no raw '<' and no raw U+2028 or U+2029 (Security: Message Channel)")
    func noRawDangerousCharacters() throws {
        for (name, text) in Hostile.hostile {
            let json = try BridgeMessageCodec().encode(Hostile.hostileMessage(text))
            let script = JavaScriptDelivery.script(forMessageJSON: json)
            #expect(!script.contains("<"), "\(name)")
            #expect(!script.unicodeScalars.contains("\u{2028}"), "\(name)")
            #expect(!script.unicodeScalars.contains("\u{2029}"), "\(name)")
            #expect(script.hasPrefix("window.GBGBridge.receive({"), "\(name)")
            #expect(script.hasSuffix("});"), "\(name)")
        }
        #expect(
            JavaScriptDelivery.escapedExpression(Data(#"{"a":"</script>\#u{2028}\#u{2029}"}"#.utf8))
                == #"{"a":"\u003c/script>\u2028\u2029"}"#)
    }

    // Security, "Message Channel": the node-based tests above must never pass silently without
    // node; a missing node is a failure that says node is required.
    @Test("Without node the delivery tests fail and say node is required (Security: Message Channel)")
    func nodeIsRequired() throws {
        let error = #expect(throws: NodeHarness.Failure.self) {
            try NodeHarness.nodeURL(environment: ["PATH": "/nonexistent"], fallbacks: [])
        }
        #expect(error?.description.hasPrefix("node is required") == true)
        // Here, node is present (CI installs it).
        #expect(FileManager.default.isExecutableFile(atPath: try NodeHarness.nodeURL().path))
    }

    // Troubleshooting, "Messages Not Being Received by the Web Journey": a simulated journey reads
    // the message back out of the very same script.
    @Test("messageJSON(fromScript:) round-trips (Troubleshooting: Messages Not Being Received by the Web Journey)")
    func messageJSONRoundTrip() throws {
        for (name, text) in Hostile.hostile {
            let original = Hostile.hostileMessage(text)
            let script = JavaScriptDelivery.script(forMessageJSON: try BridgeMessageCodec().encode(original))
            let json = try #require(JavaScriptDelivery.messageJSON(fromScript: script), "\(name)")
            #expect(try BridgeMessageCodec().decode(json).get() == original, "\(name)")
        }
        #expect(JavaScriptDelivery.messageJSON(fromScript: "alert(1);") == nil)
        #expect(JavaScriptDelivery.messageJSON(fromScript: "window.GBGBridge.receive({}") == nil)
        #expect(JavaScriptDelivery.messageJSON(fromScript: "window.GBGBridge.receive();") == Data())
    }
}

/// Payloads that break naive string splicing, and messages that carry them.
enum Hostile {
    static let hostile: [(String, String)] = [
        ("double quotes", #"say "hello" and "bye""#),
        ("single quotes", "it's 'quoted'"),
        ("backslashes", #"C:\path\to\file \\ \" \n \u0041"#),
        ("script end tag", "</script><script>alert(1)</script>"),
        ("html comment", "<!-- comment --> <!--"),
        ("line separator", "a\u{2028}b"),
        ("paragraph separator", "a\u{2029}b"),
        ("both separators", "\u{2028}\u{2029}\u{2028}"),
        ("emoji", "👩🏽‍💻 🇬🇧 😀"),
        ("NUL", "a\u{0}b\u{0}"),
        ("control characters", "\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1B}\u{1F}\u{7F}"),
        ("closing brackets", ")); window.hacked = true; (("),
        ("template literal", "${window.hacked = true} `backtick`"),
        ("long string", String(repeating: "0123456789<\u{2028}\"\\", count: 20_000)),
        ("non-BMP and combining", "e\u{301} 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 \u{FEFF}\u{200D}"),
    ]

    /// A message carrying `text` everywhere a string can go.
    static func hostileMessage(_ text: String) -> BridgeMessage {
        BridgeMessage(
            correlationId: "ios-event-" + text.prefix(40), type: .event, timestamp: 1_732_240_000_123.5,
            payload: .init(
                action: "host." + text.prefix(40),
                data: [
                    "text": .string(text),
                    text.count < 100 ? text : "key": .string("as key"),
                    "nested": ["list": [.string(text), .number(-0.5), .bool(true), .null]],
                ]))
    }

}

/// Runs delivery scripts in node the way a WebView would evaluate them, and returns what
/// `window.GBGBridge.receive` was called with.
enum NodeHarness {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The harness: evaluates each script in a fresh context whose `window.GBGBridge.receive`
    /// records its argument, and writes `JSON.stringify` of the recorded arguments to a file.
    static let receiveHarness = """
        const fs = require('fs');
        const vm = require('vm');
        const scripts = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
        const captured = [];
        for (const script of scripts) {
            const window = { GBGBridge: { receive: m => captured.push(m) } };
            vm.runInNewContext(script, { window });
        }
        fs.writeFileSync(process.argv[3], JSON.stringify(captured));
        """

    /// The messages `receive` got, one per script, decoded.
    static func run(scripts: [String]) async throws -> [BridgeMessage] {
        let input = try JSONSerialization.data(withJSONObject: scripts)
        let output = try await runNode(harness: receiveHarness, input: input)
        let values = try JSONSerialization.jsonObject(with: output) as? [Any] ?? []
        return try values.map { value in
            let data = try JSONSerialization.data(withJSONObject: value)
            return try BridgeMessageCodec().decode(data).get()
        }
    }

    /// Runs `body` with `vm`, `bootstrapText` and `deliveryText` defined; it sets `output`, which is
    /// returned as JSON text.
    static func evaluate(_ body: String, bootstrap: String, delivery: String) async throws -> String {
        let harness = """
            const fs = require('fs');
            const vm = require('vm');
            const texts = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
            const bootstrapText = texts[0];
            const deliveryText = texts[1];
            let output = null;
            \(body)
            fs.writeFileSync(process.argv[3], JSON.stringify(output));
            """
        let input = try JSONSerialization.data(withJSONObject: [bootstrap, delivery])
        return String(decoding: try await runNode(harness: harness, input: input), as: UTF8.self)
    }

    /// The node executable: $NODE, else the first `node` on $PATH, else /usr/bin/node.
    static func nodeURL(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        fallbacks: [String] = ["/usr/bin/node", "/usr/local/bin/node", "/opt/homebrew/bin/node"]
    ) throws -> URL {
        var candidates: [String] = []
        if let explicit = environment["NODE"] { candidates.append(explicit) }
        for directory in (environment["PATH"] ?? "").split(separator: ":") { candidates.append("\(directory)/node") }
        candidates += fallbacks
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
            return URL(fileURLWithPath: found)
        }
        throw Failure(
            description:
                "node is required for the JavaScript delivery tests (CI installs it); install Node.js 18 or later or set NODE to its path")
    }

    static func runNode(harness: String, input: Data) async throws -> Data {
        let node = try nodeURL()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bridgecore-node-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let harnessURL = directory.appendingPathComponent("harness.js")
        let inputURL = directory.appendingPathComponent("input.json")
        let outputURL = directory.appendingPathComponent("output.json")
        let errorURL = directory.appendingPathComponent("stderr.txt")
        try Data(harness.utf8).write(to: harnessURL)
        try input.write(to: inputURL)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)

        // ThreadSupport's ChildProcess, not Foundation's `Process` (it can crash in `run()` on Linux).
        let errors = open(errorURL.path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard errors >= 0 else { throw Failure(description: "cannot write \(errorURL.path)") }
        defer { close(errors) }
        let arguments = [harnessURL.path, inputURL.path, outputURL.path]
        let status = try await DedicatedThread.run(name: "test-node") { () throws -> Int32 in
            let process = try ChildProcess(
                executable: node.path, arguments: arguments, standardOutput: .nullDevice, standardError: .descriptor(errors), newProcessGroup: true)
            return process.waitUntilExit().statusOrSignal
        }
        guard status == 0 else {
            let stderr = (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
            throw Failure(description: "node exited with status \(status): \(stderr.prefix(2_000))")
        }
        return try Data(contentsOf: outputURL)
    }
}
