import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `auto-respond` against a real host: a rule answers exactly N requests through the ordinary
/// respond command, marked as answered by the rule.
@Suite("Scripting: auto-respond", .serialized)
struct ScriptingAutoRespondTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    @Test("--times 2 answers exactly two requests (one pending at start, one new), then exits 0; the third stays pending")
    func answersExactlyTwo() async throws {
        // One is pending when auto-respond starts and the next is new (see the scenario).
        let host = try await ScriptedHost(binary: binary, scenario: scriptingChainedNFCScenario)
        defer { host.stop() }
        #expect(await host.waitForPending { $0 == ["nfc-1"] })

        let run = try await host.run(
            ["auto-respond", "--action", "nfc.read", "--times", "2", "--data", #"{"uid": "04A2"}"#, "--timeout", "30", "--journey-timeout", "3600"], binary: binary)
        #expect(run.status == 0, "\(run)")
        #expect(run.lines.count == 2, "one line per hit: \(run)")
        #expect(run.lines.first?.contains("nfc.read#1  answered nfc.read nfc-1 with success  (hit 1 of 2)") == true, "\(run)")
        #expect(run.lines.last?.contains("answered nfc.read nfc-2 with success  (hit 2 of 2)") == true, "\(run)")
        #expect(run.stderr.contains("rules at exit:"))
        #expect(run.stderr.contains("nfc.read#1  action nfc.read  → success  with data  2 of 2 answered (used up)"), "\(run)")

        // The third request arrives and nobody answers it.
        let third = try await host.run(["wait-for", "--filter", "id:nfc-3", "--timeout", "20", "--journey-timeout", "3600"], binary: binary)
        #expect(third.status == 0, "\(third)")
        try await Task.sleep(for: .milliseconds(300))
        #expect(try host.state().pending.map(\.correlationId) == ["nfc-3"])
        #expect(await waitUntil(timeout: .seconds(60)) { host.receivedResponse("nfc-1") != nil && host.receivedResponse("nfc-2") != nil })
        #expect(host.receivedResponse("nfc-3") == nil)
        let answer = try #require((host.receivedResponse("nfc-2")?["message"] as? [String: Any])?["payload"] as? [String: Any])
        #expect((answer["data"] as? [String: Any])?["uid"] as? String == "04A2")

        // Marked in everyone's log as answered by the rule.
        let ruled = try await host.run(["tail", "--filter", "is:rule"], binary: binary)
        #expect(ruled.lines.count == 2, "\(ruled)")
        #expect(ruled.lines.allSatisfy { $0.contains("R ") })
        let records = try await host.run(["tail", "--json", "--filter", "is:rule"], binary: binary)
        #expect(records.lines.compactMap { scriptingJSON($0)?["rule"] as? String } == ["nfc.read#1", "nfc.read#1"])
    }

    @Test("rules from a file: a delay is waited out, an --always rule keeps answering until SIGTERM, and the hits are listed")
    func rulesFile() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: """
            {"name": "later", "steps": [
              {"wait": 2000},
              {"send": {"payload": {"action": "nfc.read"}, "correlationId": "nfc-1", "timeoutMs": 600000}},
              {"send": {"payload": {"action": "wallet.addPass"}, "correlationId": "wallet-1", "timeoutMs": 600000}},
              {"wait": 200},
              {"send": {"payload": {"action": "wallet.removePass"}, "correlationId": "wallet-2", "timeoutMs": 600000}},
              {"wait": 600000}
            ]}
            """)
        defer { host.stop() }
        let rules = host.directory.file("rules.json")
        try """
            {"rules": [
              {"name": "slow-nfc", "action": "nfc.*", "times": 1, "delayMs": 400, "status": "error", "error": {"code": "TIMEOUT"}},
              {"action": "wallet.*", "status": "unsupported", "error": {"code": "UNSUPPORTED"}}
            ]}
            """.write(toFile: rules, atomically: true, encoding: .utf8)
        let responder = try host.start(["auto-respond", "--rules", rules], binary: binary)
        defer { responder.kill() }
        #expect(await waitUntil(timeout: .seconds(20)) {
            ["nfc-1", "wallet-1", "wallet-2"].allSatisfy { host.receivedResponse($0) != nil }
        })
        #expect(responder.isRunning, "an --always rule never runs out")
        responder.signal(SIGTERM)
        #expect(await responder.waitForExit() == 0, "\(responder.standardError)")
        #expect(responder.standardError.contains("slow-nfc  action nfc.*  → error  error TIMEOUT  after 400 ms  1 of 1 answered (used up)"), "\(responder.standardError)")
        #expect(responder.standardError.contains("wallet.*#2  action wallet.*  → unsupported  error UNSUPPORTED  2 answered (every request)"), "\(responder.standardError)")

        let nfc = try #require((host.receivedResponse("nfc-1")?["message"] as? [String: Any])?["payload"] as? [String: Any])
        #expect(nfc["status"] as? String == "error")
        #expect((nfc["error"] as? [String: Any])?["recoverable"] as? Bool == true, "TIMEOUT is recoverable by default")
        // The delay: the response left at least 400 ms after the request arrived.
        let records = try await host.run(["tail", "--json", "--filter", "id:nfc-1"], binary: binary)
        let times = records.lines.compactMap { scriptingJSON($0)?["time"] as? Double }
        #expect(times.count == 2)
        if times.count == 2 { #expect(times[1] - times[0] >= 400, "\(times)") }
    }

    @Test("rule mistakes are usage errors (64) before attaching; rules not used up in time are exit 4")
    func mistakes() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: scriptingHeldScenario)
        defer { host.stop() }
        let noCount = try await host.run(["auto-respond", "--action", "nfc.read"], binary: binary)
        #expect(noCount.status == 64)
        #expect(noCount.stderr.contains("--times N, or --always"))
        #expect(try await host.run(["auto-respond", "--action", "nfc.read", "--times", "2", "--always"], binary: binary).status == 64)
        #expect(try await host.run(["auto-respond", "--times", "2"], binary: binary).status == 64)
        #expect(try await host.run(["auto-respond"], binary: binary).status == 64)
        let badData = try await host.run(["auto-respond", "--action", "nfc.read", "--always", "--data", "{"], binary: binary)
        #expect(badData.status == 64)
        #expect(badData.stderr.contains("line 1, column 2"))
        let rules = host.directory.file("typo.json")
        try #"{"rules": [{"acton": "nfc.read"}]}"#.write(toFile: rules, atomically: true, encoding: .utf8)
        let typo = try await host.run(["auto-respond", "--rules", rules], binary: binary)
        #expect(typo.status == 64)
        #expect(typo.stderr.contains("rules[0].acton: unknown field \"acton\""), "\(typo)")
        #expect(try host.state().pending.count == 2, "nothing was answered")

        let late = try await host.run(["auto-respond", "--action", "never.*", "--times", "1", "--timeout", "1"], binary: binary)
        #expect(late.status == 4, "\(late)")
        #expect(late.stderr.contains("0 of 1 answered"))
    }
}
