import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import TestSupport
import Testing
import ThreadSupport

/// A made-up recording: the host's ready event, then the journey's messages with the host's
/// answers and events between them, and at the end a request an inspector injected.
///
/// seq 1  host event host.ready          t=0
/// seq 2  journey request device.info d1 t=100
/// seq 3  journey event journey.step e1  t=110
/// seq 4  host answer d1                 t=220
/// seq 5  journey request nfc.read n1    t=300   (left pending)
/// seq 6  journey request location.get l1 t=400
/// seq 7  host event host.progress       t=450
/// seq 8  host answer l1 (error)         t=700
/// seq 9  journey event journey.done e2  t=800
/// seq 10 injected request inspector-x   t=900
/// seq 11 host answer inspector-x        t=950
private func madeUpRecording() -> Recording.Contents {
    let traffic: [WireTraffic] = [
        Fixture.hostEvent(seq: 1, id: "ready", name: "host.ready", at: 0),
        Fixture.request(seq: 2, id: "d1", action: "device.info", at: 100),
        Fixture.traffic(seq: 3, .received, Fixture.message("e1", .event, "journey.step", at: 110), at: 110),
        Fixture.response(seq: 4, id: "d1", action: "device.info", at: 220),
        Fixture.request(seq: 5, id: "n1", action: "nfc.read", at: 300),
        Fixture.request(seq: 6, id: "l1", action: "location.get", at: 400),
        Fixture.hostEvent(seq: 7, id: "p1", name: "host.progress", at: 450),
        Fixture.response(seq: 8, id: "l1", action: "location.get", at: 700, status: .error, error: BridgeErrorPayload(code: "PERMISSION_DENIED", message: "no", recoverable: true)),
        Fixture.traffic(seq: 9, .received, Fixture.message("e2", .event, "journey.done", at: 800), at: 800),
        Fixture.traffic(seq: 10, .received, Fixture.message("inspector-x", .request, "device.info", at: 900), at: 900, origin: .inspector),
        Fixture.response(seq: 11, id: "inspector-x", action: "device.info", at: 950),
    ]
    var frames: [AgentFrame] = []
    for record in traffic {
        frames.append(.event(seq: record.seq, event: .traffic(record)))
        if record.message.correlationId == "n1" {
            frames.append(.event(seq: record.seq, event: .pendingAdded(WirePending(correlationId: "n1", action: "nfc.read", since: 300, message: record.message))))
        }
    }
    return Recording.Contents(header: nil, frames: frames, problem: nil, linesRead: frames.count)
}

/// Two journey events 500 ms apart, nothing from the host.
private func twoEvents() -> Recording.Contents {
    let frames: [AgentFrame] = [
        .event(seq: 1, event: .traffic(Fixture.traffic(seq: 1, .received, Fixture.message("a", .event, "journey.a", at: 1000), at: 1000))),
        .event(seq: 2, event: .traffic(Fixture.traffic(seq: 2, .received, Fixture.message("b", .event, "journey.b", at: 1500), at: 1500))),
    ]
    return Recording.Contents(header: nil, frames: frames, problem: nil, linesRead: frames.count)
}

/// A host for the driver: remembers what it was handed; the test gives the frames it reads.
private final class ScriptedLink: SessionRerunLink, Sendable {
    let injected = Locked<[BridgeMessage]>([])
    let incoming = Locked<[AgentFrame]>([])

    var sentIds: [String] { injected.withLock { $0.map(\.correlationId) } }

    func inject(_ message: BridgeMessage) async throws {
        injected.withLock { $0.append(message) }
    }

    func availableFrames() async throws -> [AgentFrame] {
        incoming.withLock { frames in
            defer { frames = [] }
            return frames
        }
    }

