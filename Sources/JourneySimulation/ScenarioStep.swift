import BridgeCore
import Foundation

/// One step of a ``JourneyScenario``. In JSON each step is an object with exactly one key, the
/// step's kind:
///
/// ```json
/// {"send": {"payload": {"action": "capability.query"}, "label": "caps"}}
/// {"awaitResponse": {"label": "caps", "timeoutMs": 5000}}
/// {"sendRaw": "{\"version\": \"1.0\", \"type\": \"request\""}
/// {"wait": 500}
/// {"event": {"name": "journey.step", "data": {"step": "document"}}}
/// {"repeat": {"times": 3, "steps": [{"wait": 100}]}}
/// {"detach": true}
/// ```
public enum ScenarioStep: Sendable, Hashable {
    /// Sends a message to the host.
    case send(ScenarioMessage)
    /// Sends this exact text to the host, valid or not (to produce malformed input on purpose).
    case sendRaw(String)
    /// Pauses for this many milliseconds.
    case wait(milliseconds: Int)
    /// Pauses until the response to the most recent request sent with `label` arrives, the
    /// request times out, or `timeoutMs` passes (from the start of this step), whichever is first.
    case awaitResponse(label: String, timeoutMs: Int)
    /// Sends a journey event (fire-and-forget), such as `journey.step` or `journey.cancel`.
    case event(name: String, data: [String: JSONValue]?)
    /// Runs `steps` `times` times.
    case `repeat`(times: Int, steps: [ScenarioStep])
    /// Makes the host forget the journey's WebView (``BridgeHost/detach()``), as a host that
    /// lost or never set its WebView reference: the journey still posts messages to the host,
    /// but everything the host sends from then on fails with `WebView not attached` and is lost.
    /// In JSON the value is `true`.
    case detach

    /// The step kinds, as they appear in JSON.
    public static let kinds = ["send", "sendRaw", "wait", "awaitResponse", "event", "repeat", "detach"]
    /// The longest wait accepted, one hour.
    static let maximumWaitMs = 3_600_000
    /// The most repetitions accepted.
    static let maximumRepeat = 1_000_000

    /// What reading a scenario has learnt so far: the labels defined by earlier `send` steps.
    struct ReadingContext {
        struct Label {
            var place: String
            var type: MessageType
            var action: String
            var timeoutMs: Int
        }
        var labels: [String: Label] = [:]
    }

    /// Reads one step strictly.
    init(reading value: StrictValue, context: inout ReadingContext) throws(SimulationInputError) {
        let expectation = "a step object with exactly one of " + Self.kinds.map(StrictJSON.quoted).joined(separator: ", ")
        guard case .object(let fields) = value.value else { throw value.expected(expectation) }
        let object = StrictObject(fields: fields, path: value.path, file: value.file)
        if fields.isEmpty { throw value.error("expected \(expectation), found an empty object") }
        try object.allowOnly(Self.kinds, noun: "step kind")
        if fields.count > 1 {
            let found = Self.kinds.filter { fields[$0] != nil }.map(StrictJSON.quoted)
            throw value.error(
                "a step has exactly one kind, found \(found.joined(separator: " and ")); split them into separate steps")
        }
        let kind = fields.keys.first!
        let body = StrictValue(value: fields[kind]!, path: value.path.appending(kind), file: value.file)
        switch kind {
        case "send":
            let message = try ScenarioMessage(reading: body)
            if let label = message.label {
                let labelPlace = body.path.appending("label").description
                if let earlier = context.labels[label] {
                    throw SimulationInputError(
                        file: body.file, place: labelPlace,
                        message: "label \(StrictJSON.quoted(label)) is already used at \(earlier.place); give every labelled send its own label")
                }
                context.labels[label] = .init(
                    place: labelPlace, type: message.type, action: message.action, timeoutMs: message.effectiveTimeoutMs)
            }
            self = .send(message)
        case "sendRaw":
            switch body.value {
            case .string(let text):
                self = .sendRaw(text)
            default:
                // Any other JSON value is sent as its compact JSON text, so a broken message can
                // be written without escaping it into a string.
                guard let data = try? JSONEncoding.encode(body.value) else {
                    throw body.expected("a string (sent exactly as written) or any JSON value")
                }
                self = .sendRaw(String(decoding: data, as: UTF8.self))
            }
        case "wait":
            self = .wait(milliseconds: try body.integer("a whole number of milliseconds", in: 0...Self.maximumWaitMs))
        case "awaitResponse":
            let block = try body.object("an object with \"label\" and optional \"timeoutMs\"", allowing: ["label", "timeoutMs"])
            let labelValue = try block.required("label", "the label of an earlier send step")
            let label = try labelValue.string("the label of an earlier send step")
            guard let known = context.labels[label] else {
                let defined = context.labels.keys.sorted().map(StrictJSON.quoted)
                var message = "expected the label of an earlier send step, found \(StrictJSON.quoted(label))"
                if let near = StrictJSON.suggestion(for: label, among: Array(context.labels.keys)) {
                    message += " (did you mean \(StrictJSON.quoted(near))?)"
                }
                message += defined.isEmpty ? "; no send step before this one has a label" : "; labels defined so far: " + defined.joined(separator: ", ")
                throw labelValue.error(message)
            }
            guard known.type == .request else {
                throw labelValue.error(
                    "expected the label of a request, but \(StrictJSON.quoted(label)) (at \(known.place)) labels a \(StrictJSON.quoted(known.type.rawValue)), which gets no response")
            }
            let timeout = try block.optional("timeoutMs")?.integer(
                "a whole number of milliseconds", in: 1...ScenarioMessage.maximumTimeoutMs)
            self = .awaitResponse(label: label, timeoutMs: timeout ?? known.timeoutMs)
        case "event":
            let event = try body.object("an object with \"name\" and optional \"data\"", allowing: ["name", "data"])
            let name = try event.required("name", "the event name, such as \"journey.step\"").string(
                "a non-empty event name such as \"journey.step\"")
            self = .event(name: name, data: try event.optional("data")?.dataObject())
        case "detach":
            guard case .bool(true) = body.value else {
                throw body.expected("true (the host forgets the journey's WebView; nothing it sends is delivered after this step)")
            }
            self = .detach
        default:  // "repeat"
            let block = try body.object("an object with \"times\" and \"steps\"", allowing: ["times", "steps"])
            let times = try block.required("times", "how many times to run the steps").integer(
                "a whole number of repetitions", in: 1...Self.maximumRepeat)
            var steps: [ScenarioStep] = []
            for element in try block.required("steps", "the steps to repeat").array("an array of steps", nonEmpty: true) {
                steps.append(try ScenarioStep(reading: element, context: &context))
            }
            self = .repeat(times: times, steps: steps)
        }
    }

    /// The total of the step's `wait`s in milliseconds, counting repetitions.
    var waitMs: Int {
        switch self {
        case .wait(let milliseconds): return milliseconds
        case .repeat(let times, let steps): return times.multipliedReportingOverflow(by: steps.reduce(0) { $0 + $1.waitMs }).partialValue
        default: return 0
        }
    }

    /// How many requests the step sends, per action, counting repetitions.
    func addRequests(to counts: inout [String: Int], multiplier: Int) {
        switch self {
        case .send(let message) where message.type == .request:
            counts[message.action, default: 0] += multiplier
        case .repeat(let times, let steps):
            for step in steps { step.addRequests(to: &counts, multiplier: multiplier * times) }
        default:
            break
        }
    }
}
