import BridgeCore
import Foundation
@testable import JourneySimulation
import TestSupport
import Testing
import ThreadSupport

/// The simulated journey against a real, in-process BridgeHost: what the GBGBridge documentation
/// says the web side should see. Host and journey run on one `ManualClock` per test: a delay or a
/// timeout passes only when the test moves it.
@MainActor
@Suite("Simulated journey")
struct SimulatedJourneyTests {
    let clock = ManualClock()

    static let profileJSON = """
        {
          "name": "test",
          "hostVersion": "9.9.9",
          "slots": {
            "document": {"handler": "manual", "permissionState": "granted"},
            "selfie": {"handler": "none"}
          },
          "customCapabilities": [
            {"id": "device.info", "delayMs": 5, "behaviour": {"respond": {"status": "success", "data": {"model": "T"}}}},
            {"id": "nfc.read", "behaviour": "pending"},
            {"id": "location.get", "behaviour": {"error": {"code": "PERMISSION_DENIED"}}}
          ]
        }
        """

    func makeJourney(profileJSON: String = profileJSON, log: JourneyLog? = nil) throws -> (BridgeHost, SimulatedJourney) {
        let host = try profile(profileJSON).makeHost(clock: clock)
        let journey = SimulatedJourney(host: host, log: log, clock: clock)
        return (host, journey)
    }

    @Test("the capability.query answer arrives, through the JavaScript delivery path")
    func capabilityAnswer() async throws {
        let (host, journey) = try makeJourney()
        #expect(host.isJourneyAttached)
        let s = try scenario(steps("""
            {"send": {"payload": {"action": "capability.query"}, "label": "caps"}},
            {"awaitResponse": {"label": "caps"}}
            """))
        await journey.run(s)
        let answer = try #require(journey.response(forLabel: "caps"))
        #expect(answer.type == .response)
        #expect(answer.payload.status == .success)
        #expect(answer.payload.data?["environment"] == "ios")
        #expect(answer.payload.data?["hostVersion"] == "9.9.9")
        let capabilities = try #require(answer.payload.data?["capabilities"]?.objectValue)
        #expect(capabilities["camera.document"] == ["supported": true, "version": "1.0", "permissionState": "granted"])
        #expect(capabilities["camera.selfie"] == ["supported": false, "version": "1.0", "permissionState": "notDetermined"])
        #expect(capabilities["nfc.read"] == ["supported": true, "version": "1.0"])
        let received = try #require(journey.entries.first { $0.kind == .received })
        #expect(received.label == "caps")
        #expect(received.latencyMs != nil)
        #expect(journey.notes.first == #"scenario "t" started"#)
        #expect(journey.notes.last == #"scenario "t" finished"#)
    }

    /// Troubleshooting, "Messages Not Being Received by the Web Journey": with no WebView
    /// attached the host's sends fail with `WebView not attached` and are lost.
    @Test("a detach step: the host forgets the journey, which still sends; the host's answer is lost with 'WebView not attached'")
    func detachStep() async throws {
        let (host, journey) = try makeJourney()
        let s = try scenario(steps("""
            {"detach": true},
            {"send": {"payload": {"action": "device.info"}, "label": "device", "timeoutMs": 60000}}
            """))
        #expect(s.steps.first == .detach)
        await journey.run(s)
        #expect(!host.isJourneyAttached)
        // The request's timer and device.info's 5 ms delay sleep on the clock; the delay passes.
        #expect(await clock.waitForSleepers(count: 2))
        clock.advance(by: .milliseconds(5))
        #expect(await eventually { host.lastError != nil })
        #expect(host.lastError?.hasPrefix("WebView not attached: response 'device.info'") == true)
        // The request reached the host; its answer never reached the journey.
        #expect(host.receivedMessages.contains { $0.payload.action == "device.info" })
        #expect(journey.response(forLabel: "device") == nil)
        #expect(journey.notes.contains { $0.hasPrefix("the host no longer has this journey attached") })
        journey.stop()
    }

