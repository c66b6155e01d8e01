import BridgeCore
import Foundation
import TestSupport
import Testing

/// What the host sends, in which order, and what happens when it cannot.
@MainActor
@Suite("Sending")
struct SendingTests {
    // Two-Way Communication, "Outgoing events (native → web)": host.send(event:data:) delivers an
    // event; host events get a correlation id `ios-event-<uuid>`.
    @Test("Host events get ids ios-event-<uuid> (Two-Way Communication: Outgoing events)")
    func eventIds() throws {
        let (host, journey) = makeHost()
        host.send(event: "host.ready", data: ["timestamp": .number(fixedMillis), "version": "1.0.0"])
        host.send(event: "host.ping")
        #expect(journey.deliveries.count == 2)
        let pattern = try Regex("^ios-event-[0-9a-f-]{36}$")
        for message in journey.messages {
            #expect(message.correlationId.wholeMatch(of: pattern) != nil, "\(message.correlationId)")
            #expect(message.type == .event)
            #expect(message.version == "1.0")
            #expect(message.timestamp == fixedMillis)
            #expect(message.payload.status == nil)
            #expect(message.payload.error == nil)
        }
        #expect(journey.messages[0].correlationId != journey.messages[1].correlationId)
        #expect(journey.messages[0].payload.action == "host.ready")
        #expect(journey.messages[0].payload.data == ["timestamp": .number(fixedMillis), "version": "1.0.0"])
        #expect(journey.messages[1].payload.action == "host.ping")
        #expect(journey.messages[1].payload.data == nil)
        // The uuid is a real UUID.
        let uuid = String(journey.messages[0].correlationId.dropFirst("ios-event-".count))
        #expect(UUID(uuidString: uuid) != nil)
    }

    // FAQ, "Is the message order preserved?": responses are sent in the order respond() is called,
    // and evaluateJavaScript calls run sequentially.
    @Test("Messages go out in the order they are sent (FAQ: Is the message order preserved?)")
    func order() async {
        let (host, journey) = makeHost()
        for index in 0..<20 { host.receive(text: request("pending.op", id: "p-\(index)")) }
        var expected: [String] = []
        for index in stride(from: 19, through: 0, by: -1) {
            if index % 5 == 0 {
                host.send(event: "host.tick", data: ["n": .number(Double(index))])
                expected.append("host.tick:\(index)")
            }
            host.respond(to: "p-\(index)", status: .success)
            expected.append("p-\(index)")
        }
        let seen = journey.messages.map { message in
            message.type == .event ? "host.tick:\(Int(message.payload.data?["n"]?.numberValue ?? -1))" : message.correlationId
        }
        #expect(seen == expected)

        // Responses made by a handler from another thread keep their order too.
        journey.removeAll()
        host.registerCustomCapability("sequence") { request, responder in
            responder.respond(status: .success, data: ["id": .string(request.correlationId)])
        }
        host.receive(text: request("sequence", id: "s-1"))
        #expect(await eventually { journey.deliveries.count == 1 })
        host.receive(text: request("sequence", id: "s-2"))
        #expect(await eventually { journey.deliveries.count == 2 })
        #expect(journey.messages.map(\.correlationId) == ["s-1", "s-2"])

        // Several responses made in a row from a handler's own task go out in that order (the
        // extra ones are sent too, and noted in lastError).
        journey.removeAll()
        host.registerCustomCapability("multi") { _, responder in
            for index in 0..<5 { responder.respond(status: .success, data: ["n": .number(Double(index))]) }
        }
        host.receive(text: request("multi", id: "m-1"))
        #expect(await eventually { journey.deliveries.count == 5 })
        #expect(journey.messages.map { $0.payload.data?["n"] } == [0, 1, 2, 3, 4])
        #expect(host.lastError?.hasPrefix("respond(to:) for correlationId 'm-1', which has already been answered") == true)
    }

    // Troubleshooting, "Messages Not Being Received by the Web Journey", cause 1; FAQ, "Why do I see
    // WebView not attached errors?": the host holds the WebView weakly; sending without it sets
    // lastError to "WebView not attached ...".
    @Test("Sending without a journey sets WebView not attached (FAQ: Why do I see WebView not attached errors?)")
    func detached() {
        let host = BridgeHost(hostVersion: "1.0.0")
        #expect(host.isJourneyAttached == false)
        host.send(event: "host.ping")
        #expect(host.lastError?.hasPrefix("WebView not attached") == true)
        #expect(host.lastError?.contains("'host.ping'") == true)

        // Attached, then the transport goes away (held weakly, like the WebView).
        let recorder = ChangeRecorder()
        let token = recorder.attach(to: host)
        defer { host.removeObserver(token) }
        var journey: RecordingJourneyTransport? = RecordingJourneyTransport()
        host.attach(journey!)
        host.clearError()
        host.send(event: "host.ping")
        #expect(host.lastError == nil)
        #expect(journey?.deliveries.count == 1)
        journey = nil
        #expect(host.isJourneyAttached == false)
        host.receive(text: request("x.y", id: "r-1"))
        host.respond(to: "r-1", status: .unsupported)
        #expect(host.lastError?.hasPrefix("WebView not attached: response 'x.y' (r-1) was not delivered") == true)
        // Observers (the inspector) learn it went at the first delivery that finds it gone, once.
        let attachments = recorder.changes.compactMap { if case .journeyAttachment(let attached) = $0 { return attached } else { return nil } }
        #expect(attachments == [true, false])
        host.send(event: "host.ping")
        #expect(recorder.changes.filter { if case .journeyAttachment = $0 { return true } else { return false } }.count == 2)

        let other = RecordingJourneyTransport()
        host.attach(other)
        host.detach()
        host.send(event: "host.background")
        #expect(other.deliveries.isEmpty)
        #expect(host.lastError?.hasPrefix("WebView not attached") == true)
    }

