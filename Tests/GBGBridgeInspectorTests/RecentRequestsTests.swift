@testable import GBGBridgeInspector
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
        #expect(recent.fates.count == 3)
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
