import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
import TestSupport
import Testing

/// Issue 15, "Copy": "Export the session in a format other tools read (for example HAR-like
/// JSON), beside the existing recording format." HAR 1.2's shape, threaded by correlation id.
@Suite("HAR export")
struct HARExportTests {
    /// 2023-11-14 22:13:20.000 UTC.
    static let t0: Double = 1_700_000_000_000
    /// Text that would break hand-made JSON, a script or a terminal.
    static let hostile = "a\"b\\c</script>\u{0}\u{1B}[2J\u{7}\u{2028}\u{202E}é\n"

    /// A log with every kind of entry: an answered request (42 ms), a refused one (BUSY), one
    /// never answered, an event from the host, a response whose request is gone, and malformed input.
    static func state() -> LiveState {
        let messages = [
            Fixture.request(seq: 1, id: "dev-1", action: "device.info", at: t0, data: ["note": .string(hostile)]),
            Fixture.response(seq: 2, id: "dev-1", action: "device.info", at: t0 + 42, data: ["model": .string("iPhone")]),
            Fixture.request(seq: 3, id: "cap-2", action: "camera.document.capture", at: t0 + 100),
            Fixture.response(seq: 4, id: "cap-2", action: "camera.document.capture", at: t0 + 101, status: .error, error: BridgeErrorCode.busy.payload()),
            Fixture.request(seq: 5, id: "nfc-1", action: hostile, at: t0 + 200),
            Fixture.hostEvent(seq: 6, id: "ev-1", name: "host.ready", at: t0 + 300),
            Fixture.response(seq: 7, id: "gone-1", action: "old.action", at: t0 + 400),
        ]
        let malformed = [WireMalformed(seq: 8, time: t0 + 500, raw: "{oops " + hostile, bytes: 7 + hostile.utf8.count, reason: "not JSON: " + hostile)]
        let host = WireHostInfo(name: "demo", pid: 4242, hostVersion: "1.0", environment: "ios", startedAt: t0 - 1000)
        let wire = WireState(
            host: host, journeyAttached: true, lastError: nil, errorHistory: [], messages: messages, malformed: malformed, pending: [],
            slots: [], customCapabilities: [], counts: WireCounts(received: 3, sent: 4, malformed: 1))
        var state = LiveState()
        state.apply(.snapshot(seq: 8, state: wire), at: t0 + 1000)
        return state
    }

    static func archive() throws -> (data: Data, log: [String: Any], entries: [[String: Any]]) {
        let state = state()
        let data = HARExport(log: state.log, host: state.host).json()
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let log = try #require(root["log"] as? [String: Any])
        let entries = try #require(log["entries"] as? [[String: Any]])
        return (data, log, entries)
    }

    static func bridge(_ entry: [String: Any]) -> [String: Any] { entry["_bridge"] as? [String: Any] ?? [:] }
    static func request(_ entry: [String: Any]) -> [String: Any] { entry["request"] as? [String: Any] ?? [:] }
    static func response(_ entry: [String: Any]) -> [String: Any] { entry["response"] as? [String: Any] ?? [:] }

    @Test("The archive has HAR 1.2's fields: log.version, creator, and entries with request, response, timings and cache")
    func harShape() throws {
        let (_, log, entries) = try Self.archive()
        #expect(log["version"] as? String == "1.2")
        let creator = try #require(log["creator"] as? [String: Any])
        #expect(creator["name"] as? String == "bridge-inspector")
        #expect(creator["version"] as? String == WireProtocol.toolVersion)
        #expect((log["comment"] as? String)?.contains("demo (pid 4242") == true)
        #expect(entries.count == 6, "dev-1, cap-2, nfc-1, ev-1, gone-1, the malformed input")
        for entry in entries {
            for field in ["startedDateTime", "time", "request", "response", "cache", "timings"] {
                #expect(entry[field] != nil, "an entry lacks \(field)")
            }
            let request = Self.request(entry)
            for field in ["method", "url", "httpVersion", "cookies", "headers", "queryString", "headersSize", "bodySize"] {
                #expect(request[field] != nil, "a request lacks \(field)")
            }
            let response = Self.response(entry)
            for field in ["status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL", "headersSize", "bodySize"] {
                #expect(response[field] != nil, "a response lacks \(field)")
            }
            let timings = try #require(entry["timings"] as? [String: Any])
            // HAR: time is the sum of the timings that are not -1.
            let sum = ["blocked", "dns", "connect", "send", "wait", "receive", "ssl"].compactMap { timings[$0] as? Double }.filter { $0 >= 0 }.reduce(0, +)
            #expect(entry["time"] as? Double == sum)
        }
    }

