import BridgeCore
import Foundation
import TestSupport
import Testing

/// Where each request goes: built-in handler, typed slot, custom capability, protocol handler or
/// `pendingRequests`.
@MainActor
@Suite("Routing")
struct RoutingTests {
    // FAQ, "Do I need to handle the capability.query action myself?": BridgeHost registers a
    // CapabilityQueryHandler automatically.
    @Test("capability.query is answered by the built-in handler (FAQ: Do I need to handle the capability.query action myself?)")
    func builtInCapabilityQuery() async {
        let (host, journey) = makeHost()
        let delegate = RecordingDelegate()
        host.delegate = delegate
        host.receive(text: request("capability.query", id: "q-1"))
        #expect(await eventually { journey.deliveries.count == 1 })
        let answer = journey.messages[0]
        #expect(answer.type == .response)
        #expect(answer.correlationId == "q-1")
        #expect(answer.payload.action == "capability.query")
        #expect(answer.payload.status == .success)
        #expect(answer.payload.data?["environment"] == .string("ios"))
        #expect(host.pendingRequests.isEmpty)
        #expect(delegate.unhandled.isEmpty)
        #expect(delegate.calls == [.didReceive("q-1")])
    }

    // Two-Way Communication example (the diagram): a typed slot with a handler runs it and the
    // CaptureResult is encoded into the response.
    @Test("A typed slot with a handler runs it (Two-Way Communication: Incoming requests)")
    func typedSlotRunsHandler() async throws {
        let (host, journey) = makeHost()
        let counter = Counter()
        host.selfieCapture.handler = { request in
            counter.hit(request.correlationId)
            return .selfie(SelfieCaptureResult(imageData: Data([1, 2, 3]), width: 640, height: 480, mimeType: "image/png"))
        }
        host.receive(text: request("camera.selfie.capture", id: "s-1"))
        // The handler starts while the request is routed (FAQ, "Is the message order preserved?");
        // this one returns without waiting, so the slot may be idle again already.
        #expect(await eventually { journey.deliveries.count == 1 })
        #expect(host.selfieCapture.activeRequest == nil)
        #expect(counter.ids == ["s-1"])
        let response = journey.messages[0]
        #expect(response.correlationId == "s-1")
        #expect(response.payload.action == "camera.selfie.capture")
        #expect(response.payload.status == .success)
        #expect(response.payload.data?["imageWidth"] == .number(640))
        #expect(host.selfieCapture.activeRequest == nil)
        #expect(host.pendingRequests.isEmpty)
    }

    // Troubleshooting, "Handler Not Called for Requests", causes 1 and 4: a slot without a
    // handler, or a disabled slot, sends its requests to pendingRequests (and the delegate's
    // unhandledRequest is called: FAQ, "What happens if the web journey sends a request for an
    // action I haven't registered?").
    @Test("A slot without handler, or disabled, goes to pendingRequests (Troubleshooting: Handler Not Called for Requests)")
    func slotWithoutHandlerOrDisabled() async {
        let (host, journey) = makeHost()
        let delegate = RecordingDelegate()
        host.delegate = delegate
        host.receive(text: request("camera.document.capture", id: "d-1"))
        let counter = Counter()
        host.selfieCapture.handler = { request in
            counter.hit(request.correlationId)
            return .cancelled(reason: "x")
        }
        host.selfieCapture.isEnabled = false
        host.receive(text: request("camera.selfie.capture", id: "s-1"))
        await settle()
        #expect(host.pendingRequests.map(\.correlationId) == ["d-1", "s-1"])
        #expect(delegate.unhandled.map(\.correlationId) == ["d-1", "s-1"])
        #expect(counter.value == 0)
        #expect(host.documentCapture.activeRequest == nil)
        #expect(host.selfieCapture.activeRequest == nil)
        #expect(journey.deliveries.isEmpty)
    }

    // Two-Way Communication example, "Registering custom capabilities for non-camera actions".
    @Test("A custom capability runs its handler (Two-Way Communication: custom capabilities)")
    func customCapability() async {
        let (host, journey) = makeHost()
        host.registerCustomCapability("nfc.read", version: "2.0") { request, responder in
            responder.respond(status: .success, data: ["echo": .string(request.correlationId)])
        }
        host.receive(text: request("nfc.read", id: "n-1"))
        #expect(await eventually { journey.deliveries.count == 1 })
        #expect(journey.messages[0].payload.data == ["echo": .string("n-1")])
        #expect(journey.messages[0].payload.action == "nfc.read")
        #expect(host.pendingRequests.isEmpty)
    }

