/// A rule a log row breaks and why, in a few words that name what was seen (the action, the
/// slot, the request holding it). The reason can quote what a journey sent: it is untrusted
/// text, made safe by whoever draws or prints it.
public struct LintMark: Sendable, Hashable {
    /// The rule.
    public var rule: LintRule
    /// Why, for a person: "nobody handles camera.document.Capture: did you mean camera.document.capture?".
    public var reason: String

    /// Creates a mark.
    public init(_ rule: LintRule, _ reason: String) {
        self.rule = rule
        self.reason = reason
    }
}
