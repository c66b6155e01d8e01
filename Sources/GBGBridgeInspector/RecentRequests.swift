import BridgeCore

/// The fate of requests the adapter saw recently, so that an inspector answering one that is not
/// pending is told why, as BridgeCore's host tells it: already answered, or held by a handler or
/// slot. GBGBridge's public API only shows what is pending now; the rest is what the adapter saw
/// (the delegate's `didReceive`, `pendingRequests` over time, and the page script's reports of
/// responses).
///
/// Bounded: the oldest ids are forgotten first, and a forgotten id is reported as never seen
/// (`not_pending`), which is still true of it.
struct RecentRequests {
    /// What became of a request.
    enum Fate: Equatable {
        /// Received; no response seen yet.
        case received
        /// It was in `pendingRequests` and left without a response the page reported (the app
        /// answered it with no page attached, say).
        case leftPending
        /// A response to it was seen going to the journey.
        case answered
    }

    private(set) var fates: RecentTable<Fate>
    /// The action of each request received: a response that names none is threaded to it
    /// without reading GBGBridge's whole `receivedMessages`.
    private var actions: RecentTable<String>

    init(limit: Int = 10_000) {
        fates = RecentTable(capacity: limit)
        actions = RecentTable(capacity: limit)
    }

    /// The journey sent request `id` for `action`.
    mutating func received(_ id: String, action: String) {
        fates[id] = .received
        actions[id] = action
    }

    /// The action of request `id`, if it is still remembered.
    func action(of id: String) -> String? { actions[id] }

    /// `id` left `pendingRequests`; a response already seen stays the fate.
    mutating func leftPending(_ id: String) {
        fates.set(id, to: .leftPending, unless: { $0 == .answered })
    }

    /// A response to `id` went to the journey.
    mutating func answered(_ id: String) {
        fates[id] = .answered
    }

    /// What became of `id`, if it is still remembered.
    func fate(of id: String) -> Fate? { fates[id] }
}

/// A dictionary that forgets its oldest keys (first set first) beyond a capacity: BridgeCore's
/// `BoundedMap` as ``RecentRequests`` uses it (set and read; never removed), defined in this
/// module so that it is specialised for its values. The adapter updates its tables for every
/// request and response on the app's main thread, and `BoundedMap`, a generic type of another
/// module, ran there unspecialised, looking up type metadata on every call: that cost more than
/// the rest of the adapter's bookkeeping for a message (marking `BoundedMap` `@inlinable` was
/// tried: it still ran unspecialised here, 14,000 instructions a request, counted by the
/// bench's `adapter-public-request-answered` path). `RecentRequestsTests` checks that it
/// remembers and forgets exactly as `BoundedMap` does.
struct RecentTable<Value> {
    private var values: [String: (value: Value, generation: Int)] = [:]
    /// Keys in the order they were first set; an entry whose generation no longer matches
    /// `values` is a key since forgotten.
    private var order: [(key: String, generation: Int)] = []
    private var head = 0
    private var generation = 0
    /// The most keys it holds.
    let capacity: Int

    /// An empty table holding at most `capacity` keys (none if `capacity` is not positive).
    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// How many keys it holds now.
    var count: Int { values.count }

    /// The value for `key`, if it is still remembered. Setting a key already present changes its
    /// value and keeps its place; setting a new one may forget the oldest.
    subscript(key: String) -> Value? {
        get { values[key]?.value }
        set {
            guard let newValue else {
                values.removeValue(forKey: key)
                return
            }
            // One lookup: the entry is changed in place, or made with the next generation.
            let next = generation + 1
            guard Self.store(newValue, in: &values[key, default: (newValue, next)], made: next) else { return }
            generation = next
            order.append((key, next))
            while values.count > capacity, head < order.count {
                let oldest = order[head]
                head += 1
                if let index = values.index(forKey: oldest.key), values.values[index].generation == oldest.generation {
                    values.remove(at: index)
                }
            }
            // The bookkeeping of forgotten keys is dropped once it outnumbers the capacity, so
            // each key set costs O(1) amortised.
            if order.count > 2 * capacity + 16 {
                order = order[head...].filter { values[$0.key]?.generation == $0.generation }
                head = 0
            }
        }
    }

    /// Sets `key` to `newValue` unless its value now is one `keep` holds to: the same as
    /// `if !(table[key].map(keep) ?? false) { table[key] = newValue }`, with one lookup for a
    /// key it holds (the usual case: a request seen arrive) instead of two.
    mutating func set(_ key: String, to newValue: Value, unless keep: (Value) -> Bool) {
        if let index = values.index(forKey: key) {
            if !keep(values.values[index].value) { values.values[index].value = newValue }
            return
        }
        self[key] = newValue
    }

    /// Puts `value` in `entry`, unless `entry` was just made for it (its generation is `made`,
    /// which no entry had before): whether it was made.
    private static func store(_ value: Value, in entry: inout (value: Value, generation: Int), made: Int) -> Bool {
        guard entry.generation != made else { return true }
        entry.value = value
        return false
    }
}
