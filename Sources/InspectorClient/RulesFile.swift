import BridgeCore
import Foundation

/// The one reader of the versioned JSON rules files a person saves and shares: reply rules
/// (``ReplyRuleBook/read(file:)``, `{"version": 1, "rules": […]}`) and fault rules
/// (``FaultRuleFile/read(file:)``, `{"version": 1, "faults": […]}`).
///
/// It reads the file, decodes it in one pass of the JSON front door and, when something is
/// wrong, throws a ``RulesFileError`` that names the place: a line and column for text that is
/// not JSON, the JSON path (`faults[1].effect`) for JSON that does not hold rules, nothing for a
/// file that cannot be read. Each file type's own checks (no rules, a rule the host would
/// refuse) come after, with the same error.
///
/// ```swift
/// let file = try RulesFile.decode(FaultRuleFile.self, from: RulesFile.contents(of: path))
/// ```
///
/// A fault scenario (`fault-scenario`, read in HostDiagnosis) comes in here too, so the package
/// sees it.
package enum RulesFile {
    /// The bytes of the file at `path` (`~` expanded); `no such file` or `cannot read the file`
    /// (with no place) when there are none.
    package static func contents(of path: String) throws(RulesFileError) -> Data {
        let full = (path as NSString).expandingTildeInPath
        guard let bytes = FileManager.default.contents(atPath: full) else {
            throw RulesFileError(place: "", reason: FileManager.default.fileExists(atPath: full) ? "cannot read the file" : "no such file")
        }
        return bytes
    }

    /// `data` decoded as `T`; the error names the line and column of invalid JSON, or the JSON
    /// path of content that does not fit (`(top level)` for the whole).
    package static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(RulesFileError) -> T {
        do throws(JSONDecoding.Failure) {
            return try JSONDecoding.decode(type, from: data)
        } catch {
            switch error {
            case .invalidJSON(let problem):
                throw RulesFileError(place: "line \(problem.line), column \(problem.characterColumn(in: data))", reason: "invalid JSON: \(problem.reason)")
            case .wrongContent(let problem):
                throw RulesFileError(problem)
            }
        }
    }

    /// Refuses a file whose `version` (at `key`, optional) is newer than `current`, the version
    /// this reader reads: `what` names the format in the message ("fault rules"), which asks for
    /// an update of bridge-inspector. For a type's `init(from:)`.
    static func refuseNewerVersion<Key: CodingKey>(
        in container: KeyedDecodingContainer<Key>, forKey key: Key, current: Int, what: String
    ) throws {
        if let version = try container.decodeIfPresent(Int.self, forKey: key), version > current {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container,
                debugDescription: "\(what) format version \(version) is newer than this bridge-inspector reads (\(current)); update bridge-inspector")
        }
    }
}

/// What is wrong with a rules file (reply rules, fault rules), and where; thrown by
/// ``RulesFile`` and so by ``ReplyRuleBook/read(file:)`` (``ReplyRuleFileError``) and
/// ``FaultRuleFile/read(file:)`` (``FaultRuleFileError``). Its text comes from the file:
/// sanitize it before it reaches a terminal.
public struct RulesFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A JSON path such as `rules[1].status` or `faults[1].effect`, `line 3, column 7`, or
    /// `(top level)`; empty when the file as a whole is wrong (missing, unreadable, for reply
    /// rules empty of rules).
    public var place: String
    /// What is wrong and what would be right.
    public var reason: String

    /// Whether the fault is in the file's content (it has a place), as opposed to the file.
    public var isInContent: Bool { !place.isEmpty }

    /// `place: reason`, or the reason alone when there is no place.
    public var description: String { place.isEmpty ? reason : "\(place): \(reason)" }

    /// Creates an error.
    public init(place: String, reason: String) {
        self.place = place
        self.reason = reason
    }

    /// The error for JSON that does not hold what was expected, at the problem's path.
    init(_ problem: DecodingProblem) {
        self.init(place: problem.path.isEmpty ? "(top level)" : problem.path, reason: problem.reason)
    }
}
