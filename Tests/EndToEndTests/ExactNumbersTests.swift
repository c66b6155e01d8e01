import Foundation
import TestSupport
import InspectorClient
import InspectorProtocol
import Testing

/// The message the journey sends as exact text: integers above 2^53, `1.0`, `-0`, and keys out
/// of alphabetical order. Decoded into `Double`s it would read `9007199254740992`,
/// `12345678901234567000`, `1`, and sorted.
private let exactMessage =
    #"{"version":"1.0","correlationId":"big-1","type":"event","timestamp":1700000000000,"payload":{"action":"journey.step","data":{"z":1,"a":2,"id":9007199254740993,"big":12345678901234567890,"f":1.0,"n":-0}}}"#

/// A request nobody answers (the demo profile has no `nfc.read` handler), in exact text too.
private let exactRequest =
    #"{"version":"1.0","correlationId":"after-1","type":"request","timestamp":1700000000000,"payload":{"action":"nfc.read","data":{"serial":12345678901234567891,"ratio":2.50}}}"#

/// Sends the message, then input the host refuses (a number beyond a `Double`), then the request,
/// which stays pending: once it is pending, all three are in the host's log.
private let exactNumbersScenario = """
    {"name": "numbers", "steps": [
      {"sendRaw": "\(exactMessage.replacingOccurrences(of: "\"", with: "\\\""))"},
      {"sendRaw": "{\\"too\\":1e400}"},
      {"sendRaw": "\(exactRequest.replacingOccurrences(of: "\"", with: "\\\""))"},
      {"wait": 600000}
    ]}
    """

/// Issue 13, trap 4 ("Integers above 2^53 are shown rounded"), against a real host: every
/// printer of a message shows the text the journey sent (docs/inspector-protocol.md, 4.1:
/// a Traffic record's `message` is "exactly as it crossed the bridge").
@Suite("Messages printed exactly as they crossed the bridge", .serialized)
struct ExactNumbersTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    @Test("tail --json, tail --filter body:, snapshot --json, wait-for --json and a recording keep big integers, 1.0, -0 and key order")
    func exactEverywhere() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: exactNumbersScenario)
        defer { host.stop() }
        let file = host.directory.file("session.jsonl")
        let recorder = try host.start(["record", file], binary: binary)
        defer { recorder.kill() }
        #expect(await host.waitForPending { $0.contains("after-1") }, "the journey's last request never became pending")

        let tail = try await host.run(["tail", "--json"], binary: binary)
        #expect(tail.status == 0, "\(tail)")
        let line = try #require(tail.lines.first { $0.contains("big-1") }, "\(tail)")
        #expect(line.contains(#""message":\#(exactMessage)"#), "tail --json re-encoded the message: \(line)")
        let refused = try #require(tail.lines.first { $0.contains(#""kind":"malformed""#) }, "\(tail)")
        #expect(refused.contains(#"1e400"#), "\(refused)")

        let text = try await host.run(["tail", "--filter", "body:9007199254740993"], binary: binary)
        #expect(text.status == 0, "\(text)")
        #expect(text.lines.count == 1 && text.lines.first?.contains("journey.step  big-1") == true, "\(text)")

        let snapshot = try await host.run(["snapshot", "--json"], binary: binary)
        #expect(snapshot.status == 0, "\(snapshot)")
        #expect(snapshot.stdout.contains(#""message":\#(exactMessage)"#), "snapshot --json re-encoded the message: \(snapshot.stdout)")
        // The pending request, in the log and in pending.
        #expect(snapshot.stdout.components(separatedBy: #""message":\#(exactRequest)"#).count == 3, "\(snapshot.stdout)")

        let waited = try await host.run(["wait-for", "--json", "--filter", "body:12345678901234567891", "--timeout", "20", "--journey-timeout", "3600"], binary: binary)
        #expect(waited.status == 0, "\(waited)")
        #expect(waited.stdout.contains(#""message":\#(exactRequest)"#), "wait-for --json re-encoded the request: \(waited)")

        // The recording holds the frames as received; opened, the log row is the exact text.
        #expect(await waitUntil(timeout: .seconds(20)) { ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").contains("after-1") })
        var state = LiveState()
        for frame in Recording.load(from: URL(fileURLWithPath: file)).frames { state.apply(frame, at: 0) }
        let row = try #require(state.log.first { $0.correlationId == "big-1" })
        #expect(String(decoding: row.json, as: UTF8.self) == exactMessage)
    }
}
