import BridgeCore

/// An object in a document being read strictly: its fields, its place and the allowed keys.
struct StrictObject {
    /// The object's fields.
    let fields: [String: JSONValue]
    /// Where the object sits.
    let path: JSONPath
    /// The file, for error messages.
    let file: String

    /// Refuses the first unknown field (in sorted order), suggesting the nearest allowed one;
    /// `noun` names what the keys are ("field", "slot", "step kind").
    func allowOnly(_ allowed: [String], noun: String = "field") throws(SimulationInputError) {
        for key in fields.keys.sorted() where !allowed.contains(key) {
            var message = "unknown \(noun) \(StrictJSON.quoted(key))"
            if let near = StrictJSON.suggestion(for: key, among: allowed) { message += " (did you mean \(StrictJSON.quoted(near))?)" }
            message += "; expected " + StrictValue.list(allowed)
            throw SimulationInputError(file: file, place: path.appending(key).description, message: message)
        }
    }

    /// Whether the field is present.
    func has(_ key: String) -> Bool { fields[key] != nil }

    /// The field `key`, or a `missing required field` error that says what it should hold.
    func required(_ key: String, _ what: String) throws(SimulationInputError) -> StrictValue {
        guard let value = fields[key] else {
            throw SimulationInputError(
                file: file, place: path.description, message: "missing required field \(StrictJSON.quoted(key)) (\(what))")
        }
        return StrictValue(value: value, path: path.appending(key), file: file)
    }

    /// The field `key`, or `nil` when it is absent. `null` is not absence: omit a field to get its default.
    func optional(_ key: String) -> StrictValue? {
        fields[key].map { StrictValue(value: $0, path: path.appending(key), file: file) }
    }

    /// An error at this object's place.
    func error(_ message: String) -> SimulationInputError {
        SimulationInputError(file: file, place: path.description, message: message)
    }
}
