import BridgeCore
import Foundation
import TestSupport
import Testing

/// The built-in `capability.query` answer.
@MainActor
@Suite("capability.query")
struct CapabilityQueryTests {
    /// Sends a capability.query and returns the answer's data.
    func query(_ host: BridgeHost, _ journey: RecordingJourneyTransport, id: String) async throws -> [String: JSONValue] {
        let before = journey.deliveries.count
        host.receive(text: request("capability.query", id: id))
        #expect(await eventually { journey.deliveries.count == before + 1 })
        let answer = try #require(journey.messages.last)
        #expect(answer.correlationId == id)
        #expect(answer.type == .response)
        #expect(answer.payload.action == "capability.query")
        #expect(answer.payload.status == .success)
        #expect(answer.payload.error == nil)
        return try #require(answer.payload.data)
    }

    // FAQ, "How does the web journey know what capabilities are available?": the built-in handler
    // responds with the environment ("ios"), host version, and a map of all declared capabilities
    // with their supported status, version, and optionally permissionState.
    @Test("The answer has environment, hostVersion and every capability (FAQ: How does the web journey know what capabilities are available?)")
    func answerShape() async throws {
        let (host, journey) = makeHost(hostVersion: "2.3.4")
        host.documentCapture.handler = { _ in .cancelled(reason: "x") }
        host.documentCapture.permissionState = .granted
        host.documentCapture.version = "1.1"
        host.registerCustomCapability("device.info", version: "1.0") { _, responder in responder.respond(status: .success) }
        host.declareCustomCapability("nfc.read", version: "0.9")
        let data = try await query(host, journey, id: "q-1")
        #expect(Set(data.keys) == ["environment", "hostVersion", "capabilities"])
        #expect(data["environment"] == "ios")
        #expect(data["hostVersion"] == "2.3.4")
        #expect(
            data["capabilities"]
                == [
                    "camera.document": ["supported": true, "version": "1.1", "permissionState": "granted"],
                    "camera.selfie": ["supported": false, "version": "1.0", "permissionState": "notDetermined"],
                    "device.info": ["supported": true, "version": "1.0"],
                    "nfc.read": ["supported": true, "version": "0.9"],
                ])
    }

    // FAQ, "Can I change capabilities after initialization?": with typed slots the response is
    // built dynamically on each query. Troubleshooting, "Capability Query Returns Unexpected
    // Results", causes 1, 2 and 4: a slot without handler or disabled is unsupported; a custom
    // capability appears once registered.
    @Test("The answer is built afresh on every query (FAQ: Can I change capabilities after initialization?)")
    func builtAfresh() async throws {
        let (host, journey) = makeHost()
        func document(_ data: [String: JSONValue]) -> JSONValue? { data["capabilities"]?["camera.document"] }

        var data = try await query(host, journey, id: "q-1")
        #expect(document(data)?["supported"] == false)
        #expect(data["capabilities"]?["device.info"] == nil)

        host.documentCapture.handler = { _ in .cancelled(reason: "x") }
        host.registerCustomCapability("device.info", version: "1.0") { _, _ in }
        data = try await query(host, journey, id: "q-2")
        #expect(document(data)?["supported"] == true)
        #expect(data["capabilities"]?["device.info"] == ["supported": true, "version": "1.0"])

        host.documentCapture.isEnabled = false
        host.documentCapture.permissionState = .denied
        host.removeCustomCapability("device.info")
        data = try await query(host, journey, id: "q-3")
        #expect(document(data) == ["supported": false, "version": "1.0", "permissionState": "denied"])
        #expect(data["capabilities"]?["device.info"] == nil)

        host.documentCapture.isEnabled = true
        host.documentCapture.handler = nil
        data = try await query(host, journey, id: "q-4")
        #expect(document(data)?["supported"] == false)
    }

    // Troubleshooting, "Permission State Not Appearing in Query Response" (the fix:
    // `host.documentCapture.permissionState = camera.permissionState`); FAQ, "How does permission
    // state work?": default .notDetermined, included for typed slots.
    @Test(
        "Slot permissionState appears in the answer (Troubleshooting: Permission State Not Appearing in Query Response)",
        arguments: PermissionState.allCases)
    func permissionStateAppears(_ state: PermissionState) async throws {
        let (host, journey) = makeHost()
        host.selfieCapture.permissionState = state
        let data = try await query(host, journey, id: "q-\(state.rawValue)")
        #expect(data["capabilities"]?["camera.selfie"]?["permissionState"] == .string(state.rawValue))
        #expect(data["capabilities"]?["camera.document"]?["permissionState"] == "notDetermined")
    }

    // Troubleshooting, "Permission State Not Appearing in Query Response", cause 2: CameraDetector
    // gives the permission to copy onto the slot (this project reads BRIDGE_CAMERA off iOS).
    @Test("CameraDetector.check() result copies onto a slot (Troubleshooting: Permission State Not Appearing in Query Response)")
    func cameraDetector() async throws {
        #expect(CameraDetector.check(environment: [:]) == .init(isAvailable: false, permissionState: .notDetermined))
        #expect(CameraDetector.check(environment: ["BRIDGE_CAMERA": "granted"]) == .init(isAvailable: true, permissionState: .granted))
        #expect(CameraDetector.check(environment: ["BRIDGE_CAMERA": "none"]).isAvailable == false)
        let (host, journey) = makeHost()
        let camera = CameraDetector.check(environment: ["BRIDGE_CAMERA": "denied"])
        host.documentCapture.permissionState = camera.permissionState
        let data = try await query(host, journey, id: "q-1")
        #expect(data["capabilities"]?["camera.document"]?["permissionState"] == "denied")
    }

    // Troubleshooting, "Capability Query Returns Unexpected Results", cause 3: with
    // init(configuration:) only the configuration's capabilities are reported; and "Permission
    // State Not Appearing", cause 3: BridgeCapabilityInfo's permissionState defaults to nil and is
    // then left out.
    @Test("init(configuration:) reports exactly its configuration (Troubleshooting: Capability Query Returns Unexpected Results)")
    func configurationAnswer() async throws {
        let host = BridgeHost(
            configuration: BridgeConfiguration(
                hostVersion: "3.0.0",
                capabilities: [
                    "camera.document": BridgeCapabilityInfo(supported: true, version: "1.0", permissionState: .granted),
                    "nfc": BridgeCapabilityInfo(supported: false, version: "1.0"),
                ]))
        let journey = RecordingJourneyTransport()
        host.attach(journey)
        // Slots and custom capabilities do not change the configured answer.
        host.selfieCapture.handler = { _ in .cancelled(reason: "x") }
        host.documentCapture.isEnabled = false
        host.registerCustomCapability("device.info") { _, _ in }
        let data = try await query(host, journey, id: "q-1")
        #expect(data["environment"] == "ios")
        #expect(data["hostVersion"] == "3.0.0")
        #expect(
            data["capabilities"]
                == [
                    "camera.document": ["supported": true, "version": "1.0", "permissionState": "granted"],
                    "nfc": ["supported": false, "version": "1.0"],
                ])
        let json = String(decoding: try #require(journey.deliveries.last?.json), as: UTF8.self)
        #expect(json.contains(#""nfc":{"supported":false,"version":"1.0"}"#))
        #expect(host.configuration?.hostVersion == "3.0.0")
        #expect(host.hostVersion == "3.0.0")
    }

    // FAQ, "Can I change capabilities after initialization?": with the configuration-based init the
    // built-in handler reads a closure fixed at initialization, so mutating a copy of the
    // configuration later changes nothing.
    @Test("The configured answer is fixed at initialization (FAQ: Can I change capabilities after initialization?)")
    func configurationFixed() async throws {
        var configuration = BridgeConfiguration(
            hostVersion: "1.0.0", capabilities: ["nfc": BridgeCapabilityInfo(supported: true, version: "1.0")])
        let host = BridgeHost(configuration: configuration)
        configuration.capabilities["extra"] = BridgeCapabilityInfo(supported: true, version: "1.0")
        let journey = RecordingJourneyTransport()
        host.attach(journey)
        let data = try await query(host, journey, id: "q-1")
        #expect(data["capabilities"] == ["nfc": ["supported": true, "version": "1.0"]])
        #expect(host.capabilityAnswer() == ["nfc": BridgeCapabilityInfo(supported: true, version: "1.0")])
    }

    // FAQ, "Can I change capabilities after initialization?": "For fully dynamic capabilities in that
    // path, replace the built-in handler with a custom one".
    @Test("A replacement query handler makes the configured answer dynamic (FAQ: Can I change capabilities after initialization?)")
    func dynamicReplacement() async throws {
        let host = BridgeHost(configuration: BridgeConfiguration(hostVersion: "1.0.0"))
        let journey = RecordingJourneyTransport()
        host.attach(journey)
        let store = CapabilityStore()
        host.register(
            handler: ClosureHandler(action: "capability.query") { _, responder in
                let capabilities = await store.capabilities
                responder.respond(status: .success, data: ["environment": "ios", "hostVersion": "1.0.0", "capabilities": .object(capabilities)])
            })
        store.capabilities["nfc"] = ["supported": true, "version": "1.0"]
        var data = try await query(host, journey, id: "q-1")
        #expect(data["capabilities"] == ["nfc": ["supported": true, "version": "1.0"]])
        store.capabilities["nfc"] = ["supported": false, "version": "1.0"]
        data = try await query(host, journey, id: "q-2")
        #expect(data["capabilities"]?["nfc"]?["supported"] == false)
    }

    // FAQ, "How does the web journey know what capabilities are available?": the environment is
    // "ios" by default; a host may report another, and its event ids follow.
    @Test("environment is ios by default (FAQ: How does the web journey know what capabilities are available?)")
    func environment() async throws {
        let (host, journey) = makeHost()
        #expect(host.environment == "ios")
        host.environment = "android"
        let data = try await query(host, journey, id: "q-1")
        #expect(data["environment"] == "android")
    }
}

@MainActor
final class CapabilityStore {
    var capabilities: [String: JSONValue] = [:]
}