    @Test("A request and its response are one entry, threaded by correlation id, timed from arrival to answer")
    func threading() throws {
        let (_, _, entries) = try Self.archive()
        let answered = try #require(entries.first { Self.bridge($0)["correlationId"] as? String == "dev-1" })
        #expect(answered["startedDateTime"] as? String == "2023-11-14T22:13:20.000Z")
        #expect(answered["time"] as? Double == 42)
        #expect((answered["timings"] as? [String: Any])?["wait"] as? Double == 42)
        #expect(Self.request(answered)["url"] as? String == "gbgbridge://host/device.info")
        #expect(Self.response(answered)["status"] as? Int == 200)
        let content = try #require(Self.response(answered)["content"] as? [String: Any])
        #expect((content["text"] as? String)?.contains("\"model\":\"iPhone\"") == true)
        #expect(Self.bridge(answered)["seq"] as? Int == 1)
        #expect(Self.bridge(answered)["responseSeq"] as? Int == 2)

        let busy = try #require(entries.first { Self.bridge($0)["correlationId"] as? String == "cap-2" })
        #expect(Self.response(busy)["status"] as? Int == 500)
        #expect(Self.response(busy)["statusText"] as? String == "error BUSY")
        #expect(busy["time"] as? Double == 1)

        let unanswered = try #require(entries.first { Self.bridge($0)["correlationId"] as? String == "nfc-1" })
        #expect(Self.response(unanswered)["status"] as? Int == 0)
        #expect(Self.response(unanswered)["statusText"] as? String == "no response")
        #expect(unanswered["time"] as? Double == 0)

        let event = try #require(entries.first { Self.bridge($0)["correlationId"] as? String == "ev-1" })
        #expect(Self.request(event)["url"] as? String == "gbgbridge://journey/host.ready")
        #expect(Self.response(event)["status"] as? Int == 204)
        #expect(Self.bridge(event)["direction"] as? String == "sent")

        let orphan = try #require(entries.first { Self.bridge($0)["correlationId"] as? String == "gone-1" })
        #expect(Self.request(orphan)["postData"] == nil)
        #expect((orphan["comment"] as? String)?.contains("not in the log") == true)

        let malformed = try #require(entries.first { Self.bridge($0)["type"] as? String == "malformed" })
        #expect(Self.response(malformed)["status"] as? Int == 0)
        #expect((Self.request(malformed)["postData"] as? [String: Any])?["mimeType"] as? String == "text/plain")

        // In the order the first message of each crossed the bridge.
        let starts = entries.compactMap { $0["startedDateTime"] as? String }
        #expect(starts == starts.sorted())
    }

    @Test("Untrusted text cannot break the archive: bodies, actions and reasons read back exactly")
    func hostileText() throws {
        let (data, _, entries) = try Self.archive()
        let answered = try #require(entries.first { Self.bridge($0)["correlationId"] as? String == "dev-1" })
        let body = try #require((Self.request(answered)["postData"] as? [String: Any])?["text"] as? String)
        let message = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        #expect(((message["payload"] as? [String: Any])?["data"] as? [String: Any])?["note"] as? String == Self.hostile)
        let unanswered = try #require(entries.first { Self.bridge($0)["correlationId"] as? String == "nfc-1" })
        // The action is percent-encoded in the URL (ASCII only), and whole in the body.
        let url = try #require(Self.request(unanswered)["url"] as? String)
        #expect(url.hasPrefix("gbgbridge://host/a%22b%5Cc%3C%2Fscript%3E%00%1B"))
        #expect(url.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x21 && $0.value < 0x7F })
        let malformed = try #require(entries.first { Self.bridge($0)["type"] as? String == "malformed" })
        #expect(Self.bridge(malformed)["reason"] as? String == "not JSON: " + Self.hostile)
        #expect((Self.request(malformed)["postData"] as? [String: Any])?["text"] as? String == "{oops " + Self.hostile)
        // No raw control character anywhere in the text: JSON strings escape them.
        #expect(!data.contains { $0 < 0x20 || $0 == 0x7F })
    }

    @Test("node's JSON.parse reads the archive (skipped when node is not installed)", .enabled(if: HARExportTests.node != nil))
    func nodeParses() throws {
        let node = try #require(Self.node)
        let directory = try TemporaryDirectory()
        let file = directory.file("session.har")
        try Self.archive().data.write(to: URL(fileURLWithPath: file))
        let result = try SpawnedProcess.run(
            [
                node, "-e",
                "const h = JSON.parse(require('fs').readFileSync(process.argv[1], 'utf8')); if (h.log.version !== '1.2' || h.log.entries.length !== 6) process.exit(3);",
                file,
            ], timeout: 120)
        #expect(result.status == 0, "\(result.errors)")
    }

    /// node's path, when it is installed.
    static let node: String? = ["/usr/bin/node", "/usr/local/bin/node", "/opt/homebrew/bin/node"].first { FileManager.default.isExecutableFile(atPath: $0) }
}