    /// The host logs `message` as injected, then (for an answer) answers it.
    func hostReceived(_ id: String, action: String, seq: Int, at time: Double) {
        let record = Fixture.traffic(seq: seq, .received, Fixture.message(id, .request, action, at: time), at: time, origin: .inspector)
        incoming.withLock { $0.append(.event(seq: seq, event: .traffic(record))) }
    }

    func hostAnswers(_ id: String, action: String, seq: Int, at time: Double) {
        incoming.withLock { $0.append(.event(seq: seq, event: .traffic(Fixture.response(seq: seq, id: id, action: action, at: time)))) }
    }
}

/// What the driver reported, in order, as short lines.
private struct Recorded: Sendable {
    let events = Locked<[String]>([])

    func note(_ event: SessionRerunDriver.Event) {
        let text: String
        switch event {
        case .sent(let step, let id): text = "sent \(step.seq) \(id)"
        case .answered(let step, _, _): text = "answered \(step.seq)"
        case .pending(let step): text = "pending \(step.seq)"
        case .timedOut(let step, let place): text = "timedOut \(step.seq) \(place ?? "nowhere")"
        case .refused(let step, _): text = "refused \(step.seq)"
        }
        events.withLock { $0.append(text) }
    }
}

@Suite("Session rerun: the plan and the driver")
struct SessionRerunTests {
    @Test("the plan sends the journey's messages in order, each waiting for the answers the recording shows before it")
    func planOfWholeRecording() throws {
        let plan = try SessionRerunPlan(madeUpRecording())
        #expect(plan.steps.map(\.seq) == [2, 3, 5, 6, 9], "host messages and the injected request are not sent")
        #expect(plan.steps.map(\.message.correlationId) == ["d1", "e1", "n1", "l1", "e2"])
        #expect(plan.steps.map(\.awaits) == [[], [], [0], [], [3]], "n1 waits for d1's answer, e2 for l1's")
        #expect(plan.steps.map(\.gapMs) == [0, 10, 190, 100, 400])
        #expect(plan.awaitsAtEnd.isEmpty)
        #expect(plan.steps[2].hostBefore.map(\.seq) == [4])
        #expect(plan.steps[2].hostBefore.first?.answersStep == 0)
        #expect(plan.steps[4].hostBefore.map(\.action) == ["host.progress", "location.get"])
        #expect(plan.steps[0].recordedLatencyMs == 120)
        #expect(plan.steps[3].recordedStatus == .error)
        #expect(plan.steps[2].recordedAnswerSeq == nil, "the recording leaves nfc.read pending")
        // host.ready before the first step is context; the injected request and its answer are not expected.
        #expect(plan.expected.map(\.seq) == [2, 3, 4, 5, 6, 7, 8, 9])
    }

    @Test("a range keeps the steps within it; an answer recorded after the last step is waited for at the end")
    func planOfRange() throws {
        let plan = try SessionRerunPlan(madeUpRecording(), selection: .init(from: 5, to: 8))
        #expect(plan.steps.map(\.seq) == [5, 6])
        #expect(plan.steps.map(\.awaits) == [[], []], "d1 is not sent, so its answer is not waited for")
        #expect(plan.awaitsAtEnd == [1], "l1's answer comes after the last step")
        #expect(plan.hostAfter.map(\.seq) == [7, 8])
        #expect(plan.expected.map(\.seq) == [5, 6, 7, 8])
    }

    @Test("a filter keeps the matching journey messages; the answers to those not sent are not expected")
    func planWithFilter() throws {
        let plan = try SessionRerunPlan(madeUpRecording(), selection: .init(filter: try LogFilter.parse("action:location.*")))
        #expect(plan.steps.map(\.seq) == [6])
        #expect(plan.awaitsAtEnd == [0])
        #expect(plan.expected.map(\.seq) == [6, 7, 8], "d1's answer (seq 4) and the journey's events are left out")

        let withInjected = try SessionRerunPlan(madeUpRecording(), selection: .init(from: 9, includeInspectorMade: true))
        #expect(withInjected.steps.map(\.message.correlationId) == ["e2", "inspector-x"])
        #expect(withInjected.awaitsAtEnd == [1])
    }

