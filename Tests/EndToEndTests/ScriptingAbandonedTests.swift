import Foundation
import TestSupport
import Testing

/// `wait-for` and `auto-respond` skip requests the journey has abandoned (pending longer than
/// its timeout), against a real host. The web SDK's 30 s is not waited out: `--journey-timeout`
/// says this journey gives up after half a second, as a journey with its own timeout would.
@Suite("Scripting: abandoned requests", .serialized)
struct ScriptingAbandonedTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    @Test("wait-for and auto-respond skip a request pending past the journey's timeout, with a note; --include-abandoned takes it")
    func skipsAbandoned() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: """
            {"name": "held", "steps": [
              {"send": {"payload": {"action": "nfc.read"}, "correlationId": "nfc-old", "timeoutMs": 600000}},
              {"wait": 600000}
            ]}
            """)
        defer { host.stop() }
        #expect(await host.waitForPending { $0 == ["nfc-old"] })
        // Fresh by the web SDK's 30 s: taken as before. (The 30 s themselves are pinned in
        // ReplySchedulerTests.webSDKTimeouts.) On a machine so busy that the request has waited
        // 30 s by the time wait-for runs, the journey really has given up on it: only a request
        // still fresh when wait-for ends must have been taken.
        let since = try #require(try host.state().pending.first?.since)
        let fresh = try await host.run(["wait-for", "--filter", "action:nfc.read", "--timeout", "20"], binary: binary)
        if Date().timeIntervalSince1970 * 1000 - since < 29_000 {
            #expect(fresh.status == 0 && fresh.stdout == "nfc-old\n", "\(fresh)")
        }

        // Wait (bounded) until the request has waited longer than half a second on the host's clock.
        #expect(await waitUntil(timeout: .seconds(60)) { Date().timeIntervalSince1970 * 1000 - since > 700 })

        let skipped = try await host.run(["wait-for", "--journey-timeout", "0.5", "--timeout", "1"], binary: binary)
        #expect(skipped.status == 4, "\(skipped)")
        #expect(skipped.stdout.isEmpty)
        #expect(skipped.stderr.contains("skipped nfc.read nfc-old: pending for"), "\(skipped)")
        #expect(skipped.stderr.contains("--include-abandoned"), "\(skipped)")

        let included = try await host.run(["wait-for", "--journey-timeout", "0.5", "--include-abandoned", "--timeout", "20"], binary: binary)
        #expect(included.status == 0 && included.stdout == "nfc-old\n", "\(included)")

        let responder = try await host.run(
            ["auto-respond", "--journey-timeout", "0.5", "--action", "nfc.read", "--times", "1", "--timeout", "1"], binary: binary)
        #expect(responder.status == 4, "the rule was not used up: \(responder)")
        #expect(responder.stderr.contains("skipped nfc.read nfc-old"), "\(responder)")
        #expect(try host.state().pending.map(\.correlationId) == ["nfc-old"], "nobody answered it")

        let answering = try await host.run(
            ["auto-respond", "--journey-timeout", "0.5", "--include-abandoned", "--action", "nfc.read", "--times", "1", "--timeout", "20"], binary: binary)
        #expect(answering.status == 0, "\(answering)")
        #expect(await waitUntil(timeout: .seconds(60)) { host.receivedResponse("nfc-old") != nil })
    }

    @Test("--journey-timeout must be a positive number of seconds")
    func badJourneyTimeout() async throws {
        let run = try await runCLI(["wait-for", "--journey-timeout", "0", "--socket", "/nonexistent.sock"], binary: binary)
        #expect(run.status == 64, "\(run)")
        #expect(run.stderr.contains("--journey-timeout takes a number of seconds"), "\(run)")
    }
}
