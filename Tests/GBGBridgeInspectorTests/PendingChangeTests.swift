import BridgeCore
import Foundation
@testable import GBGBridgeInspector
import InspectorProtocol
import Testing

/// `PendingChange`, the adapter's comparison of GBGBridge's `pendingRequests` with the last look,
/// gives exactly what comparing the two lists' sets of ids gives: the same requests removed and
/// added, in the same order, whether the list changed the usual way (answered requests gone, new
/// ones at the end) or not (reordered, ids twice, everything replaced).
@Suite("What changed in pendingRequests")
struct PendingChangeTests {
    /// The rule the adapter used before: by sets of ids.
    static func reference(from before: [(id: String, action: String)], to after: [BridgeMessage]) -> (removed: [String], added: [String]) {
        let now = Set(after.map(\.correlationId))
        let then = Set(before.map(\.id))
        return (before.filter { !now.contains($0.id) }.map(\.id), after.filter { !then.contains($0.correlationId) }.map(\.correlationId))
    }

    static func request(_ id: String) -> BridgeMessage {
        BridgeMessage(correlationId: id, type: .request, timestamp: 0, payload: .init(action: "action-\(id)"))
    }

    static let before = Date(timeIntervalSince1970: 1_000)
    static let later = Date(timeIntervalSince1970: 2_000)

