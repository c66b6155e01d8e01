import BridgeCore

/// One value in a document being read strictly, with its place.
struct StrictValue {
    /// The value.
    let value: JSONValue
    /// Where it sits.
    let path: JSONPath
    /// The file, for error messages.
    let file: String

    /// An error at this value's place.
    func error(_ message: String) -> SimulationInputError {
        SimulationInputError(file: file, place: path.description, message: message)
    }

    /// `expected <what>, found <what is there>`.
    func expected(_ what: String) -> SimulationInputError {
        error("expected \(what), found \(StrictJSON.describe(value))")
    }

    /// The value as an object whose fields may only be `allowed`.
    func object(_ what: String, allowing allowed: [String]) throws(SimulationInputError) -> StrictObject {
        guard case .object(let fields) = value else { throw expected(what) }
        let object = StrictObject(fields: fields, path: path, file: file)
        try object.allowOnly(allowed)
        return object
    }

    /// The value as an array of elements (each with its own place).
    func array(_ what: String, nonEmpty: Bool) throws(SimulationInputError) -> [StrictValue] {
        guard case .array(let elements) = value else { throw expected(what) }
        if nonEmpty, elements.isEmpty { throw error("expected \(what) with at least one element, found an empty array") }
        return elements.enumerated().map { StrictValue(value: $1, path: path.appending(index: $0), file: file) }
    }

    /// The value as a string; `what` describes it in messages ("a non-empty string").
    func string(_ what: String = "a non-empty string", allowEmpty: Bool = false) throws(SimulationInputError) -> String {
        guard case .string(let text) = value, allowEmpty || !text.isEmpty else { throw expected(what) }
        return text
    }

    /// The value as `true` or `false`.
    func bool() throws(SimulationInputError) -> Bool {
        guard case .bool(let flag) = value else { throw expected("true or false") }
        return flag
    }

    /// The value as a whole number in `range`; `what` names it ("a whole number of milliseconds").
    func integer(_ what: String, in range: ClosedRange<Int>) throws(SimulationInputError) -> Int {
        let full = "\(what) from \(range.lowerBound) to \(range.upperBound)"
        guard case .number(let number) = value, number.isFinite, number.rounded() == number,
            number >= Double(range.lowerBound), number <= Double(range.upperBound)
        else { throw expected(full) }
        return Int(number)
    }

    /// The value as any finite number.
    func number(_ what: String) throws(SimulationInputError) -> Double {
        guard case .number(let number) = value, number.isFinite else { throw expected(what) }
        return number
    }

    /// The value as one of the given strings.
    func choice(_ options: [String]) throws(SimulationInputError) -> String {
        let list = Self.list(options)
        guard case .string(let text) = value else { throw expected(list) }
        guard options.contains(text) else {
            var message = "expected \(list), found \(StrictJSON.describe(value))"
            if let near = StrictJSON.suggestion(for: text, among: options) { message += " (did you mean \(StrictJSON.quoted(near))?)" }
            throw error(message)
        }
        return text
    }

    /// The value as a JSON object of any content (message data).
    func dataObject() throws(SimulationInputError) -> [String: JSONValue] {
        guard case .object(let fields) = value else { throw expected("an object (the message data)") }
        return fields
    }

    /// `"a"`, `"a" or "b"`, `one of "a", "b", "c"`.
    static func list(_ options: [String]) -> String {
        let quoted = options.map(StrictJSON.quoted)
        switch quoted.count {
        case 0: return "nothing"
        case 1: return quoted[0]
        case 2: return "\(quoted[0]) or \(quoted[1])"
        default: return "one of " + quoted.joined(separator: ", ")
        }
    }
}
