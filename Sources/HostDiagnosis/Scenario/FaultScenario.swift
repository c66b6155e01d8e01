import BridgeCore
import InspectorClient
import InspectorProtocol

/// A fault scenario: the unhappy paths a web journey should survive, written down once and run
/// against a host on every commit (`bridge-inspector fault-scenario FILE`, issue 29).
///
/// It holds fault rules (what goes wrong in the host's handling, as `bridge-inspector fault`
/// sets them), lifecycle steps at chosen moments (`host.background` two seconds in, or half a
/// second after the journey asks for a capture), when the run ends (a message that says the
/// journey is done, within a time limit), and what the journey must do about it: expectations
/// on how it answers each unhappy path (it retries after `BUSY`, it does not retry an
/// `INTERNAL_ERROR`, it sends `journey.cancel` after a cancellation), judged from
/// ``JourneyCoverage``, plus the doctor's checks. A run passes when every check does.
///
/// ```json
/// {"version": 1, "name": "capture-busy",
///  "faults": [{"filter": "action:camera.document.capture",
///              "firing": {"kind": "sequence", "steps": [{"kind": "error", "code": "BUSY"}, {"kind": "pass"}]}}],
///  "steps": [{"when": "action:camera.document.capture", "after": "500ms", "do": "background"},
///            {"when": "action:camera.document.capture", "after": "1s", "do": "foreground"}],
///  "until": "action:journey.complete", "duration": "60s",
///  "expect": [{"after": "BUSY", "action": "camera.document.capture", "journey": "retries", "within": "5s"}]}
/// ```
///
/// Read one with ``read(_:)`` (every mistake named with its place); run it with
/// ``FaultScenarioRun``; judge it with ``FaultScenarioVerdict``. docs/fault-scenarios.md
/// describes the format for people.
public struct FaultScenario: Sendable, Equatable {
    /// The version of the file format this reader reads.
    public static let formatVersion = 1
    /// How long a run lasts at most when the file does not say: one minute.
    public static let defaultDurationMs = 60_000.0
    /// How long a run goes on watching after `until` matched, when the file does not say: one
    /// second, for the answers and the journey's reactions in flight.
    public static let defaultSettleMs = 1_000.0
    /// The most steps and expectations a file may hold.
    public static let maxSteps = 256

    /// The scenario's name, shown in the report.
    public var name: String
    /// Notes for the people who read the file.
    public var description: String?
    /// The fault rules set on the host for the run, tried in this order; removed at its end.
    public var faults: [WireFaultRule]
    /// The lifecycle steps, each done once, when its moment comes.
    public var steps: [Step]
    /// A filter (the language of `tail --filter`): the run ends, `settleMs` later, at the first
    /// message after its start that matches. `nil`: the run lasts `durationMs`.
    public var until: String?
    /// The longest the run lasts, in milliseconds. With `until`, reaching it first is a failure
    /// (the journey did not get to its end).
    public var durationMs: Double
    /// How long the run goes on after `until` matched, in milliseconds.
    public var settleMs: Double
    /// What the journey must do about the unhappy paths it meets.
    public var expectations: [Expectation]
    /// Which of the doctor's checks count, and at which level they fail the run.
    public var doctor: DoctorPolicy

    /// Creates a scenario; ``read(_:)`` is the usual way.
    public init(
        name: String, description: String? = nil, faults: [WireFaultRule] = [], steps: [Step] = [], until: String? = nil,
        durationMs: Double = Self.defaultDurationMs, settleMs: Double = Self.defaultSettleMs, expectations: [Expectation] = [],
        doctor: DoctorPolicy = DoctorPolicy()
    ) {
        self.name = name
        self.description = description
        self.faults = faults
        self.steps = steps
        self.until = until
        self.durationMs = durationMs
        self.settleMs = settleMs
        self.expectations = expectations
        self.doctor = doctor
    }

    /// The steps done before the fault rules are set: a `reload` at `0s`. A page that was already
    /// running could otherwise use up a rule (`times`, a `sequence`) meant for the page the run
    /// is about, in the moment between the rules being set and the reload.
    public var stepsBeforeRules: [Int] {
        steps.indices.filter { steps[$0].moment == .at(ms: 0) && steps[$0].step == .journey(.reload) }
    }

    /// One lifecycle step and its moment.
    public struct Step: Sendable, Equatable {
        /// When the step is done.
        public enum Moment: Sendable, Equatable {
            /// This many milliseconds after the run starts.
            case at(ms: Double)
            /// This many milliseconds after the first message after the run's start that matches
            /// the filter (the language of `tail --filter`).
            case after(filter: String, ms: Double)
        }