    static func check(_ before: [String], _ after: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let seen = before.map { (id: $0, action: "action-\($0)") }
        let now = after.map(request)
        let change = PendingChange(from: seen, to: now)
        let expected = reference(from: seen, to: now)
        #expect(change.removed(from: seen).map(\.id) == expected.removed, "\(before) → \(after)", sourceLocation: sourceLocation)
        #expect(change.removed(from: seen).map(\.action) == expected.removed.map { "action-\($0)" }, sourceLocation: sourceLocation)
        #expect(change.removedCount == expected.removed.count, sourceLocation: sourceLocation)
        #expect(change.added.map(\.correlationId) == expected.added, "\(before) → \(after)", sourceLocation: sourceLocation)
        #expect(change.isEmpty == (expected.removed.isEmpty && expected.added.isEmpty), sourceLocation: sourceLocation)
        // The adapter's first look: unchanged exactly when the ids are the same, in the same
        // order, and then the change is empty (the list seen stays as it is).
        #expect(PendingChange.isUnchanged(from: seen, to: now) == (before == after), "\(before) → \(after)", sourceLocation: sourceLocation)
        if PendingChange.isUnchanged(from: seen, to: now) { #expect(change.isEmpty, sourceLocation: sourceLocation) }
        // Applied to the list it was worked out from, it gives what making the list again from `after` gives.
        var applied = seen
        var since = seen.map { _ in Self.before }
        change.apply(to: &applied, since: &since, after: now, time: Self.later)
        #expect(applied.map(\.id) == after, "\(before) → \(after)", sourceLocation: sourceLocation)
        // Those that stayed keep their time, those that joined have the time of the look.
        #expect(since == after.map { before.contains($0) ? Self.before : Self.later }, "\(before) → \(after)", sourceLocation: sourceLocation)
        #expect(applied.map(\.action) == after.map { "action-\($0)" }, sourceLocation: sourceLocation)
        // Told that the ids before are all different (when they are), the change is the same,
        // and what it says of the ids now is true.
        let unique = Set(before).count == before.count
        let told = PendingChange(from: seen, to: now, beforeIsUnique: unique)
        #expect(told.removed(from: seen).map(\.id) == change.removed(from: seen).map(\.id), "\(before) → \(after)", sourceLocation: sourceLocation)
        #expect(told.removed(from: seen).map(\.action) == change.removed(from: seen).map(\.action), sourceLocation: sourceLocation)
        #expect(told.added == change.added, "\(before) → \(after)", sourceLocation: sourceLocation)
        var appliedTold = seen
        var sinceTold = seen.map { _ in Self.before }
        told.apply(to: &appliedTold, since: &sinceTold, after: now, time: Self.later)
        #expect(sinceTold == since, sourceLocation: sourceLocation)
        #expect(appliedTold.map(\.id) == after, sourceLocation: sourceLocation)
        if told.afterIsUnique { #expect(Set(after).count == after.count, "\(before) → \(after)", sourceLocation: sourceLocation) }
        if unique, Set(after).count == after.count {
            // Different before and after: the adapter keeps knowing it, on the walk's path and
            // on the sets' path.
            #expect(told.afterIsUnique, "\(before) → \(after)", sourceLocation: sourceLocation)
        }
        #expect(PendingChange.allDifferent(now) == (Set(after).count == after.count), sourceLocation: sourceLocation)
    }

    @Test("the usual changes: one joins at the end, one answered leaves, both, nothing")
    func usual() {
        Self.check(["a", "b"], ["a", "b", "c"])
        Self.check(["a", "b", "c"], ["a", "c"])
        Self.check(["a", "b", "c"], ["b", "c", "d", "e"])
        Self.check(["a", "b"], ["a", "b"])
        Self.check([], ["a"])
        Self.check(["a"], [])
        Self.check([], [])
        // Many answered at once, between two looks.
        Self.check(["a", "b", "c", "d", "e", "f", "g"], ["g", "h"])
        Self.check(["a", "b", "c", "d", "e"], ["b", "d", "x"])
        let change = PendingChange(from: [("a", "x"), ("b", "y")], to: [Self.request("a"), Self.request("b")])
        #expect(change.isEmpty)
    }

    @Test("unusual changes give what sets give: reordered, an id twice, an answered id back again, all replaced")
    func unusual() {
        Self.check(["a", "b"], ["b", "a"])
        Self.check(["a", "b"], ["b", "a", "c"])
        Self.check(["a", "a"], ["a"])
        Self.check(["a"], ["a", "a"])
        Self.check(["a", "b", "c"], ["c", "x", "a"])
        Self.check(["a", "b"], ["x", "y"])
        Self.check(["a", "b", "a"], ["b", "a", "b"])
    }

    @Test("random sequences of looks (5 seeds × 2,000 looks): always what sets give")
    func randomLooks() {
        for seed in UInt64(1)...5 {
            var random = SplitMix64(seed: seed)
            var list: [String] = []
            var next = 0
            for _ in 0..<2_000 {
                let before = list
                // Mostly the usual (answers leave, requests join at the end); now and then a
                // reorder, a duplicate or an id back again.
                for _ in 0..<Int.random(in: 0...2, using: &random) where !list.isEmpty {
                    list.remove(at: Int.random(in: 0..<list.count, using: &random))
                }
                for _ in 0..<Int.random(in: 0...2, using: &random) {
                    next += 1
                    list.append("r\(next)")
                }
                switch Int.random(in: 0..<20, using: &random) {
                case 0 where list.count > 1: list.swapAt(0, list.count - 1)
                case 1 where !list.isEmpty: list.append(list[Int.random(in: 0..<list.count, using: &random)])
                case 2 where !before.isEmpty: list.append(before[Int.random(in: 0..<before.count, using: &random)])
                case 3: list.shuffle(using: &random)
                default: break
                }
                if list.count > 60 { list.removeFirst(list.count - 60) }
                Self.check(before, list)
            }
        }
    }

    @Test("the flag handed from look to look, as the adapter keeps it, always says the truth (5 seeds × 2,000 looks)")
    func chainedFlag() {
        for seed in UInt64(11)...15 {
            var random = SplitMix64(seed: seed)
            var list: [String] = []
            var seen: [(id: String, action: String)] = []
            var seenIsUnique = PendingChange.allDifferent(seen)
            // The times as the adapter kept them before: by id, set when a request joined,
            // removed when it left.
            var since: [Date] = []
            var sinceByID: [String: Date] = [:]
            var next = 0
            var known = 0
            for look in 0..<2_000 {
                for _ in 0..<Int.random(in: 0...2, using: &random) where !list.isEmpty {
                    list.remove(at: Int.random(in: 0..<list.count, using: &random))
                }
                for _ in 0..<Int.random(in: 0...2, using: &random) {
                    next += 1
                    list.append("r\(next)")
                }
                switch Int.random(in: 0..<30, using: &random) {
                case 0 where !list.isEmpty: list.append(list[Int.random(in: 0..<list.count, using: &random)])
                case 1 where list.count > 1: list.swapAt(0, list.count - 1)
                case 2: list.append(contentsOf: ["twice", "twice"])
                default: break
                }
                if list.count > 60 { list.removeFirst(list.count - 60) }
                let now = list.map(Self.request)
                let reference = PendingChange(from: seen, to: now)
                let change = PendingChange(from: seen, to: now, beforeIsUnique: seenIsUnique)
                #expect(change.removed(from: seen).map(\.id) == reference.removed(from: seen).map(\.id), "seed \(seed), look \(look)")
                #expect(change.added == reference.added, "seed \(seed), look \(look)")
                if !change.isEmpty {
                    let time = Date(timeIntervalSince1970: Double(look))
                    change.forEachRemoved(from: seen) { id, _ in sinceByID.removeValue(forKey: id) }
                    for message in change.added { sinceByID[message.correlationId] = time }
                    change.apply(to: &seen, since: &since, after: now, time: time)
                    seenIsUnique = change.afterIsUnique
                }
                #expect(since == seen.map { sinceByID[$0.id] ?? .distantPast }, "seed \(seed), look \(look)")
                if seenIsUnique {
                    known += 1
                    #expect(Set(seen.map(\.id)).count == seen.count, "seed \(seed), look \(look)")
                }
            }
            #expect(known > 100, "the ids are known to be different on most looks (seed \(seed))")
        }
    }
}