    @Test("a range or filter that holds no journey message, or an inverted range, is a problem that says so")
    func planWithNothingToSend() throws {
        let camera = try LogFilter.parse("action:camera.*")
        #expect(throws: SessionRerunPlan.Problem.self) { try SessionRerunPlan(madeUpRecording(), selection: .init(from: 10, to: 11)) }
        do {
            _ = try SessionRerunPlan(madeUpRecording(), selection: .init(from: 8, to: 2))
            Issue.record("an inverted range gives a plan")
        } catch {
            #expect(error.description.contains("--from 8 is after --to 2"))
        }
        do {
            _ = try SessionRerunPlan(madeUpRecording(), selection: .init(filter: camera))
            Issue.record("a filter that matches nothing gives a plan")
        } catch {
            #expect(error.description.contains("matching action:camera.*"), "\(error)")
        }
    }

    @Test("each message gets <original>-rerun-<suffix> and today's timestamp, or its own id with --same-id")
    func newIds() throws {
        let plan = try SessionRerunPlan(madeUpRecording())
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let renamed = SessionRerunDriver(plan: plan, settings: .init(suffix: "abcd"), now: { now }).message(for: plan.steps[0])
        #expect(renamed.correlationId == "d1-rerun-abcd")
        #expect(renamed.timestamp == 1_800_000_000_000)
        #expect(renamed.payload == plan.steps[0].message.payload)
        let same = SessionRerunDriver(plan: plan, settings: .init(sameId: true, suffix: "abcd"), now: { now }).message(for: plan.steps[0])
        #expect(same.correlationId == "d1")
    }

