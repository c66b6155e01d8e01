import BridgeCore
import HostDiagnosis
import InspectorClient
@testable import InspectorProtocol
import TestSupport
import Testing

/// Judging a fault scenario's run (issue 29, item 3): each expectation against the unhappy paths
/// the run met, the scenario's own checks (rules fired, steps done, until reached) and the
/// doctor's checks at the scenario's level. The run passes only when all do.
@Suite("Fault scenario verdicts")
struct FaultScenarioVerdictTests {
    typealias F = TrafficFixture
    typealias Expectation = FaultScenario.Expectation
    static let t0 = JourneyCoverageTests.t0

    static func busy(_ id: String, _ action: String, at time: Double) -> [WireTraffic] {
        var request = F.request(seq: 0, id: id, action: action, at: time)
        request.fault = FaultMark(rule: "f1", effect: .errored, detail: "BUSY")
        var answer = F.response(seq: 0, id: id, action: action, at: time, status: .error, error: BridgeErrorCode.busy.payload())
        answer.fault = request.fault
        return [request, answer]
    }

    static func ok(_ id: String, _ action: String, at time: Double) -> [WireTraffic] {
        [F.request(seq: 0, id: id, action: action, at: time), F.response(seq: 0, id: id, action: action, at: time + 10)]
    }

    static let capabilities = [WireCapability(id: "device.info", version: "1", hasHandler: true, shadowedBySlot: false)]

    /// A run of `scenario` started at seq 0 and over, judged at `end` ms after t0 on `records`.
    static func verdict(
        _ scenario: FaultScenario, _ records: [WireTraffic], end: Double = 60_000, ruleIds: [String] = ["f1"], lastError: WireError? = nil,
        startSeq: Int = 0, prepare: (inout FaultScenarioRun) -> Void = { _ in }
    ) throws -> FaultScenarioVerdict {
        var run = try FaultScenarioRun(scenario, startedAt: 0, startSeq: startSeq)
        prepare(&run)
        run.advance(at: scenario.durationMs + scenario.settleMs + 1)
        return FaultScenarioVerdict(run: run, ruleIds: ruleIds, state: state(records, lastError: lastError), hostStartedAt: t0, hostNow: t0 + end)
    }

    /// The state an inspector holds after a snapshot at seq 0 (with `lastError`) and `records`
    /// as seq 1, 2, …, numbered as the agent numbers them.
    static func state(_ records: [WireTraffic], lastError: WireError?) -> LiveState {
        var state = LiveState()
        let host = WireHostInfo(name: "demo", pid: 1, hostVersion: "1", environment: "test", startedAt: t0)
        state.apply(.snapshot(seq: 0, state: WireState(
            host: host, journeyAttached: true, lastError: lastError, errorHistory: lastError.map { [$0] } ?? [], messages: [], malformed: [],
            pending: [], slots: [], customCapabilities: capabilities, counts: WireCounts())), at: t0)
        for (index, record) in records.enumerated() {
            var record = record
            record.seq = index + 1
            state.apply(.event(seq: index + 1, event: .traffic(record)), at: t0)
        }
        return state
    }

    static func scenario(_ expectations: [Expectation], faults: Int = 1) -> FaultScenario {
        FaultScenario(
            name: "s", faults: Array(repeating: WireFaultRule(filter: "action:device.info", effect: .error(code: "BUSY", message: nil, recoverable: nil)), count: faults),
            expectations: expectations, doctor: .init(failOn: .never))
    }

    @Test("retries: a retry within the time passes; a late one, giving up, or no retry yet fail, each saying what the journey did")
    func retries() throws {
        let retry = Expectation(trigger: .error(code: "BUSY"), action: "device.info", reaction: .retries, withinMs: 5_000)
        let retried = Self.busy("i1", "device.info", at: Self.t0 + 100) + Self.ok("i2", "device.info", at: Self.t0 + 1_300)
        let pass = try Self.verdict(Self.scenario([retry]), retried).checks.last
        #expect(pass?.passed == true)
        #expect(pass?.summary == "after BUSY on device.info the journey retries within 5.0s: met 1 time, as expected (after 1.2s)")

        var strict = retry
        strict.withinMs = 1_000
        let late = try Self.verdict(Self.scenario([strict]), retried).checks.last
        #expect(late?.passed == false)
        #expect(late?.evidence == ["device.info i1 at +100ms: retried after 1.2s, later than 1.0s"])

        let gaveUp = try Self.verdict(Self.scenario([retry]), Self.busy("i1", "device.info", at: Self.t0 + 100), end: 60_000).checks.last
        #expect(gaveUp?.passed == false)
        #expect(gaveUp?.summary == "after BUSY on device.info the journey retries within 5.0s: met 1 time, 1 not as expected")
        #expect(gaveUp?.evidence == ["device.info i1 at +100ms: no retry (gave up)"])

        let notYet = try Self.verdict(Self.scenario([retry]), Self.busy("i1", "device.info", at: Self.t0 + 100), end: 2_100).checks.last
        #expect(notYet?.evidence == ["device.info i1 at +100ms: no retry in the 2.0s the run watched after it"])
    }

