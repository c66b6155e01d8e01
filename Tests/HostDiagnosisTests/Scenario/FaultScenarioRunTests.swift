import BridgeCore
import HostDiagnosis
import InspectorClient
@testable import InspectorProtocol
import TestSupport
import Testing

/// A fault scenario's run as a value (issue 29, item 3): steps fall due at their moment or after
/// their message, `until` starts the settle time, the duration ends it. Time is an input: every
/// call says what time it is.
@Suite("Fault scenario runs")
struct FaultScenarioRunTests {
    typealias F = TrafficFixture
    static let t0: Double = 1_700_000_000_000

    /// A state after a snapshot at seq 10, with `records` following as seq 11, 12, … (their own
    /// numbers, as the agent gives them).
    static func state(_ records: [WireTraffic]) -> LiveState {
        var state = LiveState()
        let host = WireHostInfo(name: "demo", pid: 1, hostVersion: "1", environment: "test", startedAt: t0)
        state.apply(.snapshot(seq: 10, state: WireState(
            host: host, journeyAttached: true, lastError: nil, errorHistory: [], messages: [], malformed: [], pending: [],
            slots: [], customCapabilities: [], counts: WireCounts())), at: t0)
        for (index, record) in records.enumerated() {
            var record = record
            record.seq = 11 + index
            state.apply(.event(seq: 11 + index, event: .traffic(record)), at: t0)
        }
        return state
    }

    static let scenario = FaultScenario(
        name: "s",
        steps: [
            .init(moment: .at(ms: 2_000), step: .background),
            .init(moment: .after(filter: "action:camera.document.capture", ms: 500), step: .foreground),
            .init(moment: .at(ms: 0), step: .journey(.reload)),
        ],
        until: "action:journey.complete", durationMs: 10_000, settleMs: 1_000)

    @Test("timed steps fall due at their moment, once each, in the file's order")
    func timedSteps() throws {
        var run = try FaultScenarioRun(Self.scenario, startedAt: 0, startSeq: 10)
        #expect(run.takeDueSteps(at: 0) == [2])
        #expect(run.nextWakeMs(at: 0) == 2_000)
        #expect(run.takeDueSteps(at: 1_999).isEmpty)
        #expect(run.takeDueSteps(at: 2_000) == [0])
        #expect(run.takeDueSteps(at: 5_000).isEmpty, "a step is handed out once")
        run.record(.done("sent host.background"), forStep: 0)
        #expect(run.steps[0].outcome == .done("sent host.background"))
        #expect(run.steps[1].dueAt == nil, "its message has not come")
    }

    @Test("a step after a message is due that long after the first match; messages before the start never count")
    func stepAfterMessage() throws {
        var run = try FaultScenarioRun(Self.scenario, startedAt: 0, startSeq: 11)
        // seq 11 (before the start) is a capture request: it does not count.
        var state = Self.state([F.request(seq: 0, id: "d0", action: "camera.document.capture", at: Self.t0)])
        run.observe(state, at: 100)
        #expect(run.steps[1].dueAt == nil)
        state = Self.state([
            F.request(seq: 0, id: "d0", action: "camera.document.capture", at: Self.t0),
            F.request(seq: 0, id: "q1", action: "capability.query", at: Self.t0),
            F.request(seq: 0, id: "d1", action: "camera.document.capture", at: Self.t0),
            F.request(seq: 0, id: "d2", action: "camera.document.capture", at: Self.t0),
        ])
        run.observe(state, at: 300)
        #expect(run.steps[1].dueAt == 800)
        #expect(run.steps[1].triggerSeq == 13, "the first match after the start")
        #expect(run.nextWakeMs(at: 300) == 0, "the reload at 0 is due already")
        _ = run.takeDueSteps(at: 300)
        #expect(run.nextWakeMs(at: 300) == 500)
        #expect(run.takeDueSteps(at: 800) == [1])
    }

    @Test("until starts the settle time; the run finishes when it has passed")
    func untilThenSettle() throws {
        var run = try FaultScenarioRun(Self.scenario, startedAt: 0, startSeq: 10)
        run.observe(Self.state([F.request(seq: 0, id: "q1", action: "capability.query", at: Self.t0)]), at: 1_000)
        #expect(run.advance(at: 1_000) == .running)
        let done = WireTraffic.journeyEvent("journey.complete", id: "e1", at: Self.t0)
        run.observe(Self.state([F.request(seq: 0, id: "q1", action: "capability.query", at: Self.t0), done]), at: 3_000)
        #expect(run.untilSeq == 12)
        #expect(run.advance(at: 3_000) == .settling(untilMs: 4_000))
        #expect(run.takeDueSteps(at: 3_000) == [0, 2], "steps still due while the run settles")
        #expect(run.nextWakeMs(at: 3_500) == 500)
        #expect(run.advance(at: 3_999) == .settling(untilMs: 4_000))
        #expect(run.advance(at: 4_000) == .finished(.reachedUntil(seq: 12)))
        #expect(run.takeDueSteps(at: 4_000).isEmpty, "nothing is handed out once the run is over")
    }

    @Test("the duration ends a run whose until never matched")
    func durationPasses() throws {
        var run = try FaultScenarioRun(Self.scenario, startedAt: 50, startSeq: 10)
        #expect(run.advance(at: 10_049) == .running)
        #expect(run.advance(at: 10_050) == .finished(.durationPassed))
        #expect(run.untilSeq == nil)
    }

    @Test("without until, the run lasts its duration and matches nothing")
    func noUntil() throws {
        var scenario = Self.scenario
        scenario.until = nil
        var run = try FaultScenarioRun(scenario, startedAt: 0, startSeq: 10)
        run.observe(Self.state([WireTraffic.journeyEvent("journey.complete", id: "e1", at: Self.t0)]), at: 10)
        #expect(run.advance(at: 9_999) == .running)
        #expect(run.advance(at: 10_000) == .finished(.durationPassed))
    }
}

extension WireTraffic {
    /// A journey event.
    static func journeyEvent(_ name: String, id: String, at time: Double) -> WireTraffic {
        TrafficFixture.traffic(seq: 0, .received, TrafficFixture.message(id, .event, name, at: time), at: time)
    }
}
