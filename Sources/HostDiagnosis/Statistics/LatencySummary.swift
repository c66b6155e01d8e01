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
    ///
    /// Each percentile is found by selection (the k-th smallest, in linear time on average)
    /// rather than by sorting every latency: `stats` works this out for logs of a million
    /// messages (the statistics view keeps its percentiles running instead, with the same values).
    public init?(latencies: [Double]) {
        guard !latencies.isEmpty else { return nil }
        var values = latencies
        p50 = Self.select(Self.rank(50, count: values.count) - 1, in: &values)
        p95 = Self.select(Self.rank(95, count: values.count) - 1, in: &values)
        max = values.max() ?? p95
    }

    /// The 1-based nearest rank of the `percent`-th percentile (1...100) of `count` values:
    /// `⌈percent × count / 100⌉`, worked out in integers so no rounding of a `Double` can move it.
    static func rank(_ percent: Int, count: Int) -> Int {
        Swift.min(Swift.max((percent * count + 99) / 100, 1), count)
    }

    /// The `k`-th smallest (0-based) of `values` (not empty, no NaN), rearranging them: a
    /// quickselect with a three-way partition, so runs of equal latencies (common: many
    /// answers take the same milliseconds) cost no more than distinct ones.
    static func select(_ k: Int, in values: inout [Double]) -> Double {
        var low = 0
        var high = values.count - 1
        while low < high {
            let pivot = medianOfThree(values[low], values[low + (high - low) / 2], values[high])
            // [low, less) < pivot, [less, index) == pivot, (greater, high] > pivot.
            var less = low
            var index = low
            var greater = high
            while index <= greater {
                if values[index] < pivot {
                    values.swapAt(less, index)
                    less += 1
                    index += 1
                } else if values[index] > pivot {
                    values.swapAt(index, greater)
                    greater -= 1
                } else {
                    index += 1
                }
            }
            // The pivot is one of the values, so the middle part is never empty: each round
            // leaves fewer values to look at.
            if k < less {
                high = less - 1
            } else if k > greater {
                low = greater + 1
            } else {
                return pivot
            }
        }
        return values[low]
    }

    private static func medianOfThree(_ a: Double, _ b: Double, _ c: Double) -> Double {
        Swift.max(Swift.min(a, b), Swift.min(Swift.max(a, b), c))
    }
}
