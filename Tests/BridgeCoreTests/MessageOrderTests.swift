import BridgeCore
import Foundation
import TestSupport
import Testing

/// FAQ, "Is the message order preserved?": "Messages are processed in the order they arrive.
/// Responses are sent in the order respond() is called."
@MainActor
@Suite("Message order (FAQ: Is the message order preserved?)")
struct MessageOrderTests {
    static let bursts = 200
    static let burstSize = 100

    /// Sends `bursts` bursts of `burstSize` requests for `action` and returns, for every burst
    /// whose responses came back out of order, what came back.
    func outOfOrderBursts(_ host: BridgeHost, _ journey: RecordingJourneyTransport, action: String) async -> [[String]] {
        var wrong: [[String]] = []
        for burst in 0..<Self.bursts {
            journey.removeAll()
            let ids = (0..<Self.burstSize).map { "b\(burst)-\($0)" }
            for id in ids { host.receive(text: request(action, id: id)) }
            #expect(await eventually { journey.deliveries.count >= ids.count }, "burst \(burst): \(journey.deliveries.count) of \(ids.count) answered")
            let answered = journey.messages.map(\.correlationId)
            if answered != ids { wrong.append(answered) }
        }
        return wrong
    }

    @Test("a zero-delay custom capability answers every burst of 100 requests in arrival order (FAQ: Is the message order preserved?)")
    func customCapabilityBursts() async {
        let (host, journey) = makeHost()
        host.registerCustomCapability("device.info") { request, responder in
            responder.respond(status: .success, data: ["id": .string(request.correlationId)])
        }
        let wrong = await outOfOrderBursts(host, journey, action: "device.info")
        #expect(wrong.isEmpty, "\(wrong.count) of \(Self.bursts) bursts out of order; first: \(wrong.first ?? [])")
        #expect(host.lastError == nil)
    }

    @Test("a zero-delay protocol handler answers every burst of 100 requests in arrival order (FAQ: Is the message order preserved?)")
    func protocolHandlerBursts() async {
        let (host, journey) = makeHost()
        host.register(handler: EchoHandler())
        let wrong = await outOfOrderBursts(host, journey, action: EchoHandler.name)
        #expect(wrong.isEmpty, "\(wrong.count) of \(Self.bursts) bursts out of order; first: \(wrong.first ?? [])")
    }

    @Test("handlers start in arrival order, even when they then await for different times (FAQ: Is the message order preserved?)")
    func startsInArrivalOrder() async {
        let (host, journey) = makeHost()
        let started = StartLog()
        host.registerCustomCapability("slow.then.fast") { request, responder in
            started.ids.append(request.correlationId)
            // The first request waits until the test opens its gate: answers may overtake,
            // starts may not.
            if request.correlationId == "r-0" { await withCheckedContinuation { started.gate = $0 } }
            responder.respond(status: .success)
        }
        let ids = (0..<50).map { "r-\($0)" }
        for id in ids { host.receive(text: request("slow.then.fast", id: id)) }
        #expect(started.ids == ids, "every handler started while its request was routed, in arrival order")
        #expect(await eventually { journey.deliveries.count == ids.count - 1 }, "every handler but the waiting one answered")
        #expect(started.gate != nil, "the first handler is waiting at its gate")
        started.gate?.resume()
        started.gate = nil
        #expect(await eventually { journey.deliveries.count == ids.count })
        #expect(journey.messages.last?.correlationId == "r-0", "the handler that awaited answered last")
    }

    @Test("a response made on another thread goes out before one made later on the main thread (FAQ: Is the message order preserved?)")
    func respondOrderAcrossThreads() async {
        let (host, journey) = makeHost()
        let held = HeldResponders()
        host.registerCustomCapability("held") { _, responder in
            held.responders.append(responder)
        }
        host.receive(text: request("held", id: "first"))
        host.receive(text: request("held", id: "second"))
        #expect(await eventually { held.responders.count == 2 })
        guard held.responders.count == 2 else { return }
        let first = held.responders[0]
        let done = DispatchSemaphore(value: 0)
        // respond() for "first" is called on another thread, then "second" on the main thread,
        // before the main actor has had a chance to run anything in between.
        Thread.detachNewThread {
            first.respond(status: .success)
            done.signal()
        }
        done.wait()
        held.responders[1].respond(status: .success)
        #expect(await eventually { journey.deliveries.count == 2 })
        #expect(journey.messages.map(\.correlationId) == ["first", "second"])
    }
}

/// Answers at once with the request's id.
struct EchoHandler: BridgeCapabilityHandler {
    static let name = "echo"
    var action: String { Self.name }

    func handle(request: BridgeMessage, responder: BridgeResponder) async {
        responder.respond(status: .success, data: ["id": .string(request.correlationId)])
    }
}

/// The ids handlers saw, in the order they started.
@MainActor
final class StartLog {
    var ids: [String] = []
    /// Where a handler waits until the test lets it go on.
    var gate: CheckedContinuation<Void, Never>?
}

/// Responders a handler kept, to answer later.
@MainActor
final class HeldResponders {
    var responders: [BridgeResponder] = []
}
