/// How many times something happened in a session, and how many of those an inspector caused
/// (a request it injected, an answer a person typed, an event it sent: ✎ in the log).
///
/// Inspector-made traffic counts as met, because the journey's reaction to it is real (a `BUSY`
/// a person answered by hand still shows whether the journey retries), but it is counted apart
/// so a reader can tell what the host itself produced.
public struct CoverageCount: Sendable, Equatable {
    /// Every time it happened.
    public var count = 0
    /// How many of ``count`` an inspector caused.
    public var inspectorMade = 0

    /// Nothing counted yet.
    public init() {}

    /// A count of `count`, `inspectorMade` of them an inspector's.
    public init(count: Int, inspectorMade: Int = 0) {
        self.count = count
        self.inspectorMade = inspectorMade
    }

    /// Whether it happened at least once.
    public var met: Bool { count > 0 }

    /// Counts one more, an inspector's when `inspectorMade`.
    mutating func add(inspectorMade: Bool) {
        count += 1
        if inspectorMade { self.inspectorMade += 1 }
    }
}