    // Troubleshooting, "Messages Not Being Received by the Web Journey", cause 3: JavaScript
    // evaluation errors appear in lastError starting with "evaluateJavaScript failed:".
    @Test("A failing transport sets evaluateJavaScript failed: (Troubleshooting: Messages Not Being Received by the Web Journey)")
    func throwingTransport() {
        let (host, journey) = makeHost()
        journey.failure = TransportBroken()
        host.send(event: "host.ping")
        #expect(host.lastError == "evaluateJavaScript failed: the page is gone")
        #expect(journey.deliveries.isEmpty)

        // A failure the transport learns of later.
        journey.failure = nil
        host.clearError()
        host.send(event: "host.foreground")
        let delivery = journey.deliveries[0]
        host.journeyDeliveryFailed(delivery, error: TransportBroken())
        #expect(host.lastError?.hasPrefix("evaluateJavaScript failed: the page is gone") == true)
        #expect(host.lastError?.contains("host.foreground") == true)
    }

    // FAQ, "What is the maximum message size?" / this project: JSON cannot carry NaN or infinity;
    // such an event is not sent and lastError says why.
    @Test("An event holding NaN is not sent and says why (FAQ: What is the maximum message size?)")
    func nanEvent() {
        let (host, journey) = makeHost()
        let recorder = ChangeRecorder()
        _ = recorder.attach(to: host)
        host.send(event: "host.bad", data: ["value": .number(.nan)])
        host.send(event: "host.worse", data: ["nested": ["x": .number(.infinity)]])
        #expect(journey.deliveries.isEmpty)
        #expect(recorder.traffic.isEmpty)
        let error = host.lastError ?? ""
        #expect(error.hasPrefix("Failed to encode message 'host.worse'"))
        #expect(error.contains("it was not sent"))
        #expect(error.contains("NaN or infinite"))
    }

    // FAQ, "What happens if the web journey sends a request for an action I haven't registered?"
    // (it sits in pendingRequests until answered): a response that cannot be encoded is not an
    // answer, so the request stays pending and can be answered properly.
    @Test("A response that cannot be encoded leaves the request pending (FAQ: What happens if the web journey sends a request for an action I haven't registered?)")
    func nanResponseKeepsPending() throws {
        let (host, journey) = makeHost()
        host.receive(text: request("x.y", id: "r-1"))
        host.respond(to: "r-1", status: .success, data: ["value": .number(.nan)])
        #expect(journey.deliveries.isEmpty)
        #expect(host.lastError?.hasPrefix("Failed to encode message 'x.y' (r-1)") == true)
        #expect(host.pendingRequests.map(\.correlationId) == ["r-1"])
        try host.respondToPendingRequest("r-1", status: .success, data: ["value": 1])
        #expect(journey.messages.map(\.correlationId) == ["r-1"])
        #expect(host.pendingRequests.isEmpty)
    }

    // Troubleshooting, "Memory Warnings or Crashes": receivedMessages grows in a long session;
    // this project caps it as a ring buffer (200 by default, the Android SDK's
    // MAX_RECEIVED_MESSAGES), dropping the oldest.
    @Test("receivedMessages is a ring buffer, 200 by default (Troubleshooting: Memory Warnings or Crashes)")
    func ringBuffer() {
        let (host, _) = makeHost()
        #expect(host.maxReceivedMessages == 200)
        #expect(BridgeHost.defaultMaxReceivedMessages == 200)
        for index in 0..<250 { host.receive(text: message(type: .event, action: "journey.tick", id: "e-\(index)")) }
        #expect(host.receivedMessages.count == 200)
        #expect(host.receivedMessages.first?.correlationId == "e-50")
        #expect(host.receivedMessages.last?.correlationId == "e-249")

        // Configurable; lowering it trims at once, oldest first.
        host.maxReceivedMessages = 3
        #expect(host.receivedMessages.map(\.correlationId) == ["e-247", "e-248", "e-249"])
        host.receive(text: message(type: .event, action: "journey.tick", id: "e-250"))
        #expect(host.receivedMessages.map(\.correlationId) == ["e-248", "e-249", "e-250"])
        host.maxReceivedMessages = -5
        #expect(host.maxReceivedMessages == 0)
        #expect(host.receivedMessages.isEmpty)

        // clearReceivedMessages ("Periodically clear old messages").
        host.maxReceivedMessages = 10
        host.receive(text: message(type: .event, action: "journey.tick", id: "e-251"))
        host.clearReceivedMessages()
        #expect(host.receivedMessages.isEmpty)
    }

