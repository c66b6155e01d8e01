import BridgeCore
import Foundation
import TestSupport
import InspectorClient
import InspectorProtocol
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// How a test's `bridge-inspector host` is inspected: the two values of `host --inspect-via`.
enum InspectedVia: String, CaseIterable, CustomTestStringConvertible, Sendable {
    /// BridgeCore's own change stream.
    case native
    /// Only GBGBridge's documented public API and the page script's reports (issue 12).
    case publicAPI = "public-api"

    var testDescription: String { rawValue }

    /// The `host` options that choose this path.
    var hostOptions: [String] { ["--inspect-via", rawValue] }

    /// Whether this is the adapter path.
    var isPublicAPI: Bool { self == .publicAPI }
}

/// Issue 12's "Done when": the demo, every scripting command and the TUI work through the adapter
/// path as through the native path, or say precisely which feature the public API cannot give.
///
/// Each test runs the real `bridge-inspector host --inspect-via PATH` for both paths with the same
/// assertions, so a difference between them shows as a failure of one argument. The journeys
/// wait for answers and hold their requests for ten minutes: nothing races a slow command.
@Suite("The whole tool through GBGBridge's public API (host --inspect-via public-api), side by side with native", .serialized)
struct PublicAPIPathTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    /// A host running `scriptingHeldScenario` (cap-1 held by the document slot, nfc-1 and nfc-2
    /// pending, a malformed message) by `path`, once its requests are pending.
    func heldHost(_ path: InspectedVia, scenario: String = scriptingHeldScenario) async throws -> ScriptedHost {
        let host = try await ScriptedHost(binary: binary, scenario: scenario, extra: path.hostOptions)
        let ready = await host.waitForPending { $0.contains("nfc-1") && $0.contains("nfc-2") }
        try #require(ready, "the scenario's requests never became pending (\(path.rawValue)): \(host.process.standardError)")
        return host
    }

    @Test("hosts and snapshot (text and --json) show the same state; the public-api path says so and lists what it cannot give", arguments: InspectedVia.allCases)
    func hostsAndSnapshot(path: InspectedVia) async throws {
        let host = try await heldHost(path)
        defer { host.stop() }

        let hosts = try await host.run(["hosts"], binary: binary)
        #expect(hosts.status == 0, "\(hosts)")
        #expect(hosts.lines.last?.hasPrefix("demo") == true, "\(hosts)")
        #expect(hosts.lines.last?.contains("\(host.process.pid)") == true, "\(hosts)")

        let text = try await host.run(["snapshot"], binary: binary)
        #expect(text.status == 0, "\(text)")
        #expect(text.stdout.contains("host       demo (pid \(host.process.pid)), version 1.0.0"), "\(text)")
        #expect(text.stdout.contains("pending requests: 2"), "\(text)")
        #expect(text.lines.contains { $0.contains("nfc-1") && $0.contains("nfc.read") }, "\(text)")
        #expect(text.lines.contains { $0.contains("document") && $0.contains("BUSY with cap-1") }, "\(text)")
        #expect(text.stdout.contains("lastError  Failed to decode message"), "the malformed message's error, on both paths: \(text)")
        let seenVia = text.lines.first { $0.hasPrefix("seen via") }
        let missing = text.lines.filter { $0.hasPrefix("  no ") }
        if path.isPublicAPI {
            #expect(seenVia == "seen via   GBGBridge's public API (docs/real-apps.md)", "\(text)")
            #expect(missing.contains { $0.hasPrefix("  no clearError: GBGBridge's iOS API has no clearError()") }, "\(text)")
            #expect(missing.contains { $0.hasPrefix("  no clearLog: ") }, "\(text)")
            #expect(missing.contains { $0.hasPrefix("  no malformedInput: ") }, "\(text)")
            #expect(missing.contains { $0.hasPrefix("  no customCapabilities: ") }, "\(text)")
        } else {
            #expect(seenVia == nil, "\(text)")
            #expect(missing.isEmpty, "\(text)")
        }

        let json = try await host.run(["snapshot", "--json"], binary: binary)
        #expect(json.status == 0, "\(json)")
        let state = try #require(scriptingJSON(json.stdout), "\(json)")
        let pending = try #require(state["pending"] as? [[String: Any]])
        #expect(pending.map { $0["correlationId"] as? String } == ["nfc-1", "nfc-2"])
        #expect((state["slots"] as? [[String: Any]])?.first?["activeRequest"] as? String == "cap-1")
        #expect(((state["lastError"] as? [String: Any])?["text"] as? String)?.hasPrefix("Failed to decode message") == true)
        let info = try #require(state["host"] as? [String: Any])
        #expect(info["pid"] as? Int == Int(host.process.pid))
        if path.isPublicAPI {
            #expect(info["inspection"] as? String == "public-api", "\(info)")
            let unsupported = try #require(info["unsupported"] as? [String: String], "\(info)")
            #expect(Set(unsupported.keys) == ["clearError", "clearLog", "malformedInput", "customCapabilities", "intercept", "inject", "journeyControl", "faults"], "\(unsupported)")
            #expect(unsupported.values.allSatisfy { !$0.isEmpty })
            // What the public API cannot show: the malformed input itself (lastError says why).
            #expect((state["malformed"] as? [Any])?.isEmpty != false, "\(state)")
        } else {
            #expect(info["inspection"] == nil || info["inspection"] as? String == "native", "\(info)")
            #expect(info["unsupported"] == nil, "\(info)")
            #expect((state["malformed"] as? [Any])?.count == 1, "\(state)")
        }
    }

    @Test("respond answers a pending request; a request that is gone, unknown or held by a slot is refused with exit 2", arguments: InspectedVia.allCases)
    func respond(path: InspectedVia) async throws {
        let host = try await heldHost(path)
        defer { host.stop() }

        let answered = try await host.run(["respond", "nfc-1", "--data", #"{"uid": "04A2"}"#], binary: binary)
        #expect(answered.status == 0, "\(answered)")
        let sent = try #require(scriptingJSON(answered.stdout), "\(answered)")
        #expect(sent["correlationId"] as? String == "nfc-1")
        #expect(((sent["payload"] as? [String: Any])?["data"] as? [String: Any])?["uid"] as? String == "04A2", "the exact message sent is printed: \(sent)")
        #expect(await waitUntil(timeout: .seconds(60)) { host.receivedResponse("nfc-1") != nil })
        #expect(await host.waitForPending { $0 == ["nfc-2"] })

        // A request that is gone: refused by the host (exit 2) with its reason and what to do next.
        let again = try await host.run(["respond", "nfc-1"], binary: binary)
        #expect(again.status == 2, "\(again)")
        #expect(again.stderr.contains("Error: the host refused: ") && again.stderr.contains("'nfc-1'"), "\(again)")
        #expect(again.stderr.contains("hint: list pending requests with `bridge-inspector snapshot`"), "\(again)")
        // Both paths say why: answered already, held by a capture slot, or never seen. (The
        // adapter tells them apart from what it saw: PublicAPIHost.respondToPending.)
        #expect(again.stderr.contains("was already answered") && again.stderr.contains("(already_answered)"), "\(path.rawValue): \(again)")
        let unknown = try await host.run(["respond", "no-such-id"], binary: binary)
        #expect(unknown.status == 2, "\(unknown)")
        #expect(unknown.stderr.contains("no pending request has correlationId 'no-such-id'"), "\(unknown)")
        let capture = try await host.run(["respond", "cap-1"], binary: binary)
        #expect(capture.status == 2, "a capture slot's request is not pending: \(capture)")
        #expect(capture.stderr.contains("handled_elsewhere"), "\(path.rawValue): \(capture)")
        #expect(host.receivedResponse("cap-1") == nil)

        // An error response, quietly; nothing else went out.
        let denied = try await host.run(["respond", "nfc-2", "--status", "error", "--error-code", "PERMISSION_DENIED", "--quiet"], binary: binary)
        #expect(denied.status == 0, "\(denied)")
        #expect(await waitUntil(timeout: .seconds(60)) { host.receivedResponse("nfc-2") != nil })
        let payload = (host.receivedResponse("nfc-2")?["message"] as? [String: Any])?["payload"] as? [String: Any]
        #expect((payload?["error"] as? [String: Any])?["code"] as? String == "PERMISSION_DENIED")
        #expect(await host.waitForPending { $0.isEmpty })
    }

    @Test("event reaches the journey; slot complete, cancel, permission, disable and enable act on the slots; an idle slot is exit 2", arguments: InspectedVia.allCases)
    func eventAndSlot(path: InspectedVia) async throws {
        let host = try await heldHost(path)
        defer { host.stop() }

        let event = try await host.run(["event", "journey.configure", "--data", #"{"locale": "en-GB"}"#], binary: binary)
        #expect(event.status == 0, "\(event)")
        #expect((scriptingJSON(event.stdout)?["payload"] as? [String: Any])?["action"] as? String == "journey.configure", "\(event)")
        #expect(await waitUntil(timeout: .seconds(60)) {
            host.journeyEntries.contains { $0["kind"] as? String == "received" && $0["action"] as? String == "journey.configure" }
        })

        let complete = try await host.run(["slot", "document", "complete", "--width", "4", "--height", "3"], binary: binary)
        #expect(complete.status == 0, "\(complete)")
        #expect(scriptingJSON(complete.stdout)?["correlationId"] as? String == "cap-1", "\(complete)")
        #expect(await waitUntil(timeout: .seconds(60)) { host.receivedResponse("cap-1") != nil })
        #expect(await waitUntil(timeout: .seconds(60)) { (try? host.state())?.slots.first { $0.kind == .document }?.activeRequest == nil })

        let idle = try await host.run(["slot", "document", "complete"], binary: binary)
        #expect(idle.status == 2, "\(idle)")
        #expect(idle.stderr.contains("no active request to complete") && idle.stderr.contains("(slot_idle)"), "\(idle)")
        let idleCancel = try await host.run(["slot", "document", "cancel", "--reason", "Closed"], binary: binary)
        #expect(idleCancel.status == 2, "\(idleCancel)")
        #expect(idleCancel.stderr.contains("there is no active request to cancel"), "\(idleCancel)")

        #expect(try await host.run(["slot", "selfie", "permission", "denied"], binary: binary).status == 0)
        #expect(try await host.run(["slot", "document", "disable"], binary: binary).status == 0)
        #expect(await waitUntil(timeout: .seconds(60)) {
            let slots = (try? host.state())?.slots ?? []
            return slots.first { $0.kind == .selfie }?.permissionState == .denied && slots.first { $0.kind == .document }?.enabled == false
        })
        #expect(try await host.run(["slot", "document", "enable"], binary: binary).status == 0)
        #expect(await waitUntil(timeout: .seconds(60)) { (try? host.state())?.slots.first { $0.kind == .document }?.enabled == true })
    }

    @Test("slot complete --result error: sent natively; refused through the public API (exit 2, unsupported, the reason) with nothing sent and the slot still held", arguments: InspectedVia.allCases)
    func errorCompletion(path: InspectedVia) async throws {
        let host = try await heldHost(path)
        defer { host.stop() }
        let result = try await host.run(["slot", "document", "complete", "--result", "error", "--error-code", "PERMISSION_DENIED"], binary: binary)
        if path.isPublicAPI {
            // Issue 23, point 5: GBGBridge's documented CaptureResult has no error case; the old
            // adapter sent a cancellation and reported success.
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("no error case") && result.stderr.contains("(unsupported)"), "\(result)")
            #expect(host.receivedResponse("cap-1") == nil)
            #expect((try? host.state())?.slots.first { $0.kind == .document }?.activeRequest == "cap-1")
        } else {
            #expect(result.status == 0, "\(result)")
            #expect(await waitUntil(timeout: .seconds(60)) { host.receivedResponse("cap-1") != nil })
            let payload = (host.receivedResponse("cap-1")?["message"] as? [String: Any])?["payload"] as? [String: Any]
            #expect(payload?["status"] as? String == "error", "\(String(describing: payload))")
        }
    }

    @Test("cancel ends a busy slot's request with cancelled", arguments: InspectedVia.allCases)
    func cancelBusySlot(path: InspectedVia) async throws {
        let host = try await heldHost(path)
        defer { host.stop() }
        let cancel = try await host.run(["slot", "document", "cancel", "--reason", "Closed by the test"], binary: binary)
        #expect(cancel.status == 0, "\(cancel)")
        #expect(await waitUntil(timeout: .seconds(60)) { host.receivedResponse("cap-1") != nil })
        let payload = (host.receivedResponse("cap-1")?["message"] as? [String: Any])?["payload"] as? [String: Any]
        #expect(payload?["status"] as? String == "cancelled", "\(String(describing: payload))")
    }

    @Test("tail prints the log and follows it until --until or --count; wait-for finds pending requests and busy slots", arguments: InspectedVia.allCases)
    func tailAndWaitFor(path: InspectedVia) async throws {
        let host = try await heldHost(path)
        defer { host.stop() }

        let all = try await host.run(["tail"], binary: binary)
        #expect(all.status == 0, "\(all)")
        #expect(all.lines.contains { $0.contains("IN ") && $0.contains("nfc.read") && $0.contains("nfc-1") }, "\(all)")
        #expect(all.lines.contains { $0.contains("OUT") && $0.contains("host.ready") }, "what the host sent, reported by the page: \(all)")
        // The malformed input is in the log natively; GBGBridge's public API never shows it.
        #expect(all.lines.contains { $0.contains("malformed") } == !path.isPublicAPI, "\(all)")
        let requests = try await host.run(["tail", "--filter", "type:request action:nfc.*"], binary: binary)
        #expect(requests.lines.count == 2, "\(requests)")

        // --until: ping until the follower (attached at some point) sees one.
        let follower = try host.start(["tail", "--last", "0", "--until", "action:host.ping", "--timeout", "60"], binary: binary)
        defer { follower.kill() }
        try await host.ping(until: follower, attempts: 60, binary: binary)
        #expect(await follower.waitForExit() == 0, "\(follower.standardError)")
        #expect(follower.standardOutput.split(separator: "\n").last?.contains("host.ping") == true, "\(follower.standardOutput)")

        // --follow --count: new lines only, ended by the count.
        let counted = try host.start(["tail", "--follow", "--last", "0", "--count", "1", "--filter", "action:host.pong", "--timeout", "60"], binary: binary)
        defer { counted.kill() }
        for _ in 0..<60 where counted.isRunning {
            #expect(try await host.run(["event", "host.pong", "--quiet"], binary: binary).status == 0)
            _ = await waitUntil(timeout: .milliseconds(500)) { !counted.isRunning }
        }
        #expect(await counted.waitForExit() == 0, "\(counted.standardError)")
        #expect(counted.standardOutput.split(separator: "\n").count == 1, "\(counted.standardOutput)")
        #expect(counted.standardOutput.contains("host.pong"), "\(counted.standardOutput)")

        let pending = try await host.run(["wait-for", "--filter", "action:nfc.read", "--timeout", "10"], binary: binary)
        #expect(pending.status == 0, "\(pending)")
        #expect(pending.stdout == "nfc-1\n", "\(pending)")
        let slot = try await host.run(["wait-for", "--slot", "document", "--timeout", "10"], binary: binary)
        #expect(slot.stdout == "cap-1\n", "\(slot)")
        let never = try await host.run(["wait-for", "--filter", "action:never.happens", "--timeout", "1"], binary: binary)
        #expect(never.status == 4, "\(never)")
    }

    @Test("wait-for --new sees a request that arrives after it started", arguments: InspectedVia.allCases)
    func waitForNew(path: InspectedVia) async throws {
        let host = try await ScriptedHost(binary: binary, scenario: scriptingGatedScenario, extra: path.hostOptions)
        defer { host.stop() }
        func gate() -> String? { (try? host.state())?.pending.first { $0.action == "gate.open" }?.correlationId }
        #expect(await waitUntil(timeout: .seconds(20)) { gate() != nil }, "the journey never asked gate.open")
        let late = try host.start(["wait-for", "--new", "--filter", "action:late.*", "--timeout", "120"], binary: binary)
        defer { late.kill() }
        for _ in 0..<90 where late.isRunning {
            if let id = gate() { _ = try await host.run(["respond", id, "--quiet"], binary: binary) }
            _ = await waitUntil(timeout: .milliseconds(500)) { !late.isRunning }
        }
        #expect(await late.waitForExit() == 0, "\(late.standardError)")
        let lateId = late.standardOutput.trimmingCharacters(in: .newlines)
        #expect(try host.state().pending.contains { $0.correlationId == lateId && $0.action == "late.thing" }, "printed \(lateId)")
    }

    @Test("record then open --check: the recording is complete and names the pending request", arguments: InspectedVia.allCases)
    func recordAndOpen(path: InspectedVia) async throws {
        let host = try await heldHost(path)
        defer { host.stop() }
        let file = host.directory.file("session.jsonl")
        let recorder = try host.start(["record", file, "--count", "1", "--quiet"], binary: binary)
        defer { recorder.kill() }
        for _ in 0..<60 where recorder.isRunning {
            _ = try await host.run(["event", "host.ping", "--quiet"], binary: binary)
            _ = await waitUntil(timeout: .milliseconds(500)) { !recorder.isRunning }
        }
        #expect(await recorder.waitForExit() == 0, "\(recorder.standardError)")
        let check = try await runCLI(["open", "--check", file], binary: binary)
        #expect(check.status == 0, "\(check)")
        #expect(check.stdout.contains("host       demo (pid \(host.process.pid))"), "\(check)")
        #expect(check.stdout.contains("pending    2 at the end: nfc.read nfc-1"), "\(check)")
        #expect(check.stdout.contains("status     complete"), "\(check)")
    }

    @Test("auto-respond answers exactly --times requests, then exits 0", arguments: InspectedVia.allCases)
    func autoRespond(path: InspectedVia) async throws {
        let host = try await ScriptedHost(binary: binary, scenario: scriptingChainedNFCScenario, extra: path.hostOptions)
        defer { host.stop() }
        #expect(await host.waitForPending { $0 == ["nfc-1"] })
        let run = try await host.run(
            ["auto-respond", "--action", "nfc.read", "--times", "2", "--data", #"{"uid": "04A2"}"#, "--timeout", "60"], binary: binary)
        #expect(run.status == 0, "\(run)")
        #expect(run.lines.count == 2, "one line per hit: \(run)")
        #expect(run.lines.last?.contains("answered nfc.read nfc-2 with success  (hit 2 of 2)") == true, "\(run)")
        #expect(await host.waitForPending { $0 == ["nfc-3"] })
        #expect(await waitUntil(timeout: .seconds(60)) { host.receivedResponse("nfc-1") != nil && host.receivedResponse("nfc-2") != nil })
        let ruled = try await host.run(["tail", "--json", "--filter", "is:rule"], binary: binary)
        #expect(ruled.lines.compactMap { scriptingJSON($0)?["rule"] as? String } == ["nfc.read#1", "nfc.read#1"], "the page's report of each response is marked as the rule's: \(ruled)")
    }

    @Test("clearError and clearLog: done natively; refused through the public API with code unsupported and the reason", arguments: InspectedVia.allCases)
    func clearCommands(path: InspectedVia) async throws {
        let host = try await heldHost(path)
        defer { host.stop() }
        let session = try InspectorSession(socketPath: host.socket, subscribe: false, clientName: "public-api-path-tests")
        defer { session.close() }
        for command in [InspectorCommand.clearError, .clearLog] {
            let reply = try session.run(command)
            switch (path, reply.result) {
            case (.native, .success):
                break
            case (.publicAPI, .failure(let error)):
                #expect(error.knownCode == .unsupported, "\(command): \(error)")
                #expect(error.message == session.hello.host.unsupportedReason(command.feature ?? .clearError), "\(command): \(error)")
                #expect(error.message.contains("GBGBridge"), "the reason names what is missing: \(error.message)")
            default:
                Issue.record("\(path.rawValue): \(command) gave \(reply.result)")
            }
        }
        let lastError = try host.state().lastError?.text
        if path.isPublicAPI {
            #expect(lastError?.hasPrefix("Failed to decode message") == true, "lastError stays: \(String(describing: lastError))")
        } else {
            #expect(lastError == nil)
        }
    }
}

/// The interactive inspector in a real terminal (tmux) attached to a host by either path.
@Suite(
    "The interactive inspector through GBGBridge's public API",
    .serialized,
    .timeLimit(.minutes(10)),
    .requires(.tmux))
struct PublicAPIPathTerminalTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    @Test("the status line names the path; r answers a pending request; C clears lastError natively and says why not through the public API", arguments: InspectedVia.allCases)
    func respondAndClear(path: InspectedVia) async throws {
        let host = try await ScriptedHost(binary: binary, scenario: scriptingHeldScenario, extra: path.hostOptions)
        defer { host.stop() }
        #expect(await host.waitForPending { $0.contains("nfc-1") && $0.contains("nfc-2") })
        let terminal = try TmuxSession([binary, "--socket", host.socket])
        defer { terminal.kill() }

        let first = await terminal.waitFor("connected", "nfc-1", "Failed to decode message", "cap-1")
        #expect(first?.contains("via GBGBridge public API") == path.isPublicAPI, "\(first ?? "")")

        // Answer nfc-1: filter the log down to its request, then r, then Enter sends success.
        try terminal.press("f")
        try terminal.type("id:nfc-1 type:request")
        try terminal.press("Enter")
        try terminal.press("r")
        await terminal.waitFor("Enter send", "nfc-1")
        try terminal.press("Enter")
        #expect(await host.waitForPending { !$0.contains("nfc-1") })
        #expect(await waitUntil(timeout: .seconds(60)) { host.receivedResponse("nfc-1") != nil })
        // Escape clears the filter; wait until it has been read, so that C is not taken with it
        // as Alt-C.
        try terminal.press("Escape")
        await terminal.waitFor("host.ready", "nfc-2")

        // C: clear lastError.
        try terminal.press("C")
        if path.isPublicAPI {
            let flash = await terminal.waitFor("not available for this host: GBGBridge's iOS API has no clearError()")
            #expect(flash?.contains("Clear lastError on the host?") == false, "no dialog offers what cannot be done")
            #expect(try host.state().lastError?.text?.hasPrefix("Failed to decode message") == true)
        } else {
            await terminal.waitFor("Clear lastError on the host?")
            try terminal.press("y")
            #expect(await waitUntil(timeout: .seconds(60)) { (try? host.state())?.lastError == nil })
        }
        try terminal.press("q")
        #expect(await terminal.exitStatus() == 0, "\(terminal.screen())")
        #expect(host.process.isRunning)
    }
}
