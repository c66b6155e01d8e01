/// A message that breaks a rule of ``GBGBridgeContract``: the rule (with its page) and why, in
/// a few words that quote the offending value shortened and with control characters escaped
/// (``ContractText``), so the reason is short whatever the message held. It can still quote
/// what a journey or host sent: sanitize it before a terminal, as every log text.
public struct ContractViolation: Sendable, Hashable {
    /// The rule broken.
    public var rule: ContractRule
    /// Why, for a person: "recoverable is false for BUSY: the web SDK expects true".
    public var reason: String

    /// Creates a violation.
    public init(_ rule: ContractRule, _ reason: String) {
        self.rule = rule
        self.reason = reason
    }

    /// The page the rule comes from (``ContractRule/source``).
    public var page: String { rule.source }

    /// One line: `rule-id: reason (page)`.
    public var line: String { "\(rule.id): \(reason) (\(rule.source))" }
}
