import BridgeCore
import FilterLanguage
import Foundation
import InspectorProtocol

/// A file of fault rules a person saves and shares (`bridge-inspector fault --file rules.json`):
/// `{"version": 1, "faults": [rule, …]}`, each rule a ``InspectorProtocol/WireFaultRule`` as the
/// agent takes it (docs/cli.md, "fault").
///
/// ```json
/// {"version": 1, "faults": [
///   {"filter": "action:camera.document.capture", "firing": {"kind": "sequence",
///    "steps": [{"kind": "error", "code": "BUSY"}, {"kind": "error", "code": "BUSY"}, {"kind": "pass"}]}},
///   {"filter": "action:capability.query", "effect": {"kind": "delay", "minMs": 6000}}
/// ]}
/// ```
///
/// Read with ``read(file:)``, whose error says where (`faults[1].effect`, a line and column) and
/// what is wrong, before anything reaches a host.
public struct FaultRuleFile: Codable, Sendable, Hashable {
    /// The rules, in the order they are tried.
    public var faults: [WireFaultRule]

    /// The version of the saved form this reader writes and reads.
    public static let formatVersion = 1

    /// A file holding `faults`.
    public init(faults: [WireFaultRule]) {
        self.faults = faults
    }

    private enum CodingKeys: String, CodingKey { case version, faults }

    /// Reads `{"version": 1, "faults": [...]}`; a newer version is refused.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try RulesFile.refuseNewerVersion(in: container, forKey: .version, current: Self.formatVersion, what: "fault rules")
        faults = try container.decode([WireFaultRule].self, forKey: .faults)
    }

    /// Writes the version and the rules.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.formatVersion, forKey: .version)
        try container.encode(faults, forKey: .faults)
    }

    /// Reads the file at `path` (`~` expanded). A file with no rules is refused, and so is a rule
    /// the agent would refuse (its filter, effect or firing), naming it.
    public static func read(file path: String) throws(FaultRuleFileError) -> FaultRuleFile {
        try decode(RulesFile.contents(of: path))
    }

    /// Reads a file's contents, checking every rule as ``read(file:)`` does.
    public static func decode(_ data: Data) throws(FaultRuleFileError) -> FaultRuleFile {
        let file = try RulesFile.decode(FaultRuleFile.self, from: data)
        if file.faults.isEmpty { throw FaultRuleFileError(place: "faults", reason: "holds no rules; add at least one") }
        try check(file.faults)
        return file
    }

    /// Refuses the first of `rules` the agent would refuse (its filter, effect or firing), naming
    /// it as `faults[i]`: the check of a rules file and of a fault scenario's `faults`.
    package static func check(_ rules: [WireFaultRule]) throws(FaultRuleFileError) {
        for (index, rule) in rules.enumerated() {
            if let problem = rule.problem { throw FaultRuleFileError(place: "faults[\(index)]", reason: problem) }
            do throws(FilterParseError) {
                _ = try InFlightMessageFilter(parsing: rule.filter)
            } catch {
                throw FaultRuleFileError(place: "faults[\(index)].filter", reason: "\(error)")
            }
        }
    }

    /// The file as text: pretty-printed JSON with sorted keys.
    public func encoded() throws -> Data {
        try JSONEncoding.encode(self, pretty: true)
    }
}

/// What is wrong with a fault rules file, and where (`faults[1].effect`): the rules files' one
/// error, ``RulesFileError``. Its text comes from the file: sanitize it before it reaches a
/// terminal.
public typealias FaultRuleFileError = RulesFileError
