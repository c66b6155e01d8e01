import BridgeCore
import Foundation

extension GBGBridgeContract {
    /// The contract as JSON, for `bridge-inspector contract --json`: `{"version", "rules":
    /// [{"id", "directions", "statement", "source", "basis"}]}`, keys sorted, pretty-printed.
    public static func json() -> String {
        struct Document: Encodable {
            var version: String
            var rules: [ContractRule]
        }
        let data = (try? JSONEncoding.encode(Document(version: version, rules: rules), pretty: true)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// The contract as text for a person, for `bridge-inspector contract`: each rule's id, its
    /// mark (documented, or this project's choice), the directions, the statement and the page.
    public static func text() -> String {
        var lines = ["GBGBridge contract \(version): \(rules.count) rules (documented: a GBG page says it; choice: this project's, where the pages are silent)"]
        for rule in rules {
            lines.append("")
            lines.append("\(rule.id)  [\(rule.basis.rawValue)]  \(rule.directions.map(\.rawValue).joined(separator: ", "))")
            lines.append("  \(rule.statement)")
            lines.append("  source: \(rule.source)")
        }
        return lines.joined(separator: "\n")
    }
}
