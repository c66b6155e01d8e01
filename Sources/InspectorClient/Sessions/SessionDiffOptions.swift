/// What ``SessionDiff`` ignores and how much latency may change before it counts.
///
/// By default (``useDefaultIgnores``) these never make a difference:
/// - correlation ids and message timestamps: not compared at all (ids only pair a request with
///   its answer), so host event ids (`<environment>-event-<uuid>`) are ignored too; a string
///   value of that shape inside `data` compares equal to any other;
/// - fields whose names say time, at any depth of `data`: `timestamp`, `time`, and names ending
///   in `At`, `Time` or `Timestamp` (`capturedAt`, `startTime`).
///
/// Compared on purpose: the message's protocol `version` (a change is what `VERSION_MISMATCH`
/// is about), and long base64 (images), compared by length and a hash and shown that way, so
/// equal images compare equal and a different capture is a difference.
public struct SessionDiffOptions: Sendable, Hashable {
    /// Paths a person named (`--ignore`), in order.
    public var ignoredPaths: [SessionIgnorePath]
    /// Whether the default ignores apply (`--no-default-ignores` turns them off).
    public var useDefaultIgnores: Bool
    /// When a latency change counts.
    public var latency: LatencyTolerance

    /// When an answer's latency has changed enough to report: the slower of the two is more than
    /// ``factor`` times the faster one *and* they are more than ``minimumMs`` apart. Either way
    /// round: a host that became much faster is reported too.
    public struct LatencyTolerance: Sendable, Hashable {
        /// How many times slower counts (default 2).
        public var factor: Double
        /// How many milliseconds apart counts at least (default 250).
        public var minimumMs: Double

        /// Creates a tolerance.
        public init(factor: Double = 2, minimumMs: Double = 250) {
            self.factor = factor
            self.minimumMs = minimumMs
        }

        /// Whether `left` and `right` (milliseconds) are further apart than this tolerance.
        public func exceeded(left: Double, right: Double) -> Bool {
            guard left.isFinite, right.isFinite else { return false }
            let slow = max(left, right)
            let fast = max(0, min(left, right))
            return slow - fast > minimumMs && slow > fast * factor
        }
    }

    /// Creates options.
    public init(ignoredPaths: [SessionIgnorePath] = [], useDefaultIgnores: Bool = true, latency: LatencyTolerance = LatencyTolerance()) {
        self.ignoredPaths = ignoredPaths
        self.useDefaultIgnores = useDefaultIgnores
        self.latency = latency
    }

    /// Whether the value at `path` is left out of the comparison.
    public func ignores(_ path: SessionFieldPath) -> Bool {
        if ignoredPaths.contains(where: { $0.covers(path) }) { return true }
        guard useDefaultIgnores, path.steps.first == .key("data") else { return false }
        return path.steps.dropFirst().contains { step in
            if case .key(let name) = step { return Self.namesTime(name) }
            return false
        }
    }

    /// Whether a field's name says it holds a time: `timestamp`, `time`, `*At`, `*Time`,
    /// `*Timestamp` (camel case: `capturedAt`, not `format`).
    public static func namesTime(_ name: String) -> Bool {
        if name == "timestamp" || name == "time" { return true }
        for suffix in ["At", "Time", "Timestamp"] where name.hasSuffix(suffix) && name.count > suffix.count {
            let before = name[name.index(name.endIndex, offsetBy: -suffix.count - 1)]
            if before.isLowercase || before.isNumber { return true }
        }
        return false
    }
}
