import BridgeCore
import Foundation
import TestSupport
import Testing

/// Watching the host without polling: addObserver and changes().
/// Pages: Troubleshooting, "Diagnostic Tools" (lastError, the message log, pending request
/// inspection); FAQ, "How do I see what messages are being exchanged?".
@MainActor
@Suite("Observation")
struct ObservationTests {
    // FAQ, "How do I see what messages are being exchanged?": every message, received and sent, with
    // its exact JSON.
    @Test("Observers see received and sent traffic with exact JSON (FAQ: How do I see what messages are being exchanged?)")
    func traffic() async throws {
        let (host, journey) = makeHost()
        let recorder = ChangeRecorder()
        _ = recorder.attach(to: host)
        // Spacing and key order as the journey chose them: the record keeps these exact bytes.
        let incoming = #"{ "type": "request", "version": "1.0", "correlationId": "q-1", "timestamp": 5, "payload": {"action": "capability.query"} }"#
        host.receive(text: incoming)
        #expect(await eventually { journey.deliveries.count == 1 })
        host.send(event: "host.ping", data: ["n": 1])

        let traffic = recorder.traffic
        #expect(traffic.map(\.direction) == [.received, .sent, .sent])
        #expect(traffic[0].json == Data(incoming.utf8))
        #expect(traffic[0].message.correlationId == "q-1")
        #expect(traffic[0].time == fixedDate)
        #expect(traffic[1].json == journey.deliveries[0].json)
        #expect(traffic[1].message == journey.deliveries[0].message)
        #expect(traffic[1].deliveryError == nil)
        #expect(traffic[2].json == journey.deliveries[1].json)
        #expect(traffic[2].message.payload.action == "host.ping")
    }

    // Troubleshooting, "Messages Not Being Received by the Web Journey": a sent message that could
    // not be delivered is still reported, with the reason.
    @Test("A failed delivery is reported with its reason (Troubleshooting: Messages Not Being Received by the Web Journey)")
    func failedDelivery() {
        let host = BridgeHost(hostVersion: "1.0.0")
        let recorder = ChangeRecorder()
        _ = recorder.attach(to: host)
        host.send(event: "host.ping")
        #expect(recorder.traffic.count == 1)
        #expect(recorder.traffic[0].deliveryError?.hasPrefix("WebView not attached") == true)
        #expect(recorder.lastErrors.last == recorder.traffic[0].deliveryError)
    }

    // Troubleshooting, "Message Decoding Failures": malformed input is reported with the reason
    // and the raw bytes, then lastError changes.
    @Test("Malformed input is reported with its reason (Troubleshooting: Message Decoding Failures)")
    func malformed() {
        let (host, _) = makeHost()
        let recorder = ChangeRecorder()
        _ = recorder.attach(to: host)
        host.receive(text: "{\"version\":")
        #expect(recorder.malformed.count == 1)
        #expect(recorder.malformed[0].raw == Data("{\"version\":".utf8))
        #expect(recorder.malformed[0].reason == "invalid JSON at line 1, column 12: unexpected end of text; expected a value")
        #expect(recorder.lastErrors == ["Failed to decode message: invalid JSON at line 1, column 12: unexpected end of text; expected a value"])
        #expect(recorder.changes.map(kind(of:)) == ["malformed", "lastError"])
        #expect(recorder.traffic.isEmpty)
    }

    // Troubleshooting, "Observing lastError" (host.$lastError via Combine): every change, including
    // clearing it.
    @Test("lastError changes are reported, including clearing (Troubleshooting: Observing lastError)")
    func lastErrorChanges() {
        let (host, _) = makeHost()
        let recorder = ChangeRecorder()
        _ = recorder.attach(to: host)
        host.receive(text: "x")
        host.clearError()
        host.detach()
        host.send(event: "host.ping")
        #expect(recorder.lastErrors.count == 3)
        #expect(recorder.lastErrors[0]?.hasPrefix("Failed to decode message:") == true)
        #expect(recorder.lastErrors[1] == nil)
        #expect(recorder.lastErrors[2]?.hasPrefix("WebView not attached") == true)
    }

