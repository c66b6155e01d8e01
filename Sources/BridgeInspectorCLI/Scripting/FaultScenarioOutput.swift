import BridgeCore
import HostDiagnosis
import InspectorClient
import InspectorProtocol

/// What `fault-scenario` prints on standard error while the run goes: the scenario, each rule
/// set, each message a rule changed, each step done, `until` reached. Times are from the run's
/// start (`+2.0s`). Every untrusted part is made safe for a terminal.
struct FaultScenarioProgress {
    /// Print nothing (`--quiet`, `--json`).
    var quiet: Bool

    func header(_ scenario: FaultScenario, host: WireHostInfo) {
        var parts: [String] = []
        if !scenario.faults.isEmpty { parts.append(Self.count(scenario.faults.count, "fault rule")) }
        if !scenario.steps.isEmpty { parts.append(Self.count(scenario.steps.count, "step")) }
        if !scenario.expectations.isEmpty { parts.append(Self.count(scenario.expectations.count, "expectation")) }
        let ending = scenario.until.map { "until \($0) within \(TimeFormat.duration(ms: scenario.durationMs))" }
            ?? "for \(TimeFormat.duration(ms: scenario.durationMs))"
        say("fault scenario \(scenario.name) on \(host.name) (pid \(host.pid)): \(parts.joined(separator: ", ")); \(ending)")
    }

    func ruleSet(id: String, rule: WireFaultRule) {
        say("rule \(id): \(rule.filter): \(rule.summary)")
    }

    func faulted(_ record: WireTraffic, mark: FaultMark, since start: Double, at now: Double) {
        guard !quiet else { return }
        StandardStreams.printError("\(Self.offset(now - start))  " + FaultCommand.line(record, mark: mark))
    }

    func step(_ index: Int, _ step: FaultScenario.Step, _ result: FaultScenarioRun.StepOutcome, since start: Double, at now: Double) {
        let outcome: String
        switch result {
        case .done(let what): outcome = what
        case .refused(let reason): outcome = "refused: \(reason)"
        case .started, .waiting: outcome = "no answer"
        }
        say("\(Self.offset(now - start))  step \(index) \(step.step.label) (\(step.momentText)): \(outcome)")
    }

    func reachedUntil(_ scenario: FaultScenario, seq: Int, since start: Double, at now: Double) {
        say("\(Self.offset(now - start))  reached \(scenario.until ?? "") (#\(seq)); watching \(TimeFormat.duration(ms: scenario.settleMs)) more")
    }

    /// One line, the whole of it made safe (it holds the file's and the host's text).
    private func say(_ line: String) {
        guard !quiet else { return }
        StandardStreams.printError(ScriptOutput.safe(line))
    }

    static func offset(_ ms: Double) -> String { "+" + TimeFormat.duration(ms: ms) }

    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}

/// The report `fault-scenario` prints at the end: the scenario's checks (each with its evidence
/// when it failed), the doctor's tally and the checks worth a look, and the verdict.
struct FaultScenarioReport {
    var verdict: FaultScenarioVerdict

    /// The report's lines; with `onlyFailures`, only the failed checks (nothing when it passed).
    func lines(onlyFailures: Bool) -> [String] {
        var lines: [String] = []
        for check in verdict.checks where !onlyFailures || !check.passed {
            lines.append("\(check.passed ? "✓" : "✗") \(check.id): \(ScriptOutput.safe(check.summary))")
            if !check.passed { lines += check.evidence.map { "    · \(ScriptOutput.safe($0))" } }
        }
        let policy = verdict.run.scenario.doctor
        if !onlyFailures {
            let counted = policy.failOn == .never ? " (not counted)" : policy.failOn == .warning ? " (warnings fail the run)" : ""
            lines.append("doctor: \(verdict.doctor.tally)\(counted)")
        }
        for check in verdict.doctor.checksInReadingOrder where policy.failOn != .never && (check.status == .failure || check.status == .warning) {
            let fails = policy.fails(check.status)
            guard !onlyFailures || fails else { continue }
            lines.append("\(check.status.symbol) doctor \(check.id.rawValue): \(ScriptOutput.safe(check.summary))\(fails ? "" : " (does not fail the run)")")
            if fails { lines += check.evidence.prefix(FaultScenarioVerdict.maxEvidence).map { "    · \(ScriptOutput.safe($0.text))" } }
        }
        if !onlyFailures {
            let name = ScriptOutput.safe(verdict.run.scenario.name)
            lines.append(
                verdict.passed
                    ? "fault scenario \(name) passed: \(FaultScenarioProgress.count(verdict.judgedCount, "check"))"
                    : "fault scenario \(name) FAILED: \(verdict.failedCount) of \(verdict.judgedCount) checks")
        }
        return lines
    }
}
