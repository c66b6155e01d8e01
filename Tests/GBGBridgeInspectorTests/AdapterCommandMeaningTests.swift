import BridgeCore
import Foundation
import GBGBridgeInspector
import InspectorClient
import InspectorProtocol
import TestSupport
import Testing

/// Issue 23, point 5: commands mean what they say on the public-API path, and releasing the
/// inspector leaves the app's delegate as the app set it.
@MainActor
@Suite("GBGBridge adapter: what the public API cannot express or read, and releasing the inspector")
struct AdapterCommandMeaningTests {
    @Test("a slot completed with an error or a selfie image is refused with the reason; nothing goes out and the slot stays held; cancel still works (Two-Way Communication: CaptureResult .document, .cancelled)")
    func undocumentedResultsAreRefused() async throws {
        let app = try AppUnderTest()
        defer { app.stop() }
        let host = app.host
        app.holdUntilCompleted(\.documentCapture)
        app.holdUntilCompleted(\.selfieCapture)
        let session = try await app.session(subscribe: false)
        defer { session.close() }
        app.receive(request("camera.document.capture", id: "d1"))
        app.receive(request("camera.selfie.capture", id: "s1"))
        #expect(await eventually { host.documentCapture.activeRequest != nil && host.selfieCapture.activeRequest != nil })

        let failure = BridgeErrorPayload(code: "CAMERA_DENIED", message: "No camera", recoverable: true)
        let withError = try await session.run(.completeSlot(.init(slot: .document, result: .error(failure))))
        guard case .failure(let refusal) = withError.result else {
            Issue.record("an error completion went out as something else")
            return
        }
        #expect(refusal.knownCode == .unsupported)
        #expect(refusal.message.contains("no error case"))
        #expect(refusal.message.contains("cancel it instead"))

        let selfie = try await session.run(.completeSlot(.init(slot: .selfie, result: .success(imageBase64: nil, width: 4, height: 3, mimeType: nil))))
        guard case .failure(let selfieRefusal) = selfie.result else {
            Issue.record("a selfie image went out through an API that documents none")
            return
        }
        #expect(selfieRefusal.knownCode == .unsupported)
        #expect(selfieRefusal.message.contains("no selfie image result"))

        // Nothing was sent, and both requests still hold their slots.
        #expect(!app.journey.messages.contains { ["d1", "s1"].contains($0.correlationId) })
        #expect(host.documentCapture.activeRequest?.correlationId == "d1")
        #expect(host.selfieCapture.activeRequest?.correlationId == "s1")

        // What the API documents still works: a document image, a cancellation.
        let image = try await session.run(.completeSlot(.init(slot: .document, result: .success(imageBase64: nil, width: 4, height: 3, mimeType: nil))))
        #expect((try? image.result.get())?["correlationId"] == .string("d1"))
        let cancel = try await session.run(.cancelSlot(.init(slot: .selfie, reason: "Closed")))
        #expect((try? cancel.result.get())?["correlationId"] == .string("s1"))
        #expect(await eventually {
            app.journey.messages.contains { $0.correlationId == "d1" && $0.payload.status == .success }
                && app.journey.messages.contains { $0.correlationId == "s1" && $0.payload.status == .cancelled }
        })
    }

    @Test("a message GBGBridge decoded but the inspector cannot read (an app's mirror) is a visible received row with the raw text and the reason, not dropped")
    func unreadableReceivedMessageIsShown() async throws {
        let app = try AppUnderTest()
        defer { app.stop() }
        let session = try await app.subscribedSession()
        defer { session.close() }
        let raw = #"{"version":"1.0","type":"request","timestamp":1,"payload":{"action":"nfc.read"}}"#
        app.adapter.didReceiveUnreadable(json: Data(raw.utf8), reason: "missing required field 'correlationId'")
        let events = try await session.events { events in
            events.contains { if case .malformed = $0 { true } else { false } }
        }
        let row = try #require(events.lazy.compactMap { if case .malformed(let record) = $0 { record } else { nil } }.first)
        #expect(row.direction ?? .received == .received, "a received row (the wire leaves the direction out for received input)")
        #expect(row.raw == raw)
        #expect(row.reason.contains("cannot read GBGBridge's encoding"))
        #expect(row.reason.hasSuffix("missing required field 'correlationId'"))
    }

    @Test("released without stop(): the app's delegate gets every call meanwhile, then its slot back, and the socket goes")
    func releasedWithoutStop() async throws {
        let host = BridgeHost(hostVersion: "1.0.0")
        let logger = MessageLogger(host: host, answerUnhandled: true)
        host.delegate = logger
        let directory = try TemporaryDirectory(prefix: "gbg-release")
        var inspector: GBGBridgeInspector<BridgeHost>? = try GBGBridgeInspector.start(
            api: host, hostVersion: "1.0.0", name: "app", socketPath: directory.path + "/a.sock")
        let socketPath = try #require(inspector?.agent.socketPath)
        #expect(host.delegate !== logger, "the adapter's proxy is in the delegate slot")

        inspector = nil
        // Right after the release, before the main actor has run anything else: the proxy is
        // still alive and forwards (GBGBridge holds its delegate weakly).
        host.receive(text: request("device.info", id: "r1"))
        #expect(logger.received == ["r1"])
        #expect(logger.unhandled == ["r1"])
        #expect(host.pendingRequests.isEmpty, "the app's delegate answered with .unsupported")

        #expect(await eventually { host.delegate === logger })
        host.receive(text: event("journey.step", id: "e1"))
        #expect(logger.received == ["r1", "e1"])
        #expect(await eventually { !FileManager.default.fileExists(atPath: socketPath) })
    }
}
