import Foundation
import TestSupport
import Testing

/// Text a hostile journey sends: an OSC window-title sequence (ESC … BEL), the C1 CSI U+009B,
/// the bidi override U+202E (Trojan Source) and the line separator U+2028.
let hostileText = "evil\u{1B}]0;pwned\u{07} \u{9B}2J \u{202E}txt.exe \u{2028}end"

/// A journey whose scenario name, correlation id and data all carry `hostileText`.
let hostileScenario = """
    {"name": "hostile\\u001b]0;TITLE\\u0007", "steps": [
      {"send": {"payload": {"action": "nfc.read", "data": {"note": "evil\\u001b]0;pwned\\u0007 \\u009b2J \\u202etxt.exe \\u2028end"}},
                "correlationId": "id-\\u001b]0;T\\u0007\\u009b\\u202e\\u2028", "timeoutMs": 600000}},
      {"wait": 600000}
    ]}
    """

/// The correlation id `hostileScenario` sends.
let hostileId = "id-\u{1B}]0;T\u{07}\u{9B}\u{202E}\u{2028}"

/// The code points in `text` that drive a terminal (C0 other than newline, DEL, C1, bidi
/// controls, line and paragraph separators): none may be printed raw.
func terminalControls(in text: String) -> [String] {
    text.unicodeScalars.filter { scalar in
        let value = scalar.value
        switch value {
        case 0x0A: return false
        case 0..<0x20, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: return true
        default: return false
        }
    }.map { "U+" + String($0.value, radix: 16, uppercase: true) }
}

/// Issue 11, point 4: nothing the CLI prints can drive the terminal. Untrusted text from a journey
/// goes through `tail --json`, `snapshot --json`, `respond`, `event` and `host`'s own stderr
/// as `\u` escapes (JSON) or visible escapes (text), and the JSON still decodes to what was sent.
@Suite("Scripting: hostile journey text never reaches the terminal raw", .serialized)
struct ScriptingTerminalSafetyTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    func hostileHost() async throws -> ScriptedHost {
        let host = try await ScriptedHost(binary: binary, scenario: hostileScenario)
        let ready = await host.waitForPending { $0.contains(hostileId) }
        try #require(ready, "the hostile request never became pending")
        return host
    }

    @Test("snapshot --json (compact and pretty) escapes controls as \\u and decodes to the same text; lastError is null")
    func snapshot() async throws {
        let host = try await hostileHost()
        defer { host.stop() }
        for arguments in [["snapshot", "--json"], ["snapshot", "--json", "--pretty"]] {
            let result = try await host.run(arguments, binary: binary)
            #expect(result.status == 0, "\(result)")
            #expect(terminalControls(in: result.stdout).isEmpty, "\(arguments): \(terminalControls(in: result.stdout))")
            let state = try #require(scriptingJSON(result.stdout), "\(arguments) prints valid JSON")
            let pending = try #require((state["pending"] as? [[String: Any]])?.first)
            #expect(pending["correlationId"] as? String == hostileId)
            let message = try #require(pending["message"] as? [String: Any])
            let data = (message["payload"] as? [String: Any])?["data"] as? [String: Any]
            #expect(data?["note"] as? String == hostileText)
            #expect(state.keys.contains("lastError") && state["lastError"] is NSNull, "lastError is null when there is none")
        }
        let compact = try await host.run(["snapshot", "--json"], binary: binary)
        #expect(compact.stdout.contains("\"lastError\":null"), "as docs/cli.md and the socket frame say")
        #expect(compact.stdout.contains("\\u009b"), "C1 written as a JSON escape")
        #expect(compact.stdout.contains("\\u2028"), "U+2028 written as a JSON escape, so JSON Lines readers keep the record whole")
    }

    @Test("tail --json escapes controls in the records it prints; every line still decodes to what was sent")
    func tail() async throws {
        let host = try await hostileHost()
        defer { host.stop() }
        let result = try await host.run(["tail", "--json"], binary: binary)
        #expect(result.status == 0, "\(result)")
        #expect(terminalControls(in: result.stdout).isEmpty, "\(terminalControls(in: result.stdout))")
        let records = result.lines.compactMap(scriptingJSON)
        #expect(records.count == result.lines.count, "every line is one JSON object")
        let record = try #require(records.first { ($0["message"] as? [String: Any])?["correlationId"] as? String == hostileId })
        let data = ((record["message"] as? [String: Any])?["payload"] as? [String: Any])?["data"] as? [String: Any]
        #expect(data?["note"] as? String == hostileText)

        let text = try await host.run(["tail"], binary: binary)
        #expect(terminalControls(in: text.stdout).isEmpty, "\(terminalControls(in: text.stdout))")
    }

    @Test("respond and event print the message sent with controls escaped, decoding to the same text")
    func respondAndEvent() async throws {
        let host = try await hostileHost()
        defer { host.stop() }
        let dataFile = host.directory.file("data.json")
        let data = try JSONSerialization.data(withJSONObject: ["echo": hostileText])
        try data.write(to: URL(fileURLWithPath: dataFile))

        let respond = try await host.run(["respond", hostileId, "--data", "@" + dataFile], binary: binary)
        #expect(respond.status == 0, "\(respond)")
        #expect(terminalControls(in: respond.stdout).isEmpty, "\(terminalControls(in: respond.stdout))")
        let response = try #require(scriptingJSON(respond.stdout), "\(respond)")
        #expect(response["correlationId"] as? String == hostileId)
        #expect(((response["payload"] as? [String: Any])?["data"] as? [String: Any])?["echo"] as? String == hostileText)

        let event = try await host.run(["event", "journey.note", "--data", "@" + dataFile], binary: binary)
        #expect(event.status == 0, "\(event)")
        #expect(terminalControls(in: event.stdout).isEmpty, "\(terminalControls(in: event.stdout))")
        let sent = try #require(scriptingJSON(event.stdout), "\(event)")
        #expect(((sent["payload"] as? [String: Any])?["data"] as? [String: Any])?["echo"] as? String == hostileText)
    }

    @Test("host writes no raw ESC to its stderr when the journey's scenario carries an OSC title sequence")
    func hostStandardError() async throws {
        let host = try await hostileHost()
        defer { host.stop() }
        #expect(await waitUntil(timeout: .seconds(20)) { host.process.standardError.contains("journey scenario") })
        let stderr = host.process.standardError
        #expect(terminalControls(in: stderr).isEmpty, "\(terminalControls(in: stderr)) in \(stderr)")
        #expect(stderr.contains("hostile\\x1B]0;TITLE\\x07"), "the title sequence is shown as visible escapes: \(stderr)")
    }
}