    @Test("a second document capture while the manual slot is held gets BUSY; the first stays active")
    func busy() async throws {
        let (host, journey) = try makeJourney()
        let s = try scenario(steps("""
            {"send": {"payload": {"action": "camera.document.capture", "data": {"side": "front"}}, "label": "first"}},
            {"send": {"payload": {"action": "camera.document.capture", "data": {"side": "back"}}, "label": "second"}},
            {"awaitResponse": {"label": "second", "timeoutMs": 2000}}
            """))
        await journey.run(s)
        let busy = try #require(journey.response(forLabel: "second"))
        #expect(busy.payload.status == .error)
        #expect(busy.payload.error == BridgeErrorPayload(code: "BUSY", message: "Another native operation is in progress", recoverable: true))
        let firstId = try #require(journey.correlationId(forLabel: "first"))
        #expect(host.documentCapture.activeRequest?.correlationId == firstId)
        #expect(journey.isWaiting(for: firstId))
        // Completing the slot (as the inspector does) answers the first request.
        host.documentCapture.complete(.document(DocumentCaptureResult(imageData: Data([1, 2]), width: 2, height: 1, mimeType: "image/png")))
        let done = try #require(journey.response(forLabel: "first"))
        #expect(done.payload.status == .success)
        #expect(done.payload.data?["imageBase64"] == "AQI=")
        #expect(!journey.isWaiting(for: firstId))
    }

