/// What is wrong with decoded JSON, in words a person can act on: the one translation of a
/// `DecodingError` into a field path and a sentence.
///
/// ```swift
/// DecodingProblem(error).description   // "rules[0].times: expected a whole number"
/// ```
///
/// Callers that pin their own wording (the bridge's `Failed to decode message: missing required
/// field 'correlationId'`) build it from ``path``, ``kind`` and ``expected``.
public struct DecodingProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// The object at ``DecodingProblem/path`` has no member `key`.
        case missing(key: String)
        /// The value at the path is of another kind than ``DecodingProblem/expected``.
        case wrongType
        /// The value at the path is `null` where ``DecodingProblem/expected`` is required.
        case null
        /// The value at the path is not acceptable, for the reason given.
        case invalid(String)
    }

    /// Where: `rules[1].status`, from the top-level value; empty for the top-level value itself.
    public var path: String
    /// What went wrong there.
    public var kind: Kind
    /// What was expected there, such as `a string`, `a whole number`, `an object`; empty when
    /// the kind does not name one.
    public var expected: String

    /// Creates a problem.
    public init(path: String, kind: Kind, expected: String = "") {
        self.path = path
        self.kind = kind
        self.expected = expected
    }

    /// The problem a decoding error describes; any other error is taken as a reason at the top level.
    public init(_ error: any Error) {
        guard let error = error as? DecodingError else {
            self.init(path: "", kind: .invalid(String(describing: error)))
            return
        }
        switch error {
        case .keyNotFound(let key, let context):
            self.init(path: Self.path(context.codingPath), kind: .missing(key: key.stringValue))
        case .typeMismatch(let type, let context):
            self.init(path: Self.path(context.codingPath), kind: .wrongType, expected: Self.name(of: type))
        case .valueNotFound(let type, let context):
            self.init(path: Self.path(context.codingPath), kind: .null, expected: Self.name(of: type))
        case .dataCorrupted(let context):
            self.init(path: Self.path(context.codingPath), kind: .invalid(context.debugDescription))
        @unknown default:
            self.init(path: "", kind: .invalid(String(describing: error)))
        }
    }

    /// What is wrong at ``path``: `missing field "action"`, `expected a string`, `expected a
    /// string, found null`, or the decoder's own reason.
    public var reason: String {
        switch kind {
        case .missing(let key): return "missing field \"\(key)\""
        case .wrongType: return "expected \(expected)"
        case .null: return "expected \(expected), found null"
        case .invalid(let reason): return reason
        }
    }

    /// ``path`` with the missing key added: the field a person should look at.
    public var field: String {
        guard case .missing(let key) = kind else { return path }
        return path.isEmpty ? key : "\(path).\(key)"
    }

    /// `path: reason`, or the reason alone at the top level.
    public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }

    /// `payload.data`, `rules[1].status`: keys joined by dots, array positions in brackets.
    static func path(_ keys: [any CodingKey]) -> String {
        var text = ""
        for key in keys {
            if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
        }
        return text
    }

    /// What a person calls a value of `type`: `a string`, `a whole number`, `an object`.
    static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type, is UInt64.Type: return "a whole number"
        case is Double.Type, is Float.Type: return "a number"
        case is Bool.Type: return "true or false"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Dictionary") || name.hasPrefix("KeyedDecodingContainer") { return "an object" }
            if name.hasPrefix("Array") || name.hasPrefix("UnkeyedDecodingContainer") { return "an array" }
            return "a value of type \(name)"
        }
    }
}
