import BridgeCore
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

/// The Pending pane's ages and marks on the host's clock (`since` is stamped by the host; a
/// phone over TCP may have a clock seconds away from this machine's), and "abandoned" as
/// ``JourneyTimeouts`` defines it for the rules and `wait-for`.
@Suite("Pending ages on the host's clock")
struct PendingClockTests {
    /// A model whose host's clock reads `offset` ms from this machine's, learnt from a
    /// `pendingAdded` the host stamped as it sent it (at local ``Fixture/t0``).
    static func model(hostOffset offset: Double, action: String) -> InspectorModel {
        var model = makeModel(width: 80, height: 24)
        model.handle(.frame(Fixture.emptySnapshot()))
        model.feed(1, .traffic(Fixture.request(seq: 1, id: "p-1", action: action, at: Fixture.t0 + offset)))
        model.feed(2, .pendingAdded(Fixture.pending("p-1", action, since: Fixture.t0 + offset)))
        return model
    }

    @Test("A host 10 s ahead: a capability query shows its real age, ! at half its 5 s timeout and ✗ past it")
    func hostAhead() {
        var model = Self.model(hostOffset: 10_000, action: CapabilityQueryHandler.action)
        model.handle(.tick(Fixture.t0 + 1_000))
        #expect(model.pendingLines[0].hasSuffix(" 1.0s"), "\(model.pendingLines[0])")
        model.handle(.tick(Fixture.t0 + 3_000))
        #expect(model.pendingLines[0].hasSuffix("!3.0s"), "\(model.pendingLines[0])")
        model.handle(.tick(Fixture.t0 + 6_000))
        #expect(model.pendingLines[0].hasSuffix("✗6.0s"), "\(model.pendingLines[0])")
    }

    @Test("A host 20 s behind: a fresh request is not shown as old, nor marked")
    func hostBehind() {
        var model = Self.model(hostOffset: -20_000, action: "nfc.read")
        model.handle(.tick(Fixture.t0 + 1_000))
        #expect(model.pendingLines[0].hasSuffix(" 1.0s"), "\(model.pendingLines[0])")
        // The respond dialog says the same age.
        model.press(.tab, .enter)
        #expect(model.screen.contains { $0.contains("waiting 1.0s") })
    }

    @Test("✗ means what the rules mean by abandoned: only past the timeout, not at it")
    func abandonedAsTheRulesSayIt() {
        var model = Self.model(hostOffset: 0, action: "nfc.read")
        model.handle(.tick(Fixture.t0 + JourneyTimeouts.requestMs))
        #expect(model.pendingLines[0].hasSuffix("!30.0s"), "\(model.pendingLines[0])")
        model.handle(.tick(Fixture.t0 + JourneyTimeouts.requestMs + 100))
        #expect(model.pendingLines[0].hasSuffix("✗30.1s"), "\(model.pendingLines[0])")
    }

    @Test("A slot's BUSY age is on the host's clock too")
    func slotAge() {
        var model = Self.model(hostOffset: 10_000, action: "nfc.read")
        model.feed(3, .slot(Fixture.slot(.document, active: "doc-1", since: Fixture.t0 + 10_000)))
        model.handle(.tick(Fixture.t0 + 2_000))
        #expect(model.slotLines.contains { $0.contains("BUSY 2.0s") }, "\(model.slotLines)")
    }
}
