import BridgeCore
import Foundation
@testable import JourneySimulation
import TestSupport
import Testing

/// FAQ, "Is the message order preserved?": "Messages are processed in the order they arrive.
/// Responses are sent in the order respond() is called." Through the simulated host: a profile's
/// zero-delay handler answers the simulated journey in the order it asked, every time.
@MainActor
@Suite("Simulated host: message order (FAQ: Is the message order preserved?)")
struct JourneyOrderTests {
    static let profileJSON = """
        {
          "name": "order",
          "hostVersion": "1.0.0",
          "customCapabilities": [
            {"id": "device.info", "behaviour": {"respond": {"status": "success", "data": {"model": "T"}}}}
          ]
        }
        """

    @Test("a zero-delay profile handler answers 200 bursts of 100 requests in arrival order (FAQ: Is the message order preserved?)")
    func zeroDelayProfileHandler() async throws {
        // On a clock nobody moves: no request's timeout can pass while the test waits for answers.
        let clock = ManualClock()
        let host = try profile(Self.profileJSON).makeHost(clock: clock)
        let journey = SimulatedJourney(host: host, clock: clock)
        var answered: [String] = []
        journey.onEntry = { entry in
            if entry.kind == .received, let message = entry.message, message.type == .response {
                answered.append(message.correlationId)
            }
        }
        var wrong = 0
        var firstWrong: [String] = []
        for burst in 0..<200 {
            answered.removeAll()
            let ids = (0..<100).map { journey.send(ScenarioMessage(action: "device.info", correlationId: "b\(burst)-\($0)")) }
            #expect(await eventually { answered.count >= ids.count }, "burst \(burst): \(answered.count) of \(ids.count) answered")
            if answered != ids {
                wrong += 1
                if firstWrong.isEmpty { firstWrong = answered }
            }
        }
        #expect(wrong == 0, "\(wrong) of 200 bursts out of order; first: \(firstWrong)")
        #expect(journey.waitingRequests.isEmpty)
        #expect(host.lastError == nil)
    }
}
