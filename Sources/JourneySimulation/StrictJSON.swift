import BridgeCore
import Foundation

/// Reads a JSON document strictly, keeping track of where each value sits so that every refusal
/// names the file, the place and what was expected there.
///
/// The document is parsed once with ``JSONParser`` (line and column of a mistake); then it is
/// walked as ``JSONValue``s. Readers of each format list the fields they allow, so an
/// unknown or misspelt field is refused with a suggestion instead of being ignored.
enum StrictJSON {
    /// Parses `data` into a value at the top of the document, or says where the JSON is broken.
    static func parse(_ data: Data, file: String) throws(SimulationInputError) -> StrictValue {
        let value: JSONValue
        do throws(JSONSyntaxCheck.Problem) {
            value = try JSONParser.read(data)
        } catch {
            throw SimulationInputError(
                file: file, place: "line \(error.line), column \(error.column)",
                message: "invalid JSON: \(error.reason)")
        }
        return StrictValue(value: value, path: JSONPath(), file: file)
    }

    /// Reads the file at `path`, or says why it cannot be read.
    static func read(path: String) throws(SimulationInputError) -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw SimulationInputError(file: path, place: "", message: "cannot read the file: no such file")
        }
        if isDirectory.boolValue {
            throw SimulationInputError(file: path, place: "", message: "cannot read the file: it is a directory")
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw SimulationInputError(
                file: path, place: "", message: "cannot read the file: \((error as NSError).localizedDescription)")
        }
    }

    /// A short description of a value as found in a document: `the string "abc"`, `the number 2.5`, `an array`.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .string(let text):
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            return "the string \(quoted(shown))"
        case .number(let number): return "the number \(format(number))"
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .object: return "an object"
        case .array: return "an array"
        }
    }

    /// `"text"` with quotes and backslashes escaped, for messages.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// A number without a trailing `.0` when it is whole.
    static func format(_ number: Double) -> String {
        if number.isFinite, number.rounded() == number, abs(number) < 1e15 { return String(Int64(number)) }
        return String(number)
    }

    /// The allowed name closest to `name`, if it is close enough to be a likely typo.
    static func suggestion(for name: String, among allowed: [String]) -> String? {
        let lowered = name.lowercased()
        if let same = allowed.first(where: { $0.lowercased() == lowered }) { return same }
        var best: (name: String, distance: Int)?
        for candidate in allowed {
            let distance = editDistance(lowered, candidate.lowercased())
            if distance <= max(1, min(2, candidate.count / 3)), distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // Optimal string alignment: insertions, deletions, substitutions and swaps of two
        // neighbouring characters ("stpes" is one step from "steps").
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
