import BridgeCore
import Foundation
import TestSupport
import Testing

/// Holds at breakpoints: what a held message does to the rest of the host, and each way out of
/// the hold (release, edit, answer, drop, removing the interceptor).
@MainActor
@Suite("Interception")
struct InterceptionTests {
    /// Holds what `rule` picks, naming the breakpoint `b1`; counts what it was asked about.
    final class RuleInterceptor: BridgeInterceptor {
        var rule: (BridgeMessage, TrafficRecord.Direction) -> Bool
        var asked: [String] = []
        init(_ rule: @escaping (BridgeMessage, TrafficRecord.Direction) -> Bool) { self.rule = rule }
        var timeLimit = 600.0
        func hold(_ message: BridgeMessage, direction: TrafficRecord.Direction, json: Data) -> HoldRequest? {
            asked.append("\(direction.rawValue) \(message.type.rawValue) \(message.payload.action)")
            return rule(message, direction) ? HoldRequest(breakpoint: "b1", timeLimit: timeLimit) : nil
        }
    }

    /// A host whose `device.info` handler answers at once, counting its runs.
    func hostWithHandler() -> (BridgeHost, RecordingJourneyTransport, Counter) {
        let (host, journey) = makeHost()
        let counter = Counter()
        host.registerCustomCapability("device.info", version: "1.0") { request, responder in
            counter.hit(request.correlationId)
            responder.respond(status: .success, data: ["model": "Simulator"], error: nil)
        }
        return (host, journey, counter)
    }

    @Test("A held request reaches no handler until it is released, then goes on as it was")
    func heldRequestWaitsForRelease() async throws {
        let (host, journey, counter) = hostWithHandler()
        let recorder = ChangeRecorder()
        _ = recorder.attach(to: host)
        let interceptor = RuleInterceptor { message, direction in direction == .received && message.payload.action == "device.info" }
        host.setInterceptor(interceptor)
        host.receive(text: request("device.info", id: "r1"))
        await settle()
        #expect(counter.value == 0)
        #expect(journey.deliveries.isEmpty)
        let held = try #require(host.heldMessages.first)
        #expect(held.id == "h1")
        #expect(held.breakpoint == "b1")
        #expect(held.direction == .received)
        #expect(held.message.correlationId == "r1")
        #expect(host.pendingRequests.isEmpty)
        // The journey's message is logged as received before it is held.
        #expect(host.receivedMessages.map(\.correlationId) == ["r1"])

        try host.releaseHeld("h1")
        #expect(await eventually { journey.messages.count == 1 })
        #expect(counter.ids == ["r1"])
        #expect(journey.messages[0].payload.data == ["model": "Simulator"])
        #expect(host.heldMessages.isEmpty)
        #expect(recorder.resolutions.map(\.outcome) == [.released])
        #expect(recorder.changes.map(kind(of:)).filter { $0.hasPrefix("held") } == ["held.received", "heldResolved.released"])
        // Released once: the answer was not held again, and no lastError was set.
        #expect(host.lastError == nil)
    }

    @Test("Journey events and responses are never offered to the interceptor; host messages are")
    func onlyRequestsInAndEverythingOut() async {
        let (host, _, _) = hostWithHandler()
        let interceptor = RuleInterceptor { _, _ in false }
        host.setInterceptor(interceptor)
        host.receive(text: message(type: .event, action: "journey.step", id: "e1"))
        host.receive(text: request("device.info", id: "r1"))
        await settle()
        host.send(event: "host.ping")
        #expect(interceptor.asked == ["received request device.info", "sent response device.info", "sent event host.ping"])
    }

