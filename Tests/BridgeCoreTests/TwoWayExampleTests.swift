import BridgeCore
import Foundation
import TestSupport
import Testing

// The "Two-Way Communication" example page (seed pages 001 and 004), as close to verbatim as a
// portable library allows: SwiftUI (the App, the views, @StateObject/@Published) and UIDevice are
// taken out; everything that touches the bridge is the page's code. Changes are marked "Adapted:".

// MARK: - Main View (the page's TwoWayJourneyView without its SwiftUI body)

@MainActor
final class TwoWayJourney {
    // Adapted: `@StateObject private var host` / `logger` become plain stored properties.
    let host = BridgeHost(hostVersion: "1.0.0")
    let logger = MessageLogger()

    // Adapted: the page sleeps one second to simulate a capture; a test waits 10 ms.
    var simulatedCaptureDelay: UInt64 = 10_000_000

    func setupBridge() {
        let delay = simulatedCaptureDelay  // Adapted: the delay is a property, see above.

        // Declare document capture support via typed slot
        host.documentCapture.handler = { [weak host] request in
            // Adapted: the page writes `guard let host else`, which leaves an unused binding
            // (a warning); checking for nil is the same test.
            guard host != nil else { return .cancelled(reason: "Host deallocated") }

            // Simulate a capture delay
            try? await Task.sleep(nanoseconds: delay)

            // Return a mock result
            let mockData = Data(repeating: 0xFF, count: 100)
            return .document(DocumentCaptureResult(
                imageData: mockData,
                width: 1920,
                height: 1080,
                mimeType: "image/jpeg"
            ))
        }

        // Register custom capability for device info
        host.registerCustomCapability("device.info", version: "1.0") { request, responder in
            let info: [String: JSONValue] = await MainActor.run {
                // Adapted: fixed strings instead of UIDevice.current.
                return [
                    "model": .string("iPhone"),
                    "systemName": .string("iOS"),
                    "systemVersion": .string("17.5"),
                    "name": .string("Test iPhone"),
                    "userInterfaceIdiom": .string("phone")
                ]
            }
            responder.respond(status: .success, data: info, error: nil)
        }

        // Set delegate for logging
        host.delegate = logger

        // Send initial event
        host.send(event: "host.ready", data: [
            "timestamp": .number(Date().timeIntervalSince1970 * 1000),
            "version": .string("1.0.0")
        ])
    }

    func sendPingEvent() {
        host.send(event: "host.ping", data: [
            "timestamp": .number(Date().timeIntervalSince1970 * 1000)
        ])
    }
}

// MARK: - Message Logger (Delegate)

/// Observes all bridge traffic and maintains a log for the debug UI.
@MainActor
final class MessageLogger: BridgeHostDelegate {  // Adapted: no ObservableObject (Combine).
    struct LogEntry: Identifiable {
        let id = UUID()
        let timestamp: Date
        let direction: String
        let type: String
        let action: String
    }

    var log: [LogEntry] = []  // Adapted: no @Published.

    func bridgeHost(_ host: BridgeHost, didReceive message: BridgeMessage) {
        log.append(LogEntry(
            timestamp: Date(),
            direction: "IN",
            type: message.type.rawValue,
            action: message.payload.action
        ))
    }

    func bridgeHost(_ host: BridgeHost, unhandledRequest message: BridgeMessage) {
        log.append(LogEntry(
            timestamp: Date(),
            direction: "IN",
            type: "UNHANDLED",
            action: message.payload.action
        ))

        // Respond with unsupported for unknown actions
        host.respond(
            to: message.correlationId,
            status: .unsupported,
            error: BridgeErrorPayload(
                code: "UNSUPPORTED",
                message: "Action '\(message.payload.action)' is not supported",
                recoverable: false
            )
        )
    }
}

// MARK: - Running the example

