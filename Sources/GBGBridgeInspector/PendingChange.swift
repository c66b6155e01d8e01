import BridgeCore
import Foundation

/// What changed in GBGBridge's `pendingRequests` between two looks: the requests that left it
/// (with their actions, in the order they had) and those that joined it (in the order they have).
///
/// A request is removed when its id is no longer there and added when its id was not there
/// before, whatever the order. ``PublicAPIHost`` looks after every message (a request landing in
/// `pendingRequests`, an answer sent), so the list is nearly always the one before, less a few
/// answered requests, plus a few at its end. That case is found in one ordered walk over the two
/// lists, comparing ids, with no sets built (hashing every id on each look cost the app's main
/// thread more than the rest of the adapter's work per message); anything else (a list
/// reordered, an id twice) is worked out with sets, with the same result.
struct PendingChange {
    /// The requests that joined, in the order they have (a part of the list now, not a copy).
    private(set) var added: ArraySlice<BridgeMessage> = []
    /// How many requests left.
    private(set) var removedCount = 0

    /// Whether the ordered walk found the change (the list before, less those that left, is the
    /// start of the list now, and ``added`` its end); `false` when it was worked out with sets.
    private var walked = false
    /// When the walk found the change: where each request that left was in the list before, in
    /// order. Their ids and actions are read from that list when reported
    /// (``forEachRemoved(from:_:)``), so that one request answered builds no array.
    private var removedPositions = FewPositions()
    /// When sets found the change: the requests that left, id and action, in the order they had.
    private var removedBySets: [(id: String, action: String)] = []

    /// Whether the ids of the list now are all different (`false` when that is not known: the
    /// list before was not known to be, and the walk found the change). Handed back as
    /// `beforeIsUnique` for the next look, it spares that look a scan of the whole list.
    private(set) var afterIsUnique = false

    /// Nothing left and nothing joined.
    var isEmpty: Bool { removedCount == 0 && added.isEmpty }

    /// The change from `before` (ids and actions, as last seen) to `after` (the list now).
    ///
    /// `beforeIsUnique` says that the ids of `before` are all different (``afterIsUnique`` of the
    /// change that made it): then a request that left cannot still be there unless it joined
    /// again, so it is looked for only among those that joined, not in the whole list. The
    /// result is the same either way.
    @inline(__always)
    init(from before: [(id: String, action: String)], to after: [BridgeMessage], beforeIsUnique: Bool = false) {
        // The walk: each request seen before is either the next one now, or it left.
        var next = 0
        var left = FewPositions()
        for position in before.indices {
            if next < after.count, after[next].correlationId == before[position].id {
                next += 1
            } else {
                left.append(position)
            }
        }
        let joined = after[next...]
        // The walk's answer is right when none of those that left is still there and none of
        // those that joined was there before (both checks are short: few leave or join at once).
        // With the ids before all different, the list now less those that joined is the list
        // before less those that left, which holds none of them: only those that joined can.
        let leftAreGone =
            beforeIsUnique
            ? left.allSatisfy { position in
                let id = before[position].id
                return !joined.contains { $0.correlationId == id }
            }
            : left.allSatisfy { position in
                let id = before[position].id
                return !after.contains { $0.correlationId == id }
            }
        let walkHolds = leftAreGone && joined.allSatisfy { message in !before.contains { $0.id == message.correlationId } }
        if walkHolds {
            removedCount = left.count
            removedPositions = left
            added = joined
            walked = true
            // The list now is what stayed of the list before and those that joined, none of
            // which was there before.
            afterIsUnique = beforeIsUnique && Self.allDifferent(added)
            return
        }
        let now = Set(after.map(\.correlationId))
        let then = Set(before.map(\.id))
        removedBySets = before.filter { !now.contains($0.id) }
        removedCount = removedBySets.count
        added = after.filter { !then.contains($0.correlationId) }[...]
        afterIsUnique = now.count == after.count
    }

    /// Calls `body` with the id and action of each request that left, in the order they had.
    /// `before` must be the list this change was worked out from (the walk kept only where they
    /// were in it); a position it does not hold is skipped, never read.
    func forEachRemoved(from before: [(id: String, action: String)], _ body: (_ id: String, _ action: String) -> Void) {
        guard walked else {
            for request in removedBySets { body(request.id, request.action) }
            return
        }
        removedPositions.forEach { position in
            if position < before.count { body(before[position].id, before[position].action) }
        }
    }

