import InspectorClient

/// A fault scenario's run as a value: which lifecycle steps are due, when the run ends, and what
/// happened, driven by the inspector's state and a time the caller gives (milliseconds on the
/// caller's clock, never read here), so tests move the clock by hand.
///
/// The caller (`bridge-inspector fault-scenario`) starts it once the rules are set and the
/// session holds its first snapshot, then, in a loop: hands it the state after each frame
/// (``observe(_:at:)``), does the steps ``takeDueSteps(at:)`` returns and reports each outcome
/// (``record(_:forStep:)``), sleeps at most ``nextWakeMs(at:)``, and stops when ``advance(at:)``
/// says ``Phase/finished(_:)``.
///
/// ```swift
/// var run = try FaultScenarioRun(scenario, startedAt: now, startSeq: snapshot.seq)
/// run.observe(state, at: now)
/// for index in run.takeDueSteps(at: now) { run.record(.done("sent host.background"), forStep: index) }
/// if case .finished = run.advance(at: now) { /* judge it */ }
/// ```
public struct FaultScenarioRun: Sendable {
    /// Where the run is.
    public enum Phase: Sendable, Equatable {
        /// Steps are done as they fall due; waiting for `until` or the end of the duration.
        case running
        /// `until` matched; the run goes on watching until this time.
        case settling(untilMs: Double)
        /// Over.
        case finished(End)
    }

    /// How the run ended.
    public enum End: Sendable, Equatable {
        /// `until` matched the message with this sequence number, and the settle time passed.
        case reachedUntil(seq: Int)
        /// The duration passed (without `until` matching, when it was given).
        case durationPassed
    }

    /// What became of a step.
    public enum StepOutcome: Sendable, Equatable {
        /// Not done yet: its time has not come (or its message has not arrived).
        case waiting
        /// Due and handed to the caller, which has not said how it went.
        case started
        /// Done; what was done, in words for the report.
        case done(String)
        /// The host refused it, with its reason.
        case refused(String)
    }

    /// One step's state.
    public struct StepState: Sendable, Equatable {
        /// The step.
        public var step: FaultScenario.Step
        /// When it falls due (caller's clock), once known: at the start for ``FaultScenario/Step/Moment/at(ms:)``,
        /// when its message arrives for ``FaultScenario/Step/Moment/after(filter:ms:)``.
        public var dueAt: Double?
        /// The message that set it off, for a step after a message.
        public var triggerSeq: Int?
        /// When it was handed to the caller.
        public var startedAt: Double?
        /// How it went.
        public var outcome: StepOutcome = .waiting
    }

    /// The scenario.
    public let scenario: FaultScenario
    /// When the run started, on the caller's clock.
    public let startedAt: Double
    /// The last sequence number before the run: only later messages set off steps and `until`.
    public let startSeq: Int
    /// The steps, in the file's order.
    public private(set) var steps: [StepState]
    /// Where the run is.
    public private(set) var phase: Phase = .running
    /// The message `until` matched, once it has.
    public private(set) var untilSeq: Int?

    private let triggers: [LogFilter?]
    private let until: LogFilter?
    private var lastSeen: Int

    /// Starts a run at `startedAt` after the message numbered `startSeq`. Throws when a filter of
    /// the scenario does not parse (``FaultScenario/read(_:)`` has checked them already).
    public init(_ scenario: FaultScenario, startedAt: Double, startSeq: Int) throws(FaultScenarioError) {
        self.scenario = scenario
        self.startedAt = startedAt
        self.startSeq = startSeq
        lastSeen = startSeq
        var triggers: [LogFilter?] = []
        var steps: [StepState] = []
        for (index, step) in scenario.steps.enumerated() {
            var state = StepState(step: step)
            switch step.moment {
            case .at(let ms):
                state.dueAt = startedAt + ms
                triggers.append(nil)
            case .after(let filter, _):
                triggers.append(try Self.parse(filter, at: "steps[\(index)].when"))
            }
            steps.append(state)
        }
        self.steps = steps
        self.triggers = triggers
        until = try scenario.until.map { filter throws(FaultScenarioError) in try Self.parse(filter, at: "until") }
    }

    private static func parse(_ filter: String, at place: String) throws(FaultScenarioError) -> LogFilter {
        do throws(LogFilter.ParseError) {
            return try LogFilter.parse(filter)
        } catch {
            throw FaultScenarioError(place: place, reason: error.description)
        }
    }

    /// The time the duration runs out.
    public var deadline: Double { startedAt + scenario.durationMs }

    /// Looks at the messages of `state` that arrived since the last look (those after the run's
    /// start): the first that matches a step's `when` sets that step's time (while the settle
    /// time runs too), the first that matches `until` starts the settle time.
    public mutating func observe(_ state: LiveState, at now: Double) {
        if case .finished = phase { return }
        guard let newest = state.log.last?.seq, newest > lastSeen else { return }
        var fresh: [LogEntry] = []
        for entry in state.log.reversed() {
            if entry.seq == 0 { continue }  // a marker (a reconnection), not a message
            if entry.seq <= lastSeen { break }
            fresh.append(entry)
        }
        lastSeen = newest
        let pending = Set(state.pending.map(\.correlationId))
        for entry in fresh.reversed() {
            for index in steps.indices where steps[index].dueAt == nil {
                guard let trigger = triggers[index], trigger.matches(entry, pending: pending),
                    case .after(_, let ms) = steps[index].step.moment
                else { continue }
                steps[index].dueAt = now + ms
                steps[index].triggerSeq = entry.seq
            }
            if let until, untilSeq == nil, until.matches(entry, pending: pending) {
                untilSeq = entry.seq
                phase = .settling(untilMs: now + scenario.settleMs)
            }
        }
    }

    /// The steps due at `now` that have not been handed out, in the file's order; each is marked
    /// started. None once the run is over.
    public mutating func takeDueSteps(at now: Double) -> [Int] {
        if case .finished = phase { return [] }
        var due: [Int] = []
        for index in steps.indices where steps[index].outcome == .waiting {
            guard let dueAt = steps[index].dueAt, dueAt <= now else { continue }
            steps[index].outcome = .started
            steps[index].startedAt = now
            due.append(index)
        }
        return due
    }

    /// Records how a step went.
    public mutating func record(_ outcome: StepOutcome, forStep index: Int) {
        guard steps.indices.contains(index) else { return }
        steps[index].outcome = outcome
    }

    /// Moves the run on to `now`: it finishes when the settle time or the duration has passed.
    @discardableResult
    public mutating func advance(at now: Double) -> Phase {
        switch phase {
        case .running:
            if now >= deadline { phase = .finished(.durationPassed) }
        case .settling(let untilMs):
            if now >= untilMs || now >= deadline + scenario.settleMs { phase = .finished(.reachedUntil(seq: untilSeq ?? startSeq)) }
        case .finished:
            break
        }
        return phase
    }

    /// How long the caller may wait before something falls due (a step, the settle time's or the
    /// duration's end), in milliseconds; 0 when something is due now.
    public func nextWakeMs(at now: Double) -> Double {
        var next: Double
        switch phase {
        case .running: next = deadline
        case .settling(let untilMs): next = untilMs
        case .finished: return 0
        }
        for step in steps where step.outcome == .waiting {
            if let dueAt = step.dueAt { next = min(next, dueAt) }
        }
        return max(0, next - now)
    }
}