    // Troubleshooting, "Pending Request Inspection": requests joining and leaving pendingRequests.
    @Test("Pending requests added and removed are reported (Troubleshooting: Pending Request Inspection)")
    func pendingChanges() {
        let (host, journey) = makeHost()
        let recorder = ChangeRecorder()
        _ = recorder.attach(to: host)
        host.receive(text: request("a.b", id: "p-1"))
        host.receive(text: request("a.b", id: "p-2"))
        host.respond(to: "p-2", status: .unsupported)
        #expect(journey.messages.map(\.correlationId) == ["p-2"])
        #expect(recorder.pendingAdded == ["p-1", "p-2"])
        #expect(recorder.pendingRemoved == ["p-2"])
        #expect(host.pendingRequestRecords.map(\.message.correlationId) == ["p-1"])
        #expect(host.pendingRequestRecords.first?.since == fixedDate)
        #expect(
            recorder.changes.map(kind(of:)) == [
                "traffic.received", "pendingAdded", "traffic.received", "pendingAdded", "pendingRemoved", "traffic.sent",
            ])
    }

    // Troubleshooting, "Debugging Checklist" (verify handler is set and isSupported is true):
    // slot changes and custom capability changes are reported.
    @Test("Slot and custom capability changes are reported (Troubleshooting: Debugging Checklist)")
    func slotAndCapabilityChanges() {
        let (host, _) = makeHost()
        let recorder = ChangeRecorder()
        _ = recorder.attach(to: host)
        host.documentCapture.handler = { _ in .cancelled(reason: "x") }
        host.documentCapture.isEnabled = false
        host.selfieCapture.permissionState = .granted
        host.registerCustomCapability("device.info", version: "1.2") { _, _ in }
        let slots = recorder.slots
        #expect(slots.count == 3)
        #expect(slots[0].kind == .document && slots[0].hasHandler && slots[0].isSupported)
        #expect(slots[1].kind == .document && !slots[1].isEnabled && !slots[1].isSupported)
        #expect(slots[2].kind == .selfie && slots[2].permissionState == .granted)
        guard case .customCapabilities(let custom) = recorder.changes.last else {
            Issue.record("expected a customCapabilities change last")
            return
        }
        #expect(custom == [CustomCapability(id: "device.info", version: "1.2", hasHandler: true, isShadowedBySlot: false)])
    }

    // Troubleshooting, "Messages Not Being Received by the Web Journey" (is the WebView
    // attached?): attaching and detaching the journey are reported, so an inspector never shows
    // a stale answer.
    @Test("Attaching and detaching the journey are reported (Troubleshooting: Messages Not Being Received by the Web Journey)")
    func journeyAttachmentChanges() {
        let (host, journey) = makeHost()
        let recorder = ChangeRecorder()
        _ = recorder.attach(to: host)
        host.detach()
        #expect(!host.isJourneyAttached)
        #expect(!host.snapshot().isJourneyAttached)
        host.attach(journey)
        #expect(recorder.changes.map(kind(of:)) == ["journeyDetached", "journeyAttached"])
        #expect(host.snapshot().isJourneyAttached)
    }

    // FAQ, "How do I see what messages are being exchanged?": a removed observer sees nothing more.
    @Test("A removed observer is no longer called (FAQ: How do I see what messages are being exchanged?)")
    func removeObserver() {
        let (host, journey) = makeHost()
        let recorder = ChangeRecorder()
        let token = recorder.attach(to: host)
        host.send(event: "one")
        host.removeObserver(token)
        host.send(event: "two")
        #expect(recorder.traffic.map(\.message.payload.action) == ["one"])
        #expect(journey.messages.map(\.payload.action) == ["one", "two"])
    }

    // FAQ, "How do I see what messages are being exchanged?" (host.$receivedMessages via Combine):
    // changes() delivers the same changes as an observer, in the same order.
    @Test("changes() delivers the same changes as addObserver (FAQ: How do I see what messages are being exchanged?)")
    func asyncStreamMatchesObserver() async {
        let (host, journey) = makeHost()
        let recorder = ChangeRecorder()
        _ = recorder.attach(to: host)
        let stream = host.changes()
        host.receive(text: request("a.b", id: "p-1"))
        host.receive(text: "junk")
        host.respond(to: "p-1", status: .success)
        host.documentCapture.permissionState = .denied
        #expect(journey.deliveries.count == 1)
        let expected = recorder.changes.map(kind(of:))
        #expect(expected.count == 7)
        var seen: [String] = []
        for await change in stream {
            seen.append(kind(of: change))
            if seen.count == expected.count { break }
        }
        #expect(seen == expected)
    }

    // Troubleshooting, "Message Log" (every successfully decoded message): under a burst of 1,000
    // messages nothing is missed, by an observer or by changes().
    @Test("Nothing is missed under a burst of 1,000 messages (Troubleshooting: Message Log)")
    func burst() async {
        let (host, _) = makeHost()
        let recorder = ChangeRecorder()
        _ = recorder.attach(to: host)
        let stream = host.changes()
        let count = 1_000
        for index in 0..<count {
            host.receive(text: message(type: .event, action: "journey.tick", id: "b-\(index)", data: ["n": .number(Double(index))]))
        }
        let received = recorder.traffic.filter { $0.direction == .received }
        #expect(received.count == count)
        #expect(received.map(\.message.correlationId) == (0..<count).map { "b-\($0)" })
        #expect(host.receivedMessages.count == 200)

        var streamed: [String] = []
        for await change in stream {
            if case .traffic(let record) = change { streamed.append(record.message.correlationId) }
            if streamed.count == count { break }
        }
        #expect(streamed == (0..<count).map { "b-\($0)" })
    }

    // Troubleshooting, "Diagnostic Tools": a snapshot holds what the surfaces hold now.
    @Test("snapshot() holds the diagnostic surfaces (Troubleshooting: Diagnostic Tools)")
    func snapshot() {
        let (host, journey) = makeHost(hostVersion: "9.9.9")
        host.receive(text: request("a.b", id: "p-1"))
        host.receive(text: "junk")
        let snapshot = host.snapshot()
        #expect(journey.deliveries.isEmpty)
        #expect(snapshot.hostVersion == "9.9.9")
        #expect(snapshot.environment == "ios")
        #expect(snapshot.lastError == host.lastError)
        #expect(snapshot.receivedMessages.map(\.correlationId) == ["p-1"])
        #expect(snapshot.pendingRequests.map(\.message.correlationId) == ["p-1"])
        #expect(snapshot.slots.map(\.kind) == [.document, .selfie])
        #expect(snapshot.isJourneyAttached)
        #expect(snapshot.time == fixedDate)
    }
}