    @Test("doesNotRetry: asking again after INTERNAL_ERROR fails and says it was not recoverable")
    func doesNotRetry() throws {
        let expectation = Expectation(trigger: .error(code: "INTERNAL_ERROR"), reaction: .doesNotRetry)
        let verdict = try Self.verdict(Self.scenario([expectation]), [
            F.request(seq: 0, id: "i1", action: "device.info", at: Self.t0 + 3_000),
            F.response(seq: 0, id: "i1", action: "device.info", at: Self.t0 + 3_050, status: .error, error: BridgeErrorCode.internalError.payload()),
            F.request(seq: 0, id: "i2", action: "device.info", at: Self.t0 + 3_350),
        ], ruleIds: [])
        let check = try #require(verdict.checks.first { $0.id == "expect[0]" })
        #expect(check.passed == false)
        #expect(check.evidence == ["device.info i1 at +3.0s: retried after 300ms (not recoverable)"])
        #expect(!verdict.passed)
        #expect(verdict.failures.contains("expect[0]: after INTERNAL_ERROR the journey does not retry: met 1 time, 1 not as expected"))

        let alone = try Self.verdict(Self.scenario([expectation]), [
            F.request(seq: 0, id: "i1", action: "device.info", at: Self.t0 + 3_000),
            F.response(seq: 0, id: "i1", action: "device.info", at: Self.t0 + 3_050, status: .error, error: BridgeErrorCode.internalError.payload()),
        ], ruleIds: [])
        #expect(alone.checks.first { $0.id == "expect[0]" }?.passed == true)
    }

    @Test("sendsCancel: journey.cancel after a cancelled capture passes; its absence fails")
    func sendsCancel() throws {
        let expectation = Expectation(trigger: .cancelled, action: "camera.*", reaction: .sendsCancel)
        let cancelled = [
            F.request(seq: 0, id: "s1", action: "camera.selfie.capture", at: Self.t0 + 4_000),
            F.response(seq: 0, id: "s1", action: "camera.selfie.capture", at: Self.t0 + 4_100, status: .cancelled),
        ]
        let passed = try Self.verdict(Self.scenario([expectation], faults: 0), cancelled + [WireTraffic.journeyEvent("journey.cancel", id: "c1", at: Self.t0 + 4_120)], ruleIds: [])
        #expect(passed.checks.map(\.passed) == [true])
        #expect(passed.passed)
        let failed = try Self.verdict(Self.scenario([expectation], faults: 0), cancelled, ruleIds: [])
        #expect(failed.checks.first?.evidence == ["camera.selfie.capture s1 at +4.1s: no journey.cancel in the 55.9s the run watched after it"])
    }

    @Test("an expectation whose unhappy path never happened fails: nothing was tested")
    func neverMet() throws {
        let expectation = Expectation(trigger: .error(code: "TIMEOUT"), action: "device.info", reaction: .retries)
        let verdict = try Self.verdict(Self.scenario([expectation]), Self.busy("i1", "device.info", at: Self.t0 + 100))
        let check = try #require(verdict.checks.last)
        #expect(!check.passed)
        #expect(check.summary.contains("never met: no TIMEOUT answer to device.info during the run"))
    }

    @Test("unhappy paths and rule hits before the run's start (by sequence number, not by either machine's clock) are not the run's")
    func beforeTheStart() throws {
        let expectation = Expectation(trigger: .error(code: "BUSY"), reaction: .retries)
        // seq 1 and 2: a BUSY before the start; seq 3 and 4: the retry, after it. The host's
        // times say the BUSY came after the start: the numbers decide.
        let records = Self.busy("i0", "device.info", at: Self.t0 + 50) + Self.ok("i1", "device.info", at: Self.t0 + 1_000)
        let verdict = try Self.verdict(Self.scenario([expectation]), records, startSeq: 2)
        #expect(verdict.checks.last?.summary.contains("never met") == true)
        #expect(verdict.checks.first?.passed == false, "the rule fired before the start only")
        let counted = try Self.verdict(Self.scenario([expectation]), records, startSeq: 0)
        #expect(counted.checks.map(\.passed) == [true, true])
    }

