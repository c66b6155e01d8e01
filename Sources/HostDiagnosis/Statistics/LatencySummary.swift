/// The latency percentiles of one action's answered requests, in milliseconds.
///
/// Percentiles are **nearest-rank**: of the `n` latencies sorted ascending, the p-th percentile
/// is the value at rank `⌈p × n / 100⌉` (1-based), so it is always a latency that was measured,
/// never an interpolation. With one latency, p50, p95 and max are all that one; with 20, p95 is
/// the 19th smallest.
public struct LatencySummary: Sendable, Equatable {
    /// The median latency (nearest rank).
    public var p50: Double
    /// The 95th-percentile latency (nearest rank).
    public var p95: Double
    /// The longest latency.
    public var max: Double

    /// A summary from its three values.
    public init(p50: Double, p95: Double, max: Double) {
        self.p50 = p50
        self.p95 = p95
        self.max = max
    }

    /// The summary of `latencies` (any order), or `nil` when there are none.
    public init?(latencies: [Double]) {
        guard !latencies.isEmpty else { return nil }
        self.init(sorted: latencies.sorted())
    }

    /// The summary of latencies already sorted ascending (not empty).
    init(sorted: [Double]) {
        p50 = Self.nearestRank(50, of: sorted)
        p95 = Self.nearestRank(95, of: sorted)
        max = sorted[sorted.count - 1]
    }

    /// The `percent`-th percentile (1...100) of `sorted` (ascending, not empty) by nearest rank:
    /// the value at 1-based rank `⌈percent × n / 100⌉`, worked out in integers so no rounding of
    /// a `Double` can move it.
    static func nearestRank(_ percent: Int, of sorted: [Double]) -> Double {
        let rank = (percent * sorted.count + 99) / 100
        return sorted[Swift.min(Swift.max(rank, 1), sorted.count) - 1]
    }
}
