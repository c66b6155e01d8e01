import InspectorClient

/// `bridge-inspector fault-scenario --json`: the verdict as one JSON object, for a CI job to keep
/// or query (`jq '.checks[] | select(.passed | not)'`). docs/fault-scenarios.md lists its fields;
/// ``jsonVersion`` changes when one changes meaning.
extension FaultScenarioVerdict: Encodable {
    /// The version of the JSON form.
    public static let jsonVersion = 1

    private enum Keys: String, CodingKey {
        case version, scenario, passed, failed, end, untilSeq, steps, checks, doctor, doctorFailures, coverage
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(Self.jsonVersion, forKey: .version)
        try container.encode(run.scenario.name, forKey: .scenario)
        try container.encode(passed, forKey: .passed)
        try container.encode(failedCount, forKey: .failed)
        switch run.phase {
        case .finished(.reachedUntil): try container.encode("reachedUntil", forKey: .end)
        case .finished(.durationPassed): try container.encode("durationPassed", forKey: .end)
        case .running, .settling: try container.encode("stopped", forKey: .end)
        }
        try container.encodeIfPresent(run.untilSeq, forKey: .untilSeq)
        try container.encode(run.steps.enumerated().map { EncodedStep(index: $0, state: $1) }, forKey: .steps)
        try container.encode(checks, forKey: .checks)
        try container.encode(doctor, forKey: .doctor)
        try container.encode(doctorFailures.map(\.id.rawValue), forKey: .doctorFailures)
        try container.encode(coverage, forKey: .coverage)
    }
}

private struct EncodedStep: Encodable {
    var index: Int
    var step: String
    var moment: String
    /// `done`, `refused`, `noAnswer`, `notDue` (its message never came), `notDone` (the run ended first).
    var outcome: String
    var detail: String?
    var triggerSeq: Int?

    init(index: Int, state: FaultScenarioRun.StepState) {
        self.index = index
        step = state.step.step.label
        moment = state.step.momentText
        triggerSeq = state.triggerSeq
        switch state.outcome {
        case .done(let what): outcome = "done"; detail = what
        case .refused(let reason): outcome = "refused"; detail = reason
        case .started: outcome = "noAnswer"
        case .waiting: outcome = state.dueAt == nil ? "notDue" : "notDone"
        }
    }
}
