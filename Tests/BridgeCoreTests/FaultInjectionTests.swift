import BridgeCore
import Foundation
import TestSupport
import Testing

/// Fault injection: each fault changes the host's real handling as documented (the handler runs
/// or not, the journey receives exactly the faulted message), every faulted message is marked in
/// the log, and every timer runs on the host's clock.
@MainActor
@Suite("Fault injection")
struct FaultInjectionTests {
    /// Faults what `rule` picks as rule `f1`; counts what it was asked about.
    final class RuleInjector: BridgeFaultInjector {
        var rule: (BridgeMessage, TrafficRecord.Direction) -> FaultAction?
        var asked: [String] = []
        init(_ rule: @escaping (BridgeMessage, TrafficRecord.Direction) -> FaultAction?) { self.rule = rule }
        func fault(_ message: BridgeMessage, direction: TrafficRecord.Direction, json: Data) -> FaultVerdict? {
            asked.append("\(direction.rawValue) \(message.type.rawValue) \(message.payload.action)")
            return rule(message, direction).map { FaultVerdict(rule: "f1", action: $0) }
        }
    }

    /// A host on a manual clock whose `device.info` handler answers at once, counting its runs.
    func hostWithHandler() -> (BridgeHost, RecordingJourneyTransport, Counter, ManualClock, ChangeRecorder) {
        let (host, journey) = makeHost()
        let clock = ManualClock()
        host.clock = clock
        let counter = Counter()
        host.registerCustomCapability("device.info", version: "1.0") { request, responder in
            counter.hit(request.correlationId)
            responder.respond(status: .success, data: ["model": "Simulator"], error: nil)
        }
        let recorder = ChangeRecorder()
        _ = recorder.attach(to: host)
        return (host, journey, counter, clock, recorder)
    }

    /// A fault for requests of `device.info` only.
    func onDeviceInfoRequests(_ action: FaultAction) -> RuleInjector {
        RuleInjector { message, direction in
            direction == .received && message.payload.action == "device.info" ? action : nil
        }
    }

    @Test("error: the journey gets the documented error at once and the handler never runs")
    func errorAnswersWithoutHandler() async {
        let (host, journey, counter, _, recorder) = hostWithHandler()
        host.setFaultInjector(onDeviceInfoRequests(.error(BridgeErrorCode.busy.payload())))
        host.receive(text: request("device.info", id: "r1"))
        await settle()
        #expect(counter.value == 0)
        #expect(journey.messages.count == 1)
        #expect(journey.messages.first?.correlationId == "r1")
        #expect(journey.messages.first?.payload.status == .error)
        #expect(journey.messages.first?.payload.error == BridgeErrorPayload(code: "BUSY", message: "Another native operation is in progress", recoverable: true))
        #expect(host.pendingRequests.isEmpty)
        let requestRecord = recorder.traffic.first { $0.direction == .received }
        #expect(requestRecord?.fault == FaultMark(rule: "f1", effect: .errored, detail: "BUSY"))
        // The error is a real response, logged as sent and delivered, and marked as the fault's
        // answer: an inspector never holds it against the app.
        #expect(recorder.traffic.filter { $0.direction == .sent }.map(\.fault) == [FaultMark(rule: "f1", effect: .errored, detail: "BUSY")])
    }

    @Test("drop on a request: it never reaches the host's routing, and the log still shows it")
    func dropRequest() async {
        let (host, journey, counter, _, recorder) = hostWithHandler()
        host.setFaultInjector(onDeviceInfoRequests(.drop))
        host.receive(text: request("device.info", id: "r1"))
        host.receive(text: request("other.action", id: "r2"))
        await settle()
        #expect(counter.value == 0)
        #expect(journey.deliveries.isEmpty)
        #expect(host.pendingRequests.map(\.correlationId) == ["r2"])
        #expect(host.receivedMessages.map(\.correlationId) == ["r2"])
        #expect(recorder.traffic.map(\.message.correlationId) == ["r1", "r2"])
        #expect(recorder.traffic.first?.fault == FaultMark(rule: "f1", effect: .dropped))
        // The same id again is not a duplicate: the dropped request was never outstanding.
        host.setFaultInjector(nil)
        host.receive(text: request("device.info", id: "r1"))
        #expect(await eventually { journey.messages.count == 1 })
        #expect(counter.ids == ["r1"])
    }

