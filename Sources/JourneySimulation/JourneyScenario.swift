import BridgeCore
import Foundation

/// What a simulated web journey does: an ordered list of steps, run once or looped.
/// Read from a JSON file strictly (unknown fields, wrong types, impossible values and labels
/// that refer to nothing are refused with the file, the place and what was expected).
///
/// ```json
/// {
///   "name": "capture-flow",
///   "loop": false,
///   "steps": [
///     {"send": {"payload": {"action": "capability.query"}, "label": "caps"}},
///     {"awaitResponse": {"label": "caps"}},
///     {"wait": 200}
///   ]
/// }
/// ```
///
/// The format is described field by field in `docs/scenarios.md`.
public struct JourneyScenario: Sendable, Hashable {
    /// The scenario's name, shown in logs.
    public var name: String
    /// A sentence about the scenario, for people reading the file (optional).
    public var description: String?
    /// Whether the steps start again from the top when they end (default `false`).
    public var loop: Bool
    /// The steps, in order.
    public var steps: [ScenarioStep]

    /// The fields allowed at the top of a scenario.
    static let fields = ["name", "description", "loop", "steps"]
    /// A looping scenario must wait at least this long per pass, so it cannot flood the host.
    public static let minimumLoopWaitMs = 100

    /// Creates a scenario.
    public init(name: String, description: String? = nil, loop: Bool = false, steps: [ScenarioStep]) {
        self.name = name
        self.description = description
        self.loop = loop
        self.steps = steps
    }

    /// Reads and validates the scenario file at `path`.
    public static func load(path: String) throws(SimulationInputError) -> JourneyScenario {
        try parse(StrictJSON.read(path: path), file: path)
    }

    /// Validates a scenario held in memory; `file` names it in error messages.
    public static func parse(_ data: Data, file: String) throws(SimulationInputError) -> JourneyScenario {
        try JourneyScenario(reading: StrictJSON.parse(data, file: file))
    }

    /// Validates a scenario given as text; `file` names it in error messages.
    public static func parse(json: String, file: String) throws(SimulationInputError) -> JourneyScenario {
        try parse(Data(json.utf8), file: file)
    }

    init(reading value: StrictValue) throws(SimulationInputError) {
        let object = try value.object("a scenario object with \"name\" and \"steps\"", allowing: Self.fields)
        name = try object.required("name", "the scenario's name").string("a non-empty scenario name")
        description = try object.optional("description")?.string("a string", allowEmpty: true)
        loop = try object.optional("loop")?.bool() ?? false
        var context = ScenarioStep.ReadingContext()
        var steps: [ScenarioStep] = []
        let list = try object.required("steps", "an array of steps").array("an array of steps", nonEmpty: true)
        for element in list {
            steps.append(try ScenarioStep(reading: element, context: &context))
        }
        self.steps = steps
        if loop, passWaitMs < Self.minimumLoopWaitMs {
            throw SimulationInputError(
                file: value.file, place: value.path.appending("loop").description,
                message: "a looping scenario must wait at least \(Self.minimumLoopWaitMs) ms per pass (its wait steps add up to \(passWaitMs) ms), or it would flood the host; add a \"wait\" step")
        }
    }

    /// The total of all `wait` steps in one pass, in milliseconds: the shortest a pass can take.
    public var passWaitMs: Int {
        steps.reduce(0) { $0 + $1.waitMs }
    }

    /// How many requests one pass sends, per action.
    public var requestsPerPass: [String: Int] {
        var counts: [String: Int] = [:]
        for step in steps { step.addRequests(to: &counts, multiplier: 1) }
        return counts
    }
}