/// Runs the page's example against a recording journey.
@MainActor
@Suite("Two-Way Communication example")
struct TwoWayExampleTests {
    // Two-Way Communication, "Outgoing events (native → web)": setupBridge sends host.ready with
    // timestamp and version; the toolbar's Send Ping sends host.ping.
    @Test("setupBridge sends host.ready and Send Ping sends host.ping (Two-Way Communication: Outgoing events)")
    func outgoingEvents() throws {
        let example = TwoWayJourney()
        let journey = RecordingJourneyTransport()
        example.host.attach(journey)  // Adapted: where BridgeWebView(url:host:) attaches the WebView.
        let before = Date().timeIntervalSince1970 * 1000
        example.setupBridge()
        example.sendPingEvent()
        let after = Date().timeIntervalSince1970 * 1000
        #expect(journey.messages.map(\.payload.action) == ["host.ready", "host.ping"])
        let ready = journey.messages[0]
        #expect(ready.type == .event)
        #expect(ready.correlationId.wholeMatch(of: try Regex("ios-event-[0-9a-f-]{36}")) != nil)
        #expect(ready.payload.data?["version"] == "1.0.0")
        let stamp = try #require(ready.payload.data?["timestamp"]?.numberValue)
        #expect(stamp >= before && stamp <= after)
        #expect(journey.messages[1].payload.data?["timestamp"]?.numberValue != nil)
        #expect(example.host.lastError == nil)
        #expect(example.logger.log.isEmpty)
    }

    // Two-Way Communication, "Outgoing events (native → web)": the example's setupBridge sends
    // host.ready with timestamp and version; sendReadyEvent is that call, on the host's clock.
    @Test("sendReadyEvent sends the example's host.ready: timestamp on the host's clock, and the host version (Two-Way Communication: Outgoing events)")
    func readyEvent() throws {
        let (host, journey) = makeHost(hostVersion: "2.3.4")
        host.sendReadyEvent()
        let ready = try #require(journey.messages.first)
        #expect(journey.messages.count == 1)
        #expect(ready.type == .event)
        #expect(ready.payload.action == "host.ready")
        #expect(ready.correlationId.hasPrefix("ios-event-"))
        #expect(ready.payload.data == ["timestamp": .number(fixedMillis), "version": "2.3.4"])
    }

    // Two-Way Communication, "Incoming requests (web → native)" and its diagram: the document slot's
    // handler runs and the CaptureResult is auto-encoded as { imageBase64, imageWidth, imageHeight,
    // mimeType }.
    @Test("A document capture request gets the encoded mock image (Two-Way Communication: Incoming requests)")
    func documentCapture() async throws {
        let example = TwoWayJourney()
        let journey = RecordingJourneyTransport()
        example.host.attach(journey)
        example.setupBridge()
        journey.removeAll()

        example.host.receive(text: request("camera.document.capture", id: "cap-1"))
        #expect(example.host.documentCapture.activeRequest?.correlationId == "cap-1")
        // While the simulated capture runs, a second request is BUSY.
        example.host.receive(text: request("camera.document.capture", id: "cap-2"))
        #expect(journey.messages.first?.payload.error?.code == "BUSY")
        #expect(await eventually { journey.deliveries.count == 2 })
        let response = journey.messages[1]
        #expect(response.correlationId == "cap-1")
        #expect(response.payload.status == .success)
        let data = try #require(response.payload.data)
        #expect(Data(base64Encoded: data["imageBase64"]?.stringValue ?? "") == Data(repeating: 0xFF, count: 100))
        #expect(data["imageWidth"] == 1920)
        #expect(data["imageHeight"] == 1080)
        #expect(data["mimeType"] == "image/jpeg")
        #expect(example.host.documentCapture.activeRequest == nil)
        #expect(example.logger.log.map(\.action) == ["camera.document.capture", "camera.document.capture"])
        #expect(example.logger.log.map(\.type) == ["request", "request"])
    }

