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

    /// One id's fate and action, each held since the generation it was first set in (of its own
    /// order) or not held (generation 0).
    ///
    /// The fates and the actions were two tables (`RecentTable`), each forgetting its own oldest
    /// ids: a request received was hashed and looked up in both. One table holds both now, each
    /// half kept and forgotten exactly as its own table did (`RecentRequestsEquivalenceTests`
    /// checks it against the maps both replaced), so a request received is looked up once.
    private struct Entry {
        var fate = Fate.received
        var fateGeneration = 0
        var action = ""
        var actionGeneration = 0

        var isEmpty: Bool { fateGeneration == 0 && actionGeneration == 0 }
    }

    private var entries: [String: Entry] = [:]
    /// The ids in the order their fates and their actions were first set.
    private var fateOrder = FirstSetOrder()
    private var actionOrder = FirstSetOrder()
    /// The most fates, and the most actions, remembered.
    let limit: Int

    init(limit: Int = 10_000) {
        self.limit = max(0, limit)
    }

    /// How many fates are remembered now.
    var fateCount: Int { fateOrder.held }

    /// The journey sent request `id` for `action`.
    mutating func received(_ id: String, action: String) {
        let fateGeneration = fateOrder.generation + 1
        let actionGeneration = actionOrder.generation + 1
        let made = Self.setReceived(&entries[id, default: Entry()], action: action, fateGeneration: fateGeneration, actionGeneration: actionGeneration)
        if made.fate { madeFate(id, generation: fateGeneration) }
        if made.action { madeAction(id, generation: actionGeneration) }
    }

    /// The action of request `id`, if it is still remembered.
    func action(of id: String) -> String? {
        guard let entry = entries[id], entry.actionGeneration != 0 else { return nil }
        return entry.action
    }

    /// `id` left `pendingRequests`; a response already seen stays the fate.
    mutating func leftPending(_ id: String) {
        setFate(id, to: .leftPending, unless: .answered)
    }

    /// A response to `id` went to the journey.
    mutating func answered(_ id: String) {
        setFate(id, to: .answered, unless: nil)
    }

    /// What became of `id`, if it is still remembered.
    func fate(of id: String) -> Fate? {
        guard let entry = entries[id], entry.fateGeneration != 0 else { return nil }
        return entry.fate
    }

    /// Sets the fate of `id` to `fate` unless it is `kept` now, with one lookup.
    private mutating func setFate(_ id: String, to fate: Fate, unless kept: Fate?) {
        let generation = fateOrder.generation + 1
        if Self.setFate(&entries[id, default: Entry()], to: fate, unless: kept, generation: generation) {
            madeFate(id, generation: generation)
        }
    }

    /// Sets a received request's fate and action in its entry; which of the two were made (not
    /// held before), with the generations given.
    private static func setReceived(
        _ entry: inout Entry, action: String, fateGeneration: Int, actionGeneration: Int
    ) -> (fate: Bool, action: Bool) {
        let madeFate = entry.fateGeneration == 0
        let madeAction = entry.actionGeneration == 0
        if madeFate { entry.fateGeneration = fateGeneration }
        if madeAction { entry.actionGeneration = actionGeneration }
        entry.fate = .received
        entry.action = action
        return (madeFate, madeAction)
    }

    /// Sets the fate in `entry` unless it holds `kept`: whether the fate was made (not held before).
    private static func setFate(_ entry: inout Entry, to fate: Fate, unless kept: Fate?, generation: Int) -> Bool {
        guard entry.fateGeneration != 0 else {
            entry.fate = fate
            entry.fateGeneration = generation
            return true
        }
        if entry.fate != kept { entry.fate = fate }
        return false
    }

    /// A fate was first set for `id`: it takes its place, and the oldest are forgotten beyond the limit.
    private mutating func madeFate(_ id: String, generation: Int) {
        fateOrder.append(id, generation: generation)
        while fateOrder.held > limit, let oldest = fateOrder.popOldest() {
            if let index = entries.index(forKey: oldest.key), entries.values[index].fateGeneration == oldest.generation {
                fateOrder.held -= 1
                entries.values[index].fateGeneration = 0
                if entries.values[index].isEmpty { entries.remove(at: index) }
            }
        }
        if fateOrder.needsCompacting(limit: limit) {
            let entries = self.entries
            fateOrder.compact { entries[$0.key]?.fateGeneration == $0.generation }
        }
    }

    /// An action was first set for `id`: as ``madeFate(_:generation:)`` for actions.
    private mutating func madeAction(_ id: String, generation: Int) {
        actionOrder.append(id, generation: generation)
        while actionOrder.held > limit, let oldest = actionOrder.popOldest() {
            if let index = entries.index(forKey: oldest.key), entries.values[index].actionGeneration == oldest.generation {
                actionOrder.held -= 1
                entries.values[index].actionGeneration = 0
                entries.values[index].action = ""
                if entries.values[index].isEmpty { entries.remove(at: index) }
            }
        }
        if actionOrder.needsCompacting(limit: limit) {
            let entries = self.entries
            actionOrder.compact { entries[$0.key]?.actionGeneration == $0.generation }
        }
    }
}

/// The order in which the keys of one half of ``RecentRequests`` were first set, as
/// BridgeCore's `BoundedMap` keeps it: an entry whose generation no longer matches is a key since
/// forgotten (or forgotten and set again).
struct FirstSetOrder {
    private var order: [(key: String, generation: Int)] = []
    private var head = 0
    /// The generation of the last key set (the next is one more).
    private(set) var generation = 0
    /// How many keys are held now.
    var held = 0

    /// A key first set, in generation `generation` (one more than ``generation``).
    mutating func append(_ key: String, generation: Int) {
        self.generation = generation
        held += 1
        order.append((key, generation))
    }

    /// The oldest key not yet looked at, or `nil` when every one was.
    mutating func popOldest() -> (key: String, generation: Int)? {
        guard head < order.count else { return nil }
        head += 1
        return order[head - 1]
    }

    /// Whether the bookkeeping of forgotten keys outnumbers `limit`, so that each key set costs
    /// O(1) amortised once it is dropped.
    func needsCompacting(limit: Int) -> Bool { order.count > 2 * limit + 16 }

    /// Keeps, of the keys not yet looked at, those `isHeld`.
    mutating func compact(_ isHeld: ((key: String, generation: Int)) -> Bool) {
        order = order[head...].filter(isHeld)
        head = 0
    }
}
