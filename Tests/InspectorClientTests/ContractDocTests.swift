import Foundation
import InspectorClient
import Testing

/// Keeps docs/gbgbridge-contract.md true, as ProtocolDocTests keeps docs/bridge-protocol.md: the
/// page's rule table (between `<!-- contract-rules -->` and `<!-- /contract-rules -->`) is
/// exactly the contract's rules, and the page names the contract's version. When a rule is
/// added or changes, the failure message shows the table to paste.
@Suite("Contract document")
struct ContractDocTests {
    static let docURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/gbgbridge-contract.md")

    /// The table the page must hold: one row per rule, in the contract's order.
    static var expectedTable: String {
        var lines = ["| rule | mark | direction | what it wants | source |", "| --- | --- | --- | --- | --- |"]
        for rule in GBGBridgeContract.rules {
            let cells = [
                "`\(rule.id)`", rule.basis == .documented ? "documented" : "choice", rule.directions.map(\.rawValue).joined(separator: ", "),
                rule.statement, rule.source,
            ].map { $0.replacingOccurrences(of: "|", with: "\\|") }
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }

    @Test("the page lists every rule of the contract, with its mark, direction, statement and source, and names its version")
    func pageMatchesTheContract() throws {
        let text = try String(contentsOf: Self.docURL, encoding: .utf8)
        let start = try #require(text.range(of: "<!-- contract-rules -->\n"))
        let end = try #require(text.range(of: "\n<!-- /contract-rules -->", range: start.upperBound..<text.endIndex))
        let table = String(text[start.upperBound..<end.lowerBound])
        #expect(table == Self.expectedTable, "paste this table into docs/gbgbridge-contract.md:\n\(Self.expectedTable)")
        #expect(text.contains("`\(GBGBridgeContract.version)`"), "the page names the contract's version")
    }
}
