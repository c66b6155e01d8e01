import BridgeCore
import Foundation
import InspectorProtocol
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A journey that asks `gate.open` (no handler: it waits in pendingRequests) and, each time the
/// test answers it, asks the demo profile's handled `device.info` and waits for that answer.
/// Nothing is sent before the test opens the gate, so a breakpoint set by a slow `break` process
/// is always in place first.
let breakpointGatedScenario = """
    {"name": "gated-device-info", "steps": [
      {"repeat": {"times": 20, "steps": [
        {"send": {"payload": {"action": "gate.open"}, "label": "gate", "timeoutMs": 600000}},
        {"awaitResponse": {"label": "gate", "timeoutMs": 600000}},
        {"send": {"payload": {"action": "device.info"}, "label": "info", "timeoutMs": 600000}},
        {"awaitResponse": {"label": "info", "timeoutMs": 600000}}
      ]}},
      {"wait": 600000}
    ]}
    """

/// A journey that asks device.info (answered by its handler) and nfc.read (left pending): logged
/// journey messages to replay.
let replayScenario = """
    {"name": "replay", "steps": [
      {"send": {"payload": {"action": "device.info", "data": {"detail": "full"}}, "correlationId": "info-1", "label": "info", "timeoutMs": 600000}},
      {"awaitResponse": {"label": "info", "timeoutMs": 600000}},
      {"send": {"payload": {"action": "nfc.read"}, "correlationId": "nfc-1", "timeoutMs": 600000}},
      {"wait": 600000}
    ]}
    """

/// A journey that, once the test answers `gate.open`, sends the hostile request of
/// `hostileScenario` (its correlation id and data carry terminal controls).
let hostileGatedScenario = """
    {"name": "hostile-gated", "steps": [
      {"send": {"payload": {"action": "gate.open"}, "label": "gate", "timeoutMs": 600000}},
      {"awaitResponse": {"label": "gate", "timeoutMs": 600000}},
      {"send": {"payload": {"action": "nfc.read", "data": {"note": "evil\\u001b]0;pwned\\u0007 \\u009b2J \\u202etxt.exe \\u2028end"}},
                "correlationId": "id-\\u001b]0;T\\u0007\\u009b\\u202e\\u2028", "timeoutMs": 600000}},
      {"wait": 600000}
    ]}
    """

