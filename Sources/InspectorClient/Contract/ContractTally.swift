/// The violations of GBG's documented contract an inspector has seen, counted by rule, with the
/// first example of each: bounded by the number of rules, however long the session. Messages an
/// inspector made are counted apart (``notCounted``): the app did not make them.
///
/// ```swift
/// print(state.contract.summary)   // 2 violations (error.recoverable-matches-code: 1, event.host-ready-data: 1)
/// ```
public struct ContractTally: Sendable, Hashable {
    /// One rule's count.
    public struct Entry: Sendable, Hashable {
        /// The rule.
        public var rule: ContractRule
        /// How many messages broke it.
        public var count: Int
        /// The log index of the first.
        public var firstIndex: Int
        /// Why the first broke it (untrusted: sanitize before a terminal).
        public var firstReason: String
    }

    /// The counted rules, by id.
    public private(set) var entries: [String: Entry] = [:]
    /// Violations in messages an inspector made: shown, never counted.
    public private(set) var notCounted = 0

    /// An empty tally.
    public init() {}

    /// Counts `violations`, found in the row at `index`.
    public mutating func add(_ violations: [ContractViolation], at index: Int, inspectorMade: Bool) {
        if inspectorMade {
            notCounted += violations.count
            return
        }
        for violation in violations {
            if entries[violation.rule.id] == nil {
                entries[violation.rule.id] = Entry(rule: violation.rule, count: 1, firstIndex: index, firstReason: violation.reason)
            } else {
                entries[violation.rule.id]?.count += 1
            }
        }
    }

    /// Every counted violation.
    public var total: Int { entries.values.reduce(0) { $0 + $1.count } }

    /// The counted rules in the contract's order.
    public var byRule: [Entry] {
        GBGBridgeContract.rules.compactMap { entries[$0.id] }
    }

    /// "N violations (rule: count, …)", or "no violations".
    public var summary: String {
        guard total > 0 else { return "no violations" }
        let list = byRule.map { "\($0.rule.id): \($0.count)" }.joined(separator: ", ")
        return "\(total) violation\(total == 1 ? "" : "s") (\(list))"
    }
}
