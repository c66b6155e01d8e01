import BridgeCore
import InspectorProtocol

extension LiveState {
    /// Checks a message entering the log at `index` against GBG's documented contract: every
    /// violation is counted in ``contract``; a row no other rule marked is marked
    /// ``LintRule/contract`` with the first violation's rule, reason and page. What is checked is
    /// what went on: an edited message's delivered form.
    mutating func checkContract(_ traffic: WireTraffic, entry: inout LogEntry, at index: Int) {
        let direction: ContractRule.Direction = traffic.direction == .received ? .journeyToHost : .hostToJourney
        let violations = traffic.withMessageAsDelivered { GBGBridgeContract.check($0, direction: direction) }
        guard !violations.isEmpty else { return }
        let inspectorMade = traffic.isInspectorCaused
        contract.add(violations, at: index, inspectorMade: inspectorMade)
        guard entry.lint == nil, let mark = Self.contractMark(violations) else { return }
        entry.lint = mark.rule
        keepLint(mark, at: index, inspectorMade: inspectorMade)
    }

    /// The lint mark for a row's contract violations: the first one's line, and how many more.
    static func contractMark(_ violations: [ContractViolation]) -> LintMark? {
        guard let first = violations.first else { return nil }
        let more = violations.count > 1 ? " (and \(violations.count - 1) more: \(violations.dropFirst().map(\.rule.id).joined(separator: ", ")))" : ""
        return LintMark(.contract, first.line + more)
    }
}
