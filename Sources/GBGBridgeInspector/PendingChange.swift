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
    /// The requests that left, in the order they had: id and action.
    var removed: [(id: String, action: String)] = []
    /// The requests that joined, in the order they have (a part of the list now, not a copy).
    var added: ArraySlice<BridgeMessage> = []

    /// Whether the ordered walk found the change (the list before, less ``removed``, is the start
    /// of the list now, and ``added`` its end); `false` when it was worked out with sets.
    private var walked = false
    /// When the walk found the change: where each of ``removed`` was in the list before, in
    /// order, if they are few (the only case in which they are used).
    private var removedPositions = FewPositions()

    /// Whether the ids of the list now are all different (`false` when that is not known: the
    /// list before was not known to be, and the walk found the change). Handed back as
    /// `beforeIsUnique` for the next look, it spares that look a scan of the whole list.
    private(set) var afterIsUnique = false

    /// Nothing left and nothing joined.
    var isEmpty: Bool { removed.isEmpty && added.isEmpty }

    /// The change from `before` (ids and actions, as last seen) to `after` (the list now).
    ///
    /// `beforeIsUnique` says that the ids of `before` are all different (``afterIsUnique`` of the
    /// change that made it): then a request that left cannot still be there unless it joined
    /// again, so it is looked for only among those that joined, not in the whole list. The
    /// result is the same either way.
    init(from before: [(id: String, action: String)], to after: [BridgeMessage], beforeIsUnique: Bool = false) {
        // The walk: each request seen before is either the next one now, or it left.
        var next = 0
        var left: [(id: String, action: String)] = []
        var leftPositions = FewPositions()
        for position in before.indices {
            if next < after.count, after[next].correlationId == before[position].id {
                next += 1
            } else {
                left.append(before[position])
                leftPositions.append(position)
            }
        }
        let joined = after[next...]
        // The walk's answer is right when none of those that left is still there and none of
        // those that joined was there before (both checks are short: few leave or join at once).
        // With the ids before all different, the list now less those that joined is the list
        // before less those that left, which holds none of them: only those that joined can.
        let leftAreGone =
            beforeIsUnique
            ? left.allSatisfy { request in !joined.contains { $0.correlationId == request.id } }
            : left.allSatisfy { request in !after.contains { $0.correlationId == request.id } }
        let walkHolds = leftAreGone && joined.allSatisfy { message in !before.contains { $0.id == message.correlationId } }
        if walkHolds {
            removed = left
            added = joined
            walked = true
            removedPositions = leftPositions
            // The list now is what stayed of the list before and those that joined, none of
            // which was there before.
            afterIsUnique = beforeIsUnique && Self.allDifferent(added)
            return
        }
        let now = Set(after.map(\.correlationId))
        let then = Set(before.map(\.id))
        removed = before.filter { !now.contains($0.id) }
        added = after.filter { !then.contains($0.correlationId) }[...]
        afterIsUnique = now.count == after.count
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
    /// every request in it when the walk found the change (``removed`` taken out, ``added``
    /// appended: the usual one or two).
    ///
    /// `since` holds, for each of `seen`, when its id was first seen (every request with one id
    /// has the same time); it follows `seen`, those that joined taking `time`. That is what a
    /// dictionary by id gave, whose entry was set when a request joined and removed when it left,
    /// without hashing an id for either.
    func apply(to seen: inout [(id: String, action: String)], since: inout [Date], after: [BridgeMessage], time: Date) {
        // Made again when the walk did not find the change, or when many left at once (each
        // removal moves the rest of the list).
        guard walked, removedPositions.holdsAll, since.count == seen.count else {
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

/// Up to four positions in a list, held inline (a look after a message finds one or two requests
/// gone; an array of them was allocated on every such look), and how many were added in all.
struct FewPositions {
    private var first = 0
    private var second = 0
    private var third = 0
    private var fourth = 0
    /// How many positions were appended (only the first four are held).
    private(set) var count = 0

    /// Appends `position` (held if it is one of the first four).
    mutating func append(_ position: Int) {
        switch count {
        case 0: first = position
        case 1: second = position
        case 2: third = position
        case 3: fourth = position
        default: break
        }
        count += 1
    }

    /// Whether every position appended is held (at most four were).
    var holdsAll: Bool { count <= 4 }

    /// Calls `body` with each position held, the last appended first.
    func forEachFromLast(_ body: (Int) -> Void) {
        if count > 3 { body(fourth) }
        if count > 2 { body(third) }
        if count > 1 { body(second) }
        if count > 0 { body(first) }
    }
}