    @Test("an auto slot answers by itself after its delay")
    func autoSlot() async throws {
        let (_, journey) = try makeJourney(profileJSON: #"{"name": "a", "hostVersion": "1", "slots": {"selfie": {"handler": "auto", "delayMs": 5, "width": 3, "height": 4, "imageBytes": 2}}}"#)
        let s = try scenario(steps("""
            {"send": {"payload": {"action": "camera.selfie.capture"}, "label": "s"}},
            {"awaitResponse": {"label": "s"}}
            """))
        // The slot's 5 ms delay passes; the journey's 30 s timeouts never come.
        #expect(await run(s, on: journey, moving: clock, within: .milliseconds(5)))
        #expect(clock.now.offset == .milliseconds(5))
        let response = try #require(journey.response(forLabel: "s"))
        #expect(response.payload.status == .success)
        #expect(response.payload.data == ["imageBase64": "//8=", "imageWidth": 3, "imageHeight": 4, "mimeType": "image/jpeg"])
    }

    @Test("a selfie with no handler and a declared nfc.read go to pending and get no answer; an unknown action too")
    func pending() async throws {
        // The journey's own 30 s timeouts never pass: only the 20 ms wait does.
        let (host, journey) = try makeJourney()
        #expect(await run(try scenario(steps("""
            {"send": {"payload": {"action": "camera.selfie.capture"}, "label": "selfie"}},
            {"send": {"payload": {"action": "nfc.read"}, "label": "nfc"}},
            {"send": {"payload": {"action": "wallet.addPass"}, "label": "unknown"}},
            {"wait": 20}
            """)), on: journey, moving: clock, within: .milliseconds(20)))
        let ids = ["selfie", "nfc", "unknown"].compactMap { journey.correlationId(forLabel: $0) }
        #expect(host.pendingRequests.map(\.correlationId) == ids)
        #expect(host.pendingRequests.map(\.payload.action) == ["camera.selfie.capture", "nfc.read", "wallet.addPass"])
        #expect(journey.receivedResponses.isEmpty)
        #expect(ids.allSatisfy { journey.isWaiting(for: $0) })
        #expect(journey.waitingRequests.map(\.correlationId) == ids)
        // Answering by hand (as the inspector does) reaches the journey.
        try host.respondToPendingRequest(ids[1], status: .success, data: ["uid": "04A2"])
        #expect(journey.response(forLabel: "nfc")?.payload.data == ["uid": "04A2"])
    }

    @Test("malformed input sets lastError with the place of the mistake, and nothing reaches the journey")
    func malformed() async throws {
        let (host, journey) = try makeJourney()
        await journey.run(try scenario(steps(#"{"sendRaw": "{\"version\": \"1.0\",}"}"#)))
        #expect(host.lastError == "Failed to decode message: invalid JSON at line 1, column 19: expected '\"' to start an object key, found '}'")
        #expect(host.receivedMessages.isEmpty)
        let sent = try #require(journey.entries.first { $0.kind == .sent })
        #expect(sent.raw == #"{"version": "1.0",}"#)
        #expect(journey.receivedResponses.isEmpty)
        await journey.run(try scenario(steps(#"{"sendRaw": {"version": "1.0", "type": "request", "timestamp": 1, "payload": {"action": "a"}}}"#)))
        #expect(host.lastError == "Failed to decode message: missing required field 'correlationId'")
    }

    @Test("responses reach the journey in the order the host sent them")
    func order() async throws {
        let (host, journey) = try makeJourney()
        var sentOrder: [String] = []
        let collector = OrderCollector()
        let token = host.addObserver { change in
            if case .traffic(let record) = change, record.direction == .sent, record.message.type == .response {
                collector.append(record.message.correlationId)
            }
        }
        defer { host.removeObserver(token) }
        // The delays (5 ms) and the wait (10 ms) pass; the journey's timeouts (30 s) never do.
        #expect(await run(try scenario(steps("""
            {"send": {"payload": {"action": "device.info"}, "label": "d1"}},
            {"send": {"payload": {"action": "capability.query"}, "label": "q"}},
            {"send": {"payload": {"action": "camera.document.capture"}, "label": "c1"}},
            {"send": {"payload": {"action": "camera.document.capture"}, "label": "c2"}},
            {"send": {"payload": {"action": "location.get"}, "label": "l"}},
            {"wait": 10},
            {"send": {"payload": {"action": "device.info"}, "label": "d2"}},
            {"awaitResponse": {"label": "d1"}},
            {"awaitResponse": {"label": "q"}},
            {"awaitResponse": {"label": "c2"}},
            {"awaitResponse": {"label": "l"}},
            {"awaitResponse": {"label": "d2"}}
            """)), on: journey, moving: clock, within: .milliseconds(10)))
        sentOrder = collector.values
        #expect(sentOrder.count == 5)
        #expect(journey.receivedResponses.map(\.correlationId) == sentOrder)
        // Answers that need no waiting go out at once, inside receive, in arrival order (FAQ, "Is
        // the message order preserved?"): the capability query, c2's BUSY, location.get's error.
        // device.info waits 5 ms and the manual capture c1 is never completed.
        #expect(Array(sentOrder.prefix(3)) == ["q", "c2", "l"].map { journey.correlationId(forLabel: $0) ?? "?" })
        // Responses carry non-decreasing timestamps.
        let stamps = journey.receivedResponses.map(\.timestamp)
        #expect(stamps == stamps.sorted())
    }

    @Test("a request with no answer times out after its timeout, once; a late answer is noted")
    func timeouts() async throws {
        let (host, journey) = try makeJourney()
        // The clock passes the 30 ms and 20 ms limits; the selfie request's own 30 s never.
        #expect(await run(try scenario(steps("""
            {"send": {"payload": {"action": "nfc.read"}, "label": "nfc", "timeoutMs": 30}},
            {"awaitResponse": {"label": "nfc"}},
            {"send": {"payload": {"action": "camera.selfie.capture"}, "label": "selfie"}},
            {"awaitResponse": {"label": "selfie", "timeoutMs": 20}}
            """)), on: journey, moving: clock, within: .milliseconds(30)))
        #expect(clock.now.offset == .milliseconds(50))
        #expect(journey.timeouts.count == 2)
        let nfc = try #require(journey.timeouts.first)
        #expect(nfc.label == "nfc")
        #expect(nfc.timeoutMs == 30)
        #expect(nfc.message?.payload.action == "nfc.read")
        #expect(nfc.text == "no response to nfc.read within the journey's 30 ms timeout")
        let selfie = try #require(journey.timeouts.last)
        #expect(selfie.label == "selfie")
        #expect(selfie.timeoutMs == 20)
        #expect(selfie.text == "awaitResponse gave up on camera.selfie.capture after 20 ms")
        // Still pending on the host: the host does not know the journey gave up.
        #expect(host.pendingRequests.count == 2)
        let nfcId = try #require(journey.correlationId(forLabel: "nfc"))
        try host.respondToPendingRequest(nfcId, status: .success)
        #expect(journey.notes.contains { $0.hasPrefix("late response to nfc.read (\(nfcId))") })
        #expect(journey.timeouts.count == 2)
    }

    @Test("a request that is never awaited still times out by itself")
    func unawaitedTimeout() async throws {
        let (_, journey) = try makeJourney()
        journey.send(ScenarioMessage(action: "nfc.read", label: "n", timeoutMs: 10))
        #expect(await clock.waitForSleepers(count: 1))
        clock.advance(by: .milliseconds(9))
        #expect(clock.sleeperCount == 1, "not timed out before its 10 ms")
        #expect(journey.timeouts.isEmpty)
        clock.advance(by: .milliseconds(1))
        #expect(await eventually { journey.timeouts.count == 1 })
        #expect(journey.timeouts.first?.label == "n")
    }

    @Test("events go both ways; host.ready carries the host version")
    func events() async throws {
        let (host, journey) = try makeJourney()
        host.sendReadyEvent()
        let ready = try #require(journey.entries.first { $0.kind == .received }?.message)
        #expect(ready.type == .event)
        #expect(ready.payload.action == "host.ready")
        #expect(ready.correlationId.hasPrefix("ios-event-"))
        #expect(ready.payload.data?["version"] == "9.9.9")
        #expect(ready.payload.data?["timestamp"]?.numberValue != nil)
        await journey.run(try scenario(steps(#"{"event": {"name": "journey.cancel", "data": {"reason": "Closed"}}}"#)))
        let event = try #require(host.receivedMessages.last)
        #expect(event.type == .event)
        #expect(event.payload.action == "journey.cancel")
        #expect(event.payload.data == ["reason": "Closed"])
        #expect(event.correlationId.hasPrefix("web-event-"))
        #expect(host.pendingRequests.isEmpty)
    }

    @Test("fixed fields of a send are used as written; generated ids are unique")
    func sendFields() async throws {
        let (host, journey) = try makeJourney()
        await journey.run(try scenario(steps("""
            {"send": {"payload": {"action": "device.info", "data": {"k": "v"}}, "correlationId": "fixed", "version": "0.9", "timestamp": 5}},
            {"send": {"payload": {"action": "device.info"}}},
            {"send": {"payload": {"action": "device.info"}}}
            """)))
        let received = host.receivedMessages
        #expect(received.count == 3)
        #expect(received[0] == BridgeMessage(
            version: "0.9", correlationId: "fixed", type: .request, timestamp: 5,
            payload: .init(action: "device.info", data: ["k": "v"])))
        #expect(received[1].version == "1.0")
        #expect(received[1].correlationId != received[2].correlationId)
        #expect(received[1].correlationId.hasPrefix("web-"))
        #expect(abs(received[1].timestamp - Date().timeIntervalSince1970 * 1000) < 60_000)
    }

    @Test("a message with characters JavaScript treats specially survives the delivery script")
    func javaScriptEscapes() async throws {
        let host = try profile(#"{"name": "e", "hostVersion": "1", "customCapabilities": [{"id": "echo", "behaviour": {"respond": {"status": "success", "data": {"text": "</script><!-- \u2028 \u2029 \"q\" \\ é"}}}}]}"#).makeHost()
        let journey = SimulatedJourney(host: host)
        journey.send(ScenarioMessage(action: "echo", label: "e"))
        #expect(await eventually { journey.response(forLabel: "e") != nil })
        #expect(journey.response(forLabel: "e")?.payload.data?["text"] == "</script><!-- \u{2028} \u{2029} \"q\" \\ é")
    }

    @Test("a delivery whose receive() argument is not a message is refused and noted")
    func badScript() throws {
        let (_, journey) = try makeJourney()
        let message = BridgeMessage(correlationId: "x", type: .event, payload: .init(action: "a"))
        #expect(throws: SimulatedJourneyError.self) {
            try journey.deliver(JourneyDelivery(message: message, json: Data("not json".utf8)))
        }
        #expect(journey.notes.last?.hasPrefix("the journey could not decode a delivery") == true)
    }

    @Test("repeat runs its steps the given number of times")
    func repeatSteps() async throws {
        let (host, journey) = try makeJourney()
        await journey.run(try scenario(steps(#"{"repeat": {"times": 3, "steps": [{"event": {"name": "analytics.track"}}, {"repeat": {"times": 2, "steps": [{"event": {"name": "inner"}}]}}]}}"#)))
        #expect(host.receivedMessages.map(\.payload.action) == ["analytics.track", "inner", "inner", "analytics.track", "inner", "inner", "analytics.track", "inner", "inner"])
    }

    @Test("a looping scenario runs until its task is cancelled, and stops promptly")
    func loopCancel() async throws {
        let (host, journey) = try makeJourney()
        let s = try scenario(steps(#"{"event": {"name": "tick"}}, {"wait": 100}"#, loop: true))
        let task = Task { await journey.run(s) }
        // The first pass's 100 ms wait passes, and the second pass starts; its wait is cancelled.
        #expect(await clock.waitForSleepers(count: 1))
        clock.advance(by: .milliseconds(100))
        #expect(await eventually { host.receivedMessages.count >= 2 })
        task.cancel()
        await task.value
        #expect(journey.notes.last == #"scenario "t" stopped"#)
        #expect(journey.notes.contains(#"scenario "t" pass 2"#))
    }

    @Test("stop() ends a scenario waiting on a response and cancels request timers")
    func stop() async throws {
        let (_, journey) = try makeJourney()
        let s = try scenario(steps(#"{"send": {"payload": {"action": "nfc.read"}, "label": "n"}}, {"awaitResponse": {"label": "n"}}, {"event": {"name": "never"}}"#))
        let task = Task { await journey.run(s) }
        #expect(await eventually { journey.correlationId(forLabel: "n") != nil })
        // The request's timer and awaitResponse's are asleep: the scenario is waiting.
        #expect(await clock.waitForSleepers(count: 2))
        journey.stop()
        await task.value
        #expect(journey.notes.last == #"scenario "t" stopped"#)
        #expect(!journey.entries.contains { $0.message?.payload.action == "never" })
        // Both timers were cancelled: nothing sleeps on the clock any more.
        #expect(clock.sleeperCount == 0)
    }

    @Test("the journey log is JSON Lines with time, kind and the message")
    func logFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("journey-log-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("journey.jsonl").path
        let log = try JourneyLog(path: path)
        let (host, journey) = try makeJourney(log: log)
        host.sendReadyEvent()
        #expect(await run(try scenario(steps("""
            {"send": {"payload": {"action": "capability.query"}, "label": "caps"}},
            {"awaitResponse": {"label": "caps"}},
            {"sendRaw": "oops\\n\\"quoted\\""},
            {"send": {"payload": {"action": "nfc.read"}, "label": "n", "timeoutMs": 5}},
            {"awaitResponse": {"label": "n"}}
            """)), on: journey, moving: clock, within: .milliseconds(5)))
        log.close()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == journey.entries.count)
        var kinds: [String] = []
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let time = try #require(object["time"] as? String)
            #expect(time.hasSuffix("Z") && time.contains("T") && time.contains("."))
            kinds.append(try #require(object["kind"] as? String))
        }
        #expect(kinds == ["received", "note", "sent", "received", "sent", "sent", "timeout", "note"])
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(lines[3].utf8)) as? [String: Any])
        #expect(answer["label"] as? String == "caps")
        #expect(answer["action"] as? String == "capability.query")
        #expect((answer["message"] as? [String: Any])?["type"] as? String == "response")
        let raw = try #require(try JSONSerialization.jsonObject(with: Data(lines[4].utf8)) as? [String: Any])
        #expect(raw["raw"] as? String == "oops\n\"quoted\"")
        let timeout = try #require(try JSONSerialization.jsonObject(with: Data(lines[6].utf8)) as? [String: Any])
        #expect(timeout["timeoutMs"] as? Int == 5)
        #expect((timeout["message"] as? [String: Any])?["correlationId"] as? String == journey.correlationId(forLabel: "n"))
    }

    @Test("a journey log that cannot be created is an error naming the file")
    func logFileError() {
        #expect(throws: SimulationInputError.self) {
            try JourneyLog(path: "/nonexistent-dir/journey.jsonl")
        }
        do {
            _ = try JourneyLog(path: "/nonexistent-dir/journey.jsonl")
        } catch {
            #expect(error.description == "/nonexistent-dir/journey.jsonl: cannot create the journey log: No such file or directory")
        }
    }
}

/// Collects strings from a host observer (which runs on the main actor).
final class OrderCollector: Sendable {
    private let storage = Locked<[String]>([])

    func append(_ value: String) {
        storage.withLock { $0.append(value) }
    }

    var values: [String] { storage.current }
}