    @Test("neverAnswer: the handler runs and its answer is swallowed, marked in the log")
    func neverAnswer() async {
        let (host, journey, counter, _, recorder) = hostWithHandler()
        host.setFaultInjector(onDeviceInfoRequests(.neverAnswer))
        host.receive(text: request("device.info", id: "r1"))
        #expect(await eventually { counter.value == 1 })
        #expect(await eventually { recorder.traffic.count == 2 })
        #expect(journey.deliveries.isEmpty)
        #expect(host.pendingRequests.isEmpty)
        #expect(recorder.traffic.map(\.fault?.effect) == [.neverAnswered, .neverAnswered])
        #expect(recorder.traffic.last?.direction == .sent)
        // The next request is answered as usual: the fault was for one request.
        host.setFaultInjector(nil)
        host.receive(text: request("device.info", id: "r2"))
        #expect(await eventually { journey.messages.map(\.correlationId) == ["r2"] })
    }

    @Test("delay on a request: the handler runs at once, its answer goes out after the delay on the host's clock")
    func delayedAnswer() async {
        let (host, journey, counter, clock, recorder) = hostWithHandler()
        host.setFaultInjector(onDeviceInfoRequests(.delay(seconds: 2)))
        host.receive(text: request("device.info", id: "r1"))
        #expect(await eventually { counter.value == 1 })
        #expect(await clock.waitForSleepers(count: 1))
        clock.advance(by: .milliseconds(1999))
        await settle()
        #expect(journey.deliveries.isEmpty)
        // Answered already: not pending while it waits.
        #expect(host.pendingRequests.isEmpty)
        clock.advance(by: .milliseconds(1))
        #expect(await eventually { journey.messages.count == 1 })
        #expect(journey.messages.first?.payload.data == ["model": "Simulator"])
        #expect(recorder.traffic.last?.fault == FaultMark(rule: "f1", effect: .delayed, detail: "2000ms"))
        #expect(recorder.traffic.first?.fault == FaultMark(rule: "f1", effect: .delayed, detail: "2000ms"))
    }

    @Test("delay and neverAnswer change what a handler answers: a request nobody handles is answered as usual from pendingRequests")
    func pendingAnswerNotFaulted() throws {
        let (host, journey, _, _, _) = hostWithHandler()
        host.setFaultInjector(RuleInjector { _, direction in direction == .received ? .neverAnswer : nil })
        host.receive(text: request("nobody.handles", id: "r1"))
        #expect(host.pendingRequests.map(\.correlationId) == ["r1"])
        try host.respondToPendingRequest("r1", status: .success)
        #expect(journey.messages.map(\.correlationId) == ["r1"])
    }

    @Test("drop on a sent event: never delivered, logged as dropped")
    func dropEvent() async {
        let (host, journey, _, _, recorder) = hostWithHandler()
        host.setFaultInjector(RuleInjector { message, direction in direction == .sent && message.payload.action == "host.ping" ? .drop : nil })
        host.send(event: "host.ping")
        host.send(event: "host.ready")
        #expect(journey.messages.map(\.payload.action) == ["host.ready"])
        #expect(recorder.traffic.map(\.fault?.effect) == [.dropped, nil])
    }

    @Test("duplicate: the journey receives the message twice, both marked")
    func duplicateResponse() async {
        let (host, journey, counter, _, recorder) = hostWithHandler()
        host.setFaultInjector(RuleInjector { message, direction in direction == .sent && message.type == .response ? .duplicate : nil })
        host.receive(text: request("device.info", id: "r1"))
        #expect(await eventually { journey.messages.count == 2 })
        await settle()
        #expect(counter.value == 1)
        #expect(journey.messages.map(\.correlationId) == ["r1", "r1"])
        #expect(recorder.traffic.filter { $0.direction == .sent }.map(\.fault?.effect) == [.duplicated, .duplicated])
    }

