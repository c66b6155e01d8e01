import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol

extension FaultScenario {
    /// The fields a scenario file may hold, in the order docs/fault-scenarios.md lists them.
    public static let fields = ["version", "name", "description", "faults", "steps", "until", "duration", "settle", "expect", "doctor"]
    /// The fields of a step.
    public static let stepFields = ["at", "when", "after", "do", "value"]
    /// The fields of an expectation.
    public static let expectationFields = ["after", "action", "journey", "within"]
    /// The fields of `doctor`.
    public static let doctorFields = ["failOn", "skip"]

    /// Reads the scenario file at `path` (`~` expanded).
    public static func read(file path: String) throws(FaultScenarioError) -> FaultScenario {
        try read(RulesFile.contents(of: path))
    }

    /// Reads a scenario strictly: a field this version does not know, a value of the wrong type,
    /// a filter that does not parse, a fault rule the agent would refuse or a duration out of
    /// range is refused with its place (`steps[2].do`, `line 4, column 9`) and what would be right,
    /// before anything reaches a host.
    public static func read(_ data: Data) throws(FaultScenarioError) -> FaultScenario {
        try ScenarioReader.scenario(RulesFile.decode(JSONValue.self, from: data))
    }
}

/// What is wrong with a fault scenario file, and where: a rules file's error (the fault rules
/// and reply rules files' reader reads scenarios too). Its text comes from the file: sanitize it
/// before it reaches a terminal.
public typealias FaultScenarioError = RulesFileError

/// The strict reading of a scenario's JSON value, field by field.
private enum ScenarioReader {
    typealias Fields = [String: JSONValue]

    static func scenario(_ root: JSONValue) throws(FaultScenarioError) -> FaultScenario {
        let top = try object(root, at: "(top level)", allowing: FaultScenario.fields)
        if let version = top["version"] {
            guard let number = version.numberValue, number == number.rounded(), number >= 1 else {
                throw FaultScenarioError(place: "version", reason: "expected a whole number (\(FaultScenario.formatVersion))")
            }
            if number > Double(FaultScenario.formatVersion) {
                throw FaultScenarioError(
                    place: "version",
                    reason: "fault scenario format version \(Int(number)) is newer than this bridge-inspector reads (\(FaultScenario.formatVersion)); update bridge-inspector")
            }
        }
        guard let nameValue = top["name"] else { throw FaultScenarioError(place: "name", reason: "missing: give the scenario a name, shown in its report") }
        let name = try text(nameValue, at: "name")
        let description = try top["description"].map { value throws(FaultScenarioError) in try text(value, at: "description") }
        let faults = try rules(top["faults"])
        let steps = try array(top["steps"], at: "steps").enumerated().map { index, value throws(FaultScenarioError) in
            try step(value, at: "steps[\(index)]")
        }
        if faults.isEmpty, steps.isEmpty {
            throw FaultScenarioError(place: "(top level)", reason: "no faults and no steps: add a fault rule to \"faults\" or a lifecycle step to \"steps\"")
        }
        let until = try top["until"].map { value throws(FaultScenarioError) in try logFilter(value, at: "until") }
        let duration = try top["duration"].map { value throws(FaultScenarioError) in try milliseconds(value, at: "duration", allowZero: false) }
        let settle = try top["settle"].map { value throws(FaultScenarioError) in try milliseconds(value, at: "settle", allowZero: true) }
        if settle != nil, until == nil {
            throw FaultScenarioError(place: "settle", reason: "settle is how long the run goes on after \"until\" matched; give \"until\" or leave settle out")
        }
        let expectations = try array(top["expect"], at: "expect").enumerated().map { index, value throws(FaultScenarioError) in
            try expectation(value, at: "expect[\(index)]")
        }
        let doctor = try top["doctor"].map { value throws(FaultScenarioError) in try doctorPolicy(value) } ?? .init()
        return FaultScenario(
            name: name, description: description, faults: faults, steps: steps, until: until,
            durationMs: duration ?? FaultScenario.defaultDurationMs, settleMs: settle ?? FaultScenario.defaultSettleMs,
            expectations: expectations, doctor: doctor)
    }

    /// The fault rules, read as `bridge-inspector fault --file` reads them.
    static func rules(_ value: JSONValue?) throws(FaultScenarioError) -> [WireFaultRule] {
        guard let value else { return [] }
        let rules: [WireFaultRule]
        do throws(JSONDecoding.Failure) {
            rules = try JSONDecoding.decode([WireFaultRule].self, from: value)
        } catch {
            if case .wrongContent(let problem) = error {
                throw FaultScenarioError(place: "faults" + (problem.path.hasPrefix("[") ? "" : ".") + problem.path, reason: problem.reason)
            }
            throw FaultScenarioError(place: "faults", reason: error.description)
        }
        try FaultRuleFile.check(rules)
        if rules.count > FaultScenario.maxSteps { throw FaultScenarioError(place: "faults", reason: "more than \(FaultScenario.maxSteps) rules") }
        return rules
    }

