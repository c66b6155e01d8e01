import BridgeCore
import Foundation
import InspectorProtocol
import Testing

/// Fault rules as values: their JSON, what is refused and why, and how each firing picks
/// messages (a seeded probability the same on every run).
@Suite("Fault rule values")
struct FaultRuleValueTests {
    func decode(_ text: String) throws -> WireFaultRule {
        try JSONDecoding.decode(WireFaultRule.self, from: Data(text.utf8))
    }

    @Test("A rule reads and writes its effect and firing as objects with a kind")
    func roundTrip() throws {
        let rule = try decode(
            #"{"filter":"action:device.info","firing":{"kind":"sequence","steps":[{"kind":"error","code":"BUSY"},{"kind":"pass"},{"kind":"delay","minMs":5}]}}"#)
        #expect(rule.effect == nil)
        #expect(rule.firing == .sequence([.fault(.error(code: "BUSY", message: nil, recoverable: nil)), .pass, .fault(.delay(minMs: 5, maxMs: 5))]))
        #expect(rule.problem == nil)
        let again = try JSONDecoding.decode(WireFaultRule.self, from: JSONEncoding.encode(rule))
        #expect(again == rule)
        #expect(rule.summary == "sequence error BUSY, pass, delay 5ms")
    }

    @Test("An unknown kind is refused, naming the kinds there are")
    func unknownKind() {
        #expect(throws: (any Error).self) { try decode(#"{"filter":"","effect":{"kind":"explode"}}"#) }
        do {
            _ = try decode(#"{"filter":"","effect":{"kind":"explode"}}"#)
        } catch {
            #expect("\(error)".contains("use delay, error, neverAnswer, drop, duplicate or reorder"))
        }
    }

    @Test("A documented code takes the SDK's message and recoverable flag; a code of one's own needs recoverable")
    func errorDefaults() {
        #expect(FaultEffect.error(code: "BUSY", message: nil, recoverable: nil).errorPayload
            == BridgeErrorPayload(code: "BUSY", message: "Another native operation is in progress", recoverable: true))
        #expect(FaultEffect.error(code: "INTERNAL_ERROR", message: "boom", recoverable: nil).errorPayload?.recoverable == false)
        #expect(FaultEffect.error(code: "MINE", message: nil, recoverable: nil).problem?.contains("give recoverable") == true)
        #expect(FaultEffect.error(code: "MINE", message: nil, recoverable: true).problem == nil)
    }

    @Test("times(N) faults the first N picks, then lets everything pass")
    func timesFiring() {
        var state = FaultFiringState(firing: .times(2), effect: .drop)
        #expect([state.next(), state.next(), state.next()] == [.drop, .drop, nil])
        #expect(!state.takesStep(for: .received))
    }

    @Test("A sequence takes one step per pick, passes after the last, and steps only for its direction")
    func sequenceFiring() {
        var state = FaultFiringState(firing: .sequence([.fault(.error(code: "BUSY", message: nil, recoverable: nil)), .pass]), effect: nil)
        #expect(state.takesStep(for: .received))
        #expect(!state.takesStep(for: .sent))
        #expect(state.next() == .error(code: "BUSY", message: nil, recoverable: nil))
        #expect(state.takesStep(for: .received))
        #expect(state.next() == nil)
        #expect(!state.takesStep(for: .received))
    }

    @Test("A seeded probability picks the same messages every time; another seed picks others")
    func seededProbability() {
        func picks(seed: UInt64) -> [Bool] {
            var state = FaultFiringState(firing: .probability(0.3, seed: seed), effect: .drop)
            return (0..<64).map { _ in state.next() != nil }
        }
        #expect(picks(seed: 7) == picks(seed: 7))
        #expect(picks(seed: 7) != picks(seed: 8))
        let hits = picks(seed: 7).filter { $0 }.count
        #expect(hits > 5 && hits < 40)
    }

    @Test("SplitMix64 gives the published sequence for seed 0, on every platform")
    func splitMixKnownValues() {
        var random = SplitMix64(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
    }

    @Test("A delay range is drawn within its bounds from the rule's generator")
    func delayRange() {
        var random = SplitMix64(seed: 1)
        for _ in 0..<100 {
            guard case .delay(let seconds) = FaultEffect.delay(minMs: 1000, maxMs: 3000).action(using: &random) else {
                Issue.record("not a delay")
                return
            }
            #expect(seconds >= 1 && seconds <= 3)
        }
        #expect(FaultEffect.delay(minMs: 3000, maxMs: 1000).problem != nil)
        #expect(FaultEffect.delay(minMs: 0, maxMs: FaultEffect.maxDelayMs + 1).problem != nil)
    }
}