    // Two-Way Communication, "Registering custom capabilities for non-camera actions": device.info.
    @Test("device.info answers with the device dictionary (Two-Way Communication: custom capabilities)")
    func deviceInfo() async throws {
        let example = TwoWayJourney()
        let journey = RecordingJourneyTransport()
        example.host.attach(journey)
        example.setupBridge()
        journey.removeAll()
        example.host.receive(text: request("device.info", id: "dev-1"))
        #expect(await eventually { journey.deliveries.count == 1 })
        let response = journey.messages[0]
        #expect(response.correlationId == "dev-1")
        #expect(response.payload.action == "device.info")
        #expect(response.payload.status == .success)
        #expect(
            response.payload.data
                == ["model": "iPhone", "systemName": "iOS", "systemVersion": "17.5", "name": "Test iPhone", "userInterfaceIdiom": "phone"])
        #expect(example.logger.log.map(\.type) == ["request"])
    }

    // Two-Way Communication, "Unhandled Requests": the MessageLogger delegate catches requests with
    // no registered handler and responds with .unsupported, so the journey does not wait.
    @Test("Unhandled requests are logged and answered unsupported (Two-Way Communication: Unhandled Requests)")
    func unhandledRequests() async throws {
        let example = TwoWayJourney()
        let journey = RecordingJourneyTransport()
        example.host.attach(journey)
        example.setupBridge()
        journey.removeAll()
        example.host.receive(text: request("nfc.read", id: "nfc-1"))
        example.host.receive(text: request("camera.selfie.capture", id: "selfie-1"))  // no selfie handler
        example.host.receive(text: message(type: .event, action: "journey.cancel", id: "ev-1", data: ["reason": "user"]))

        #expect(journey.messages.map(\.correlationId) == ["nfc-1", "selfie-1"])
        for response in journey.messages {
            #expect(response.type == .response)
            #expect(response.payload.status == .unsupported)
            #expect(response.payload.error?.code == "UNSUPPORTED")
            #expect(response.payload.error?.recoverable == false)
            #expect(response.payload.error?.message == "Action '\(response.payload.action)' is not supported")
        }
        #expect(example.host.pendingRequests.isEmpty)
        #expect(example.host.lastError == nil)
        #expect(
            example.logger.log.map { "\($0.direction) \($0.type) \($0.action)" } == [
                "IN request nfc.read", "IN UNHANDLED nfc.read",
                "IN request camera.selfie.capture", "IN UNHANDLED camera.selfie.capture",
                "IN event journey.cancel",
            ])
    }

    // Two-Way Communication + FAQ, "How does the web journey know what capabilities are available?":
    // the example's host reports its document slot and device.info.
    @Test("The example's capability.query answer (FAQ: How does the web journey know what capabilities are available?)")
    func capabilityQuery() async throws {
        let example = TwoWayJourney()
        let journey = RecordingJourneyTransport()
        example.host.attach(journey)
        example.setupBridge()
        journey.removeAll()
        example.host.receive(text: request("capability.query", id: "q-1"))
        #expect(await eventually { journey.deliveries.count == 1 })
        #expect(
            journey.messages[0].payload.data
                == [
                    "environment": "ios",
                    "hostVersion": "1.0.0",
                    "capabilities": [
                        "camera.document": ["supported": true, "version": "1.0", "permissionState": "notDetermined"],
                        "camera.selfie": ["supported": false, "version": "1.0", "permissionState": "notDetermined"],
                        "device.info": ["supported": true, "version": "1.0"],
                    ],
                ])
    }

    // Two-Way Communication, setupBridge's `[weak host]`: a host that is gone is not kept alive by
    // its slot handler.
    @Test("The slot handler does not keep the host alive (Two-Way Communication: Complete source)")
    func weakHost() {
        weak var weakHost: BridgeHost?
        do {
            let example = TwoWayJourney()
            example.setupBridge()
            weakHost = example.host
            #expect(weakHost != nil)
        }
        #expect(weakHost == nil)
    }
}