/// `break`, `breakpoints`, `held`, `release`, `answer`, `drop`, `inject` and `replay` against a
/// real `bridge-inspector host` (issue 15): what they print, what the journey gets, exit codes.
@Suite("Scripting: break, held, release, answer, drop, inject, replay", .serialized)
struct ScriptingBreakpointTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    /// Answers the pending gate.open so the journey sends its next device.info; returns that
    /// request's correlation id once the host has received it.
    func openGate(_ host: ScriptedHost) async throws -> String {
        var gate: String?
        _ = await waitUntil(timeout: .seconds(20)) {
            gate = (try? host.state())?.pending.first { $0.action == "gate.open" }?.correlationId
            return gate != nil
        }
        let id = try #require(gate, "gate.open never became pending")
        let before = Set(((try? host.state())?.messages ?? []).map(\.message.correlationId))
        let opened = try await host.run(["respond", id, "--quiet"], binary: binary)
        try #require(opened.status == 0, "\(opened)")
        var info: String?
        _ = await waitUntil(timeout: .seconds(20)) {
            info = (try? host.state())?.messages.first {
                $0.direction == .received && $0.message.payload.action == "device.info" && !before.contains($0.message.correlationId)
            }?.message.correlationId
            return info != nil
        }
        return try #require(info, "the journey never sent device.info")
    }

    /// The JSON lines `process` printed whose kind is `kind`.
    func lines(_ process: BinaryProcess, kind: String) -> [[String: Any]] {
        process.standardOutput.split(separator: "\n").compactMap(scriptingJSON).filter { $0["kind"] as? String == kind }
    }

    /// Waits for `process` to print its `count`th line of `kind`; returns it.
    func waitForLine(_ process: BinaryProcess, kind: String, count: Int) async throws -> [String: Any] {
        let found = await waitUntil(timeout: .seconds(20)) { self.lines(process, kind: kind).count >= count || !process.isRunning }
        try #require(found && lines(process, kind: kind).count >= count, "no \(kind) line \(count): \(process.standardOutput) \(process.standardError)")
        return lines(process, kind: kind)[count - 1]
    }

    /// The data of the response the journey received for `id`, once it has.
    func journeyData(_ host: ScriptedHost, _ id: String) async throws -> [String: Any] {
        _ = await waitUntil(timeout: .seconds(20)) { host.receivedResponse(id) != nil }
        let response = try #require(host.receivedResponse(id), "the journey got no answer to \(id)")
        let payload = (response["message"] as? [String: Any])?["payload"] as? [String: Any]
        return payload?["data"] as? [String: Any] ?? [:]
    }

    @Test("wait-for --held prints the id of the oldest matching hold, or of the next one; --new skips those already held; --held with --slot is a usage error")
    func waitForHeld() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: breakpointGatedScenario)
        defer { host.stop() }
        let misuse = try await host.run(["wait-for", "--held", "--slot", "document"], binary: binary)
        #expect(misuse.status == 64, "\(misuse)")
        let breaker = try host.start(["break", "action:device.info", "--hold", "600", "--json"], binary: binary)
        defer { breaker.kill() }
        _ = try await waitForLine(breaker, kind: "breakpoint", count: 1)

        // Waiting before anything is held: the next hold's id.
        let waiting = try host.start(["wait-for", "--held", "--filter", "type:request", "--timeout", "300"], binary: binary)
        defer { waiting.kill() }
        let first = try await openGate(host)
        #expect(await waiting.waitForExit() == 0, "\(waiting.standardError)")
        let held = try await waitForLine(breaker, kind: "held", count: 1)
        let hold = try #require(held["id"] as? String)
        #expect((held["message"] as? [String: Any])?["correlationId"] as? String == first)
        #expect(waiting.standardOutput == hold + "\n")

        // Already held: printed at once, as --json with the whole record; not with --new.
        let again = try await host.run(["wait-for", "--held", "--json", "--timeout", "300"], binary: binary)
        #expect(again.status == 0, "\(again)")
        #expect(scriptingJSON(again.stdout)?["id"] as? String == hold, "\(again)")
        let newOnly = try await host.run(["wait-for", "--held", "--new", "--timeout", "0.5"], binary: binary)
        #expect(newOnly.status == 4, "nothing new is held while the gate is shut: \(newOnly)")
        let responses = try await host.run(["wait-for", "--held", "--filter", "type:response", "--timeout", "0.5"], binary: binary)
        #expect(responses.status == 4, "only a request is held: \(responses)")
    }

    @Test("break holds requests and responses; held and breakpoints list them; answer, release (as is and with --data) and drop reach the journey; refusals exit 2")
    func breakAndActOnHolds() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: breakpointGatedScenario)
        defer { host.stop() }
        for (arguments, why) in [(["break", "is:pending"], "a term that cannot apply in flight"), (["break", " "], "an empty filter"), (["break", "x", "--hold", "0"], "--hold 0")] {
            let refused = try await host.run(arguments, binary: binary)
            #expect(refused.status == 64, "\(why): \(refused)")
        }
        let pendingTerm = try await host.run(["break", "is:pending"], binary: binary)
        #expect(pendingTerm.stderr.contains("type:request dir:in"), "the agent's reason says what to use: \(pendingTerm)")
        let breaker = try host.start(["break", "action:device.info", "--hold", "600", "--json"], binary: binary)
        defer { breaker.kill() }
        let started = try await waitForLine(breaker, kind: "breakpoint", count: 1)
        let breakpointId = try #require(started["id"] as? String)

        let listed = try await host.run(["breakpoints", "--json"], binary: binary)
        #expect(listed.status == 0, "\(listed)")
        let breakpoints = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(breakpoints.count == 1)
        #expect(breakpoints.first?["id"] as? String == breakpointId)
        #expect(breakpoints.first?["filter"] as? String == "action:device.info")
        #expect(breakpoints.first?["owner"] as? String == "bridge-inspector break")
        let text = try await host.run(["breakpoints"], binary: binary)
        #expect(text.stdout.contains("\(breakpointId)  bridge-inspector break  0 hits"), "\(text)")

        // 1. The request is held before its handler runs; `answer` answers it instead.
        let first = try await openGate(host)
        let held1 = try await waitForLine(breaker, kind: "held", count: 1)
        let hold1 = try #require(held1["id"] as? String)
        #expect(held1["direction"] as? String == "received")
        #expect((held1["message"] as? [String: Any])?["correlationId"] as? String == first)
        let heldList = try await host.run(["held", "--json"], binary: binary)
        let heldRecords = try #require(try JSONSerialization.jsonObject(with: Data(heldList.stdout.utf8)) as? [[String: Any]], "\(heldList)")
        #expect(heldRecords.map { $0["id"] as? String } == [hold1])
        let heldText = try await host.run(["held"], binary: binary)
        #expect(heldText.stdout.contains("\(hold1)  IN   req   device.info  \(first)  at \(breakpointId)"), "\(heldText)")
        let answered = try await host.run(["answer", hold1, "--data", #"{"model":"Answered"}"#], binary: binary)
        #expect(answered.status == 0, "\(answered)")
        #expect(scriptingJSON(answered.stdout)?["correlationId"] as? String == first, "answer prints the response sent")
        #expect(try await journeyData(host, first)["model"] as? String == "Answered")
        let resolved1 = try await waitForLine(breaker, kind: "resolved", count: 1)
        #expect(resolved1["outcome"] as? String == "answered")
        let again = try await host.run(["answer", hold1], binary: binary)
        #expect(again.status == 2, "\(again)")
        #expect(again.stderr.contains("already_resolved"), "\(again)")
        #expect(again.stderr.contains("bridge-inspector held"), "the hint says where to look")

        // 2. Released as it is, the handler answers, and its response is held in turn; answering a
        // response is refused; released with --data, the journey gets the new data.
        let second = try await openGate(host)
        let hold2 = try #require(try await waitForLine(breaker, kind: "held", count: 2)["id"] as? String)
        let released = try await host.run(["release", hold2], binary: binary)
        #expect(released.status == 0, "\(released)")
        let held3 = try await waitForLine(breaker, kind: "held", count: 3)
        let hold3 = try #require(held3["id"] as? String)
        #expect(held3["direction"] as? String == "sent")
        #expect((held3["message"] as? [String: Any])?["type"] as? String == "response")
        let wrongKind = try await host.run(["answer", hold3], binary: binary)
        #expect(wrongKind.status == 2, "\(wrongKind)")
        let badEdit = try await host.run(["release", hold3, "--status", "error"], binary: binary)
        #expect(badEdit.status == 64, "an error response needs a code: \(badEdit)")
        let edited = try await host.run(["release", hold3, "--data", #"{"model":"Edited"}"#], binary: binary)
        #expect(edited.status == 0, "\(edited)")
        #expect(try await journeyData(host, second)["model"] as? String == "Edited")
        let resolvedEdited = try await waitForLine(breaker, kind: "resolved", count: 3)
        #expect(resolvedEdited["outcome"] as? String == "edited")

        // Holds that do not exist.
        for arguments in [["release", "h99"], ["release", "h99", "--data", "{}"], ["drop", "h99"]] {
            let refused = try await host.run(arguments, binary: binary)
            #expect(refused.status == 2, "\(arguments): \(refused)")
            #expect(refused.stderr.contains("not_held"), "\(arguments): \(refused)")
        }

        // 3. Dropped: the journey never gets an answer, and nothing is held any more.
        let third = try await openGate(host)
        let hold4 = try #require(try await waitForLine(breaker, kind: "held", count: 4)["id"] as? String)
        let dropped = try await host.run(["drop", hold4], binary: binary)
        #expect(dropped.status == 0, "\(dropped)")
        #expect(try await waitForLine(breaker, kind: "resolved", count: 4)["outcome"] as? String == "dropped")
        #expect(host.receivedResponse(third) == nil)
        #expect(try host.state().held?.isEmpty == true)
        let none = try await host.run(["held"], binary: binary)
        #expect(none.status == 0 && none.stdout.isEmpty && none.stderr.contains("nothing is held"), "\(none)")

        // SIGTERM ends `break` cleanly and removes its breakpoint.
        breaker.signal(SIGTERM)
        #expect(await breaker.waitForExit() == 0, "\(breaker.standardError)")
        #expect(try host.state().breakpoints?.isEmpty == true)
    }

    @Test("tail marks rows held at a breakpoint (EDITED h…, ANSWERED h…); with --follow a request edited after it was printed is printed again, as it went on")
    func tailMarksHolds() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: breakpointGatedScenario)
        defer { host.stop() }
        let follower = try host.start(["tail", "--follow", "--filter", "action:device.info"], binary: binary)
        defer { follower.kill() }
        let breaker = try host.start(["break", "action:device.info type:request", "--hold", "600", "--json"], binary: binary)
        defer { breaker.kill() }
        _ = try await waitForLine(breaker, kind: "breakpoint", count: 1)

        // Edited: the request was printed when the journey posted it, then again as it went on.
        let first = try await openGate(host)
        let hold1 = try #require(try await waitForLine(breaker, kind: "held", count: 1)["id"] as? String)
        #expect(await waitUntil(timeout: .seconds(60)) { follower.standardOutput.contains("device.info  \(first)") }, "\(follower.standardOutput)")
        let edited = try await host.run(["release", hold1, "--data", #"{"detail":"edited"}"#, "--quiet"], binary: binary)
        #expect(edited.status == 0, "\(edited)")
        #expect(await waitUntil(timeout: .seconds(60)) { follower.standardOutput.contains("device.info  \(first)  EDITED \(hold1)") }, "\(follower.standardOutput)")
        let firstLines = follower.standardOutput.split(separator: "\n").filter { $0.contains("IN   req   device.info  \(first)") }
        #expect(firstLines.count == 2 && firstLines.first?.contains("EDITED") == false, "printed, then printed again marked: \(firstLines)")

        // Answered by hand: the response (the inspector's, ✎) is marked with the hold it answered.
        let second = try await openGate(host)
        let hold2 = try #require(try await waitForLine(breaker, kind: "held", count: 2)["id"] as? String)
        let answered = try await host.run(["answer", hold2, "--data", #"{"model":"Answered"}"#, "--quiet"], binary: binary)
        #expect(answered.status == 0, "\(answered)")
        #expect(await waitUntil(timeout: .seconds(60)) { follower.standardOutput.contains("OUT  resp  ✎ device.info  \(second)  success") }, "\(follower.standardOutput)")

        // Afterwards, tail shows both marks on the rows as they are now.
        let after = try await host.run(["tail", "--filter", "action:device.info"], binary: binary)
        #expect(after.status == 0, "\(after)")
        let lines = after.stdout.split(separator: "\n")
        #expect(lines.contains { $0.contains("IN   req   device.info  \(first)") && $0.hasSuffix("EDITED \(hold1)") }, "\(after.stdout)")
        #expect(lines.contains { $0.contains("OUT  resp  ✎ device.info  \(second)") && $0.hasSuffix("ANSWERED \(hold2)") }, "\(after.stdout)")
    }

    @Test("release --all lets everything held go on as it is and says how many; nothing held is no failure; it takes no hold id or edit")
    func releaseAll() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: breakpointGatedScenario)
        defer { host.stop() }
        for arguments in [["release", "h1", "--all"], ["release", "--all", "--data", "{}"], ["release"]] {
            let refused = try await host.run(arguments, binary: binary)
            #expect(refused.status == 64, "\(arguments): \(refused)")
        }
        let nothing = try await host.run(["release", "--all"], binary: binary)
        #expect(nothing.status == 0 && nothing.stderr.contains("nothing is held"), "\(nothing)")

        let breaker = try host.start(["break", "action:device.info dir:in", "--hold", "600", "--json"], binary: binary)
        defer { breaker.kill() }
        _ = try await waitForLine(breaker, kind: "breakpoint", count: 1)
        let request = try await openGate(host)
        let hold = try #require(try await waitForLine(breaker, kind: "held", count: 1)["id"] as? String)
        let released = try await host.run(["release", "--all"], binary: binary)
        #expect(released.status == 0, "\(released)")
        #expect(released.stderr.contains("released 1 of 1 held: \(hold)"), "\(released)")
        #expect(try await waitForLine(breaker, kind: "resolved", count: 1)["outcome"] as? String == "released")
        // Released as it was: its handler answers the journey.
        _ = try await journeyData(host, request)
        #expect(try host.state().held?.isEmpty == true)
    }

    @Test("a break process killed (SIGKILL) while it holds a request: the host releases it and the journey gets its answer")
    func killedBreakReleasesHolds() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: breakpointGatedScenario)
        defer { host.stop() }
        let breaker = try host.start(["break", "type:request action:device.info", "--hold", "600"], binary: binary)
        defer { breaker.kill() }
        #expect(await waitUntil(timeout: .seconds(20)) { breaker.standardError.contains("Ctrl-C removes the breakpoint") || !breaker.isRunning }, "\(breaker.standardError)")
        let id = try await openGate(host)
        let line = await breaker.waitForLine(prefix: "HELD  h")
        #expect(line?.contains("IN   req   device.info  \(id)") == true, "\(breaker.standardOutput)")
        #expect(host.receivedResponse(id) == nil, "held: the handler has not run")

        breaker.signal(SIGKILL)
        _ = await breaker.waitForExit()
        #expect(try await journeyData(host, id)["model"] as? String == "iPhone", "released, the handler answered")
        #expect(await waitUntil(timeout: .seconds(20)) { (try? host.state())?.breakpoints?.isEmpty == true })
        #expect(try host.state().held?.isEmpty == true)
    }

    // Issue 24, point 11: a held request is outstanding (docs/inspector-protocol.md 13.3), but
    // neither pending nor in a slot, so only the host's own refusal, seen in the events before
    // inject's reply, tells the command that its duplicate went nowhere.
    @Test("inject --id of a request held at a breakpoint exits 2: the host refused the duplicate, and the command says so")
    func injectDuplicateOfHeldRequest() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: breakpointGatedScenario)
        defer { host.stop() }
        let breaker = try host.start(["break", "type:request action:device.info", "--hold", "600"], binary: binary)
        defer { breaker.kill() }
        #expect(await waitUntil(timeout: .seconds(20)) { breaker.standardError.contains("Ctrl-C removes the breakpoint") || !breaker.isRunning }, "\(breaker.standardError)")
        let id = try await openGate(host)
        #expect(await breaker.waitForLine(prefix: "HELD  h") != nil, "\(breaker.standardOutput)")

        let injected = try await host.run(["inject", "request", "device.info", "--id", id, "--no-wait"], binary: binary)
        #expect(injected.status == 2, "\(injected)")
        #expect(injected.stdout.isEmpty, "\(injected)")
        #expect(injected.stderr.contains("the host refused it as a duplicate"), "\(injected)")
        #expect(injected.stderr.contains("choose another --id"), "\(injected)")
        #expect(try host.state().lastError?.text?.hasPrefix("Duplicate correlationId '\(id)'") == true)
    }

    @Test("inject builds a message, prints it and the host's answer; --raw reaches the malformed list; replay gives a new id and refuses host-sent messages")
    func injectAndReplay() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: replayScenario)
        defer { host.stop() }
        #expect(await host.waitForPending { $0 == ["nfc-1"] })

        let injected = try await host.run(["inject", "request", "device.info", "--data", #"{"a":1}"#], binary: binary)
        #expect(injected.status == 0, "\(injected)")
        #expect(injected.lines.count == 2, "\(injected)")
        let message = try #require(scriptingJSON(injected.lines[0]))
        let id = try #require(message["correlationId"] as? String)
        #expect(id.hasPrefix("inspector-"))
        #expect(message["type"] as? String == "request")
        let answer = try #require(scriptingJSON(injected.lines.last ?? ""))
        #expect(answer["correlationId"] as? String == id)
        #expect(((answer["payload"] as? [String: Any])?["data"] as? [String: Any])?["model"] as? String == "iPhone")

        let unanswered = try await host.run(["inject", "request", "nfc.read", "--id", "mine-1", "--timeout", "0.5"], binary: binary)
        #expect(unanswered.status == 4, "no handler: \(unanswered)")
        #expect(unanswered.stderr.contains("bridge-inspector respond mine-1") || unanswered.stderr.contains("did not answer"), "\(unanswered)")
        let event = try await host.run(["inject", "event", "journey.step", "--data", #"{"step":3}"#], binary: binary)
        #expect(event.status == 0 && event.lines.count == 1, "\(event)")

        let malformedBefore = try host.state().counts.malformed
        let raw = try await host.run(["inject", "--raw", "{oops"], binary: binary)
        #expect(raw.status == 0 && raw.stdout.isEmpty, "\(raw)")
        #expect(await waitUntil(timeout: .seconds(20)) { ((try? host.state())?.counts.malformed ?? 0) > malformedBefore })

        for (arguments, why) in [
            (["inject"], "no type and action"), (["inject", "request", "x", "--status", "error"], "a status on a request"),
            (["inject", "--raw", "x", "--id", "y"], "--raw with --id"), (["inject", "event", "x", "--data", "[1]"], "data not an object"),
        ] {
            let refused = try await host.run(arguments, binary: binary)
            #expect(refused.status == 64, "\(why): \(refused)")
        }

        // replay: the journey's info-1 again, with a new id, answered by the handler.
        let log = try host.state().messages
        let original = try #require(log.first { $0.message.correlationId == "info-1" && $0.direction == .received })
        let replayed = try await host.run(["replay", "\(original.seq)"], binary: binary)
        #expect(replayed.status == 0, "\(replayed)")
        let replayedMessage = try #require(scriptingJSON(replayed.lines.first ?? ""))
        let newId = try #require(replayedMessage["correlationId"] as? String)
        #expect(newId.hasPrefix("info-1-replay-"))
        #expect(((replayedMessage["payload"] as? [String: Any])?["data"] as? [String: Any])?["detail"] as? String == "full")
        #expect(scriptingJSON(replayed.lines.last ?? "")?["correlationId"] as? String == newId, "the handler's answer: \(replayed)")
        let same = try await host.run(["replay", "\(original.seq)", "--same-id", "--no-wait"], binary: binary)
        #expect(same.status == 0, "\(same)")
        #expect(scriptingJSON(same.stdout)?["correlationId"] as? String == "info-1")

        let sent = try #require(log.first { $0.direction == .sent })
        let hostSent = try await host.run(["replay", "\(sent.seq)"], binary: binary)
        #expect(hostSent.status == 2, "\(hostSent)")
        #expect(hostSent.stderr.contains("only received messages can be replayed"), "\(hostSent)")
        let missing = try await host.run(["replay", "999999"], binary: binary)
        #expect(missing.status == 2 && missing.stderr.contains("no message with seq 999999"), "\(missing)")
    }

    @Test("a host seen through GBGBridge's public API cannot hold or take injected messages: break, release and inject say why and exit 2")
    func unsupportedOnPublicAPIHost() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: replayScenario, extra: ["--inspect-via", "public-api"])
        defer { host.stop() }
        let reasons = try host.state().host.unsupported ?? [:]
        for arguments in [["break", "action:x"], ["release", "h1"], ["inject", "request", "device.info"]] {
            let refused = try await host.run(arguments, binary: binary)
            #expect(refused.status == 2, "\(arguments): \(refused)")
            #expect(refused.stderr.contains("(unsupported)"), "\(arguments): \(refused)")
            let feature = arguments[0] == "inject" ? "inject" : "intercept"
            let reason = try #require(reasons[feature], "the adapter explains \(feature)")
            #expect(refused.stderr.contains(String(reason.prefix(30))), "the agent's reason is printed: \(refused)")
        }
    }

    @Test("a held message's hostile correlation id reaches the terminal escaped in break and held, and exactly in held --json")
    func heldHostileTextIsEscaped() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: hostileGatedScenario)
        defer { host.stop() }
        let breaker = try host.start(["break", "type:request action:nfc.read", "--hold", "600"], binary: binary)
        defer { breaker.kill() }
        #expect(await waitUntil(timeout: .seconds(20)) { breaker.standardError.contains("Ctrl-C removes the breakpoint") || !breaker.isRunning }, "\(breaker.standardError)")
        #expect(await host.waitForPending { !$0.isEmpty })
        let gate = try #require(try host.state().pending.first?.correlationId)
        #expect(try await host.run(["respond", gate, "--quiet"], binary: binary).status == 0)
        #expect(await breaker.waitForLine(prefix: "HELD  h") != nil, "\(breaker.standardOutput)")
        let text = try await host.run(["held"], binary: binary)
        #expect(text.status == 0, "\(text)")
        #expect(text.stdout.contains("id-\\x1B]0;T\\x07"), "\(text)")
        for output in [text.stdout, text.stderr, breaker.standardOutput, breaker.standardError] {
            #expect(terminalControls(in: output).isEmpty, "\(output)")
        }
        let json = try await host.run(["held", "--json"], binary: binary)
        let records = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect((records.first?["message"] as? [String: Any])?["correlationId"] as? String == hostileId)
        #expect(terminalControls(in: json.stdout).isEmpty)
    }
}
