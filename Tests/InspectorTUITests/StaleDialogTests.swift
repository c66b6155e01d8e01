import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

/// Dialogs whose request can no longer be answered (issue 13, trap 2): while the host is
/// disconnected, or once the request left pendingRequests, a dialog says so, Enter sends nothing
/// and keeps what was typed; a send that fails reopens the dialog with its text.
@Suite("Stale dialogs")
struct StaleDialogTests {
    @Test("While the host is gone, pending rows say so and their ages stop")
    func pendingRowsOfAGoneHost() {
        var model = journeyModel()
        #expect(model.pendingLines[0].hasSuffix("4.0s"))
        model.handle(.tick(Fixture.t0 + 1_000))
        model.handle(.disconnected)
        let frozen = model.pendingLines
        #expect(model.screen[model.layout.pending.y].contains("Pending 2 · host gone"))
        #expect(frozen[0].hasSuffix(" 5.0s"))
        model.handle(.tick(Fixture.t0 + 61_000))
        #expect(model.pendingLines == frozen)
        // Back again: the requests are live and age from now.
        model.handle(.frame(Fixture.journeySnapshot()))
        #expect(!model.screen[model.layout.pending.y].contains("host gone"))
        #expect(model.pendingLines != frozen)
    }

    @Test("r while disconnected: the dialog says so, and Enter keeps it and what was typed")
    func respondWhileDisconnected() throws {
        var model = journeyModel()
        model.handle(.disconnected)
        model.press(.tab, .enter)
        #expect(!model.screen.contains { $0.contains("✓ ready") })
        #expect(model.screen.contains { $0.contains("✗ not connected to the host: nothing can be sent now") })
        model.type(#"{"uid":"04A2"}"#)
        #expect(model.press(.enter).isEmpty)
        #expect(try #require(respondDialog(model)).data.text == #"{"uid":"04A2"}"#)
        #expect(model.actions.isEmpty)
        // The host comes back with the request still pending: the same dialog can send.
        model.handle(.frame(Fixture.journeySnapshot()))
        #expect(model.screen.contains { $0.contains("✓ ready: Enter sends") })
        let effects = model.press(.enter)
        #expect(effects.first == .send(.respond(.init(correlationId: "nfc-1", status: .success, data: ["uid": "04A2"], error: nil)), label: "respond success to nfc.read nfc-1"))
        #expect(model.overlays.isEmpty)
    }

    @Test("A request answered elsewhere: the open dialog says it is no longer pending and Enter sends nothing")
    func answeredElsewhere() throws {
        var model = journeyModel()
        model.press(.tab, .enter)
        model.type(#"{"uid":"1"}"#)
        model.feed(12, .traffic(Fixture.response(seq: 12, id: "nfc-1", action: "nfc.read", at: Fixture.t0 + 100)))
        model.feed(13, .pendingRemoved(correlationId: "nfc-1"))
        #expect(!model.screen.contains { $0.contains("✓ ready") })
        #expect(model.screen.contains { $0.contains("✗ nfc-1 is no longer pending (answered elsewhere, by a rule, or cancelled)") })
        #expect(model.screen.contains { $0.contains("request nfc-1") && !$0.contains("waiting") })
        #expect(model.press(.enter).isEmpty)
        #expect(try #require(respondDialog(model)).data.text == #"{"uid":"1"}"#)
        #expect(model.footer.contains("no longer pending"))
        model.press(.escape)
        #expect(model.overlays.isEmpty)
    }

    @Test("A send that fails before reaching the host reopens the dialog with what was typed and the error")
    func failedSendReopens() throws {
        var model = journeyModel()
        model.press(.tab, .enter)
        model.type(#"{"uid":"04A2"}"#)
        let label = "respond success to nfc.read nfc-1"
        #expect(model.press(.enter).count >= 1)
        #expect(model.overlays.isEmpty)
        model.handle(.commandFailed(label: label, error: "not connected to the host"))
        let dialog = try #require(respondDialog(model))
        #expect(dialog.data.text == #"{"uid":"04A2"}"#)
        #expect(model.screen.contains { $0.contains("✗ not sent (not connected to the host): Enter tries again") })
        // Tried again and sent: it closes for good.
        model.press(.enter)
        model.handle(.commandSent(id: "c-2", label: label))
        model.handle(.commandFailed(label: "something else", error: "x"))
        #expect(model.overlays.isEmpty)
    }

    @Test("Cancelling a capture the slot no longer holds sends nothing and says why")
    func staleCancel() throws {
        var model = journeyModel()
        model.press(.char("x"))
        model.type("User left")
        var state = Fixture.journeyState()
        state.slots = [Fixture.slot(.document), Fixture.slot(.selfie, hasHandler: false)]
        model.handle(.frame(.snapshot(seq: 12, state: state)))
        #expect(model.screen.contains { $0.contains("✗ the document slot no longer holds doc-7") })
        #expect(model.press(.enter).isEmpty)
        guard let dialog = model.topOverlay as? ConfirmDialog else {
            Issue.record("the dialog closed")
            return
        }
        #expect(dialog.reason?.text == "User left")
    }
}

/// The slot dialog (`c`) knows the request it completes (issue 13, trap 2).
@Suite("Stale slot dialog")
struct StaleSlotDialogTests {
    /// The journey with the Slots pane focused and `c` pressed on the busy document slot, set to
    /// cancelled with a reason typed.
    static func typedDialog() -> InspectorModel {
        var model = SlotActionTests.slotsModel()
        model.press(.char("c"), .right, .right, .tab)
        model.type("User left")
        return model
    }

    @Test("A capture answered elsewhere: the slot dialog says so, Enter sends nothing and keeps what was typed")
    func slotFreedElsewhere() throws {
        var model = Self.typedDialog()
        var state = Fixture.journeyState()
        state.slots = [Fixture.slot(.document), Fixture.slot(.selfie, hasHandler: false)]
        model.handle(.frame(.snapshot(seq: 12, state: state)))
        #expect(!model.screen.contains { $0.contains("✓ ready") })
        #expect(model.screen.contains { $0.contains("✗ the document slot no longer holds doc-7") })
        #expect(model.press(.enter).isEmpty)
        #expect(try #require(slotDialog(model)).reason.text == "User left")
        #expect(model.actions.isEmpty)
        // Another request in the same slot is not this dialog's either.
        state.slots = [Fixture.slot(.document, active: "doc-8", since: Fixture.t0), Fixture.slot(.selfie, hasHandler: false)]
        model.handle(.frame(.snapshot(seq: 13, state: state)))
        #expect(model.screen.contains { $0.contains("✗ the document slot no longer holds doc-7") })
        #expect(model.press(.enter).isEmpty)
    }

    @Test("While the host is gone the slot dialog says so and sends nothing; when it is back with the request, Enter sends")
    func slotWhileDisconnected() throws {
        var model = Self.typedDialog()
        model.handle(.disconnected)
        #expect(model.screen.contains { $0.contains("✗ not connected to the host: nothing can be sent now") })
        #expect(model.press(.enter).isEmpty)
        #expect(try #require(slotDialog(model)).reason.text == "User left")
        model.handle(.frame(Fixture.journeySnapshot()))
        #expect(model.screen.contains { $0.contains("✓ ready: Enter sends") })
        #expect(
            model.press(.enter) == [
                .send(.completeSlot(.init(slot: .document, result: .cancelled(reason: "User left"))), label: "complete the document capture doc-7 with cancelled")
            ])
    }
}
