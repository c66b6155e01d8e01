import BridgeCore
import Foundation
import InspectorProtocol
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `fault` and `faults` against a real `bridge-inspector host` with the demo profile's handled
/// `device.info` (issue 29, item 1): what the journey receives, the marks in the host's log, the
/// hit counts, and refusals. Every wait is bounded; no wall-clock duration is asserted but "at
/// least".
@Suite("Scripting: fault, faults", .serialized)
struct ScriptingFaultTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    /// Opens the gated journey's gate and waits for its next device.info (as the breakpoint tests do).
    func openGate(_ host: ScriptedHost) async throws -> String {
        try await ScriptingBreakpointTests().openGate(host)
    }

    /// The payload of the response the journey received for `id`, once it has.
    func journeyPayload(_ host: ScriptedHost, _ id: String) async throws -> [String: Any] {
        _ = await waitUntil(timeout: .seconds(20)) { host.receivedResponse(id) != nil }
        let response = try #require(host.receivedResponse(id), "the journey got no answer to \(id)")
        return (response["message"] as? [String: Any])?["payload"] as? [String: Any] ?? [:]
    }

    /// Waits for `process` to print its `count`th JSON line of `kind` (as the breakpoint tests do).
    func waitForLine(_ process: BinaryProcess, kind: String, count: Int) async throws -> [String: Any] {
        try await ScriptingBreakpointTests().waitForLine(process, kind: kind, count: count)
    }

    @Test("BUSY, BUSY, then the handler answers: the journey gets exactly that, the log marks it, faults counts it")
    func busyTwiceThenHandler() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: breakpointGatedScenario)
        defer { host.stop() }
        let faulter = try host.start(["fault", "action:device.info", "--sequence", "error:BUSY,error:BUSY,pass", "--json"], binary: binary)
        defer { faulter.kill() }
        let started = try await waitForLine(faulter, kind: "fault", count: 1)
        let rule = try #require(started["id"] as? String)

        let first = try await openGate(host)
        #expect((try await journeyPayload(host, first)["error"] as? [String: Any])?["code"] as? String == "BUSY")
        #expect((try await journeyPayload(host, first)["error"] as? [String: Any])?["recoverable"] as? Bool == true)
        let second = try await openGate(host)
        #expect((try await journeyPayload(host, second)["error"] as? [String: Any])?["code"] as? String == "BUSY")
        let third = try await openGate(host)
        let answered = try await journeyPayload(host, third)
        #expect(answered["status"] as? String == "success", "\(answered)")
        #expect(answered["error"] == nil)

        // One line for each request the rule answered and one for its error answer.
        let faulted = try await waitForLine(faulter, kind: "faulted", count: 4)
        #expect((faulted["fault"] as? [String: Any])?["effect"] as? String == "errored")
        #expect((faulted["message"] as? [String: Any])?["correlationId"] as? String == second)
        #expect((faulted["message"] as? [String: Any])?["type"] as? String == "response")
        // The host's log marks the two requests and their error answers, and only them.
        let marked = try host.state().messages.filter { $0.fault != nil }
        #expect(marked.map(\.message.correlationId) == [first, first, second, second])
        #expect(marked.map(\.message.type) == [.request, .response, .request, .response])
        #expect(marked.allSatisfy { $0.fault == FaultMark(rule: rule, effect: .errored, detail: "BUSY") })
        let tail = try await host.run(["tail", "--filter", "is:fault"], binary: binary)
        #expect(tail.status == 0, "\(tail)")
        #expect(tail.stdout.contains(first) && tail.stdout.contains(second) && !tail.stdout.contains(third), "\(tail)")

        let listed = try await host.run(["faults", "--json"], binary: binary)
        let faults = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]], "\(listed)")
        #expect(faults.first?["hits"] as? Int == 2)
        #expect(faults.first?["owner"] as? String == "bridge-inspector fault")
        let text = try await host.run(["faults"], binary: binary)
        #expect(text.stdout.contains("\(rule)  bridge-inspector fault  2 hits  sequence error BUSY, error BUSY, pass  action:device.info"), "\(text)")

        // Ctrl-C (SIGTERM here) removes the rule.
        faulter.signal(SIGTERM)
        #expect(await faulter.waitForExit() == 0, "\(faulter.standardError)")
        let after = try await host.run(["faults", "--json"], binary: binary)
        #expect(after.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "\(after)")
    }

    @Test("never-answer: the handler runs, its answer is logged and marked, and nothing reaches the journey")
    func neverAnswerAndDelay() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: breakpointGatedScenario)
        defer { host.stop() }
        let silent = try host.start(["fault", "action:device.info", "--never-answer", "--times", "1", "--json"], binary: binary)
        defer { silent.kill() }
        _ = try await waitForLine(silent, kind: "fault", count: 1)
        let unanswered = try await openGate(host)
        _ = try await waitForLine(silent, kind: "faulted", count: 2)
        let swallowed = try host.state().messages.first { $0.direction == .sent && $0.message.correlationId == unanswered }
        #expect(swallowed?.fault?.effect == .neverAnswered, "the handler's answer is logged, marked, not delivered")
        #expect(try host.state().pending.allSatisfy { $0.correlationId != unanswered })
        #expect(host.receivedResponse(unanswered) == nil)
        silent.signal(SIGTERM)
        #expect(await silent.waitForExit() == 0, "\(silent.standardError)")
    }

    @Test("delay: the handler's answer reaches the journey at least the delay after the request, by the host's clock")
    func delayedAnswer() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: breakpointGatedScenario)
        defer { host.stop() }
        let slow = try host.start(["fault", "action:device.info dir:in", "--delay", "300ms", "--json"], binary: binary)
        defer { slow.kill() }
        _ = try await waitForLine(slow, kind: "fault", count: 1)
        let id = try await openGate(host)
        let payload = try await journeyPayload(host, id)
        #expect(payload["status"] as? String == "success")
        let messages = try host.state().messages.filter { $0.message.correlationId == id }
        let request = try #require(messages.first { $0.direction == .received })
        let response = try #require(messages.first { $0.direction == .sent })
        #expect(response.time - request.time >= 300, "answered \(response.time - request.time) ms after the request")
        #expect(response.fault == FaultMark(rule: "f1", effect: .delayed, detail: "300ms"))
    }

    @Test("Bad rules exit 64 with what is wrong; a rules file's hostile text is printed sanitized")
    func refusalsAndHostileFile() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: breakpointGatedScenario)
        defer { host.stop() }
        for (arguments, why) in [
            (["fault", "action:x", "--error", "CAMERA_ON_FIRE"], "an undocumented code without --recoverable"),
            (["fault", "action:x"], "no fault"), (["fault", "action:x", "--drop", "--duplicate"], "two faults"),
            (["fault", "is:pending", "--drop"], "a term that cannot apply in flight"),
            (["fault", "action:x", "--delay", "3s..1s"], "a backwards range"),
            (["fault", "action:x", "--sequence", "explode"], "an unknown step"),
        ] {
            let refused = try await host.run(arguments, binary: binary)
            #expect(refused.status == 64, "\(why): \(refused)")
        }
        let undocumented = try await host.run(["fault", "action:x", "--error", "CAMERA_ON_FIRE"], binary: binary)
        #expect(undocumented.stderr.contains("give recoverable"), "\(undocumented)")

        let file = host.directory.file("hostile-faults.json")
        let hostile = #"{"version":1,"faults":[{"filter":"action:\u001b]0;pwned\u0007x","effect":{"kind":"error","code":"\u001b[2JMINE"}}]}"#
        try Data(hostile.utf8).write(to: URL(fileURLWithPath: file))
        let refused = try await host.run(["fault", "--file", file], binary: binary)
        #expect(refused.status == 64, "\(refused)")
        #expect(refused.stderr.contains("faults[0]"), "the error names the rule: \(refused)")
        #expect(!refused.stderr.contains("\u{1b}") && !refused.stderr.contains("\u{07}"), "\(refused.stderr.debugDescription)")
    }
}
