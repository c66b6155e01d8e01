/// Latencies kept so that their nearest-rank p50, p95 and max stay known as more arrive: each
/// percentile is the top of a max-heap holding the `rank` smallest values, beside a min-heap of
/// the rest, so a new latency costs O(log n) instead of a selection over every one. The values
/// are exactly those ``LatencySummary/init(latencies:)`` selects.
///
/// Latencies are taken a batch at a time: ``append(_:)`` collects, ``settle()`` adds them. A
/// batch larger than what is held already (the first look at a long log) is added by one
/// selection and two heap builds, in linear time, instead of one push at a time.
struct RunningLatencies: LatencyCollection {
    private var median = RunningPercentile(percent: 50)
    private var p95 = RunningPercentile(percent: 95)
    private var max: Double?
    /// Appended since the last ``settle()``.
    private var arriving: [Double] = []

    init() {}

    mutating func append(_ latency: Double) {
        arriving.append(latency)
    }

    mutating func settle() {
        guard !arriving.isEmpty else { return }
        if let largest = arriving.max() { max = Swift.max(max ?? largest, largest) }
        median.insert(arriving)
        p95.insert(arriving)
        arriving.removeAll(keepingCapacity: false)
    }

    var summary: LatencySummary? {
        guard let p50 = median.value, let p95 = p95.value, let max else { return nil }
        return LatencySummary(p50: p50, p95: p95, max: max)
    }
}

/// One nearest-rank percentile of a growing set of numbers (no NaN): a max-heap of the `rank`
/// smallest (stored negated, so both heaps are min-heaps) and a min-heap of the rest. The
/// percentile is the largest of the smaller part.
struct RunningPercentile: Sendable {
    let percent: Int
    /// The `rank` smallest values, negated.
    private var lower = MinHeap()
    /// The others.
    private var upper = MinHeap()

    init(percent: Int) {
        self.percent = percent
    }

    var count: Int { lower.count + upper.count }

    /// The percentile, or `nil` with no values.
    var value: Double? { lower.top.map { -$0 } }

    /// Adds `values`: one at a time when they are few beside those held, else all rebuilt.
    mutating func insert(_ values: [Double]) {
        if values.count > count {
            rebuild(adding: values)
            return
        }
        for value in values { insert(value) }
    }

    private mutating func insert(_ value: Double) {
        if let top = lower.top, value <= -top { lower.push(-value) } else { upper.push(value) }
        let rank = LatencySummary.rank(percent, count: count)
        while lower.count > rank, let moved = lower.pop() { upper.push(-moved) }
        while lower.count < rank, let moved = upper.pop() { lower.push(-moved) }
    }

    /// Every value held and `values`, split at the rank by one selection, each side made a heap.
    private mutating func rebuild(adding values: [Double]) {
        var all = values
        all.reserveCapacity(count + values.count)
        all.append(contentsOf: lower.storage.lazy.map { -$0 })
        all.append(contentsOf: upper.storage)
        let rank = LatencySummary.rank(percent, count: all.count)
        // The selection leaves the values before the rank no larger than it and those after no smaller.
        _ = LatencySummary.select(rank - 1, in: &all)
        lower = MinHeap(all[..<rank].map { -$0 })
        upper = MinHeap(Array(all[rank...]))
    }
}

/// A binary min-heap of numbers in an array.
struct MinHeap: Sendable {
    private(set) var storage: [Double]

    init(_ values: [Double] = []) {
        storage = values
        var index = storage.count / 2 - 1
        while index >= 0 {
            siftDown(from: index)
            index -= 1
        }
    }

    var count: Int { storage.count }
    var top: Double? { storage.first }

    mutating func push(_ value: Double) {
        storage.append(value)
        var child = storage.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard storage[child] < storage[parent] else { break }
            storage.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> Double? {
        guard let top = storage.first else { return nil }
        let last = storage.removeLast()
        if !storage.isEmpty {
            storage[0] = last
            siftDown(from: 0)
        }
        return top
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < storage.count else { return }
            var smallest = left
            if left + 1 < storage.count, storage[left + 1] < storage[left] { smallest = left + 1 }
            guard storage[smallest] < storage[parent] else { return }
            storage.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