    @Test("delay on a sent event: delivered after the delay on the host's clock, not before")
    func delayedEvent() async {
        let (host, journey, _, clock, _) = hostWithHandler()
        host.setFaultInjector(RuleInjector { _, direction in direction == .sent ? .delay(seconds: 0.5) : nil })
        host.send(event: "host.ready")
        #expect(await clock.waitForSleepers(count: 1))
        clock.advance(by: .milliseconds(499))
        await settle()
        #expect(journey.deliveries.isEmpty)
        clock.advance(by: .milliseconds(1))
        #expect(await eventually { journey.messages.map(\.payload.action) == ["host.ready"] })
    }

    @Test("reorder: held back and delivered right after the next message the host sends")
    func reorderAfterNext() async {
        let (host, journey, _, _, recorder) = hostWithHandler()
        host.setFaultInjector(RuleInjector { message, direction in
            direction == .sent && message.payload.action == "host.first" ? .reorder(boundSeconds: 5) : nil
        })
        host.send(event: "host.first")
        #expect(journey.deliveries.isEmpty)
        #expect(host.reorderedCount == 1)
        host.send(event: "host.second")
        #expect(journey.messages.map(\.payload.action) == ["host.second", "host.first"])
        #expect(recorder.traffic.map(\.fault?.effect) == [nil, .reordered])
        #expect(host.reorderedCount == 0)
    }

    @Test("reorder with nothing following: delivered when its bound passes on the host's clock")
    func reorderBound() async {
        let (host, journey, _, clock, _) = hostWithHandler()
        host.setFaultInjector(RuleInjector { _, direction in direction == .sent ? .reorder(boundSeconds: 1) : nil })
        host.send(event: "host.ready")
        #expect(await clock.waitForSleepers(count: 1))
        clock.advance(by: .milliseconds(999))
        await settle()
        #expect(journey.deliveries.isEmpty)
        clock.advance(by: .milliseconds(1))
        #expect(await eventually { journey.messages.map(\.payload.action) == ["host.ready"] })
    }

    @Test("Removing the injector delivers what reorder holds back, and faults nothing more")
    func removingInjectorFlushes() {
        let (host, journey, _, _, _) = hostWithHandler()
        let injector = RuleInjector { _, direction in direction == .sent ? .reorder(boundSeconds: 60) : nil }
        host.setFaultInjector(injector)
        host.send(event: "host.ready")
        host.setFaultInjector(nil)
        #expect(journey.messages.map(\.payload.action) == ["host.ready"])
        host.send(event: "host.ping")
        #expect(journey.messages.count == 2)
        #expect(injector.asked == ["sent event host.ready"])
    }

    @Test("Faults come before breakpoints: a request errored by a fault is never held; its answer may be")
    func faultsBeforeBreakpoints() async {
        let (host, journey, counter, _, _) = hostWithHandler()
        final class HoldRequests: BridgeInterceptor {
            var asked: [String] = []
            func hold(_ message: BridgeMessage, direction: TrafficRecord.Direction, json: Data) -> HoldRequest? {
                asked.append("\(direction.rawValue) \(message.payload.action)")
                return nil
            }
        }
        let interceptor = HoldRequests()
        host.setInterceptor(interceptor)
        host.setFaultInjector(onDeviceInfoRequests(.error(BridgeErrorCode.timeout.payload())))
        host.receive(text: request("device.info", id: "r1"))
        await settle()
        #expect(counter.value == 0)
        #expect(interceptor.asked == ["sent device.info"])
        #expect(journey.messages.first?.payload.error?.code == "TIMEOUT")
    }

    @Test("A request whose id is outstanding is refused as a duplicate and not offered to the injector")
    func duplicateIdNotFaulted() async {
        let (host, _, _, _, _) = hostWithHandler()
        let injector = RuleInjector { _, _ in nil }
        host.setFaultInjector(injector)
        host.receive(text: request("nobody.handles", id: "r1"))
        host.receive(text: request("nobody.handles", id: "r1"))
        #expect(injector.asked == ["received request nobody.handles"])
        #expect(host.lastError?.contains("Duplicate correlationId") == true)
    }
}
