import BridgeCore

/// When a fault rule fires on the messages its filter picks (docs/inspector-protocol.md,
/// "Fault rules"). In JSON an object with a `kind`: `{"kind":"always"}`, `{"kind":"times","count":2}`,
/// `{"kind":"probability","p":0.3,"seed":7}`,
/// `{"kind":"sequence","steps":[{"kind":"error","code":"BUSY"},{"kind":"pass"}]}`.
public enum FaultFiring: Sendable, Hashable, Codable {
    /// Every message the filter picks.
    case always
    /// The first `count` messages the filter picks, then none.
    case times(Int)
    /// Each picked message with probability `p` (0 to 1), drawn from a ``SplitMix64`` seeded with
    /// `seed`: the same seed hits the same messages on every run.
    case probability(Double, seed: UInt64)
    /// Each picked message takes the next step (a fault, or a pass that lets it go on); after the
    /// last step the rule lets everything go on. "BUSY, BUSY, then let the handler answer".
    case sequence([FaultStep])

    /// The most steps a sequence may have.
    public static let maxSequenceSteps = 64

    /// What is wrong with the firing, in a sentence that says what to do, or `nil`.
    public var problem: String? {
        switch self {
        case .always: return nil
        case .times(let count):
            return count >= 1 ? nil : "times: the count must be 1 or more (got \(count))"
        case .probability(let p, _):
            return p.isFinite && p >= 0 && p <= 1 ? nil : "probability: p must be between 0 and 1 (got \(p))"
        case .sequence(let steps):
            guard !steps.isEmpty, steps.count <= Self.maxSequenceSteps else {
                return "sequence: give 1 to \(Self.maxSequenceSteps) steps (got \(steps.count))"
            }
            for (index, step) in steps.enumerated() {
                if case .fault(let effect) = step, let problem = effect.problem { return "sequence step \(index + 1): \(problem)" }
            }
            return nil
        }
    }

    /// The firing in a few words: `always`, `2 times`, `p=0.3 seed 7`, `sequence of 3`.
    public var summary: String {
        switch self {
        case .always: return "always"
        case .times(let count): return count == 1 ? "once" : "\(count) times"
        case .probability(let p, let seed): return "p=\(p) seed \(seed)"
        case .sequence(let steps): return "sequence " + steps.map(\.summary).joined(separator: ", ")
        }
    }

    private enum CodingKeys: String, CodingKey { case kind, count, p, seed, steps }

    /// Reads `{"kind": …}` with the kind's members.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .kind) {
        case "always": self = .always
        case "times": self = .times(try container.decode(Int.self, forKey: .count))
        case "probability":
            self = .probability(try container.decode(Double.self, forKey: .p), seed: try container.decodeIfPresent(UInt64.self, forKey: .seed) ?? 0)
        case "sequence": self = .sequence(try container.decode([FaultStep].self, forKey: .steps))
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container, debugDescription: "unknown firing '\(other)'; use always, times, probability or sequence")
        }
    }

    /// Writes `{"kind": …}` with the kind's members.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .always:
            try container.encode("always", forKey: .kind)
        case .times(let count):
            try container.encode("times", forKey: .kind)
            try container.encode(count, forKey: .count)
        case .probability(let p, let seed):
            try container.encode("probability", forKey: .kind)
            try container.encode(p, forKey: .p)
            try container.encode(seed, forKey: .seed)
        case .sequence(let steps):
            try container.encode("sequence", forKey: .kind)
            try container.encode(steps, forKey: .steps)
        }
    }
}

/// One step of a ``FaultFiring/sequence(_:)``: a fault, or a pass (`{"kind":"pass"}`) that lets
/// the message go on as the host would handle it.
public enum FaultStep: Sendable, Hashable, Codable {
    /// Let this message go on.
    case pass
    /// Apply this fault to it (the rule's own effect is not used for sequence steps).
    case fault(FaultEffect)

    /// `pass`, or the fault's summary.
    public var summary: String {
        switch self {
        case .pass: return "pass"
        case .fault(let effect): return effect.summary
        }
    }

    /// Reads `{"kind":"pass"}` or a ``FaultEffect``.
    public init(from decoder: any Decoder) throws {
        struct Kind: Decodable { var kind: String }
        if try Kind(from: decoder).kind == "pass" {
            self = .pass
        } else {
            self = .fault(try FaultEffect(from: decoder))
        }
    }

    /// Writes `{"kind":"pass"}` or the fault.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .pass:
            var container = encoder.singleValueContainer()
            try container.encode(["kind": "pass"])
        case .fault(let effect):
            try effect.encode(to: encoder)
        }
    }
}

/// Where a fault rule is in its firing: how many messages it has picked, and its generator.
/// The agent keeps one per rule; a test replays one to know which messages a seed hits.
public struct FaultFiringState: Sendable, Hashable {
    /// The rule's firing.
    public let firing: FaultFiring
    /// The rule's own effect (what `always`, `times` and `probability` apply).
    public let effect: FaultEffect?
    /// Messages the rule's filter has picked so far.
    public private(set) var picked = 0
    /// The rule's generator, seeded with the probability's seed (0 otherwise): it also draws
    /// each delay of a range.
    public var random: SplitMix64

    /// Starts a rule's firing.
    public init(firing: FaultFiring, effect: FaultEffect?) {
        self.firing = firing
        self.effect = effect
        if case .probability(_, let seed) = firing {
            random = SplitMix64(seed: seed)
        } else {
            random = SplitMix64(seed: 0)
        }
    }

    /// The fault for the next message the rule's filter picks, or `nil` to let it go on.
    public mutating func next() -> FaultEffect? {
        picked += 1
        switch firing {
        case .always:
            return effect
        case .times(let count):
            return picked <= count ? effect : nil
        case .probability(let p, _):
            return random.nextUnit() < p ? effect : nil
        case .sequence(let steps):
            guard picked <= steps.count, case .fault(let effect) = steps[picked - 1] else { return nil }
            return effect
        }
    }

    /// Whether a message going `direction` that the rule's filter picks takes the rule's next
    /// step (and counts as picked): the rule has a step left whose fault applies to that
    /// direction; a sequence's `pass` step is taken by what its faults apply to.
    public func takesStep(for direction: TrafficRecord.Direction) -> Bool {
        switch firing {
        case .always, .probability: return effect?.applies(to: direction) ?? false
        case .times(let count): return picked < count && (effect?.applies(to: direction) ?? false)
        case .sequence(let steps):
            guard picked < steps.count else { return false }
            if case .fault(let effect) = steps[picked] { return effect.applies(to: direction) }
            return steps.contains { step in
                if case .fault(let effect) = step { return effect.applies(to: direction) }
                return false
            }
        }
    }
}