    /// The requests that left, id and action, in the order they had (``forEachRemoved(from:_:)``
    /// gathered): for a caller that wants them as a list.
    func removed(from before: [(id: String, action: String)]) -> [(id: String, action: String)] {
        var removed: [(id: String, action: String)] = []
        forEachRemoved(from: before) { removed.append(($0, $1)) }
        return removed
    }

    /// Whether `after` holds the requests of `before`, in the same order: no change, found with
    /// one comparison of ids per request and nothing built (what a look after a message that
    /// changed nothing in `pendingRequests`, or before anything was seen, finds).
    static func isUnchanged(from before: [(id: String, action: String)], to after: [BridgeMessage]) -> Bool {
        guard before.count == after.count else { return false }
        for index in before.indices where before[index].id != after[index].correlationId {
            return false
        }
        return true
    }

    /// Whether the ids of `messages` are all different.
    static func allDifferent(_ messages: some RandomAccessCollection<BridgeMessage>) -> Bool {
        // Few join at once: comparing pairs is cheaper than hashing every id.
        guard messages.count > 8 else {
            for index in messages.indices.dropFirst() {
                let id = messages[index].correlationId
                if messages[..<index].contains(where: { $0.correlationId == id }) { return false }
            }
            return true
        }
        return Set(messages.map(\.correlationId)).count == messages.count
    }

    /// Whether the ids of `seen` are all different: for the first look's `beforeIsUnique`.
    static func allDifferent(_ seen: [(id: String, action: String)]) -> Bool {
        Set(seen.map(\.id)).count == seen.count
    }

    /// Brings `seen`, the list this change was worked out from, to the ids and actions of `after`,
    /// the list it was worked out to: the same as making them again from `after`, without copying
    /// every request in it when the walk found the change (those that left taken out, ``added``
    /// appended: the usual one or two).
    ///
    /// `since` holds, for each of `seen`, when its id was first seen (every request with one id
    /// has the same time); it follows `seen`, those that joined taking `time`. That is what a
    /// dictionary by id gave, whose entry was set when a request joined and removed when it left,
    /// without hashing an id for either.
    func apply(to seen: inout [(id: String, action: String)], since: inout [Date], after: [BridgeMessage], time: Date) {
        // Made again when the walk did not find the change, or when many left at once (each
        // removal moves the rest of the list).
        guard walked, removedPositions.count <= FewPositions.inline, since.count == seen.count,
            removedPositions.allSatisfy({ $0 < seen.count })
        else {
            var firstSeen: [String: Date] = [:]
            for (request, time) in zip(seen, since) where firstSeen[request.id] == nil { firstSeen[request.id] = time }
            seen = after.map { ($0.correlationId, $0.payload.action) }
            since = after.map { firstSeen[$0.correlationId] ?? time }
            return
        }
        // From the last, so that each position still names the request it named before.
        removedPositions.forEachFromLast { position in
            seen.remove(at: position)
            since.remove(at: position)
        }
        for message in added {
            seen.append((message.correlationId, message.payload.action))
            since.append(time)
        }
    }
}

/// Positions in a list, in the order appended: the first four held inline (a look after a
/// message finds one or two requests gone, and an array of them was allocated on every such
/// look), any more in an array made only then.
struct FewPositions {
    /// How many positions are held inline.
    static let inline = 4

    private var first = 0
    private var second = 0
    private var third = 0
    private var fourth = 0
    /// Those after the fourth.
    private var more: [Int] = []
    /// How many positions were appended.
    private(set) var count = 0

    /// Appends `position`.
    mutating func append(_ position: Int) {
        switch count {
        case 0: first = position
        case 1: second = position
        case 2: third = position
        case 3: fourth = position
        default: more.append(position)
        }
        count += 1
    }

    /// Calls `body` with each position, the first appended first.
    func forEach(_ body: (Int) -> Void) {
        if count > 0 { body(first) }
        if count > 1 { body(second) }
        if count > 2 { body(third) }
        if count > 3 { body(fourth) }
        for position in more { body(position) }
    }

    /// Calls `body` with each position, the last appended first.
    func forEachFromLast(_ body: (Int) -> Void) {
        for position in more.reversed() { body(position) }
        if count > 3 { body(fourth) }
        if count > 2 { body(third) }
        if count > 1 { body(second) }
        if count > 0 { body(first) }
    }

    /// Whether every position satisfies `predicate` (checked first to last, stopping at the first that does not).
    func allSatisfy(_ predicate: (Int) -> Bool) -> Bool {
        if count > 0, !predicate(first) { return false }
        if count > 1, !predicate(second) { return false }
        if count > 2, !predicate(third) { return false }
        if count > 3, !predicate(fourth) { return false }
        return more.allSatisfy(predicate)
    }
}
