import DequeModule

/// The agent's records of pending requests, in the order they became pending, with removal by
/// correlation id in constant time.
///
/// A journey that leaks pending requests can leave tens of thousands of them; a plain array made
/// each removal a linear search and each addition a sum over all records. Here removal marks the
/// id's entry in the order as stale (through a generation number, since an id may become pending
/// again later), and stale entries are skipped and compacted away.
struct PendingRecords {
    private var records: [String: (generation: Int, json: [UInt8])] = [:]
    private var order: Deque<(id: String, generation: Int)> = []
    private var nextGeneration = 0

    /// Bytes of JSON kept.
    private(set) var bytes = 0

    /// Records kept.
    var count: Int { records.count }

    /// Keeps `json` as the record of `id` (replacing an earlier one), last in order.
    mutating func insert(_ id: String, _ json: [UInt8]) {
        _ = remove(id)
        nextGeneration += 1
        records[id] = (nextGeneration, json)
        order.append((id, nextGeneration))
        bytes += json.count
    }

    /// Forgets the record of `id`; returns whether there was one.
    mutating func remove(_ id: String) -> Bool {
        guard let removed = records.removeValue(forKey: id) else { return false }
        bytes -= removed.json.count
        while let first = order.first, records[first.id]?.generation != first.generation { order.removeFirst() }
        if order.count > 2 * records.count + 64 {
            order = Deque(order.filter { records[$0.id]?.generation == $0.generation })
        }
        return true
    }

    /// Calls `body` with each record's JSON, oldest first.
    func forEach(_ body: ([UInt8]) -> Void) {
        for entry in order {
            if let record = records[entry.id], record.generation == entry.generation { body(record.json) }
        }
    }
}