    @Test("the driver sends no step before the recorded answers before it, and goes on after the answer timeout")
    func driverWaitsForAnswers() async throws {
        let plan = try SessionRerunPlan(madeUpRecording())
        let clock = ManualClock()
        let link = ScriptedLink()
        let recorded = Recorded()
        let driver = SessionRerunDriver(plan: plan, settings: .init(answerTimeout: .seconds(10), suffix: "abcd"), clock: clock)
        let run = Task { try await driver.run(link: link) { recorded.note($0) } }

        // d1 and e1 go at once; n1 waits for d1's answer, however long the clock runs short of the timeout.
        #expect(await waitUntil(timeout: .seconds(60)) { link.sentIds.count == 2 })
        link.hostReceived("d1-rerun-abcd", action: "device.info", seq: 10, at: 5000)
        #expect(await clock.waitForSleepers(count: 1))
        clock.advance(by: .seconds(9))
        #expect(await clock.waitForSleepers(count: 1))
        #expect(link.sentIds == ["d1-rerun-abcd", "e1-rerun-abcd"], "n1 is not sent before d1 is answered")

        // The answer comes: n1 and l1 go; e2 waits for l1's answer.
        link.hostAnswers("d1-rerun-abcd", action: "device.info", seq: 11, at: 5130)
        clock.advance(by: .milliseconds(10))
        #expect(await waitUntil(timeout: .seconds(60)) { link.sentIds.count == 4 })
        #expect(await clock.waitForSleepers(count: 1))
        clock.advance(by: .seconds(9))
        #expect(await clock.waitForSleepers(count: 1))
        #expect(link.sentIds.count == 4, "e2 is not sent before l1 is answered or the answer timeout passes")

        // l1 is never answered: after 10 s the driver notes it and sends e2.
        clock.advance(by: .seconds(1))
        let outcome = try await run.value
        #expect(link.sentIds == ["d1-rerun-abcd", "e1-rerun-abcd", "n1-rerun-abcd", "l1-rerun-abcd", "e2-rerun-abcd"])
        #expect(recorded.events.current == [
            "sent 2 d1-rerun-abcd", "sent 3 e1-rerun-abcd", "answered 2", "sent 5 n1-rerun-abcd", "sent 6 l1-rerun-abcd",
            "timedOut 6 nowhere", "sent 9 e2-rerun-abcd",
        ], "the timeout is noted, then e2 is sent")
        #expect(outcome.steps.map(\.fate) == [
            .answered(status: .success, latencyMs: 130), .sent, .unanswered, .timedOut(place: nil), .sent,
        ])
        #expect(outcome.steps[0].recordedLatencyMs == 120)
        #expect(outcome.idMapping.map(\.rerun) == link.sentIds)
        #expect(outcome.idMapping.map(\.recorded) == ["d1", "e1", "n1", "l1", "e2"])
        #expect(outcome.actual.map(\.seq) == [10, 11], "the host's rows from the first injected message on")
        #expect(outcome.actual.first?.origin == .inspector)
        #expect(outcome.expected.map(\.seq) == plan.expected.map(\.seq))
        #expect(outcome.summary == "5 journey messages sent, 1 request answered, 0 left pending, 1 timed out")
    }

    @Test("with recorded pacing the driver keeps the recorded gap; by default it does not wait for it")
    func driverKeepsRecordedGap() async throws {
        let plan = try SessionRerunPlan(twoEvents())
        let clock = ManualClock()
        let link = ScriptedLink()
        let driver = SessionRerunDriver(plan: plan, settings: .init(pacing: .recorded, suffix: "abcd"), clock: clock)
        let run = Task { try await driver.run(link: link) }
        #expect(await waitUntil(timeout: .seconds(60)) { link.sentIds.count == 1 })
        #expect(await clock.waitForSleepers(count: 1))
        clock.advance(by: .milliseconds(499))
        #expect(await clock.waitForSleepers(count: 1))
        #expect(link.sentIds.count == 1, "b is not sent before the recorded 500 ms")
        clock.advance(by: .milliseconds(1))
        let outcome = try await run.value
        #expect(link.sentIds == ["a-rerun-abcd", "b-rerun-abcd"])
        #expect(outcome.summary == "2 journey messages sent, 0 requests answered, 0 left pending, 0 timed out")

        // As fast as the host answers: nothing to wait for, so both go without the clock moving.
        let fast = ScriptedLink()
        _ = try await SessionRerunDriver(plan: plan, settings: .init(suffix: "abcd"), clock: ManualClock()).run(link: fast)
        #expect(fast.sentIds == ["a-rerun-abcd", "b-rerun-abcd"])
    }

    @Test("a request the host parks in pendingRequests is reported there, and left pending as the recording shows")
    func driverReportsPending() async throws {
        let plan = try SessionRerunPlan(madeUpRecording(), selection: .init(from: 5, to: 5))
        let link = ScriptedLink()
        let recorded = Recorded()
        final class PendingLink: SessionRerunLink, Sendable {
            let inner: ScriptedLink
            init(_ inner: ScriptedLink) { self.inner = inner }
            func inject(_ message: BridgeMessage) async throws {
                try await inner.inject(message)
                inner.incoming.withLock {
                    $0.append(.event(seq: 20, event: .pendingAdded(WirePending(correlationId: message.correlationId, action: "nfc.read", since: 0, message: message))))
                }
            }
            func availableFrames() async throws -> [AgentFrame] { try await inner.availableFrames() }
        }
        let outcome = try await SessionRerunDriver(plan: plan, settings: .init(suffix: "abcd"), clock: ManualClock())
            .run(link: PendingLink(link)) { recorded.note($0) }
        #expect(recorded.events.current == ["sent 5 n1-rerun-abcd", "pending 5"])
        #expect(outcome.steps.map(\.fate) == [.pending(place: "pendingRequests")])
        #expect(outcome.summary == "1 journey message sent, 0 requests answered, 1 left pending, 0 timed out")
    }
}
