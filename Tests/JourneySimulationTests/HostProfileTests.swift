import BridgeCore
import Foundation
@testable import JourneySimulation
import Testing

/// Reading host profiles: every field, the defaults, and applying a profile to a real host.
@Suite("Host profiles")
struct HostProfileTests {
    static let full = """
        {
          "name": "full",
          "description": "Every field set.",
          "hostVersion": "2.3.4",
          "environment": "android",
          "messageLogCap": 25,
          "slots": {
            "document": {"handler": "auto", "enabled": true, "permissionState": "granted", "version": "2.0",
                         "delayMs": 5, "width": 640, "height": 480, "mimeType": "image/png", "imageBytes": 7},
            "selfie": {"handler": "manual", "enabled": false, "permissionState": "denied", "version": "1.1"}
          },
          "customCapabilities": [
            {"id": "device.info", "version": "1.2", "delayMs": 3,
             "behaviour": {"respond": {"status": "success", "data": {"model": "X"}}}},
            {"id": "doc.cancel", "behaviour": {"respond": {"status": "cancelled",
             "error": {"code": "CANCELLED", "message": "Stopped", "recoverable": true}}}},
            {"id": "location.get", "behaviour": {"error": {"code": "PERMISSION_DENIED", "message": "No", "recoverable": true}}},
            {"id": "custom.fail", "behaviour": {"error": {"code": "CAMERA_DENIED", "message": "Camera off"}}},
            {"id": "std.fail", "behaviour": {"error": {"code": "BUSY"}}},
            {"id": "nfc.read", "version": "3.0", "behaviour": "pending"}
          ]
        }
        """

    @Test("every field is read")
    func everyField() throws {
        let p = try profile(Self.full)
        #expect(p.name == "full")
        #expect(p.description == "Every field set.")
        #expect(p.hostVersion == "2.3.4")
        #expect(p.environment == "android")
        #expect(p.messageLogCap == 25)
        #expect(p.document == SlotProfile(
            handler: .auto, enabled: true, permissionState: .granted, version: "2.0", delayMs: 5, width: 640,
            height: 480, mimeType: "image/png", imageBytes: 7))
        #expect(p.selfie.handler == .manual)
        #expect(p.selfie.enabled == false)
        #expect(p.selfie.permissionState == .denied)
        #expect(p.selfie.version == "1.1")
        #expect(p.customCapabilities.map(\.id) == ["device.info", "doc.cancel", "location.get", "custom.fail", "std.fail", "nfc.read"])
        #expect(p.customCapabilities[0] == CustomCapabilityProfile(
            id: "device.info", version: "1.2", behaviour: .respond(status: .success, data: ["model": "X"], error: nil), delayMs: 3))
        #expect(p.customCapabilities[1].behaviour == .respond(
            status: .cancelled, data: nil, error: BridgeErrorPayload(code: "CANCELLED", message: "Stopped", recoverable: true)))
        #expect(p.customCapabilities[2].behaviour == .error(BridgeErrorPayload(code: "PERMISSION_DENIED", message: "No", recoverable: true)))
        // A code of the host's own: recoverable defaults to false.
        #expect(p.customCapabilities[3].behaviour == .error(BridgeErrorPayload(code: "CAMERA_DENIED", message: "Camera off", recoverable: false)))
        // A standard code: message and recoverable default to what the web SDK expects.
        #expect(p.customCapabilities[4].behaviour == .error(BridgeErrorCode.busy.payload()))
        #expect(p.customCapabilities[5] == CustomCapabilityProfile(id: "nfc.read", version: "3.0", behaviour: .pending))
    }

    @Test("defaults: environment ios, log cap 200, slots without handlers, no custom capabilities")
    func defaults() throws {
        let p = try profile(#"{"name": "bare", "hostVersion": "1.0.0"}"#)
        #expect(p.description == nil)
        #expect(p.environment == "ios")
        #expect(p.messageLogCap == 200)
        #expect(p.document == SlotProfile())
        #expect(p.selfie == SlotProfile())
        #expect(SlotProfile() == SlotProfile(
            handler: .none, enabled: true, permissionState: .notDetermined, version: "1.0", delayMs: 1_000, width: 1_920,
            height: 1_080, mimeType: "image/jpeg", imageBytes: 100))
        #expect(p.customCapabilities.isEmpty)
        let c = try profile(#"{"name": "c", "hostVersion": "1", "customCapabilities": [{"id": "a.b", "behaviour": "pending"}]}"#)
        #expect(c.customCapabilities[0].version == "1.0")
        #expect(c.customCapabilities[0].delayMs == 0)
    }

    @Test("applying a profile configures the host and its capability.query answer")
    @MainActor
    func apply() throws {
        let host = try profile(Self.full).makeHost()
        #expect(host.hostVersion == "2.3.4")
        #expect(host.environment == "android")
        #expect(host.maxReceivedMessages == 25)
        #expect(host.documentCapture.isSupported)
        #expect(host.documentCapture.version == "2.0")
        #expect(host.documentCapture.permissionState == .granted)
        #expect(host.selfieCapture.handler != nil)
        #expect(!host.selfieCapture.isEnabled)
        #expect(!host.selfieCapture.isSupported)
        let answer = host.capabilityAnswer()
        #expect(answer["camera.document"] == BridgeCapabilityInfo(supported: true, version: "2.0", permissionState: .granted))
        #expect(answer["camera.selfie"] == BridgeCapabilityInfo(supported: false, version: "1.1", permissionState: .denied))
        #expect(answer["device.info"] == BridgeCapabilityInfo(supported: true, version: "1.2"))
        #expect(answer["nfc.read"] == BridgeCapabilityInfo(supported: true, version: "3.0"))
        let custom = Dictionary(uniqueKeysWithValues: host.customCapabilities.map { ($0.id, $0) })
        #expect(custom["nfc.read"]?.hasHandler == false)
        #expect(custom["device.info"]?.hasHandler == true)
        #expect(custom["location.get"]?.hasHandler == true)
    }

    @Test("an auto slot returns a synthetic image of the configured size")
    func syntheticResult() {
        let slot = SlotProfile(handler: .auto, width: 10, height: 20, mimeType: "image/png", imageBytes: 3)
        #expect(slot.syntheticResult(for: .document) == .document(DocumentCaptureResult(
            imageData: Data([0xFF, 0xFF, 0xFF]), width: 10, height: 20, mimeType: "image/png")))
        #expect(slot.syntheticResult(for: .selfie) == .selfie(SelfieCaptureResult(
            imageData: Data([0xFF, 0xFF, 0xFF]), width: 10, height: 20, mimeType: "image/png")))
    }
}
