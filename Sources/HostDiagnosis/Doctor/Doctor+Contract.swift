import InspectorClient

extension Doctor {
    /// The contract check: every violation of GBG's documented contract the inspector counted
    /// (``LiveState/contract``), by rule, with the count and the first example of each (one
    /// piece of evidence per rule, at most `evidenceLimit`). A rule
    /// the pages document fails the check; one that is only this project's choice warns.
    static func contractCheck(_ state: LiveState, evidenceLimit: Int) -> DoctorCheck {
        let tally = state.contract
        let notCounted = tally.notCounted == 0 ? "" : " Not counted: \(tally.notCounted) in messages made by an inspector (✎)."
        guard tally.total > 0 else {
            return DoctorCheck(id: .contract, status: .ok, summary: "Every message follows GBG's documented contract \(GBGBridgeContract.version).\(notCounted)")
        }
        let entries = tally.byRule
        let evidence = entries.prefix(evidenceLimit).map { entry -> DoctorEvidence in
            let row = state.log.indices.contains(entry.firstIndex) ? state.log[entry.firstIndex] : nil
            return DoctorEvidence(
                "\(entry.rule.id) ×\(entry.count): \(entry.firstReason) (\(entry.rule.source))", seq: row?.seq,
                correlationId: row.flatMap { $0.correlationId.isEmpty ? $0.malformedCorrelationId : $0.correlationId }, time: row?.time)
        }
        let documented = entries.contains { $0.rule.basis == .documented }
        return DoctorCheck(
            id: .contract, status: documented ? .failure : .warning,
            summary: "\(tally.summary) of GBG's documented contract \(GBGBridgeContract.version)\(documented ? "" : ", all of them this project's choices").\(notCounted)",
            evidence: evidence, moreEvidence: entries.count - evidence.count)
    }
}
