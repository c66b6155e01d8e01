import BridgeCore
import Foundation
import TestSupport
import Testing

/// A handler that answers only some requests of its action gives the others up with
/// `responder.passToPending()`: they wait in `pendingRequests` as if no handler had taken them.
@MainActor
@Suite("Passing a request to pendingRequests")
struct PassToPendingTests {
    /// Answers `data.known == true`, passes the rest on.
    struct PickyHandler: BridgeCapabilityHandler {
        let action = "device.info"
        func handle(request: BridgeMessage, responder: BridgeResponder) async {
            guard request.payload.data?["known"] == .bool(true) else { return responder.passToPending() }
            responder.respond(status: .success, data: ["model": "iPhone"])
        }
    }

    @Test("a passed request is pending (the delegate is told) and can be answered like one; an answered one is not")
    func passedRequestIsPending() async throws {
        let (host, journey) = makeHost()
        let delegate = RecordingDelegate()
        host.delegate = delegate
        host.register(handler: PickyHandler())
        host.receive(text: request("device.info", id: "known", data: ["known": true]))
        host.receive(text: request("device.info", id: "other", data: ["known": false]))
        #expect(await eventually { journey.deliveries.count == 1 && host.pendingRequests.count == 1 })
        #expect(journey.messages.map(\.correlationId) == ["known"])
        #expect(host.pendingRequests.map(\.correlationId) == ["other"])
        #expect(delegate.unhandled.map(\.correlationId) == ["other"])
        #expect(host.pendingRequestRecords.map(\.message.correlationId) == ["other"])
        try host.respondToPendingRequest("other", status: .unsupported)
        #expect(journey.messages.map(\.correlationId) == ["known", "other"])
        #expect(host.pendingRequests.isEmpty)
    }

    @Test("passing after answering, or twice, does nothing")
    func passingTooLateDoesNothing() async {
        let (host, journey) = makeHost()
        struct AnswerThenPass: BridgeCapabilityHandler {
            let action = "x"
            func handle(request: BridgeMessage, responder: BridgeResponder) async {
                responder.respond(status: .success)
                responder.passToPending()
            }
        }
        struct PassTwice: BridgeCapabilityHandler {
            let action = "y"
            func handle(request: BridgeMessage, responder: BridgeResponder) async {
                responder.passToPending()
                responder.passToPending()
            }
        }
        host.register(handler: AnswerThenPass())
        host.register(handler: PassTwice())
        host.receive(text: request("x", id: "x1"))
        host.receive(text: request("y", id: "y1"))
        #expect(await eventually { journey.deliveries.count == 1 && host.pendingRequests.count == 1 })
        await settle()
        #expect(host.pendingRequests.map(\.correlationId) == ["y1"], "x1 was answered; y1 is pending once")
    }
}
