import BridgeCore
import Foundation
@testable import JourneySimulation
import Testing

/// Reading journey scenarios: every step kind and field, and the defaults.
@Suite("Journey scenarios")
struct JourneyScenarioTests {
    @Test("every step kind and field is read")
    func everyField() throws {
        let s = try scenario("""
            {
              "name": "all",
              "description": "Every kind of step.",
              "loop": true,
              "steps": [
                {"send": {"type": "request", "payload": {"action": "capability.query"}, "label": "caps"}},
                {"send": {"payload": {"action": "device.info", "data": {"a": 1}}, "correlationId": "fixed-1",
                          "version": "0.9", "timestamp": 1732240000000, "label": "dev", "timeoutMs": 1500}},
                {"send": {"type": "response", "correlationId": "x", "payload": {"action": "a.b", "status": "error",
                          "error": {"code": "BUSY"}}}},
                {"send": {"type": "event", "payload": {"action": "journey.step"}, "label": "ev"}},
                {"sendRaw": "{broken"},
                {"sendRaw": {"version": "1.0", "payload": {"action": "x"}}},
                {"wait": 250},
                {"awaitResponse": {"label": "caps"}},
                {"awaitResponse": {"label": "dev", "timeoutMs": 900}},
                {"event": {"name": "journey.cancel", "data": {"reason": "r"}}},
                {"event": {"name": "journey.step"}},
                {"repeat": {"times": 3, "steps": [{"wait": 10}, {"send": {"payload": {"action": "device.info"}}}]}}
              ]
            }
            """)
        #expect(s.name == "all")
        #expect(s.description == "Every kind of step.")
        #expect(s.loop)
        #expect(s.steps.count == 12)
        #expect(s.steps[0] == .send(ScenarioMessage(type: .request, action: "capability.query", label: "caps")))
        #expect(s.steps[1] == .send(ScenarioMessage(
            action: "device.info", data: ["a": 1], correlationId: "fixed-1", version: "0.9", timestamp: 1_732_240_000_000,
            label: "dev", timeoutMs: 1500)))
        #expect(s.steps[2] == .send(ScenarioMessage(
            type: .response, action: "a.b", status: .error, error: BridgeErrorCode.busy.payload(), correlationId: "x")))
        #expect(s.steps[3] == .send(ScenarioMessage(type: .event, action: "journey.step", label: "ev")))
        #expect(s.steps[4] == .sendRaw("{broken"))
        #expect(s.steps[5] == .sendRaw(#"{"payload":{"action":"x"},"version":"1.0"}"#))
        #expect(s.steps[6] == .wait(milliseconds: 250))
        // Default timeouts follow the web SDK: 5 s for capability.query, the request's own otherwise.
        #expect(s.steps[7] == .awaitResponse(label: "caps", timeoutMs: 5_000))
        #expect(s.steps[8] == .awaitResponse(label: "dev", timeoutMs: 900))
        #expect(s.steps[9] == .event(name: "journey.cancel", data: ["reason": "r"]))
        #expect(s.steps[10] == .event(name: "journey.step", data: nil))
        #expect(s.steps[11] == .repeat(times: 3, steps: [.wait(milliseconds: 10), .send(ScenarioMessage(action: "device.info"))]))
        #expect(s.passWaitMs == 280)
        #expect(s.requestsPerPass == ["capability.query": 1, "device.info": 4])
    }

    @Test("defaults: not looping, requests, SDK timeouts of 5 s and 30 s")
    func defaults() throws {
        let s = try scenario(steps("""
            {"send": {"payload": {"action": "camera.document.capture"}, "label": "doc"}},
            {"awaitResponse": {"label": "doc"}},
            {"send": {"payload": {"action": "device.info"}, "label": "long", "timeoutMs": 120000}},
            {"awaitResponse": {"label": "long"}}
            """))
        #expect(!s.loop)
        #expect(s.description == nil)
        guard case .send(let message) = s.steps[0] else {
            Issue.record("expected a send")
            return
        }
        #expect(message.type == .request)
        #expect(message.correlationId == nil)
        #expect(message.version == nil)
        #expect(message.timestamp == nil)
        #expect(message.timeoutMs == nil)
        #expect(message.effectiveTimeoutMs == 30_000)
        #expect(s.steps[1] == .awaitResponse(label: "doc", timeoutMs: 30_000))
        #expect(s.steps[3] == .awaitResponse(label: "long", timeoutMs: 120_000))
        #expect(ScenarioMessage.defaultTimeoutMs(forAction: "capability.query") == 5_000)
        #expect(ScenarioMessage.defaultTimeoutMs(forAction: "nfc.read") == 30_000)
    }

    @Test("labels inside a repeat can be awaited inside it")
    func labelsInRepeat() throws {
        let s = try scenario(steps("""
            {"repeat": {"times": 2, "steps": [
              {"send": {"payload": {"action": "device.info"}, "label": "d"}},
              {"awaitResponse": {"label": "d", "timeoutMs": 100}}
            ]}}
            """))
        #expect(s.requestsPerPass == ["device.info": 2])
    }
}
