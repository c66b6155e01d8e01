import Foundation

/// The figures of one benchmark run, in order, for the JSON object.
struct Report {
    enum Value {
        case number(Double)
        case integer(Int)
        case text(String)
        case bool(Bool)
        case object(Report)
    }

    private(set) var entries: [(key: String, value: Value)] = []

    mutating func set(_ key: String, _ value: Double) { entries.append((key, .number(value))) }
    mutating func set(_ key: String, _ value: Int) { entries.append((key, .integer(value))) }
    mutating func set(_ key: String, _ value: String) { entries.append((key, .text(value))) }
    mutating func set(_ key: String, _ value: Bool) { entries.append((key, .bool(value))) }
    mutating func set(_ key: String, _ value: Report) { entries.append((key, .object(value))) }

    /// One compact JSON object (keys in the order they were set).
    func json() -> String {
        var out = "{"
        for (index, entry) in entries.enumerated() {
            if index > 0 { out += "," }
            out += Self.quote(entry.key) + ":"
            switch entry.value {
            case .number(let value):
                if !value.isFinite {
                    out += "null"
                } else if value == value.rounded(), abs(value) < 1e15 {
                    out += String(Int64(value))
                } else {
                    out += String(format: "%.4f", value)
                }
            case .integer(let value): out += String(value)
            case .text(let value): out += Self.quote(value)
            case .bool(let value): out += value ? "true" : "false"
            case .object(let value): out += value.json()
            }
        }
        return out + "}"
    }

    private static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

/// The human-readable table.
struct Table {
    private(set) var lines: [String] = []

    mutating func title(_ text: String) {
        if !lines.isEmpty { lines.append("") }
        lines.append(text)
    }

    mutating func text(_ text: String) { lines.append(text) }

    /// `label ........ value   note`
    mutating func row(_ label: String, _ value: String, _ note: String = "") {
        let left = "  " + label
        let padded = left.count < 58 ? left + String(repeating: " ", count: 58 - left.count) : left + " "
        let value = value.count < 14 ? String(repeating: " ", count: 14 - value.count) + value : value
        lines.append(padded + value + (note.isEmpty ? "" : "   " + note))
    }

    var rendered: String { lines.joined(separator: "\n") + "\n" }
}

enum Format {
    /// `123,456`
    static func count(_ value: Double) -> String {
        let number = Int(value.rounded())
        let digits = String(abs(number))
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out += "," }
            out.append(character)
        }
        return (number < 0 ? "-" : "") + out
    }

    static func fixed(_ value: Double, _ places: Int) -> String { String(format: "%.\(places)f", value) }

    static func megabytes(_ bytes: Int) -> String { String(format: "%.1f MiB", Double(bytes) / 1_048_576) }

    /// `met` / `MISSED` against a target.
    static func verdict(_ met: Bool, _ target: String) -> String { (met ? "met  " : "MISSED ") + "(target " + target + ")" }
}
