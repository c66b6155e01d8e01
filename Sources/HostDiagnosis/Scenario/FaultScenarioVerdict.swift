import BridgeCore
import FilterLanguage
import InspectorClient
import InspectorProtocol

/// Whether a fault scenario's run passed: its own checks (every fault rule fired, every step was
/// done, the journey reached `until`, each expectation on how the journey answered its unhappy
/// paths) and the doctor's checks the scenario counts. A pure function of the run, the
/// inspector's state at its end and the times given, so it is tested without a host.
///
/// ```swift
/// let verdict = FaultScenarioVerdict(run: run, ruleIds: ids, state: state, hostStartedAt: start, hostNow: now)
/// verdict.passed          // the exit status of `bridge-inspector fault-scenario`
/// verdict.failures        // ["expect[0]: after BUSY on camera.document.capture the journey retries: …"]
/// ```
public struct FaultScenarioVerdict: Sendable {
    /// One of the scenario's own checks.
    public struct Check: Sendable, Equatable, Encodable {
        /// `faults`, `steps`, `until`, or `expect[N]` (the expectation's place in the file).
        public var id: String
        /// Whether it passed.
        public var passed: Bool
        /// What it found, in a line. Holds the file's and the host's text: sanitize it.
        public var summary: String
        /// The messages or steps behind a failure, a line each (at most ``maxEvidence``).
        public var evidence: [String]

        /// Creates a check.
        public init(id: String, passed: Bool, summary: String, evidence: [String] = []) {
            self.id = id
            self.passed = passed
            self.summary = summary
            self.evidence = evidence
        }
    }

    /// The most evidence lines a check keeps.
    public static let maxEvidence = 8

    /// The scenario's own checks, in a fixed order: `faults`, `steps`, `until`, then each expectation.
    public var checks: [Check]
    /// The doctor's report on the host at the end, without the checks the scenario skips.
    public var doctor: DoctorReport
    /// The doctor's checks that fail the run at the scenario's level.
    public var doctorFailures: [DoctorCheck]
    /// The journey's coverage during the whole session (what `stats --coverage` shows).
    public var coverage: JourneyCoverage

    /// Whether the run passed: every check did, and no doctor check fails it.
    public var passed: Bool { checks.allSatisfy(\.passed) && doctorFailures.isEmpty }

    /// How many checks failed, the doctor's that count included.
    public var failedCount: Int { checks.filter { !$0.passed }.count + doctorFailures.count }

    /// How many checks were judged, the doctor's counted ones included.
    public var judgedCount: Int { checks.count + (run.scenario.doctor.failOn == .never ? 0 : doctor.checks.filter { $0.status != .notRun }.count) }

    /// The run judged.
    public let run: FaultScenarioRun

    /// Judges `run`: `ruleIds` are the ids the host gave the scenario's fault rules, in order;
    /// `state` is the inspector's state at the end; `hostStartedAt` and `hostNow` are the run's
    /// start and end on the host's clock (``HostClock``), the times the log is stamped with: the
    /// report shows times from the start, and a retry not seen is "not in the 2.0s watched". Which
    /// messages are the run's is decided by sequence number (``FaultScenarioRun/startSeq``).
    public init(
        run: FaultScenarioRun, ruleIds: [String], state: LiveState, hostStartedAt: Double, hostNow: Double, doctor: Doctor = Doctor()
    ) {
        self.run = run
        let scenario = run.scenario
        let coverage = JourneyCoverage(state: state, now: hostNow, timeouts: doctor.thresholds.journeyTimeouts)
        self.coverage = coverage
        var checks: [Check] = []
        if !scenario.faults.isEmpty { checks.append(Self.faultsCheck(scenario: scenario, ruleIds: ruleIds, state: state, after: run.startSeq)) }
        if !scenario.steps.isEmpty { checks.append(Self.stepsCheck(run)) }
        if let until = scenario.until { checks.append(Self.untilCheck(run, until: until)) }
        // The run's paths: those whose request came after its start, by the agent's numbers
        // (the host's clock and this machine's may disagree, and a journey that starts as the
        // run subscribes sends its first request before this process has read the time).
        let paths = coverage.unhappyPaths.filter { $0.requestSeq > run.startSeq }
        for (index, expectation) in scenario.expectations.enumerated() {
            checks.append(Self.judge(expectation, id: "expect[\(index)]", paths: paths, startedAt: hostStartedAt, endedAt: hostNow))
        }
        self.checks = checks
        var report = doctor.examine(state, hostNow: hostNow)
        report.checks.removeAll { scenario.doctor.skip.contains($0.id) }
        self.doctor = report
        doctorFailures = report.checks.filter { scenario.doctor.fails($0.status) }
    }

    /// The failed checks, a line each (`expect[0]: …`), the doctor's as `doctor slot-busy: …`.
    public var failures: [String] {
        checks.filter { !$0.passed }.map { "\($0.id): \($0.summary)" }
            + doctorFailures.map { "doctor \($0.id.rawValue): \($0.summary)" }
    }

    // MARK: The checks

