import Foundation

/// The one way into the project from JSON bytes: one pass of `JSONParser` (syntax, depth, the
/// value), then `JSONValueDecoder` reads the `Decodable` from that value, nothing re-encoded.
///
/// Files a person writes (profiles, scenarios, rules, `--data`), saved state and recordings all
/// come in here, so they are judged by the same rule as the journey's messages
/// (`docs/bridge-protocol.md`, section 2, "One JSON rule") and their mistakes are told the same way:
///
/// ```swift
/// do {
///     let book = try JSONDecoding.decode(ReplyRuleBook.self, from: data)
/// } catch {
///     print(error)   // "line 3, column 7: expected ',' or '}' in an object, found '\"'"
/// }                  // or "rules[0].times: expected a whole number"
/// ```
public enum JSONDecoding {
    /// Why bytes could not be decoded.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The bytes are not JSON (or nest too deep): where and why.
        case invalidJSON(JSONSyntaxCheck.Problem)
        /// The JSON does not hold the type asked for: which field, and what was expected.
        case wrongContent(DecodingProblem)

        /// `line L, column C: reason`, or `path: reason`.
        public var description: String {
            switch self {
            case .invalidJSON(let problem): return problem.description
            case .wrongContent(let problem): return problem.description
            }
        }
    }

    /// The `T` in `bytes`, read in one pass.
    public static func decode<T: Decodable>(
        _ type: T.Type, from bytes: some ContiguousBytes, maxDepth: Int = JSONSyntaxCheck.defaultMaxDepth
    ) throws(Failure) -> T {
        let value: JSONValue
        do throws(JSONSyntaxCheck.Problem) {
            value = try JSONParser.read(bytes, maxDepth: maxDepth)
        } catch {
            throw .invalidJSON(error)
        }
        return try decode(type, from: value)
    }

    /// The `T` in an already parsed `value`.
    public static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws(Failure) -> T {
        do {
            return try JSONValueDecoder.decode(type, from: value)
        } catch {
            throw .wrongContent(DecodingProblem(error))
        }
    }
}
