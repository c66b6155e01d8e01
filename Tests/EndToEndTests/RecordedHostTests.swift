import Foundation
import InspectorClient
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `bridge-inspector host --recording FILE`: a session is recorded against a profile host, then
/// the same journey runs against the recording alone and must get what it got then; what the
/// recording cannot answer waits in pendingRequests.
@Suite("host --recording", .serialized)
struct RecordedHostTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    /// The journey log's entries of `kind` for `label`.
    private static func entries(_ log: [[String: Any]], _ kind: String, label: String) -> [[String: Any]] {
        log.filter { $0["kind"] as? String == kind && $0["label"] as? String == label }
    }

    /// The payload of the response the journey got for `label`, as a dictionary to compare.
    private static func answer(_ log: [[String: Any]], _ label: String) -> NSDictionary? {
        entries(log, "received", label: label)
            .compactMap { $0["message"] as? [String: Any] }
            .first { $0["type"] as? String == "response" }
            .flatMap { $0["payload"] as? [String: Any] }
            .map { $0 as NSDictionary }
    }

    /// How many messages the journey had sent (raw text not counted: the host reads none) when
    /// it received the event `action`.
    private static func journeyMessages(before action: String, in log: [[String: Any]]) -> Int? {
        var sent = 0
        for entry in log {
            if entry["kind"] as? String == "sent", entry["message"] != nil { sent += 1 }
            if entry["kind"] as? String == "received", let message = entry["message"] as? [String: Any],
                (message["payload"] as? [String: Any])?["action"] as? String == action
            {
                return sent
            }
        }
        return nil
    }

    /// `snapshot --json` of the host on `socket`, polled (bounded) until `condition` holds.
    private func snapshot(_ socket: String, until condition: ([String: Any]) -> Bool) async throws -> [String: Any] {
        var last: [String: Any] = [:]
        let binary = binary
        let matched = try await waitUntil(timeout: .seconds(120), every: .milliseconds(200)) { () async throws -> [String: Any]? in
            let result = try await runCLI(["snapshot", "--json", "--socket", socket], binary: binary)
            last = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]) ?? [:]
            return condition(last) ? last : nil
        }
        return matched ?? last
    }

    private static func pendingActions(_ state: [String: Any]) -> [String] {
        (state["pending"] as? [[String: Any]] ?? []).compactMap { $0["action"] as? String }
    }

    @Test("a simulated journey against its recording: the same answers (ties in order, BUSY included), the recorded event after the same message, paced; the unknown request pending")
    func simulatedJourneyFromItsRecording() async throws {
        let directory = try TemporaryDirectory()
        let recording = directory.file("session.jsonl")

        // 1. Record capture-flow against minimal.json, with a consent request midway that a
        //    person answers after sending an event: the event's place is then known.
        let captureFlow = try String(contentsOfFile: examplePath("scenarios/capture-flow.json"), encoding: .utf8)
        let consent = #"{"send": {"payload": {"action": "consent.ask", "data": {"scope": "document"}}, "label": "consent", "timeoutMs": 120000}}, {"awaitResponse": {"label": "consent"}},"#
        let deviceStep = #"    {"send": {"payload": {"action": "device.info"}, "label": "device1"}},"#
        let recordedScenario = captureFlow.replacingOccurrences(of: deviceStep, with: "    \(consent)\n\(deviceStep)")
        #expect(recordedScenario != captureFlow)
        let recordedScenarioPath = directory.file("recorded-scenario.json")
        try recordedScenario.write(toFile: recordedScenarioPath, atomically: true, encoding: .utf8)
        let recordedSocket = directory.file("app.sock")
        let recordedLog = directory.file("recorded-journey.jsonl")
        let app = try BinaryProcess([
            "host", "--profile", examplePath("profiles/minimal.json"), "--scenario", recordedScenarioPath,
            "--socket", recordedSocket, "--journey-log", recordedLog, "--exit-when-done", "--wait-for-inspector",
        ], binary: binary)
        defer { app.kill() }
        #expect(await app.waitForLine(prefix: "socket: ") == recordedSocket)
        let recorder = try BinaryProcess(["record", recording, "--socket", recordedSocket], binary: binary, stdin: .closed)
        defer { recorder.kill() }
        let asking = try await snapshot(recordedSocket) { Self.pendingActions($0).contains("consent.ask") }
        let consentId = try #require(
            (asking["pending"] as? [[String: Any]])?.first { $0["action"] as? String == "consent.ask" }?["correlationId"] as? String,
            "the journey never asked for consent: \(app.standardError)")
        let event = try await runCLI(
            ["event", "host.orientation", "--data", #"{"orientation":"landscape"}"#, "--socket", recordedSocket, "--quiet"], binary: binary)
        #expect(event.status == 0, "\(event)")
        let answered = try await runCLI(
            ["respond", consentId, "--data", #"{"granted":true}"#, "--socket", recordedSocket, "--quiet"], binary: binary)
        #expect(answered.status == 0, "\(answered)")
        #expect(await app.waitForExit() == 0, "\(app.standardError)")
        #expect(await recorder.waitForExit() == 0, "\(recorder.standardError)")
        let book = RecordedAnswerBook(contents: Recording.load(from: URL(fileURLWithPath: recording)))
        let recordedEvent = try #require(book.events.first { $0.action == "host.orientation" }, "the recording has no host.orientation")
        let consentExchange = try #require(book.exchanges.first { $0.action == "consent.ask" })
        #expect(recordedEvent.afterJourneyMessage == consentExchange.journeyMessage, "sent while the consent request waited")

        // 2. The same journey, plus one request the recording does not hold, against the recording.
        let extra = #"{"send": {"payload": {"action": "passport.chip", "data": {"dg": 2}}, "label": "chip", "timeoutMs": 1000}},"#
        let extended = recordedScenario.replacingOccurrences(
            of: #"    {"event": {"name": "journey.cancel""#, with: "    \(extra)\n    {\"event\": {\"name\": \"journey.cancel\"")
        #expect(extended != recordedScenario)
        let scenarioPath = directory.file("scenario.json")
        try extended.write(toFile: scenarioPath, atomically: true, encoding: .utf8)
        let socket = directory.file("recorded.sock")
        let replayLog = directory.file("replayed-journey.jsonl")
        let host = try BinaryProcess([
            "host", "--recording", recording, "--recorded-pacing", "--scenario", scenarioPath, "--socket", socket, "--journey-log", replayLog,
        ], binary: binary)
        defer { host.kill() }
        #expect(await host.waitForLine(prefix: "socket: ") == socket)
        #expect(await waitUntil(timeout: .seconds(120)) {
            ((try? String(contentsOfFile: replayLog, encoding: .utf8)) ?? "").contains("scenario \\\"capture-flow\\\" finished")
        }, "the journey never finished: \(host.standardError)")
        let state = try await snapshot(socket) { Self.pendingActions($0).count >= 3 }
        #expect(Self.pendingActions(state) == ["camera.selfie.capture", "nfc.read", "passport.chip"],
            "the two requests the recorded app never answered, and the one it never got")
        #expect(host.standardError.contains("holds no 'passport.chip' request"), "\(host.standardError)")
        host.signal(SIGTERM)
        #expect(await host.waitForExit() == 0, "\(host.standardError)")

        // 3. The journey got what it got from the app: every answer, the ready event's data.
        let recorded = try jsonLines(recordedLog)
        let replayed = try jsonLines(replayLog)
        for label in ["capabilities", "front", "backTooSoon", "back", "consent", "device1", "device2"] {
            let then = try #require(Self.answer(recorded, label), "no recorded answer for \(label)")
            let now = try #require(Self.answer(replayed, label), "no answer for \(label) from the recording")
            #expect(now == then, "\(label): \(now) is not \(then)")
        }
        #expect((Self.answer(replayed, "backTooSoon")?["error"] as? [String: Any])?["code"] as? String == "BUSY")
        for label in ["selfie", "nfc", "chip"] {
            #expect(Self.answer(replayed, label) == nil, "\(label) was answered")
        }
        let readyData = { (log: [[String: Any]]) in
            log.compactMap { $0["message"] as? [String: Any] }.first { ($0["payload"] as? [String: Any])?["action"] as? String == "host.ready" }
                .flatMap { ($0["payload"] as? [String: Any])?["data"] as? [String: Any] }
        }
        #expect(readyData(replayed)?["version"] as? String == "1.0.0")
        #expect(readyData(replayed)?["version"] as? String == readyData(recorded)?["version"] as? String)
        // The inspector's event reached the journey after the same message as when recorded.
        #expect(Self.journeyMessages(before: "host.orientation", in: replayed) == recordedEvent.afterJourneyMessage)
        #expect(Self.journeyMessages(before: "host.orientation", in: recorded) == recordedEvent.afterJourneyMessage)
        // Paced: the front capture took at least its recorded latency (the profile's 300 ms).
        let frontLatency = try #require(book.exchanges.first { $0.data?["side"] == "front" }?.answer?.latencyMs)
        #expect(frontLatency >= 300)
        let replayedLatency = try #require(Self.entries(replayed, "received", label: "front").first?["latencyMs"] as? Int)
        #expect(Double(replayedLatency) >= frontLatency - 2, "answered after \(replayedLatency) ms, recorded \(frontLatency) ms")
    }

    @Test("--recording refuses --profile, a file that is no recording, and --match-ignore without it")
    func refusals() async throws {
        let directory = try TemporaryDirectory()
        let notRecording = directory.file("notes.txt")
        try "hello\n".write(toFile: notRecording, atomically: true, encoding: .utf8)
        let withProfile = try await runCLI(
            ["host", "--recording", notRecording, "--profile", examplePath("profiles/minimal.json"), "--socket", directory.file("a.sock")],
            binary: binary)
        #expect(withProfile.status == 64)
        #expect(withProfile.stderr.contains("--recording and --profile cannot be used together"), "\(withProfile)")
        let bad = try await runCLI(["host", "--recording", notRecording, "--socket", directory.file("b.sock")], binary: binary)
        #expect(bad.status == 5, "\(bad)")
        #expect(bad.stderr.contains("--recording \(notRecording)"), "\(bad)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("b.sock")))
        let loose = try await runCLI(["host", "--match-ignore", "data.nonce", "--socket", directory.file("c.sock")], binary: binary)
        #expect(loose.status == 64)
        #expect(loose.stderr.contains("go with --recording FILE"), "\(loose)")
        let badPath = try await runCLI(["host", "--recording", notRecording, "--match-ignore", "a..b"], binary: binary)
        #expect(badPath.status == 64)
        #expect(badPath.stderr.contains("--match-ignore takes a field"), "\(badPath)")
    }

    @Test(
        "a browser journey served from its recording completes exactly as recorded, with the recorded events; an unknown request stays pending",
        .requires(.chromium))
    func browserJourneyFromItsRecording() async throws {
        let executable = try ExternalTool.chromium.require()
        let directory = try TemporaryDirectory()
        let recording = directory.file("session.jsonl")
        let browser = try HeadlessChromium(executable: executable, directory: directory)
        defer { browser.close() }

        // 1. Record the example journey against its profile: the capture answered by a person
        //    through the agent, then an event.
        let appSocket = directory.file("app.sock")
        let (app, appURL) = try await startServedExampleJourney(binary: binary, socket: appSocket)
        defer { app.kill() }
        let recorder = try BinaryProcess(["record", recording, "--socket", appSocket], binary: binary, stdin: .closed)
        defer { recorder.kill() }
        // The recorder has its snapshot (header, hello, snapshot) before the page opens.
        #expect(await waitUntil(timeout: .seconds(30)) {
            ((try? String(contentsOfFile: recording, encoding: .utf8)) ?? "").split(separator: "\n").count >= 3
        }, "the recorder never attached: \(recorder.standardError)")
        let tab = try await browser.openPage()
        try await browser.navigate(tab, to: appURL)
        let session = try InspectorSession(socketPath: appSocket, subscribe: false, clientName: "recorded-host-tests")
        defer { session.close() }
        let waiting = try await webSnapshot(session, until: { $0.pending.contains { $0.action == "camera.document.capture" } })
        let capture = try #require(waiting.pending.first { $0.action == "camera.document.capture" })
        let reply = try session.run(.respond(.init(
            correlationId: capture.correlationId, status: .success,
            data: ["imageBase64": .string(BrowserJourneyTests.pngBase64), "imageWidth": 2, "imageHeight": 1, "mimeType": "image/png"])))
        #expect((try? reply.result.get()) != nil, "respond failed: \(reply.result)")
        _ = try await pageState(browser, tab) { ($0["capture"] as? [String: Any])?["status"] as? String == "success" }
        let orientation = try session.run(.sendEvent(.init(name: "host.orientation", data: ["orientation": "landscape"])))
        #expect((try? orientation.result.get()) != nil)
        let then = try await pageState(browser, tab) {
            ($0["events"] as? [[String: Any]])?.contains { $0["action"] as? String == "host.orientation" } == true
        }
        #expect(await waitUntil(timeout: .seconds(30)) {
            ((try? String(contentsOfFile: recording, encoding: .utf8)) ?? "").contains("host.orientation")
        }, "the recorder never got the event")
        app.signal(SIGTERM)
        #expect(await app.waitForExit() == 0, "\(app.standardError)")
        #expect(await recorder.waitForExit() == 0, "\(recorder.standardError)")

        // 2. The same journey against the recording, with no profile.
        let socket = directory.file("recorded.sock")
        let host = try BinaryProcess(["host", "--serve", examplePath("web-journey"), "--recording", recording, "--socket", socket, "--port", "0"], binary: binary)
        defer { host.kill() }
        #expect(await host.waitForLine(prefix: "socket: ") == socket)
        let url = try #require(await host.waitForLine(prefix: "serving: "), "stderr: \(host.standardError)")
        #expect(!host.standardError.contains("using the host profile"), "the recording is the host: \(host.standardError)")
        let replayTab = try await browser.openPage()
        try await browser.navigate(replayTab, to: url)
        let now = try await pageState(browser, replayTab) {
            ($0["capture"] as? [String: Any])?["status"] as? String == "success"
                && ($0["events"] as? [[String: Any]])?.contains { $0["action"] as? String == "host.orientation" } == true
        }
        // The same answers, statuses and data the page saw, and the same host events.
        #expect((now["capabilities"] as? NSDictionary) == (then["capabilities"] as? NSDictionary), "capabilities: \(now) vs \(then)")
        let capturedNow = try #require(now["capture"] as? [String: Any])
        let capturedThen = try #require(then["capture"] as? [String: Any])
        #expect(capturedNow["status"] as? String == capturedThen["status"] as? String)
        #expect((capturedNow["data"] as? NSDictionary) == (capturedThen["data"] as? NSDictionary))
        let eventsNow = (now["events"] as? [[String: Any]] ?? []).map { [$0["action"] as? String ?? "", ($0["data"] as? [String: Any])?["orientation"] as? String ?? ""] }
        let eventsThen = (then["events"] as? [[String: Any]] ?? []).map { [$0["action"] as? String ?? "", ($0["data"] as? [String: Any])?["orientation"] as? String ?? ""] }
        #expect(eventsNow == eventsThen)
        #expect(eventsNow.map(\.[0]) == ["host.ready", "host.orientation"])
        #expect((now["hostReady"] as? [String: Any])?["version"] as? String == (then["hostReady"] as? [String: Any])?["version"] as? String)
        #expect(try await browser.evaluate(replayTab, "document.getElementById('capture-preview').naturalWidth") as? Int == 2,
            "the recorded image is shown")

        // 3. A request the recording does not hold waits in pendingRequests.
        _ = try await browser.evaluate(replayTab, """
            window.webkit.messageHandlers.gbgBridge.postMessage({version: "1.0", correlationId: "unknown-1", type: "request",
              timestamp: Date.now(), payload: {action: "nfc.write", data: {}}})
            """)
        let state = try await snapshot(socket) { Self.pendingActions($0).contains("nfc.write") }
        #expect(Self.pendingActions(state) == ["nfc.write"], "\(state)")
        let answered = (state["messages"] as? [[String: Any]] ?? []).filter {
            $0["direction"] as? String == "sent" && ($0["message"] as? [String: Any])?["type"] as? String == "response"
        }
        #expect(answered.allSatisfy { $0["origin"] as? String == "host" }, "answers from the recording are the host's: \(answered)")
        host.signal(SIGTERM)
        #expect(await host.waitForExit() == 0, "\(host.standardError)")
    }
}