    /// Every rule fired at least once after the start: a rule that never fired tested nothing.
    static func faultsCheck(scenario: FaultScenario, ruleIds: [String], state: LiveState, after startSeq: Int) -> Check {
        var hits: [String: Int] = [:]
        for entry in state.log.reversed() {
            if entry.seq == 0 { continue }  // a marker, not a message
            if entry.seq <= startSeq { break }
            // A request and the answer a rule made are one hit: count what the rule acted on.
            if let mark = entry.fault, !(entry.direction == .sent && entry.type == .response && mark.effect == .errored) {
                hits[mark.rule, default: 0] += 1
            }
        }
        var evidence: [String] = []
        for (index, id) in ruleIds.enumerated() where hits[id, default: 0] == 0 {
            let rule = scenario.faults.indices.contains(index) ? scenario.faults[index] : nil
            evidence.append("faults[\(index)] (\(id)) \(rule?.filter ?? ""): \(rule?.summary ?? "") never fired")
        }
        let fired = ruleIds.count - evidence.count
        if evidence.isEmpty {
            let counts = ruleIds.map { "\($0) \(hits[$0, default: 0])×" }.joined(separator: ", ")
            return Check(id: "faults", passed: true, summary: "every rule fired (\(counts))")
        }
        return Check(
            id: "faults", passed: false,
            summary: "\(fired) of \(ruleIds.count) rules fired: a rule that never fires tests nothing (check its filter, and that the journey sends what it matches before the run ends)",
            evidence: Array(evidence.prefix(maxEvidence)))
    }

    /// Every step was done.
    static func stepsCheck(_ run: FaultScenarioRun) -> Check {
        var evidence: [String] = []
        var done = 0
        for (index, state) in run.steps.enumerated() {
            let what = "steps[\(index)] \(state.step.step.label) (\(state.step.momentText))"
            switch state.outcome {
            case .done: done += 1
            case .refused(let reason): evidence.append("\(what): the host refused: \(reason)")
            case .started: evidence.append("\(what): no answer from the host")
            case .waiting:
                if state.dueAt == nil {
                    evidence.append("\(what): never due: no message matched its filter before the run ended")
                } else {
                    evidence.append("\(what): not done: the run ended first")
                }
            }
        }
        let summary = "\(done) of \(run.steps.count) step\(run.steps.count == 1 ? "" : "s") done"
        return Check(id: "steps", passed: evidence.isEmpty, summary: summary, evidence: Array(evidence.prefix(maxEvidence)))
    }

    /// The journey reached `until` before the duration ran out.
    static func untilCheck(_ run: FaultScenarioRun, until: String) -> Check {
        if let seq = run.untilSeq {
            return Check(id: "until", passed: true, summary: "the journey reached \(until) (#\(seq))")
        }
        return Check(
            id: "until", passed: false,
            summary: "the journey did not reach \(until) within \(TimeFormat.duration(ms: run.scenario.durationMs)): it may hang after a fault (the log shows where it stopped)")
    }

    /// An expectation against the unhappy paths the run met.
    static func judge(_ expectation: FaultScenario.Expectation, id: String, paths: [UnhappyPath], startedAt: Double, endedAt: Double) -> Check {
        let met = paths.filter { matches(expectation, $0) }
        guard !met.isEmpty else {
            return Check(
                id: id, passed: false,
                summary: "\(expectation.sentence): never met: no \(expectation.trigger.text) answer to \(expectation.action ?? "any request") during the run (check the fault rule that should cause it)")
        }
        let window = expectation.withinMs ?? JourneyCoverage.reactionWindowMs
        var evidence: [String] = []
        var reactions: [String] = []
        for path in met {
            let what = "\(path.action) \(path.correlationId) at +\(TimeFormat.duration(ms: path.time - startedAt))"
            let watched = TimeFormat.duration(ms: max(0, endedAt - path.time))
            switch expectation.reaction {
            case .retries:
                if let after = path.retryAfterMs {
                    if after <= window {
                        reactions.append(TimeFormat.duration(ms: after))
                    } else {
                        evidence.append("\(what): retried after \(TimeFormat.duration(ms: after)), later than \(TimeFormat.duration(ms: window))")
                    }
                } else {
                    evidence.append("\(what): no retry" + (path.reaction == .gaveUp ? " (gave up)" : " in the \(watched) the run watched after it"))
                }
            case .doesNotRetry:
                if let after = path.retryAfterMs {
                    evidence.append("\(what): retried after \(TimeFormat.duration(ms: after))" + (path.recoverable ? "" : " (not recoverable)"))
                }
            case .sendsCancel:
                if let after = path.journeyCancelAfterMs, after <= window {
                    reactions.append(TimeFormat.duration(ms: after))
                } else if let after = path.journeyCancelAfterMs {
                    evidence.append("\(what): journey.cancel after \(TimeFormat.duration(ms: after)), later than \(TimeFormat.duration(ms: window))")
                } else {
                    evidence.append("\(what): no journey.cancel in the \(watched) the run watched after it")
                }
            }
        }
        let times = "\(met.count) time\(met.count == 1 ? "" : "s")"
        if evidence.isEmpty {
            let how = reactions.isEmpty ? "" : " (after \(reactions.prefix(5).joined(separator: ", "))\(reactions.count > 5 ? ", …" : ""))"
            return Check(id: id, passed: true, summary: "\(expectation.sentence): met \(times), as expected\(how)")
        }
        return Check(
            id: id, passed: false, summary: "\(expectation.sentence): met \(times), \(evidence.count) not as expected",
            evidence: Array(evidence.prefix(maxEvidence)))
    }

    /// Whether `path` is one `expectation` is about.
    static func matches(_ expectation: FaultScenario.Expectation, _ path: UnhappyPath) -> Bool {
        if let action = expectation.action, !ActionPattern.matches(action, path.action) { return false }
        switch (expectation.trigger, path.kind) {
        case (.error(let wanted), .error(let code)): return wanted.caseInsensitiveCompare(code) == .orderedSame
        case (.cancelled, .cancelled), (.unsupported, .unsupported), (.noAnswer, .journeyTimeout): return true
        default: return false
        }
    }
}
