import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

/// The event dialog on top, if any.
func eventDialog(_ model: InspectorModel) -> EventDialog? {
    model.topOverlay as? EventDialog
}

@Suite("Event dialog")
struct EventDialogTests {
    @Test("e opens the dialog on host.ping with the exact wire message previewed")
    func opens() throws {
        var model = journeyModel()
        model.press(.char("e"))
        let dialog = try #require(eventDialog(model))
        #expect(dialog.name.text == "host.ping")
        #expect(dialog.data.text == "{}")
        #expect(
            previewLines(model) == [
                "{",
                #"  "correlationId": "ios-event-<assigned by the host>","#,
                #"  "payload": {"#,
                #"    "action": "host.ping","#,
                #"    "data": {}"#,
                "  },",
                #"  "timestamp": 1700000000000,"#,
                #"  "type": "event","#,
                #"  "version": "1.0""#,
                "}",
            ])
        #expect(model.footer.contains("↑↓ history"))
    }

    @Test("Name and data typed by hand are sent as sendEvent")
    func sends() {
        var model = journeyModel()
        model.press(.char("e"), .ctrl("u"))
        model.type("host.orientation")
        model.press(.tab, .ctrl("u"))
        model.type(#"{"orientation": "portrait"}"#)
        #expect(previewLines(model).contains(#"      "orientation": "portrait""#))
        let effects = model.press(.enter)
        #expect(
            effects == [.send(.sendEvent(.init(name: "host.orientation", data: ["orientation": "portrait"])), label: "send event host.orientation")])
        #expect(model.overlays.isEmpty)
        #expect(model.actions.map(\.label) == ["send event host.orientation"])
    }

    @Test("A JSON mistake or an empty name blocks sending and says why")
    func mistakes() {
        var model = journeyModel()
        model.press(.char("e"), .tab, .ctrl("u"))
        model.type(#"{"a" 1}"#)
        #expect(model.screen.contains { $0.contains("✗ JSON line 1, column 6") })
        #expect(model.press(.enter).isEmpty)
        #expect(eventDialog(model) != nil)
        model.press(.ctrl("u"), .tab, .ctrl("u"))
        #expect(model.screen.contains { $0.contains("the event needs a name") })
        #expect(model.press(.enter).isEmpty)
    }

    @Test("↑ recalls the documented host events when nothing was sent yet")
    func recallSuggestions() throws {
        var model = journeyModel()
        model.press(.char("e"), .up)
        var dialog = try #require(eventDialog(model))
        #expect(dialog.name.text == "host.orientation")
        #expect(dialog.data.text == #"{"orientation": "landscape"}"#)
        model.press(.up)
        dialog = try #require(eventDialog(model))
        #expect(dialog.name.text == "host.foreground")
        model.press(.down)
        dialog = try #require(eventDialog(model))
        #expect(dialog.name.text == "host.orientation")
    }

    @Test("Sent events are remembered: the dialog starts on the last one sent to this host, ↑ goes back through the others")
    func history() throws {
        var model = journeyModel()
        model.press(.char("e"), .ctrl("u"))
        model.type("journey.custom")
        model.press(.tab, .ctrl("u"))
        model.type(#"{"n": 1}"#)
        model.press(.enter)
        model.press(.char("e"), .ctrl("u"))
        model.type("host.background")
        model.press(.enter)
        #expect(model.eventHistory.map(\.name) == ["journey.custom", "host.background"])

        model.press(.char("e"))
        var dialog = try #require(eventDialog(model))
        #expect(dialog.name.text == "host.background")
        #expect(model.screen.contains { $0.contains("2 earlier events") })
        model.press(.up, .up)
        dialog = try #require(eventDialog(model))
        #expect(dialog.name.text == "journey.custom")
        #expect(dialog.data.text == #"{"n":1}"#)
        let effects = model.press(.enter)
        #expect(effects == [.send(.sendEvent(.init(name: "journey.custom", data: ["n": 1])), label: "send event journey.custom")])
        // Sending it again moves it to the end, without a duplicate.
        #expect(model.eventHistory.map(\.name) == ["host.background", "journey.custom"])
    }

    @Test("Events from an earlier run, or sent to another host, are recalled but never prefilled: the dialog opens on host.ping (issue 27)")
    func prefillBelongsToThisRunAndHost() throws {
        var model = journeyModel()
        model.loadEventHistory([EventDraft(name: "journey.old", dataText: #"{"from":"yesterday"}"#)])
        model.press(.char("e"))
        var dialog = try #require(eventDialog(model))
        #expect(dialog.name.text == "host.ping", "the last run's event is not what this host gets by default")
        #expect(dialog.data.text == "{}")
        #expect(model.screen.contains { $0.contains("1 earlier events") })
        model.press(.up)
        dialog = try #require(eventDialog(model))
        #expect(dialog.name.text == "journey.old", "↑ still recalls it")
        model.press(.escape)

        model.press(.char("e"), .ctrl("u"))
        model.type("host.background")
        model.press(.enter)
        model.press(.char("e"))
        #expect(eventDialog(model)?.name.text == "host.background", "sent in this run to this host: it opens with it")
        model.press(.escape)

        // The host restarts (another pid): its dialog opens on host.ping again.
        model.handle(.disconnected)
        model.handle(.frame(Fixture.journeySnapshot(host: Fixture.restartedHost)))
        model.press(.char("e"))
        #expect(eventDialog(model)?.name.text == "host.ping")
    }

    @Test("Esc closes the dialog without sending")
    func escape() {
        var model = journeyModel()
        model.press(.char("e"))
        #expect(model.press(.escape).isEmpty)
        #expect(model.overlays.isEmpty)
        #expect(model.actions.isEmpty)
    }
}

/// The slot dialog on top, if any.
func slotDialog(_ model: InspectorModel) -> SlotDialog? {
    model.topOverlay as? SlotDialog
}

/// The confirmation on top, if any.
func confirmDialog(_ model: InspectorModel) -> ConfirmDialog? {
    model.topOverlay as? ConfirmDialog
}

@Suite("Slot actions")
struct SlotActionTests {
    /// The journey with the Slots pane focused.
    static func slotsModel() -> InspectorModel {
        var model = journeyModel()
        model.press(.tab, .tab)
        return model
    }

    @Test("c on the busy slot opens the slot dialog; a success with a size completes it with a synthetic PNG")
    func completeSuccess() throws {
        var model = Self.slotsModel()
        model.press(.char("c"))
        let dialog = try #require(slotDialog(model))
        #expect(dialog.slot.kind == .document)
        #expect(model.screen.contains { $0.contains("Complete the document capture doc-7") })
        #expect(model.screen.contains { $0.contains("the slot is BUSY for 6.0s") })
        model.press(.tab, .ctrl("u"))
        model.type("640")
        model.press(.tab, .ctrl("u"))
        model.type("480")
        let preview = previewLines(model)
        #expect(preview.contains(#"  "correlationId": "doc-7","#))
        #expect(preview.contains(#"    "action": "camera.document.capture","#))
        #expect(preview.contains(#"      "imageWidth": 640,"#))
        #expect(preview.contains(#"      "imageHeight": 480,"#))
        #expect(preview.contains(#"    "status": "success""#))
        let effects = model.press(.enter)
        #expect(
            effects == [
                .send(
                    .completeSlot(.init(slot: .document, result: .success(imageBase64: nil, width: 640, height: 480, mimeType: "image/png"))),
                    label: "complete the document capture doc-7 with success")
            ])
        #expect(model.overlays.isEmpty)
    }

    @Test("A size out of range blocks sending")
    func badSize() {
        var model = Self.slotsModel()
        model.press(.char("c"), .tab, .ctrl("u"))
        model.type("0")
        #expect(model.screen.contains { $0.contains("width and height must be whole numbers") })
        #expect(model.press(.enter).isEmpty)
        #expect(slotDialog(model) != nil)
    }

    @Test("The error variant sends the error object; the recoverable flag can be toggled")
    func completeError() {
        var model = Self.slotsModel()
        model.press(.char("c"), .right)
        #expect(model.screen.contains { $0.contains("‹ error ›") })
        #expect(previewLines(model).contains(#"      "code": "PERMISSION_DENIED","#))
        #expect(previewLines(model).contains(#"    "status": "error""#))
        var effects = model.press(.enter)
        #expect(
            effects == [
                .send(
                    .completeSlot(.init(slot: .document, result: .error(BridgeErrorPayload(code: "PERMISSION_DENIED", message: "Permission was denied", recoverable: true)))),
                    label: "complete the document capture doc-7 with error")
            ])
        model.press(.char("c"), .right, .tab, .ctrl("u"))
        model.type("CAMERA_DENIED")
        model.press(.tab, .tab, .char(" "))
        effects = model.press(.enter)
        #expect(
            effects == [
                .send(
                    .completeSlot(.init(slot: .document, result: .error(BridgeErrorPayload(code: "CAMERA_DENIED", message: "Permission was denied", recoverable: false)))),
                    label: "complete the document capture doc-7 with error")
            ])
    }

    @Test("The cancelled variant sends the reason")
    func completeCancelled() {
        var model = Self.slotsModel()
        model.press(.char("c"), .right, .right)
        #expect(previewLines(model).contains(#"    "status": "cancelled""#))
        model.press(.tab, .ctrl("u"))
        model.type("User closed the camera")
        let effects = model.press(.enter)
        #expect(
            effects == [
                .send(.completeSlot(.init(slot: .document, result: .cancelled(reason: "User closed the camera"))), label: "complete the document capture doc-7 with cancelled")
            ])
    }

    @Test("x asks first, with the reason prefilled; Enter cancels the capture, Esc backs out")
    func cancelConfirms() throws {
        var model = Self.slotsModel()
        #expect(model.press(.char("x")).isEmpty)
        let confirm = try #require(confirmDialog(model))
        #expect(confirm.question.contains("Cancel the document capture doc-7?"))
        #expect(model.screen.contains { $0.contains("reason          Cancelled from the inspector") })
        #expect(model.screen.contains { $0.contains("Enter: cancel the capture   Esc: back") })
        #expect(model.press(.escape).isEmpty)
        #expect(model.overlays.isEmpty)
        #expect(model.actions.isEmpty)
        model.press(.char("x"))
        let effects = model.press(.enter)
        #expect(effects == [.send(.cancelSlot(.init(slot: .document, reason: "Cancelled from the inspector")), label: "cancel the document capture doc-7")])
        #expect(model.overlays.isEmpty)
    }

    @Test("x takes a reason: typing replaces the prefilled one, and it is what the journey receives")
    func cancelWithReason() throws {
        var model = Self.slotsModel()
        model.press(.char("x"))
        #expect(model.footer.contains("type replaces it"))
        model.type("User closed the camera")
        #expect(model.footer.contains("Ctrl-U clear"))
        let effects = model.press(.enter)
        #expect(effects == [.send(.cancelSlot(.init(slot: .document, reason: "User closed the camera")), label: "cancel the document capture doc-7")])
        // An emptied reason leaves the host's default.
        var cleared = Self.slotsModel()
        cleared.press(.char("x"), .backspace)
        #expect(cleared.press(.enter) == [.send(.cancelSlot(.init(slot: .document, reason: nil)), label: "cancel the document capture doc-7")])
    }

    @Test("c's cancelled reason is prefilled too: typing replaces it")
    func slotReasonReplaces() {
        var model = Self.slotsModel()
        model.press(.char("c"), .right, .right, .tab)
        model.type("Blurry")
        let effects = model.press(.enter)
        #expect(effects == [.send(.completeSlot(.init(slot: .document, result: .cancelled(reason: "Blurry"))), label: "complete the document capture doc-7 with cancelled")])
    }

    @Test("c and x work from the Messages pane when exactly one slot is busy")
    func onlyBusySlot() throws {
        var model = journeyModel()
        model.press(.char("c"))
        #expect(try #require(slotDialog(model)).slot.kind == .document)
    }

    @Test("On an idle slot c and x say so and send nothing")
    func idleSlot() {
        var model = Self.slotsModel()
        model.press(.char("j"))
        #expect(model.selectedSlot?.kind == .selfie)
        #expect(model.press(.char("c")).isEmpty)
        #expect(model.overlays.isEmpty)
        #expect(model.footer.contains("the selfie slot is idle: no request to complete"))
        #expect(model.press(.char("x")).isEmpty)
        #expect(model.footer.contains("the selfie slot is idle: no request to cancel"))
        #expect(model.press(.enter).isEmpty)
        #expect(model.overlays.isEmpty)
    }

    @Test("t on an enabled slot asks before disabling; on a disabled slot it enables at once")
    func toggleEnabled() throws {
        var model = Self.slotsModel()
        #expect(model.press(.char("t")).isEmpty)
        let confirm = try #require(confirmDialog(model))
        #expect(confirm.question.contains("Disable the document slot?"))
        #expect(model.press(.char("n")).isEmpty)
        model.press(.char("t"))
        #expect(
            model.press(.char("y")) == [.send(.setSlotEnabled(.init(slot: .document, enabled: false)), label: "disable the document slot")])
        model.feed(12, .slot(Fixture.slot(.document, enabled: false)))
        #expect(model.press(.char("t")) == [.send(.setSlotEnabled(.init(slot: .document, enabled: true)), label: "enable the document slot")])
        #expect(model.overlays.isEmpty)
    }

    @Test("P cycles the permission state of the selected slot")
    func permission() {
        var model = Self.slotsModel()
        model.press(.char("j"))
        #expect(
            model.press(.char("P")) == [
                .send(.setSlotPermission(.init(slot: .selfie, permissionState: .restricted)), label: "set the selfie slot's permission to restricted")
            ])
    }
}
