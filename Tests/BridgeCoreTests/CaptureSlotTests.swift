import BridgeCore
import Foundation
import TestSupport
import Testing

/// The typed capture slots: BUSY rejection, completion, the UI-driven flow and result encoding.
@MainActor
@Suite("Capture slots")
struct CaptureSlotTests {
    /// A host whose document slot waits for `complete(_:)` (the UI-driven flow).
    func manualHost() -> (BridgeHost, RecordingJourneyTransport, Counter) {
        let (host, journey) = makeHost()
        let counter = Counter()
        host.documentCapture.handler = { [weak host] request in
            counter.hit(request.correlationId)
            // As in the documented flow, the handler may set activeRequest itself.
            host?.documentCapture.activeRequest = request
            return await host?.documentCapture.awaitCompletion() ?? .cancelled(reason: "Host deallocated")
        }
        return (host, journey, counter)
    }

    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0xFF, 0xD9])

    // Troubleshooting, "Typed Slot Returns BUSY Error": a request that arrives while a previous
    // one is in progress on the same slot is answered with BUSY; the active one is left alone.
    @Test("BUSY while a request is active (Troubleshooting: Typed Slot Returns BUSY Error)")
    func busyWhileActive() async throws {
        let (host, journey, counter) = manualHost()
        host.receive(text: request("camera.document.capture", id: "first"))
        #expect(await eventually { counter.value == 1 })
        host.receive(text: request("camera.document.capture", id: "second", data: ["side": "back"]))
        #expect(journey.deliveries.count == 1)
        let busy = journey.messages[0]
        #expect(busy.type == .response)
        #expect(busy.correlationId == "second")
        #expect(busy.payload.action == "camera.document.capture")
        #expect(busy.payload.status == .error)
        let error = try #require(busy.payload.error)
        #expect(error.code == "BUSY")
        #expect(error.recoverable == true)
        #expect(error.message == "Another native operation is in progress")
        #expect(busy.payload.data == nil)
        // The active request is untouched: the same request, the handler ran once, nothing pending.
        #expect(host.documentCapture.activeRequest?.correlationId == "first")
        #expect(counter.ids == ["first"])
        #expect(host.pendingRequests.isEmpty)
        #expect(host.lastError == nil)
        // And it still completes normally.
        #expect(host.documentCapture.complete(.cancelled(reason: "Dismissed")))
        #expect(journey.messages.map(\.correlationId) == ["second", "first"])
    }

    // Troubleshooting, "Typed Slot Returns BUSY Error": busy is per slot, the other slot still works.
    @Test("BUSY is per slot (Troubleshooting: Typed Slot Returns BUSY Error)")
    func busyIsPerSlot() async {
        let (host, journey, counter) = manualHost()
        host.selfieCapture.handler = { _ in
            .selfie(SelfieCaptureResult(imageData: Data([7]), width: 2, height: 2, mimeType: "image/png"))
        }
        host.receive(text: request("camera.document.capture", id: "doc"))
        #expect(await eventually { counter.value == 1 })
        host.receive(text: request("camera.selfie.capture", id: "selfie"))
        #expect(await eventually { journey.deliveries.count == 1 })
        #expect(journey.messages[0].correlationId == "selfie")
        #expect(journey.messages[0].payload.status == .success)
        #expect(host.documentCapture.activeRequest?.correlationId == "doc")
        host.documentCapture.complete(.cancelled(reason: "end"))
    }

    // Troubleshooting, "Typed Slot Returns BUSY Error", the fix: call complete(...) when the camera
    // UI finishes or is dismissed. The manual flow (handler suspended in awaitCompletion()) sends
    // exactly one response, and afterwards a new request is accepted.
    @Test("complete(_:) ends the active request, exactly one response (Troubleshooting: Typed Slot Returns BUSY Error)")
    func manualFlowCompletes() async throws {
        let (host, journey, counter) = manualHost()
        host.receive(text: request("camera.document.capture", id: "c-1"))
        #expect(await eventually { counter.value == 1 })
        #expect(host.documentCapture.activeRequest?.correlationId == "c-1")
        #expect(host.documentCapture.activeSince == fixedDate)
        await settle()
        #expect(journey.deliveries.isEmpty)

        let result = CaptureResult.document(
            DocumentCaptureResult(imageData: Self.jpeg, width: 1920, height: 1080, mimeType: "image/jpeg"))
        #expect(host.documentCapture.complete(result))
        #expect(host.documentCapture.activeRequest == nil)
        #expect(host.documentCapture.activeSince == nil)
        #expect(journey.deliveries.count == 1)
        // The handler resumes with the same result; that must not send a second response.
        await settle()
        #expect(journey.deliveries.count == 1)
        let response = journey.messages[0]
        #expect(response.correlationId == "c-1")
        #expect(response.payload.status == .success)
        #expect(host.lastError == nil)

        // After completion a new request is accepted (not BUSY).
        host.receive(text: request("camera.document.capture", id: "c-2"))
        #expect(await eventually { counter.value == 2 })
        #expect(host.documentCapture.activeRequest?.correlationId == "c-2")
        #expect(journey.deliveries.count == 1)
        #expect(host.documentCapture.complete(.cancelled(reason: "Dismissed")))
        await settle()
        #expect(journey.messages.map(\.correlationId) == ["c-1", "c-2"])
        #expect(journey.messages[1].payload.status == .cancelled)
    }

    // Troubleshooting, "Typed Slot Returns BUSY Error": the onDismiss check
    // `if host.documentCapture.activeRequest != nil { complete(...) }`; complete on an idle slot
    // returns false and sends nothing.
    @Test("complete(_:) on an idle slot returns false and sends nothing (Troubleshooting: Typed Slot Returns BUSY Error)")
    func completeOnIdleSlot() async {
        let (host, journey, _) = manualHost()
        #expect(host.documentCapture.complete(.cancelled(reason: "Dismissed")) == false)
        #expect(host.selfieCapture.complete(.cancelled(reason: "Dismissed")) == false)
        #expect(journey.deliveries.isEmpty)
        #expect(host.lastError == nil)
        // awaitCompletion on an idle slot does not hang.
        #expect(await host.documentCapture.awaitCompletion() == .cancelled(reason: "No active request"))
    }

    // Troubleshooting, "Typed Slot Returns BUSY Error": in the automatic flow, the handler's
    // return ends the request; an early complete(...) (the UI dismissed) wins and the handler's
    // later result is not sent a second time.
    @Test("An early complete wins over the handler's later result (Troubleshooting: Typed Slot Returns BUSY Error)")
    func earlyCompleteWins() async {
        let (host, journey) = makeHost()
        let gate = Gate()
        host.documentCapture.handler = { _ in
            await gate.wait()
            return .document(DocumentCaptureResult(imageData: Data([1]), width: 1, height: 1, mimeType: "image/jpeg"))
        }
        host.receive(text: request("camera.document.capture", id: "auto"))
        #expect(host.documentCapture.complete(.cancelled(reason: "Dismissed")))
        gate.open()
        await settle()
        #expect(journey.messages.count == 1)
        #expect(journey.messages[0].payload.status == .cancelled)
        #expect(host.documentCapture.activeRequest == nil)
    }

    // Two-Way Communication, the diagram: response success { imageBase64, imageWidth, imageHeight,
    // mimeType }, encoded automatically.
    @Test("A capture result is encoded as imageBase64, imageWidth, imageHeight, mimeType (Two-Way Communication: Incoming requests)")
    func successEncoding() async throws {
        let (host, journey) = makeHost()
        host.documentCapture.handler = { _ in
            .document(DocumentCaptureResult(imageData: Self.jpeg, width: 1920, height: 1080, mimeType: "image/jpeg"))
        }
        host.receive(text: request("camera.document.capture", id: "enc"))
        #expect(await eventually { journey.deliveries.count == 1 })
        let data = try #require(journey.messages[0].payload.data)
        #expect(Set(data.keys) == ["imageBase64", "imageWidth", "imageHeight", "mimeType"])
        let base64 = try #require(data["imageBase64"]?.stringValue)
        #expect(Data(base64Encoded: base64) == Self.jpeg)
        #expect(data["imageWidth"] == .number(1920))
        #expect(data["imageHeight"] == .number(1080))
        #expect(data["mimeType"] == .string("image/jpeg"))
        #expect(journey.messages[0].payload.error == nil)
        // On the wire the sizes are plain integers.
        let json = String(decoding: journey.deliveries[0].json, as: UTF8.self)
        #expect(json.contains(#""imageWidth":1920"#))
        #expect(json.contains(#""imageHeight":1080"#))
    }

    // Two-Way Communication, "Responding with success, error, and cancellation statuses":
    // a cancelled capture is status cancelled with a CANCELLED error carrying the reason; a
    // failure is status error with the given error.
    @Test("Cancelled and failed captures (Two-Way Communication: Responding with success, error, and cancellation statuses)")
    func cancelledAndFailure() async {
        let (host, journey, counter) = manualHost()
        host.receive(text: request("camera.document.capture", id: "cancel"))
        #expect(await eventually { counter.value == 1 })
        host.documentCapture.complete(.cancelled(reason: "User closed the camera"))
        host.receive(text: request("camera.document.capture", id: "fail"))
        #expect(await eventually { counter.value == 2 })
        let denied = BridgeErrorPayload(code: "CAMERA_DENIED", message: "Camera access was denied. Please enable it in Settings.", recoverable: true)
        host.documentCapture.complete(.failure(denied))
        await settle()
        #expect(journey.messages.count == 2)
        let cancelled = journey.messages[0]
        #expect(cancelled.payload.status == .cancelled)
        #expect(cancelled.payload.error == BridgeErrorPayload(code: "CANCELLED", message: "User closed the camera", recoverable: true))
        #expect(cancelled.payload.data == nil)
        let failed = journey.messages[1]
        #expect(failed.payload.status == .error)
        #expect(failed.payload.error == denied)
        #expect(failed.payload.data == nil)
    }

    // Troubleshooting, "Debugging Checklist": "check activeRequest isn't stuck". Observers see the
    // slot become busy and idle again.
    @Test("Slot state changes are observable (Troubleshooting: Debugging Checklist)")
    func slotStateObservable() async {
        let (host, _, counter) = manualHost()
        let recorder = ChangeRecorder()
        _ = recorder.attach(to: host)
        host.receive(text: request("camera.document.capture", id: "obs"))
        #expect(await eventually { counter.value == 1 })
        host.documentCapture.complete(.cancelled(reason: "x"))
        let states = recorder.slots.filter { $0.kind == .document }
        #expect(states.first?.activeRequest?.correlationId == "obs")
        #expect(states.first?.activeSince == fixedDate)
        #expect(states.last?.activeRequest == nil)
        #expect(states.last?.isSupported == true)
    }

    // Facts (typed slots): the slot ids and actions.
    @Test("Slot ids and actions (FAQ: What is the difference between typed slots and custom capabilities?)")
    func slotIdentities() {
        let (host, _) = makeHost()
        #expect(host.documentCapture.capabilityId == "camera.document")
        #expect(host.documentCapture.action == "camera.document.capture")
        #expect(host.selfieCapture.capabilityId == "camera.selfie")
        #expect(host.selfieCapture.action == "camera.selfie.capture")
        #expect(host.documentCapture.permissionState == .notDetermined)
        #expect(host.documentCapture.isEnabled)
        #expect(host.documentCapture.isSupported == false)
        host.documentCapture.handler = { _ in .cancelled(reason: "x") }
        #expect(host.documentCapture.isSupported)
        host.documentCapture.isEnabled = false
        #expect(host.documentCapture.isSupported == false)
    }
}