    // Security, "Data Validation in Handlers": the protocol handler path, register(handler:),
    // with the documented INVALID_PARAMS validation.
    @Test("A protocol handler registered with register(handler:) runs (Security: Data Validation in Handlers)")
    func protocolHandler() async {
        let (host, journey) = makeHost()
        host.register(handler: SideValidatingHandler())
        host.receive(text: request("document.side", id: "v-1", data: ["side": "front"]))
        host.receive(text: request("document.side", id: "v-2", data: ["side": "top"]))
        host.receive(text: request("document.side", id: "v-3"))
        #expect(await eventually { journey.deliveries.count == 3 })
        let byId = Dictionary(uniqueKeysWithValues: journey.messages.map { ($0.correlationId, $0) })
        #expect(byId["v-1"]?.payload.status == .success)
        #expect(byId["v-1"]?.payload.data == ["side": "front"])
        for id in ["v-2", "v-3"] {
            #expect(byId[id]?.payload.status == .error)
            #expect(
                byId[id]?.payload.error
                    == BridgeErrorPayload(
                        code: "INVALID_PARAMS", message: "Missing or invalid 'side' parameter. Expected 'front' or 'back'.",
                        recoverable: true))
        }
    }

    // FAQ, "Can I change capabilities after initialization?": replace the built-in
    // capability.query handler with a custom one.
    @Test("Registering capability.query replaces the built-in handler (FAQ: Can I change capabilities after initialization?)")
    func replaceCapabilityQuery() async {
        let (host, journey) = makeHost()
        host.register(
            handler: ClosureHandler(action: "capability.query") { _, responder in
                responder.respond(status: .success, data: ["custom": true])
            })
        host.receive(text: request("capability.query", id: "q-1"))
        #expect(await eventually { journey.deliveries.count == 1 })
        #expect(journey.messages[0].payload.data == ["custom": true])
        await settle()
        #expect(journey.deliveries.count == 1)

        // Removing it leaves capability.query unhandled.
        host.unregisterHandler(for: "capability.query")
        host.receive(text: request("capability.query", id: "q-2"))
        #expect(host.pendingRequests.map(\.correlationId) == ["q-2"])
    }

    // FAQ, "What is the difference between typed slots and custom capabilities?": if both are
    // registered for the same id, the typed slot takes precedence (in routing and in the query).
    @Test("A typed slot takes precedence over a handler with the same id (FAQ: What is the difference between typed slots and custom capabilities?)")
    func slotPrecedence() async {
        let (host, journey) = makeHost()
        let counter = Counter()
        host.registerCustomCapability("camera.document.capture", version: "9.9") { request, responder in
            counter.hit(request.correlationId)
            responder.respond(status: .success, data: ["from": "custom"])
        }
        host.registerCustomCapability("camera.document", version: "9.9") { _, responder in
            responder.respond(status: .success)
        }
        host.documentCapture.handler = { _ in
            .document(DocumentCaptureResult(imageData: Data([9]), width: 1, height: 1, mimeType: "image/jpeg"))
        }
        host.receive(text: request("camera.document.capture", id: "d-1"))
        #expect(await eventually { journey.deliveries.count == 1 })
        await settle()
        #expect(counter.value == 0)
        #expect(journey.messages.count == 1)
        #expect(journey.messages[0].payload.data?["imageBase64"] == .string("CQ=="))
        // In the capability.query answer, the slot's entry wins over the custom one.
        let capabilities = host.capabilityQueryData()["capabilities"]
        #expect(capabilities?["camera.document"] == ["supported": true, "version": "1.0", "permissionState": "notDetermined"])
        #expect(host.customCapabilities.first { $0.id == "camera.document" }?.isShadowedBySlot == true)
    }

    // Troubleshooting, "Handler Not Called for Requests", "For protocol-based handlers, verify the
    // action string matches: let action = "camera.document.capture"": a slot nobody gave a handler
    // does not hide a protocol handler registered for its action.
    @Test("A slot without a handler does not hide a protocol handler for its action (Troubleshooting: Handler Not Called for Requests)")
    func unusedSlotDoesNotShadowProtocolHandler() async {
        let host = BridgeHost(configuration: BridgeConfiguration(
            hostVersion: "1.0.0",
            capabilities: ["camera.document": BridgeCapabilityInfo(supported: true, version: "1.0")]))
        let journey = RecordingJourneyTransport()
        host.attach(journey)
        host.register(
            handler: ClosureHandler(action: "camera.document.capture") { _, responder in
                responder.respond(status: .success, data: ["from": "protocol handler"])
            })
        host.receive(text: request("camera.document.capture", id: "d-1"))
        #expect(await eventually { journey.deliveries.count == 1 })
        #expect(journey.messages[0].payload.data == ["from": "protocol handler"])
        #expect(host.pendingRequests.isEmpty)
        #expect(host.documentCapture.activeRequest == nil)
    }

    // Troubleshooting, "Handler Not Called for Requests", cause 2; Security, "Action Validation":
    // routing is an exact, case-sensitive string match.
    @Test(
        "Actions match exactly and case-sensitively (Troubleshooting: Handler Not Called for Requests)",
        arguments: ["Device.Info", "device.info ", " device.info", "device.infos", "device", "device_info", "DEVICE.INFO"])
    func exactActionMatch(_ action: String) async {
        let (host, journey) = makeHost()
        let counter = Counter()
        host.registerCustomCapability("device.info") { request, _ in counter.hit(request.correlationId) }
        host.documentCapture.handler = { request in
            counter.hit(request.correlationId)
            return .cancelled(reason: "x")
        }
        host.receive(text: request(action, id: "r-1"))
        host.receive(text: request("Camera.Document.Capture", id: "r-2"))
        await settle()
        #expect(counter.value == 0)
        #expect(host.pendingRequests.map(\.payload.action) == [action, "Camera.Document.Capture"])
        #expect(journey.deliveries.isEmpty)
    }

    // FAQ, "What happens if the web journey sends a request for an action I haven't registered?":
    // added to pendingRequests, the delegate's unhandledRequest is called, respond(to:) answers it.
    @Test("An unrouted request waits in pendingRequests until respond(to:) (FAQ: What happens if the web journey sends a request for an action I haven't registered?)")
    func unroutedRequest() {
        let (host, journey) = makeHost()
        let delegate = RecordingDelegate()
        host.delegate = delegate
        host.receive(text: request("nfc.read", id: "u-1", data: ["tag": "x"]))
        host.receive(text: request("nfc.write", id: "u-2"))
        #expect(host.pendingRequests.map(\.correlationId) == ["u-1", "u-2"])
        #expect(host.pendingRequests[0].payload.data == ["tag": "x"])
        #expect(delegate.unhandled.map(\.correlationId) == ["u-1", "u-2"])
        #expect(journey.deliveries.isEmpty)

        host.respond(to: "u-1", status: .success, data: ["done": true])
        #expect(host.pendingRequests.map(\.correlationId) == ["u-2"])
        #expect(journey.messages.map(\.correlationId) == ["u-1"])
        #expect(journey.messages[0].payload.action == "nfc.read")
        #expect(journey.messages[0].payload.status == .success)
        #expect(host.lastError == nil)
    }

    // BridgeHostDelegate (Two-Way Communication, "Observing all bridge traffic"): didReceive comes
    // first, for every decoded message; unhandledRequest follows for a request that went pending.
    @Test("didReceive is called before unhandledRequest (Two-Way Communication: Unhandled Requests)")
    func delegateOrder() {
        let (host, _) = makeHost()
        let delegate = RecordingDelegate()
        host.delegate = delegate
        var seenInLogWhenUnhandled: [String] = []
        delegate.onUnhandled = { host, _ in seenInLogWhenUnhandled = host.receivedMessages.map(\.correlationId) }
        host.receive(text: request("x.y", id: "a"))
        host.receive(text: message(type: .event, action: "journey.cancel", id: "e", data: ["reason": "user"]))
        #expect(delegate.calls == [.didReceive("a"), .unhandled("a"), .didReceive("e")])
        #expect(seenInLogWhenUnhandled == ["a"])
    }

    // Troubleshooting, "Message Decoding Failures": a correlationId pairs one response with one
    // request. A second request reusing an outstanding id is not routed; lastError says so and
    // the original is untouched.
    @Test("A duplicate correlationId while outstanding is not routed (Troubleshooting: Message Decoding Failures)")
    func duplicateCorrelationId() async {
        let (host, journey) = makeHost()
        let delegate = RecordingDelegate()
        host.delegate = delegate
        // Pending original.
        host.receive(text: request("nfc.read", id: "dup", data: ["n": 1]))
        host.receive(text: request("nfc.read", id: "dup", data: ["n": 2]))
        #expect(
            host.lastError
                == "Duplicate correlationId 'dup' (action 'nfc.read'): a request with this id is still outstanding, so the duplicate was not routed; give every request a unique correlationId"
        )
        #expect(host.pendingRequests.count == 1)
        #expect(host.pendingRequests[0].payload.data == ["n": 1])
        #expect(delegate.unhandled.count == 1)

        // Slot-held original: a duplicate id is not a BUSY case and does not disturb the capture.
        host.documentCapture.handler = { [weak host] _ in
            await host?.documentCapture.awaitCompletion() ?? .cancelled(reason: "gone")
        }
        host.receive(text: request("camera.document.capture", id: "cap"))
        host.receive(text: request("camera.document.capture", id: "cap"))
        #expect(host.lastError?.hasPrefix("Duplicate correlationId 'cap'") == true)
        #expect(host.documentCapture.activeRequest?.correlationId == "cap")
        await settle()
        #expect(journey.deliveries.isEmpty)
        #expect(host.documentCapture.complete(.cancelled(reason: "done")))
        #expect(journey.messages.map(\.correlationId) == ["cap"])
        journey.removeAll()

        // Handler-held original: the handler runs once.
        let counter = Counter()
        let gate = Gate()
        host.registerCustomCapability("slow.op") { request, responder in
            counter.hit(request.correlationId)
            await gate.wait()
            responder.respond(status: .success)
        }
        host.receive(text: request("slow.op", id: "h"))
        #expect(await eventually { counter.value == 1 })
        host.receive(text: request("slow.op", id: "h"))
        #expect(host.lastError?.hasPrefix("Duplicate correlationId 'h' (action 'slow.op')") == true)
        gate.open()
        #expect(await eventually { journey.deliveries.count == 1 })
        await settle()
        #expect(counter.value == 1)
        #expect(journey.messages.map(\.correlationId) == ["h"])

        // Once answered, the id may be used again.
        host.clearError()
        host.respond(to: "dup", status: .unsupported)
        host.receive(text: request("nfc.read", id: "dup"))
        #expect(host.lastError == nil)
        #expect(host.pendingRequests.map(\.correlationId) == ["dup"])
    }

    // Troubleshooting, "Message Decoding Failures" (type is "request", "response" or "event"; a
    // correlationId pairs a response with its request): the host sends no requests, so a response
    // from the journey matches nothing. lastError says so and nothing else is disturbed.
    @Test("A response from the journey for an unknown id sets lastError only (Troubleshooting: Message Decoding Failures)")
    func responseFromJourney() {
        let (host, journey) = makeHost()
        let delegate = RecordingDelegate()
        host.delegate = delegate
        host.receive(text: request("nfc.read", id: "p-1"))
        host.receive(text: message(type: .response, action: "nfc.read", id: "p-1", status: .success))
        host.receive(text: message(type: .response, action: "host.whatever", id: "nobody", status: .error))
        #expect(
            host.lastError
                == "Received a response for unknown correlationId 'nobody' (action 'host.whatever'): the host has sent no request with this id"
        )
        #expect(host.pendingRequests.map(\.correlationId) == ["p-1"])
        #expect(host.receivedMessages.count == 3)
        #expect(delegate.unhandled.map(\.correlationId) == ["p-1"])
        #expect(journey.deliveries.isEmpty)
    }

    // FAQ, "What happens to events — does anyone respond to them?": events are fire-and-forget.
    @Test("Events from the journey are logged, never routed or answered (FAQ: What happens to events — does anyone respond to them?)")
    func eventsAreNotRouted() async {
        let (host, journey) = makeHost()
        let counter = Counter()
        host.registerCustomCapability("journey.cancel") { request, _ in counter.hit(request.correlationId) }
        host.receive(text: message(type: .event, action: "journey.cancel", id: "e-1", data: ["reason": "user"]))
        await settle()
        #expect(counter.value == 0)
        #expect(host.receivedMessages.map(\.correlationId) == ["e-1"])
        #expect(host.pendingRequests.isEmpty)
        #expect(journey.deliveries.isEmpty)
        #expect(host.lastError == nil)
    }
}

/// The Security page's validating handler ("Data Validation in Handlers").
struct SideValidatingHandler: BridgeCapabilityHandler {
    let action = "document.side"

    func handle(request: BridgeMessage, responder: BridgeResponder) async {
        guard let side = request.payload.data?["side"],
            case .string(let sideValue) = side,
            ["front", "back"].contains(sideValue)
        else {
            responder.respond(
                status: .error,
                data: nil,
                error: BridgeErrorPayload(
                    code: "INVALID_PARAMS",
                    message: "Missing or invalid 'side' parameter. Expected 'front' or 'back'.",
                    recoverable: true
                )
            )
            return
        }
        responder.respond(status: .success, data: ["side": .string(sideValue)], error: nil)
    }
}

/// A one-shot gate a handler can wait on until the test opens it.
@MainActor
final class Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        let resumed = waiters
        waiters.removeAll()
        for waiter in resumed { waiter.resume() }
    }
}
