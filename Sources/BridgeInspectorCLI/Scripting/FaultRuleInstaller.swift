import InspectorClient
import InspectorProtocol

/// Sets fault rules on a host through a session, in order, and returns the ids the host gave
/// them: what `fault` and `fault-scenario` both do before they watch. A rule the host finds
/// wrong is a usage error (exit 64) naming its filter; any other refusal is exit 2.
enum FaultRuleInstaller {
    /// Sets each of `rules`, calling `set` with each id and rule as the host confirms it.
    static func add(_ rules: [WireFaultRule], on session: InspectorSession, set: (String, WireFaultRule) throws -> Void = { _, _ in }) throws -> [String] {
        var ids: [String] = []
        for rule in rules {
            let reply = try session.run(.addFault(rule))
            switch reply.result {
            case .success(let value):
                guard case .object(let fields) = value, case .string(let id)? = fields["id"] else {
                    throw ScriptError.failure("the host set the fault rule but did not say its id")
                }
                ids.append(id)
                try set(id, rule)
            case .failure(let error) where error.knownCode == .invalidArguments:
                throw ScriptError.usage(
                    "the rule for '\(ScriptOutput.safe(rule.filter))' cannot be set: \(ScriptOutput.safe(error.message))", hint: FilterArgument.hint)
            case .failure(let error):
                throw ScriptError.refused(error, hint: nil)
            }
        }
        return ids
    }

    /// Removes the rules `ids` (best effort: a host that went away has removed them already).
    static func remove(_ ids: [String], on session: InspectorSession) {
        for id in ids { _ = try? session.run(.removeFault(.init(id: id)), timeout: 5) }
    }
}