    static func step(_ value: JSONValue, at place: String) throws(FaultScenarioError) -> FaultScenario.Step {
        let fields = try object(value, at: place, allowing: FaultScenario.stepFields)
        let moment: FaultScenario.Step.Moment
        switch (fields["at"], fields["when"]) {
        case (let at?, nil):
            if fields["after"] != nil {
                throw FaultScenarioError(place: "\(place).after", reason: "\"after\" goes with \"when\" (so long after a message); with \"at\", put the whole time in \"at\"")
            }
            moment = .at(ms: try milliseconds(at, at: "\(place).at", allowZero: true))
        case (nil, let when?):
            let filter = try logFilter(when, at: "\(place).when")
            let after = try fields["after"].map { value throws(FaultScenarioError) in try milliseconds(value, at: "\(place).after", allowZero: true) }
            moment = .after(filter: filter, ms: after ?? 0)
        case (.some, .some):
            throw FaultScenarioError(place: place, reason: "give \"at\" (a time from the start) or \"when\" (a filter), not both")
        case (nil, nil):
            throw FaultScenarioError(place: place, reason: "say when: \"at\": \"2s\" (from the start) or \"when\": \"action:camera.*\" (after a message)")
        }
        guard let doValue = fields["do"] else {
            throw FaultScenarioError(place: "\(place).do", reason: "missing: the step, one of \(LifecycleStep.names.joined(separator: ", "))")
        }
        let name = try text(doValue, at: "\(place).do")
        let stepValue = try fields["value"].map { value throws(FaultScenarioError) in try text(value, at: "\(place).value") }
        switch LifecycleStep.parse(name, value: stepValue) {
        case .success(let step): return FaultScenario.Step(moment: moment, step: step)
        case .failure(let error): throw FaultScenarioError(place: "\(place).do", reason: error.description)
        }
    }

    static func expectation(_ value: JSONValue, at place: String) throws(FaultScenarioError) -> FaultScenario.Expectation {
        let fields = try object(value, at: place, allowing: FaultScenario.expectationFields)
        guard let afterValue = fields["after"] else {
            throw FaultScenarioError(place: "\(place).after", reason: "missing: the unhappy path, an error code (BUSY), cancelled, unsupported or no-answer")
        }
        let afterText = try text(afterValue, at: "\(place).after")
        let trigger: FaultScenario.Expectation.Trigger
        switch afterText {
        case "cancelled": trigger = .cancelled
        case "unsupported": trigger = .unsupported
        case "no-answer": trigger = .noAnswer
        default:
            guard afterText.uppercased() == afterText, !afterText.contains(" ") else {
                throw FaultScenarioError(
                    place: "\(place).after",
                    reason: "'\(afterText)' is not an unhappy path; write an error code in capitals (BUSY, TIMEOUT, …), cancelled, unsupported or no-answer (no answer within the journey's timeout)")
            }
            trigger = .error(code: afterText)
        }
        let action = try fields["action"].map { value throws(FaultScenarioError) in try text(value, at: "\(place).action") }
        guard let journeyValue = fields["journey"] else {
            throw FaultScenarioError(place: "\(place).journey", reason: "missing: what the journey must do, one of \(reactionNames)")
        }
        let journeyText = try text(journeyValue, at: "\(place).journey")
        guard let reaction = FaultScenario.Expectation.Reaction(rawValue: journeyText) else {
            throw FaultScenarioError(place: "\(place).journey", reason: "'\(journeyText)' is not a reaction; use one of \(reactionNames)")
        }
        let within = try fields["within"].map { value throws(FaultScenarioError) in try milliseconds(value, at: "\(place).within", allowZero: false) }
        if within != nil, reaction == .doesNotRetry {
            throw FaultScenarioError(place: "\(place).within", reason: "doesNotRetry watches the whole run; \"within\" goes with retries or sendsCancel")
        }
        if let within, within > JourneyCoverage.reactionWindowMs {
            throw FaultScenarioError(
                place: "\(place).within",
                reason: "at most \(TimeFormat.duration(ms: JourneyCoverage.reactionWindowMs)): a request after the web SDK's timeout is a new one, not a retry")
        }
        if reaction == .sendsCancel, trigger != .cancelled, trigger != .error(code: BridgeErrorCode.cancelled.rawValue) {
            throw FaultScenarioError(place: "\(place).journey", reason: "sendsCancel is the journey's answer to a cancellation: use it with \"after\": \"cancelled\" or \"CANCELLED\"")
        }
        return FaultScenario.Expectation(trigger: trigger, action: action, reaction: reaction, withinMs: within)
    }