        /// When.
        public var moment: Moment
        /// What.
        public var step: LifecycleStep

        /// Creates a step.
        public init(moment: Moment, step: LifecycleStep) {
            self.moment = moment
            self.step = step
        }

        /// `at 2.0s`, `500ms after action:camera.document.capture`. The filter is the file's
        /// text: sanitize it before it reaches a terminal.
        public var momentText: String {
            switch moment {
            case .at(let ms): return "at \(TimeFormat.duration(ms: ms))"
            case .after(let filter, let ms): return "\(TimeFormat.duration(ms: ms)) after \(filter)"
            }
        }
    }

    /// What the journey must do about an unhappy path: for every one the run meets that matches
    /// ``trigger`` and ``action``, the journey reacts as ``reaction`` says. An expectation whose
    /// path the run never meets fails too: the fault did not happen, so nothing was tested.
    public struct Expectation: Sendable, Equatable {
        /// Which unhappy path.
        public enum Trigger: Sendable, Equatable {
            /// An answer with status `error` and this code (compared without case).
            case error(code: String)
            /// An answer with status `cancelled`.
            case cancelled
            /// An answer with status `unsupported`.
            case unsupported
            /// No answer within the journey's timeout (``JourneyTimeouts``).
            case noAnswer

            /// As written in a file: the code, `cancelled`, `unsupported` or `no-answer`.
            public var text: String {
                switch self {
                case .error(let code): return code
                case .cancelled: return "cancelled"
                case .unsupported: return "unsupported"
                case .noAnswer: return "no-answer"
                }
            }
        }

        /// What the journey must do.
        public enum Reaction: String, Sendable, Equatable, CaseIterable {
            /// It asks for the same action again (within ``withinMs``).
            case retries
            /// It does not ask for the same action again while the run watches (up to 30 s after).
            case doesNotRetry
            /// It sends `journey.cancel` (within ``withinMs``): what a journey does after a
            /// cancellation.
            case sendsCancel

            /// In a sentence: `retries`, `does not retry`, `sends journey.cancel`.
            public var sentence: String {
                switch self {
                case .retries: return "retries"
                case .doesNotRetry: return "does not retry"
                case .sendsCancel: return "sends journey.cancel"
                }
            }
        }

        /// The unhappy path.
        public var trigger: Trigger
        /// The request's action, exact or with `*` (``FilterLanguage/ActionPattern``); `nil`: any.
        public var action: String?
        /// What the journey must do.
        public var reaction: Reaction
        /// For ``Reaction/retries`` and ``Reaction/sendsCancel``: at most this long after the path,
        /// in milliseconds; `nil`: within the coverage's window (30 s, the web SDK's timeout).
        public var withinMs: Double?

        /// Creates an expectation.
        public init(trigger: Trigger, action: String? = nil, reaction: Reaction, withinMs: Double? = nil) {
            self.trigger = trigger
            self.action = action
            self.reaction = reaction
            self.withinMs = withinMs
        }

        /// `after BUSY on camera.document.capture the journey retries within 5.0s`. The action
        /// is the file's text: sanitize it before it reaches a terminal.
        public var sentence: String {
            var text = "after \(trigger.text)"
            if let action { text += " on \(action)" }
            text += " the journey \(reaction.sentence)"
            if let withinMs, reaction != .doesNotRetry { text += " within \(TimeFormat.duration(ms: withinMs))" }
            return text
        }
    }

    /// Which of the doctor's checks count for the run.
    public struct DoctorPolicy: Sendable, Equatable {
        /// The level at which a check fails the run.
        public enum FailLevel: String, Sendable, Equatable, CaseIterable {
            /// Only failures fail the run (the doctor's own exit status).
            case failure
            /// Warnings fail it too.
            case warning
            /// The doctor's checks do not count (they are still reported).
            case never
        }

        /// The level at which a check fails the run.
        public var failOn: FailLevel
        /// Checks left out of the run's verdict (and its report).
        public var skip: Set<DoctorCheckID>

        /// Every check counts; failures fail the run.
        public init(failOn: FailLevel = .failure, skip: Set<DoctorCheckID> = []) {
            self.failOn = failOn
            self.skip = skip
        }

        /// Whether a check of `status` fails the run.
        public func fails(_ status: DoctorStatus) -> Bool {
            switch failOn {
            case .failure: return status == .failure
            case .warning: return status == .failure || status == .warning
            case .never: return false
            }
        }
    }
}
