import BridgeCore
@testable import GBGBridgeInspector
import InspectorProtocol
import Testing

@Suite("What the adapter remembers of requests")
struct RecentRequestsTests {
    @Test("fates are kept for the newest ids only; an answer updates a fate without using more room")
    func bounded() {
        var recent = RecentRequests(limit: 3)
        for id in ["a", "b", "c"] { recent.received(id, action: "nfc.read") }
        recent.answered("b")
        #expect(recent.fate(of: "a") == .received)
        #expect(recent.fate(of: "b") == .answered)
        recent.received("d", action: "device.info")
        #expect(recent.fate(of: "a") == nil, "the oldest is forgotten")
        #expect(recent.fate(of: "d") == .received)
        for index in 0..<100 { recent.received("x\(index)", action: "a\(index)") }
        #expect(recent.fateCount == 3)
        #expect(recent.fate(of: "x99") == .received)
        #expect(recent.action(of: "x99") == "a99")
        #expect(recent.action(of: "d") == nil, "its action is forgotten with it")
    }

    @Test("leaving pendingRequests is remembered, but never hides a response already seen")
    func leftPending() {
        var recent = RecentRequests(limit: 10)
        recent.received("p", action: "wallet.addPass")
        recent.leftPending("p")
        #expect(recent.fate(of: "p") == .leftPending)
        recent.answered("q")
        recent.leftPending("q")
        #expect(recent.fate(of: "q") == .answered)
        recent.leftPending("seen-only-as-pending")
        #expect(recent.fate(of: "seen-only-as-pending") == .leftPending)
    }
}

/// `RecentRequests` keeps its fates and actions in one table of its own instead of two of
/// BridgeCore's `BoundedMap`: each must be remembered and forgotten exactly as its map did.
@Suite("What the adapter remembers of requests, against the two maps it replaced")
struct RecentRequestsEquivalenceTests {
    /// The two maps as the adapter had them.
    struct Reference {
        var fates: BoundedMap<RecentRequests.Fate>
        var actions: BoundedMap<String>

        init(limit: Int) {
            fates = BoundedMap(capacity: limit)
            actions = BoundedMap(capacity: limit)
        }

        mutating func received(_ id: String, action: String) {
            fates[id] = .received
            actions[id] = action
        }

        mutating func leftPending(_ id: String) {
            if fates[id] != .answered { fates[id] = .leftPending }
        }

        mutating func answered(_ id: String) { fates[id] = .answered }
    }

    @Test("random sequences of requests received, leaving pending and answered: the same fates and actions", arguments: [1, 2, 3, 42] as [UInt64])
    func followsTheMaps(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        for limit in [0, 1, 3, 50] {
            var recent = RecentRequests(limit: limit)
            var reference = Reference(limit: limit)
            var received: [String] = []
            var next = 0
            for step in 0..<3_000 {
                switch random.next() % 10 {
                case 0..<4 where !received.isEmpty && random.next() % 8 == 0:
                    // A correlation id the journey used before (hostile, or a journey's bug): a
                    // fate and an action already remembered, or long forgotten, set again.
                    let id = received[received.count - 1 - Int(random.next() % UInt64(min(received.count, 400)))]
                    let action = "again\(random.next() % 3)"
                    recent.received(id, action: action)
                    reference.received(id, action: action)
                case 0..<4:
                    next += 1
                    let id = "r\(next)"
                    received.append(id)
                    recent.received(id, action: "a\(next % 7)")
                    reference.received(id, action: "a\(next % 7)")
                case 4..<7 where !received.isEmpty:
                    // Usually a recent request; now and then one long forgotten.
                    let id = received[received.count - 1 - Int(random.next() % UInt64(min(received.count, random.next() % 8 == 0 ? 400 : 5)))]
                    recent.answered(id)
                    reference.answered(id)
                case 7..<9 where !received.isEmpty:
                    let id = received[received.count - 1 - Int(random.next() % UInt64(min(received.count, 8)))]
                    recent.leftPending(id)
                    reference.leftPending(id)
                default:
                    // An id never received (a response or a pending request the adapter did not see arrive).
                    let id = "unseen\(random.next() % 50)"
                    if random.next() % 2 == 0 {
                        recent.leftPending(id)
                        reference.leftPending(id)
                    } else {
                        recent.answered(id)
                        reference.answered(id)
                    }
                }
                if step % 97 == 0 || step == 2_999 {
                    for id in received.suffix(120) + (0..<50).map({ "unseen\($0)" }) {
                        #expect(recent.fate(of: id) == reference.fates[id], "seed \(seed), limit \(limit), step \(step), \(id)")
                        #expect(recent.action(of: id) == reference.actions[id], "seed \(seed), limit \(limit), step \(step), \(id)")
                    }
                    #expect(recent.fateCount == reference.fates.count)
                }
            }
        }
    }
}