    static var reactionNames: String { FaultScenario.Expectation.Reaction.allCases.map(\.rawValue).joined(separator: ", ") }

    static func doctorPolicy(_ value: JSONValue) throws(FaultScenarioError) -> FaultScenario.DoctorPolicy {
        let fields = try object(value, at: "doctor", allowing: FaultScenario.doctorFields)
        var policy = FaultScenario.DoctorPolicy()
        if let failOn = fields["failOn"] {
            let textValue = try text(failOn, at: "doctor.failOn")
            guard let level = FaultScenario.DoctorPolicy.FailLevel(rawValue: textValue) else {
                throw FaultScenarioError(
                    place: "doctor.failOn",
                    reason: "'\(textValue)' is not a level; use \(FaultScenario.DoctorPolicy.FailLevel.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            policy.failOn = level
        }
        for (index, item) in try array(fields["skip"], at: "doctor.skip").enumerated() {
            let id = try text(item, at: "doctor.skip[\(index)]")
            guard let check = DoctorCheckID(rawValue: id) else {
                let near = ActionSuggestion.closest(to: id, among: DoctorCheckID.allCases.map(\.rawValue))
                throw FaultScenarioError(
                    place: "doctor.skip[\(index)]",
                    reason: "no check is called '\(id)'" + (near.map { " (did you mean '\($0)'?)" } ?? "")
                        + "; the checks are \(DoctorCheckID.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            policy.skip.insert(check)
        }
        return policy
    }

    // MARK: Values

    static func object(_ value: JSONValue, at place: String, allowing allowed: [String]) throws(FaultScenarioError) -> Fields {
        guard let fields = value.objectValue else { throw FaultScenarioError(place: place, reason: "expected an object, found \(kind(value))") }
        for key in fields.keys.sorted() where !allowed.contains(key) {
            let near = ActionSuggestion.closest(to: key, among: allowed)
            let inner = place == "(top level)" ? key : "\(place).\(key)"
            throw FaultScenarioError(
                place: inner,
                reason: "unknown field \"\(key)\"" + (near.map { " (did you mean \"\($0)\"?)" } ?? "") + "; expected one of "
                    + allowed.map { "\"\($0)\"" }.joined(separator: ", "))
        }
        return fields
    }

    static func array(_ value: JSONValue?, at place: String) throws(FaultScenarioError) -> [JSONValue] {
        guard let value else { return [] }
        guard case .array(let items) = value else { throw FaultScenarioError(place: place, reason: "expected an array, found \(kind(value))") }
        if items.count > FaultScenario.maxSteps { throw FaultScenarioError(place: place, reason: "more than \(FaultScenario.maxSteps) items") }
        return items
    }

    static func text(_ value: JSONValue, at place: String) throws(FaultScenarioError) -> String {
        guard let string = value.stringValue, !string.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw FaultScenarioError(place: place, reason: "expected a non-empty string, found \(kind(value))")
        }
        return string
    }

    /// A duration: `"2s"`, `"500ms"`, `"1.5s"`, or a number of milliseconds.
    static func milliseconds(_ value: JSONValue, at place: String, allowZero: Bool) throws(FaultScenarioError) -> Double {
        let written: String
        switch value {
        case .string(let text): written = text
        case .number(let number): written = number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
        default: throw FaultScenarioError(place: place, reason: "expected a duration such as \"2s\" or \"500ms\", found \(kind(value))")
        }
        let ms: Int
        do throws(FaultRuleSyntaxError) {
            ms = try FaultRuleSyntax.milliseconds(written)
        } catch {
            throw FaultScenarioError(place: place, reason: error.description)
        }
        if ms == 0, !allowZero { throw FaultScenarioError(place: place, reason: "must be longer than 0") }
        return Double(ms)
    }

    /// A filter in the language of `tail --filter`, checked.
    static func logFilter(_ value: JSONValue, at place: String) throws(FaultScenarioError) -> String {
        let filter = try text(value, at: place)
        do throws(LogFilter.ParseError) {
            _ = try LogFilter.parse(filter)
        } catch {
            throw FaultScenarioError(place: place, reason: error.description)
        }
        return filter
    }

    static func kind(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): return "the string \"\(text.count > 40 ? String(text.prefix(40)) + "…" : text)\""
        case .number(let number): return "the number \(number)"
        case .bool(let flag): return "\(flag)"
        case .object: return "an object"
        case .array: return "an array"
        case .null: return "null"
        }
    }
}