    // Troubleshooting, "Pending Request Inspection" ("If this list grows unexpectedly..."): above 50
    // pending requests (the Android SDK's PENDING_REQUEST_LEAK_THRESHOLD) a leak warning goes to
    // lastError.
    @Test("A leak warning when pending requests pass the threshold (Troubleshooting: Pending Request Inspection)")
    func pendingLeakWarning() {
        let (host, _) = makeHost()
        #expect(host.pendingRequestWarningThreshold == 50)
        for index in 0..<50 { host.receive(text: request("leaky.op", id: "p-\(index)")) }
        #expect(host.pendingRequests.count == 50)
        #expect(host.lastError == nil)
        host.receive(text: request("leaky.op", id: "p-50"))
        #expect(
            host.lastError
                == "Pending request leak: 51 requests are waiting for a response (warning threshold 50); register handlers for their actions or respond to them"
        )
        // Configurable.
        let (other, _) = makeHost()
        other.pendingRequestWarningThreshold = 2
        for index in 0..<3 { other.receive(text: request("leaky.op", id: "p-\(index)")) }
        #expect(other.lastError?.hasPrefix("Pending request leak: 3 requests") == true)
    }

    // FAQ, "What happens if the web journey sends a request for an action I haven't registered?":
    // respond manually. The checked path refuses ids that are not pending and second answers, and
    // only one response goes out.
    @Test("respondToPendingRequest refuses unknown and second answers (FAQ: What happens if the web journey sends a request for an action I haven't registered?)")
    func respondToPendingChecked() async throws {
        let (host, journey) = makeHost()
        #expect(throws: BridgeHostError.notPending(correlationId: "nope")) {
            try host.respondToPendingRequest("nope", status: .success)
        }
        host.receive(text: request("manual.op", id: "m-1"))
        try host.respondToPendingRequest("m-1", status: .success, data: ["ok": true])
        #expect(throws: BridgeHostError.alreadyAnswered(correlationId: "m-1")) {
            try host.respondToPendingRequest("m-1", status: .error, error: BridgeErrorCode.internalError.payload())
        }
        #expect(journey.messages.count == 1)
        #expect(journey.messages[0].payload.status == .success)
        #expect(host.pendingRequests.isEmpty)

        // A request a handler owns is not pending.
        let gate = Gate()
        host.registerCustomCapability("slow.op") { _, responder in
            await gate.wait()
            responder.respond(status: .success)
        }
        host.receive(text: request("slow.op", id: "h-1"))
        #expect(throws: BridgeHostError.handledElsewhere(correlationId: "h-1")) {
            try host.respondToPendingRequest("h-1", status: .success)
        }
        gate.open()
        #expect(await eventually { journey.deliveries.count == 2 })
        #expect(BridgeHostError.notPending(correlationId: "x").description.contains("'x'"))
    }

    // FAQ, "What happens if the web journey sends a request for an action I haven't registered?":
    // the unchecked respond(to:) sends anyway, and notes a second answer or an unknown id.
    @Test("respond(to:) for an answered or unknown id is noted in lastError (FAQ: What happens if the web journey sends a request for an action I haven't registered?)")
    func respondUnchecked() {
        let (host, journey) = makeHost()
        host.receive(text: request("manual.op", id: "m-1"))
        host.respond(to: "m-1", status: .success)
        #expect(host.lastError == nil)
        host.respond(to: "m-1", status: .success)
        #expect(host.lastError == "respond(to:) for correlationId 'm-1', which has already been answered; the response was sent anyway")
        host.respond(to: "ghost", status: .error)
        #expect(host.lastError == "respond(to:) for correlationId 'ghost', which is not an outstanding request; the response was sent anyway")
        #expect(journey.messages.map(\.correlationId) == ["m-1", "m-1", "ghost"])
        #expect(journey.messages[2].payload.action == "unknown")
    }

    // Troubleshooting, "Messages Not Being Received by the Web Journey": each delivery carries the
    // exact JSON and the JavaScript that calls window.GBGBridge.receive.
    @Test("Each delivery carries its JSON and receive(...) script (Troubleshooting: Messages Not Being Received by the Web Journey)")
    func deliveryContents() throws {
        let (host, journey) = makeHost()
        host.send(event: "host.orientation", data: ["orientation": "landscape"])
        let delivery = try #require(journey.deliveries.first)
        #expect(try decodeSent(delivery.json) == delivery.message)
        #expect(delivery.javaScript == "window.GBGBridge.receive(" + String(decoding: delivery.json, as: UTF8.self) + ");")
    }
}
