import Foundation
import InspectorProtocol

/// The short text forms of a fault rule's parts that a person types (`bridge-inspector fault`'s
/// options, and later the TUI): a delay (`2s`, `500ms`, `1s..3s`) and a sequence's steps
/// (`error:BUSY,error:BUSY,pass`). Errors are sentences that say what would be right.
public enum FaultRuleSyntax {
    /// Reads a delay: a duration (`2s`, `1.5s`, `500ms`; a bare number is milliseconds) or a range
    /// of two (`1s..3s`), as milliseconds.
    public static func delay(_ text: String) throws(FaultRuleSyntaxError) -> (minMs: Int, maxMs: Int) {
        if let range = text.range(of: "..") {
            let low = try milliseconds(String(text[..<range.lowerBound]))
            let high = try milliseconds(String(text[range.upperBound...]))
            guard low <= high else { throw FaultRuleSyntaxError("a delay range takes its smaller end first: \(text)") }
            return (low, high)
        }
        let ms = try milliseconds(text)
        return (ms, ms)
    }

    /// Reads one duration: `2s`, `1.5s`, `500ms`, or a bare number of milliseconds.
    public static func milliseconds(_ text: String) throws(FaultRuleSyntaxError) -> Int {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let value: Double?
        if trimmed.hasSuffix("ms") {
            value = Double(trimmed.dropLast(2))
        } else if trimmed.hasSuffix("s") {
            value = Double(trimmed.dropLast()).map { $0 * 1000 }
        } else {
            value = Double(trimmed)
        }
        guard let value, value.isFinite, value >= 0, value <= Double(FaultEffect.maxDelayMs) else {
            throw FaultRuleSyntaxError(
                "'\(text)' is not a duration from 0 to \(FaultEffect.maxDelayMs / 1000)s; write it as 2s, 1.5s or 500ms")
        }
        return Int(value.rounded())
    }

    /// Reads a sequence's steps, comma-separated: `pass`, `drop`, `never-answer`, `duplicate`,
    /// `reorder`, `error:CODE`, `delay:2s` or `delay:1s..3s`.
    public static func steps(_ text: String) throws(FaultRuleSyntaxError) -> [FaultStep] {
        var steps: [FaultStep] = []
        for word in text.split(separator: ",") {
            let step = word.trimmingCharacters(in: .whitespaces)
            let (name, value) = step.split(separator: ":", maxSplits: 1).map(String.init).splitPair()
            switch name.lowercased() {
            case "pass": steps.append(.pass)
            case "drop": steps.append(.fault(.drop))
            case "never-answer", "neveranswer": steps.append(.fault(.neverAnswer))
            case "duplicate": steps.append(.fault(.duplicate))
            case "reorder": steps.append(.fault(.reorder(boundMs: nil)))
            case "error":
                guard let code = value, !code.isEmpty else { throw FaultRuleSyntaxError("'\(step)': an error step needs a code, as in error:BUSY") }
                steps.append(.fault(.error(code: code.uppercased(), message: nil, recoverable: nil)))
            case "delay":
                guard let value else { throw FaultRuleSyntaxError("'\(step)': a delay step needs a duration, as in delay:2s") }
                let (low, high) = try delay(value)
                steps.append(.fault(.delay(minMs: low, maxMs: high)))
            default:
                throw FaultRuleSyntaxError(
                    "'\(step)' is not a step; use pass, drop, never-answer, duplicate, reorder, error:CODE or delay:2s")
            }
        }
        guard !steps.isEmpty else { throw FaultRuleSyntaxError("a sequence needs at least one step, as in error:BUSY,error:BUSY,pass") }
        return steps
    }
}

/// A fault rule's text a person typed could not be read: what is wrong and what would be right.
public struct FaultRuleSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The sentence.
    public var description: String

    init(_ description: String) { self.description = description }
}

extension Array where Element == String {
    /// The first element and, if there is one, the second.
    fileprivate func splitPair() -> (String, String?) {
        (first ?? "", count > 1 ? self[1] : nil)
    }
}
