/// One rule of ``GBGBridgeContract``: what a message must look like, which way it travels, and
/// where that comes from, so a violation can say which page to read.
///
/// The ids are stable (they appear in lint marks, `doctor`, `open --check`, `contract --json`
/// and docs/gbgbridge-contract.md): add rules, never rename one.
///
/// ```swift
/// let rule = GBGBridgeContract.rule(id: "error.recoverable-matches-code")
/// print(rule?.source ?? "")   // web SDK (gbgbridge-facts, "Web-side SDK"), error codes
/// ```
public struct ContractRule: Sendable, Hashable, Codable {
    /// Whether GBG's pages say it, or this project decided where they are silent (the line
    /// docs/bridge-protocol.md draws with **[GBG]** and **[Project]**).
    public enum Basis: String, Sendable, Hashable, Codable, CaseIterable {
        /// A GBG page says it; `source` names the page and heading.
        case documented
        /// This project's choice where the pages are silent; `source` names the section of
        /// docs/bridge-protocol.md that writes it down.
        case choice
    }

    /// Which way a message travels for the rule to apply.
    public enum Direction: String, Sendable, Hashable, Codable, CaseIterable {
        /// What the journey posts to the host (`postMessage`): a log row `received`.
        case journeyToHost = "journey-to-host"
        /// What the host delivers to the journey (`receive`): a log row `sent`.
        case hostToJourney = "host-to-journey"
    }

    /// The stable id, `family.name`: `envelope.timestamp-number`.
    public var id: String
    /// The directions it applies to.
    public var directions: [Direction]
    /// The rule in one line, for a person.
    public var statement: String
    /// The page it comes from and its heading: "Troubleshooting, \"Message Decoding Failures\"".
    public var source: String
    /// Documented by GBG, or this project's choice.
    public var basis: Basis

    /// Creates a rule.
    public init(id: String, directions: [Direction], statement: String, source: String, basis: Basis) {
        self.id = id
        self.directions = directions
        self.statement = statement
        self.source = source
        self.basis = basis
    }

    /// The part of the id before the dot (`envelope`, `response`, `event`, …).
    public var family: String {
        String(id.split(separator: ".", maxSplits: 1).first ?? Substring(id))
    }
}