    @Test("Answering a held request by hand: the handler never runs, the answer is not held again")
    func answerHeldRequest() async throws {
        let (host, journey, counter) = hostWithHandler()
        let recorder = ChangeRecorder()
        _ = recorder.attach(to: host)
        // Holds device.info both ways: the hand-written answer must still go straight out.
        host.setInterceptor(RuleInterceptor { message, _ in message.payload.action == "device.info" })
        host.receive(text: request("device.info", id: "r1"))
        try host.answerHeld("h1", status: .error, error: BridgeErrorPayload(code: "TIMEOUT", message: "slow", recoverable: true))
        await settle()
        #expect(counter.value == 0)
        #expect(journey.messages.count == 1)
        #expect(journey.messages[0].payload.status == .error)
        #expect(journey.messages[0].payload.error?.code == "TIMEOUT")
        #expect(host.heldMessages.isEmpty)
        let resolution = try #require(recorder.resolutions.first)
        #expect(resolution.outcome == .answered)
        #expect(resolution.message?.payload.error?.code == "TIMEOUT")
        #expect(recorder.traffic.last?.hold == HoldMark(id: "h1", outcome: .answered))
        // The request is answered: a second answer is refused with what happened to it.
        #expect(throws: BridgeHostError.holdResolved(holdId: "h1", outcome: .answered)) {
            try host.answerHeld("h1", status: .success)
        }
        #expect(throws: BridgeHostError.alreadyAnswered(correlationId: "r1")) {
            try host.respondToPendingRequest("r1", status: .success)
        }
    }

    @Test("A held response is delivered only when released; an edit changes what the journey gets")
    func heldResponseEdited() async throws {
        let (host, journey, _) = hostWithHandler()
        let recorder = ChangeRecorder()
        _ = recorder.attach(to: host)
        host.setInterceptor(RuleInterceptor { message, direction in direction == .sent && message.type == .response })
        host.receive(text: request("device.info", id: "r1"))
        #expect(await eventually { host.heldMessages.count == 1 })
        #expect(journey.deliveries.isEmpty)
        let held = try #require(host.heldMessages.first)
        #expect(held.direction == .sent)
        // The host counts it answered: the request left outstanding when the handler responded.
        #expect(throws: BridgeHostError.alreadyAnswered(correlationId: "r1")) {
            try host.respondToPendingRequest("r1", status: .success)
        }
        var edited = held.message
        edited.payload.status = .error
        edited.payload.data = nil
        edited.payload.error = BridgeErrorPayload(code: "CAMERA_FAILED", message: "edited", recoverable: true)
        try host.releaseHeld("h1", as: edited)
        #expect(journey.messages.count == 1)
        #expect(journey.messages[0].payload.error?.code == "CAMERA_FAILED")
        #expect(journey.messages[0].payload.data == nil)
        #expect(recorder.traffic.last?.hold == HoldMark(id: "h1", outcome: .edited))
        #expect(recorder.resolutions.map(\.outcome) == [.edited])
    }

    @Test("An edit may not change the correlation id, type or action; the message stays held")
    func editKeepsIdentity() throws {
        let (host, journey, _) = hostWithHandler()
        host.setInterceptor(RuleInterceptor { _, direction in direction == .sent })
        host.send(event: "host.ready", data: ["version": "1.0.0"])
        var edited = try #require(host.heldMessages.first).message
        edited.payload.action = "host.other"
        let error = #expect(throws: BridgeHostError.self) { try host.releaseHeld("h1", as: edited) }
        #expect(error?.description.contains("keep the correlationId") == true)
        #expect(host.heldMessages.count == 1)
        #expect(journey.deliveries.isEmpty)
    }

    @Test("A dropped event is never delivered, and the log shows it dropped")
    func dropOutgoing() throws {
        let (host, journey, _) = hostWithHandler()
        let recorder = ChangeRecorder()
        _ = recorder.attach(to: host)
        host.setInterceptor(RuleInterceptor { message, _ in message.payload.action == "host.ready" })
        host.send(event: "host.ready", data: ["version": "1.0.0"])
        try host.dropHeld("h1")
        #expect(journey.deliveries.isEmpty)
        #expect(host.lastError == nil)
        let record = try #require(recorder.traffic.last)
        #expect(record.direction == .sent)
        #expect(record.message.payload.action == "host.ready")
        #expect(record.hold == HoldMark(id: "h1", outcome: .dropped))
        #expect(throws: BridgeHostError.holdResolved(holdId: "h1", outcome: .dropped)) { try host.releaseHeld("h1") }
        #expect(throws: BridgeHostError.notHeld(holdId: "h9")) { try host.dropHeld("h9") }
    }

    @Test("A dropped request is forgotten: nothing answers it, and its id can be used again")
    func dropRequest() async throws {
        let (host, journey, counter) = hostWithHandler()
        let interceptor = RuleInterceptor { message, direction in direction == .received && message.correlationId == "r1" }
        host.setInterceptor(interceptor)
        host.receive(text: request("device.info", id: "r1"))
        try host.dropHeld("h1")
        await settle()
        #expect(counter.value == 0)
        #expect(journey.deliveries.isEmpty)
        interceptor.rule = { _, _ in false }
        host.receive(text: request("device.info", id: "r1"))
        #expect(await eventually { journey.messages.count == 1 })
        #expect(counter.ids == ["r1"])
    }

    // Troubleshooting, "Typed Slot Returns BUSY Error": one request per slot at a time. A capture
    // request held before its slot already occupies it, so a second one is BUSY when it is
    // routed, not let in as if the slot were free. A breakpoint still sees the second one first
    // (docs/inspector-protocol.md 13.1: "every request the journey sends").
    @Test("A held capture request occupies its slot: a second capture is held too, and BUSY when released (Troubleshooting: Typed Slot Returns BUSY Error)")
    func heldCaptureOccupiesSlot() async throws {
        let (host, journey) = makeHost()
        let counter = Counter()
        host.documentCapture.handler = { request in
            counter.hit(request.correlationId)
            return .cancelled(reason: "test")
        }
        let interceptor = RuleInterceptor { _, direction in direction == .received }
        host.setInterceptor(interceptor)
        host.receive(text: request("camera.document.capture", id: "first"))
        host.receive(text: request("camera.document.capture", id: "second"))
        #expect(host.heldMessages.map(\.message.correlationId) == ["first", "second"])
        #expect(journey.deliveries.isEmpty)
        // Released while the first is held, the second finds the slot occupied.
        try host.releaseHeld("h2")
        #expect(journey.messages.count == 1)
        #expect(journey.messages[0].correlationId == "second")
        #expect(journey.messages[0].payload.error?.code == "BUSY")
        #expect(counter.value == 0)
        // The other slot is free.
        #expect(host.selfieCapture.activeRequest == nil)
        try host.releaseHeld("h1")
        #expect(await eventually { journey.messages.count == 2 })
        #expect(counter.ids == ["first"])
        #expect(journey.messages[1].correlationId == "first")
    }

    // docs/inspector-protocol.md 13.1: a breakpoint on an action sees every request for it; a
    // capture that arrives while the slot is busy is held as it arrived, and answered BUSY only
    // when it is released into the busy slot (Troubleshooting, "Typed Slot Returns BUSY Error").
    @Test("A breakpoint holds a capture request that arrives while its slot is busy; released, it is answered BUSY")
    func captureForBusySlotIsHeldFirst() async throws {
        let (host, journey) = makeHost()
        let gate = Gate()
        host.documentCapture.handler = { _ in
            await gate.wait()
            return .cancelled(reason: "test")
        }
        host.receive(text: request("camera.document.capture", id: "active"))
        #expect(await eventually { host.documentCapture.activeRequest?.correlationId == "active" })
        let interceptor = RuleInterceptor { message, direction in
            direction == .received && message.payload.action == "camera.document.capture"
        }
        host.setInterceptor(interceptor)
        host.receive(text: request("camera.document.capture", id: "second"))
        #expect(host.heldMessages.map(\.message.correlationId) == ["second"])
        #expect(interceptor.asked == ["received request camera.document.capture"])
        #expect(journey.deliveries.isEmpty)
        try host.releaseHeld("h1")
        #expect(journey.messages.map(\.correlationId) == ["second"])
        #expect(journey.messages[0].payload.error?.code == "BUSY")
        #expect(host.documentCapture.activeRequest?.correlationId == "active")
        gate.open()
    }

    @Test("A held request is outstanding: its id is refused as a duplicate and respond says it is held")
    func heldRequestIsOutstanding() async {
        let (host, journey, counter) = hostWithHandler()
        host.setInterceptor(RuleInterceptor { _, direction in direction == .received })
        host.receive(text: request("device.info", id: "r1"))
        host.receive(text: request("device.info", id: "r1"))
        #expect(host.heldMessages.count == 1)
        #expect(host.lastError?.contains("Duplicate correlationId 'r1'") == true)
        #expect(throws: BridgeHostError.heldAtBreakpoint(correlationId: "r1", holdId: "h1")) {
            try host.respondToPendingRequest("r1", status: .success)
        }
        #expect(counter.value == 0)
        #expect(journey.deliveries.isEmpty)
    }

    @Test("The app answering a held request itself takes it out of the hold")
    func appAnswersHeldRequest() {
        let (host, journey, _) = hostWithHandler()
        let recorder = ChangeRecorder()
        _ = recorder.attach(to: host)
        host.setInterceptor(RuleInterceptor { _, direction in direction == .received })
        host.receive(text: request("device.info", id: "r1"))
        host.respond(to: "r1", status: .success, data: ["by": "app"])
        #expect(host.heldMessages.isEmpty)
        #expect(journey.messages.map(\.correlationId) == ["r1"])
        #expect(recorder.resolutions.map(\.reason) == [.answeredByHost])
        #expect(host.lastError == nil)
    }

    @Test("Removing the interceptor releases everything still held, as it was")
    func removingInterceptorReleasesAll() async {
        let (host, journey, counter) = hostWithHandler()
        let recorder = ChangeRecorder()
        _ = recorder.attach(to: host)
        host.setInterceptor(RuleInterceptor { message, _ in message.correlationId == "r1" || message.type == .event })
        host.receive(text: request("device.info", id: "r1"))
        host.send(event: "host.ready")
        #expect(host.heldMessages.count == 2)
        host.setInterceptor(nil)
        #expect(host.heldMessages.isEmpty)
        #expect(await eventually { journey.messages.count == 2 })
        #expect(counter.ids == ["r1"])
        #expect(Set(journey.messages.map(\.type)) == [.event, .response])
        #expect(recorder.resolutions.map(\.reason) == [.interceptorRemoved, .interceptorRemoved])
    }

    @Test("A host snapshot lists held messages")
    func snapshotListsHeld() {
        let (host, _, _) = hostWithHandler()
        host.setInterceptor(RuleInterceptor { _, _ in true })
        host.send(event: "host.ready")
        #expect(host.snapshot().heldMessages.map(\.id) == ["h1"])
    }

    @Test("A hold past its time limit is released as it was: nothing is held for ever")
    func timeLimitReleases() async throws {
        let (host, journey, counter) = hostWithHandler()
        let recorder = ChangeRecorder()
        _ = recorder.attach(to: host)
        let clock = ManualClock()
        host.clock = clock
        let interceptor = RuleInterceptor { _, direction in direction == .received }
        interceptor.timeLimit = 0.05
        host.setInterceptor(interceptor)
        host.receive(text: request("device.info", id: "r1"))
        #expect(host.heldMessages.first?.deadline == fixedDate.addingTimeInterval(0.05))
        // The hold's timer sleeps on the host's clock: short of the limit nothing is released.
        #expect(await clock.waitForSleepers(count: 1))
        clock.advance(by: .milliseconds(49))
        #expect(clock.sleeperCount == 1)
        #expect(host.heldMessages.map(\.id) == ["h1"])
        clock.advance(by: .milliseconds(1))
        #expect(await eventually { journey.messages.count == 1 })
        #expect(counter.ids == ["r1"])
        #expect(recorder.resolutions.map(\.reason) == [.timeLimit])
        #expect(recorder.resolutions.map(\.outcome) == [.released])
    }
}
