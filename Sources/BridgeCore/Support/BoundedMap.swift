/// A dictionary that forgets its oldest keys beyond a capacity: what a host or a journey
/// remembers about past messages (requests already answered, responses not yet read, the fate
/// of a request) without growing for ever, however long it runs.
///
/// Oldest means first set: setting a key that is already present changes its value but keeps
/// its place. Removing a key frees its room at once. The bookkeeping of forgotten and removed
/// keys is dropped now and then, so memory stays within a small multiple of the capacity
/// whatever mix of setting and removing happens.
///
/// One type for the whole package (``BridgeHost``'s answered requests, the simulated journey,
/// the GBGBridge adapter); used as a set through ``insert(_:)`` when `Value` is `Void`.
package struct BoundedMap<Value> {
    private var values: [String: (value: Value, generation: Int)] = [:]
    /// Keys in the order they were first set; an entry whose generation no longer matches
    /// `values` is a key since forgotten or removed.
    private var order: [(key: String, generation: Int)] = []
    private var head = 0
    private var generation = 0
    /// The most keys it holds.
    package let capacity: Int

    /// An empty map holding at most `capacity` keys (none if `capacity` is not positive).
    package init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// How many keys it holds now.
    package var count: Int { values.count }

    /// Whether `key` is still remembered.
    package func contains(_ key: String) -> Bool { values[key] != nil }

    /// The value for `key`, if it is still remembered; setting `nil` removes the key.
    package subscript(key: String) -> Value? {
        get { values[key]?.value }
        set {
            guard let newValue else {
                values.removeValue(forKey: key)
                return
            }
            // One lookup for a new key (the common case); a key already present is put back
            // with its own generation, so it keeps its place.
            let next = generation + 1
            if let existing = values.updateValue((newValue, next), forKey: key) {
                values[key] = (newValue, existing.generation)
                return
            }
            generation = next
            order.append((key, next))
            while values.count > capacity, head < order.count {
                let oldest = order[head]
                head += 1
                if let index = values.index(forKey: oldest.key), values[index].value.generation == oldest.generation {
                    values.remove(at: index)
                }
            }
            compactIfNeeded()
        }
    }

    /// How many keys the bookkeeping holds, live or not: stays within twice the capacity plus a
    /// little, however keys come and go.
    var bookkeepingCount: Int { order.count }

    /// Drops the entries of keys already forgotten or removed once they outnumber the capacity,
    /// so each key set costs O(1) amortised and removed keys do not pile up.
    private mutating func compactIfNeeded() {
        guard order.count > 2 * capacity + 16 else { return }
        order = order[head...].filter { values[$0.key]?.generation == $0.generation }
        head = 0
    }
}

extension BoundedMap where Value == Void {
    /// Remembers `key` (a set's insert): a key already present keeps its place.
    package mutating func insert(_ key: String) {
        self[key] = ()
    }
}
