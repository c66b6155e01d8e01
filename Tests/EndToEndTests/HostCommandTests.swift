import Foundation
import InspectorClient
import SocketSupport
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The real `bridge-inspector host` binary, run as a separate process, checked against what the
/// GBGBridge documentation says should happen.
@Suite("bridge-inspector host", .serialized)
struct HostCommandTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    /// Runs minimal.json + capture-flow.json to the end and reads the journey log.
    @Test("capture-flow: capability answer, BUSY, pending never answered, responses in order; then a clean exit")
    func captureFlow() async throws {
        let directory = try TemporaryDirectory()
        let socket = directory.file("h.sock")
        let logPath = directory.file("journey.jsonl")
        let host = try BinaryProcess([
            "host", "--profile", examplePath("profiles/minimal.json"), "--scenario", examplePath("scenarios/capture-flow.json"),
            "--socket", socket, "--journey-log", logPath, "--exit-when-done", "--wait-for-inspector",
        ], binary: binary)
        defer { host.kill() }
        #expect(await host.waitForLine(prefix: "socket: ") == socket)
        // The host's side, as an inspector sees it over the socket, from before the journey
        // starts until the host exits.
        let attached = ScriptingHandOver(try InspectorSession(socketPath: socket, subscribe: true, clientName: "host-command-tests"))
        let watching = Task { try await scriptingFollow(attached) }
        let status = await host.waitForExit()
        #expect(status == 0, "stderr: \(host.standardError)")
        #expect(host.standardOutput == "socket: \(socket)\n")
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket is removed at exit")

        let log = try jsonLines(logPath)
        func message(_ entry: [String: Any]) -> [String: Any] { entry["message"] as? [String: Any] ?? [:] }
        func payload(_ entry: [String: Any]) -> [String: Any] { message(entry)["payload"] as? [String: Any] ?? [:] }
        func entries(_ kind: String, label: String? = nil) -> [[String: Any]] {
            log.filter { $0["kind"] as? String == kind && (label == nil || $0["label"] as? String == label) }
        }
        func response(_ label: String) -> [String: Any]? {
            entries("received", label: label).first { message($0)["type"] as? String == "response" }
        }

        // Every line has a time and a kind.
        for entry in log {
            #expect(entry["time"] is String)
            #expect(["received", "sent", "timeout", "note"].contains(entry["kind"] as? String ?? ""))
        }

        // host.ready comes first: an event with an ios-event- id and the host's version.
        let ready = try #require(log.first)
        #expect(ready["kind"] as? String == "received")
        #expect(message(ready)["type"] as? String == "event")
        #expect(payload(ready)["action"] as? String == "host.ready")
        #expect((message(ready)["correlationId"] as? String)?.hasPrefix("ios-event-") == true)
        #expect((payload(ready)["data"] as? [String: Any])?["version"] as? String == "1.0.0")

        // capability.query: environment, hostVersion and the slots as the profile sets them.
        let capabilities = try #require(response("capabilities"))
        #expect(payload(capabilities)["status"] as? String == "success")
        let answer = try #require(payload(capabilities)["data"] as? [String: Any])
        #expect(answer["environment"] as? String == "ios")
        #expect(answer["hostVersion"] as? String == "1.0.0")
        let slots = try #require(answer["capabilities"] as? [String: [String: Any]])
        #expect(slots["camera.document"]?["supported"] as? Bool == true)
        #expect(slots["camera.document"]?["permissionState"] as? String == "granted")
        #expect(slots["camera.selfie"]?["supported"] as? Bool == false)
        #expect(slots["device.info"]?["supported"] as? Bool == true)

        // A second capture while the first is active: a recoverable BUSY error (Troubleshooting).
        let busy = try #require(response("backTooSoon"))
        #expect(payload(busy)["status"] as? String == "error")
        let busyError = try #require(payload(busy)["error"] as? [String: Any])
        #expect(busyError["code"] as? String == "BUSY")
        #expect(busyError["recoverable"] as? Bool == true)
        #expect(busyError["message"] as? String == "Another native operation is in progress")

        // The captures themselves succeed with the encoded image (Two-Way example diagram).
        for label in ["front", "back"] {
            let capture = try #require(response(label))
            #expect(payload(capture)["status"] as? String == "success")
            let data = try #require(payload(capture)["data"] as? [String: Any])
            #expect(data["imageWidth"] as? Int == 1280)
            #expect(data["imageHeight"] as? Int == 720)
            #expect(data["mimeType"] as? String == "image/jpeg")
            #expect((data["imageBase64"] as? String).flatMap { Data(base64Encoded: $0) }?.count == 64)
        }

        // Selfie (no handler) and nfc.read (unknown action) go to pending: never answered, and the
        // journey gives up after its timeout.
        #expect(response("selfie") == nil)
        #expect(response("nfc") == nil)
        #expect(entries("timeout").compactMap { $0["label"] as? String }.sorted() == ["nfc", "selfie"])
        #expect(entries("timeout").allSatisfy { $0["timeoutMs"] as? Int == 1000 })

        // Responses in order: every response follows its request; device1 (sent first) is answered
        // first; the host's timestamps never go backwards.
        let responses = log.filter { $0["kind"] as? String == "received" && message($0)["type"] as? String == "response" }
        #expect(responses.compactMap { $0["label"] as? String } == ["capabilities", "backTooSoon", "front", "back", "device1", "device2"])
        let stamps = responses.compactMap { message($0)["timestamp"] as? Double }
        #expect(stamps.count == responses.count)
        #expect(stamps == stamps.sorted())
        for response in responses {
            let id = message(response)["correlationId"] as? String
            let sentIndex = log.firstIndex { $0["kind"] as? String == "sent" && message($0)["correlationId"] as? String == id }
            let receivedIndex = log.firstIndex { ($0 as NSDictionary) == (response as NSDictionary) }
            #expect(sentIndex != nil && receivedIndex != nil && sentIndex! < receivedIndex!)
        }

        // The malformed message was sent as written; the scenario ended.
        #expect(entries("sent").contains { ($0["raw"] as? String)?.contains("\"type\": \"request\"") == true })
        #expect(log.last?["text"] as? String == "scenario \"capture-flow\" finished")

        // What the host held at the end, seen through its agent: the two unanswered requests in
        // pendingRequests (FAQ: an unregistered action waits there), the document slot idle
        // again, the malformed message in lastError (Troubleshooting: Message Decoding Failures),
        // and the BUSY answer among the messages it sent.
        let state = try await watching.value
        #expect(state.pending.map(\.action) == ["camera.selfie.capture", "nfc.read"])
        #expect(state.slots.first { $0.kind == .document }?.activeRequest == nil)
        #expect(state.slots.first { $0.kind == .document }?.permissionState == .granted)
        #expect(state.lastError?.text?.hasPrefix("Failed to decode message: missing required field 'correlationId'") == true,
            "\(String(describing: state.lastError))")
        #expect(state.log.contains { $0.direction == .sent && $0.type == .response && $0.errorCode == "BUSY" })
        #expect(state.log.filter { $0.direction == .received && $0.type == .request }.count == 8)
        // The journey's last event reached the inspector although the host exited right after it.
        #expect(state.log.last { $0.direction == .received }?.summary == "journey.cancel")
    }

    @Test("a bad profile: a clear error on stderr, exit 64 (usage), and nothing started")
    func badProfile() async throws {
        let directory = try TemporaryDirectory()
        let profile = directory.file("bad-profile.json")
        try #"{"name": "x", "hostVersion": "1.0.0", "slots": {"document": {"handler": "auto", "delayMs": -5}}}"#
            .write(toFile: profile, atomically: true, encoding: .utf8)
        let socket = directory.file("h.sock")
        let host = try BinaryProcess(["host", "--profile", profile, "--socket", socket], binary: binary)
        defer { host.kill() }
        let status = await host.waitForExit()
        #expect(status == 64, "a bad input file is a usage error, as a bad --rules file is (docs/cli.md, Exit status)")
        #expect(host.standardError ==
            "Error: \(profile): slots.document.delayMs: expected a whole number of milliseconds from 0 to 3600000, found the number -5\n")
        #expect(host.standardOutput.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: socket))
    }

    @Test("a scenario that is not JSON: the line and column on stderr, a non-zero exit, no journey log left")
    func badScenario() async throws {
        let directory = try TemporaryDirectory()
        let scenario = directory.file("bad-scenario.json")
        try "{\n  \"name\": \"broken\",\n  \"steps\": [\n    {\"wait\": 10}\n    {\"wait\": 10}\n  ]\n}\n"
            .write(toFile: scenario, atomically: true, encoding: .utf8)
        let socket = directory.file("h.sock")
        let logPath = directory.file("journey.jsonl")
        let host = try BinaryProcess(["host", "--scenario", scenario, "--socket", socket, "--journey-log", logPath], binary: binary)
        defer { host.kill() }
        #expect(await host.waitForExit() == 64)
        #expect(host.standardError ==
            "Error: \(scenario): line 5, column 5: invalid JSON: expected ',' or ']' in an array, found '{'\n")
        #expect(!FileManager.default.fileExists(atPath: socket))
        #expect(!FileManager.default.fileExists(atPath: logPath))
    }

    @Test("a missing profile file and a looping scenario with --exit-when-done are refused")
    func otherRefusals() async throws {
        let directory = try TemporaryDirectory()
        let missing = directory.file("nope.json")
        let first = try BinaryProcess(["host", "--profile", missing, "--socket", directory.file("a.sock")], binary: binary)
        defer { first.kill() }
        #expect(await first.waitForExit() == 64)
        #expect(first.standardError == "Error: \(missing): cannot read the file: no such file\n")
        let second = try BinaryProcess(["host", "--exit-when-done", "--socket", directory.file("b.sock")], binary: binary)
        defer { second.kill() }
        #expect(await second.waitForExit() == 64)
        #expect(second.standardError.hasPrefix("Error: --exit-when-done needs a scenario that ends, but \"demo\" loops"))
        #expect(!FileManager.default.fileExists(atPath: directory.file("b.sock")))
    }

    @Test("SIGTERM and SIGINT stop the host cleanly: exit 0 and the socket removed", arguments: [SIGTERM, SIGINT])
    func signalStops(signal: Int32) async throws {
        let directory = try TemporaryDirectory()
        let socket = directory.file("h.sock")
        let host = try BinaryProcess(["host", "--socket", socket], binary: binary)
        defer { host.kill() }
        #expect(await host.waitForLine(prefix: "socket: ") == socket)
        #expect(FileManager.default.fileExists(atPath: socket))
        host.signal(signal)
        #expect(await host.waitForExit() == 0)
        #expect(!host.diedFromSignal)
        #expect(!FileManager.default.fileExists(atPath: socket))
        #expect(host.standardError.contains(signal == SIGTERM ? "SIGTERM received, stopping." : "SIGINT received, stopping."))
    }

    @Test("a second host on the same socket path fails clearly; the first keeps answering")
    func secondHostOnSameSocket() async throws {
        let directory = try TemporaryDirectory()
        let socket = directory.file("h.sock")
        let journeyLog = directory.file("journey.jsonl")
        let first = try BinaryProcess(
            ["host", "--profile", examplePath("profiles/minimal.json"), "--socket", socket, "--journey-log", journeyLog], binary: binary)
        defer { first.kill() }
        #expect(await first.waitForLine(prefix: "socket: ") == socket)
        #expect(await waitUntil(timeout: .seconds(60)) { ((try? Data(contentsOf: URL(fileURLWithPath: journeyLog)))?.count ?? 0) > 0 })
        let logBefore = try Data(contentsOf: URL(fileURLWithPath: journeyLog))

        // The same journey log too: the refused host must not empty or remove the first one's.
        let second = try BinaryProcess(["host", "--socket", socket, "--journey-log", journeyLog], binary: binary)
        defer { second.kill() }
        #expect(await second.waitForExit() == 1)
        #expect(second.standardError ==
            "Error: cannot serve the inspector: a live host is already serving \(socket); it was left untouched. Stop that host first, or serve on another socket path.\n")
        #expect(second.standardOutput.isEmpty)

        // The first host is untouched: still running, its journey log kept, its socket still
        // there and answering.
        #expect(first.isRunning)
        let logAfter = try Data(contentsOf: URL(fileURLWithPath: journeyLog))
        #expect(logAfter.starts(with: logBefore), "the first host's journey log was emptied or replaced")
        #expect(FileManager.default.fileExists(atPath: socket))
        let hello = try helloFrame(from: socket)
        #expect(hello["kind"] as? String == "hello")
        #expect((hello["host"] as? [String: Any])?["pid"] as? Int == Int(first.pid))
        #expect((hello["host"] as? [String: Any])?["name"] as? String == "minimal")

        first.signal(SIGTERM)
        #expect(await first.waitForExit() == 0)
        #expect(!FileManager.default.fileExists(atPath: socket))
    }

    /// Connects to an agent, says hello, and returns the first frame it sends back.
    func helloFrame(from socket: String) throws -> [String: Any] {
        let connection = try UnixConnection.connect(to: socket)
        defer { connection.close() }
        try connection.writeAll(Array(#"{"kind":"hello","protocol":1,"client":"end-to-end-tests"}"#.utf8) + [0x0A])
        var received: [UInt8] = []
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(10)
        while !received.contains(0x0A), clock.now < deadline {
            guard let bytes = try connection.read(upTo: 65536, timeoutMilliseconds: 200) else { break }
            received += bytes
        }
        let line = try #require(received.split(separator: 0x0A).first)
        return try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
    }
}
