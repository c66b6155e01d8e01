/// A fault rule as an inspector asks for it (`addFault`) and as a rule file holds it: which
/// messages (the filter language, as breakpoints use it), what to do to them, and when
/// (docs/inspector-protocol.md, "Fault rules").
///
/// ```json
/// {"filter": "action:device.info", "effect": {"kind": "error", "code": "BUSY"}, "firing": {"kind": "times", "count": 2}}
/// ```
///
/// A `sequence` firing carries its faults in its steps; its rule has no `effect`.
public struct WireFaultRule: Codable, Sendable, Hashable {
    /// Which messages, in the filter language (`action:camera.* dir:in`); terms that cannot apply
    /// before a message is routed or delivered (`is:pending`, `is:fault`, …) are refused.
    public var filter: String
    /// What the rule does (absent for a `sequence`, whose steps say).
    public var effect: FaultEffect?
    /// When it fires (default `always`).
    public var firing: FaultFiring?

    /// The longest filter, in bytes.
    public static let maxFilterBytes = 1024

    /// Creates a rule.
    public init(filter: String, effect: FaultEffect?, firing: FaultFiring? = nil) {
        self.filter = filter
        self.effect = effect
        self.firing = firing
    }

    /// The firing, `always` when the rule does not say.
    public var effectiveFiring: FaultFiring { firing ?? .always }

    /// What is wrong with the rule apart from its filter's syntax (which the agent parses), in a
    /// sentence that says what to do, or `nil` when it is sound.
    public var problem: String? {
        if filter.utf8.count > Self.maxFilterBytes { return "filter: \(filter.utf8.count) bytes, over the \(Self.maxFilterBytes) a rule takes" }
        if let problem = effectiveFiring.problem { return problem }
        if case .sequence = effectiveFiring {
            if effect != nil { return "a sequence carries its faults in its steps; leave out effect" }
            return nil
        }
        guard let effect else { return "effect: say what the rule does (delay, error, neverAnswer, drop, duplicate or reorder)" }
        return effect.problem
    }

    /// The rule in one line: `error BUSY, 2 times`.
    public var summary: String {
        if case .sequence = effectiveFiring { return effectiveFiring.summary }
        return "\(effect?.summary ?? "nothing"), \(effectiveFiring.summary)"
    }
}

/// A fault rule as the agent lists it: every inspector's, in `faults` events and snapshots.
public struct WireFault: Codable, Sendable, Hashable {
    /// The rule's id (`f1`), which marks every message it changes.
    public var id: String
    /// The rule as set.
    public var rule: WireFaultRule
    /// The name of the inspector that set it (from its hello).
    public var owner: String
    /// The agent's number for that inspector's connection.
    public var ownerClient: Int
    /// How many messages it has faulted.
    public var hits: Int

    /// Creates a record.
    public init(id: String, rule: WireFaultRule, owner: String, ownerClient: Int, hits: Int) {
        self.id = id
        self.rule = rule
        self.owner = owner
        self.ownerClient = ownerClient
        self.hits = hits
    }
}