    @Test("faults: every rule must fire; a rule's own error answer is not a second hit")
    func rulesFired() throws {
        let fired = try Self.verdict(Self.scenario([]), Self.busy("i1", "device.info", at: Self.t0 + 100))
        #expect(fired.checks == [.init(id: "faults", passed: true, summary: "every rule fired (f1 1×)")])
        let idle = try Self.verdict(Self.scenario([], faults: 2), Self.busy("i1", "device.info", at: Self.t0 + 100), ruleIds: ["f1", "f2"])
        #expect(idle.checks.first?.passed == false)
        #expect(idle.checks.first?.evidence == ["faults[1] (f2) action:device.info: error BUSY, always never fired"])
    }

    @Test("steps: each step not done says why; until: not reached fails with the time it had")
    func stepsAndUntil() throws {
        let scenario = FaultScenario(
            name: "s",
            steps: [
                .init(moment: .at(ms: 0), step: .journey(.reload)),
                .init(moment: .after(filter: "action:camera.*", ms: 0), step: .background),
                .init(moment: .at(ms: 50_000), step: .foreground),
                .init(moment: .at(ms: 0), step: .ready),
            ],
            until: "action:journey.complete", durationMs: 30_000, doctor: .init(failOn: .never))
        let verdict = try Self.verdict(scenario, [], ruleIds: []) { run in
            _ = run.takeDueSteps(at: 0)
            run.record(.refused("the journey has not started yet: nothing to reload"), forStep: 0)
        }
        let steps = try #require(verdict.checks.first { $0.id == "steps" })
        #expect(steps.summary == "0 of 4 steps done")
        #expect(steps.evidence == [
            "steps[0] reload the journey's page (host.ready follows) (at 0ms): the host refused: the journey has not started yet: nothing to reload",
            "steps[1] host.background (0ms after action:camera.*): never due: no message matched its filter before the run ended",
            "steps[2] host.foreground (at 50.0s): not done: the run ended first",
            "steps[3] host.ready (the host's timestamp and version) (at 0ms): no answer from the host",
        ])
        let until = try #require(verdict.checks.first { $0.id == "until" })
        #expect(!until.passed)
        #expect(until.summary.hasPrefix("the journey did not reach action:journey.complete within 30.0s"))
    }

    @Test("the doctor's checks count at the scenario's level, less those it skips")
    func doctorPolicy() throws {
        // The host's web view went away: the doctor finds lastError set.
        let lastError = WireError(seq: 1, time: Self.t0, text: "WebView not attached", cause: nil)
        var scenario = FaultScenario(name: "s", steps: [.init(moment: .at(ms: 0), step: .ready)])
        let strict = try Self.verdict(scenario, [], ruleIds: [], lastError: lastError) { run in
            _ = run.takeDueSteps(at: 0)
            run.record(.done("sent"), forStep: 0)
        }
        let found = strict.doctor.checks.filter { $0.status == .failure }
        try #require(!found.isEmpty, "the doctor finds nothing in this state: \(strict.doctor.tally)")
        #expect(strict.doctorFailures.map(\.id) == found.map(\.id))
        #expect(!strict.passed)
        #expect(strict.failures.contains { $0.hasPrefix("doctor \(found[0].id.rawValue): ") })

        scenario.doctor = .init(failOn: .failure, skip: Set(found.map(\.id)))
        let skipped = try Self.verdict(scenario, [], ruleIds: [], lastError: lastError) { run in
            _ = run.takeDueSteps(at: 0)
            run.record(.done("sent"), forStep: 0)
        }
        #expect(skipped.doctorFailures.isEmpty)
        #expect(skipped.doctor.checks.allSatisfy { !found.map(\.id).contains($0.id) })
        #expect(skipped.passed)

        scenario.doctor = .init(failOn: .never)
        #expect(try Self.verdict(scenario, [], ruleIds: [], lastError: lastError) { run in
            _ = run.takeDueSteps(at: 0)
            run.record(.done("sent"), forStep: 0)
        }.passed)
        #expect(FaultScenario.DoctorPolicy(failOn: .warning).fails(.warning))
        #expect(!FaultScenario.DoctorPolicy(failOn: .failure).fails(.warning))
    }
}
