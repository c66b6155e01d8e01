import BridgeCore
import Foundation
import InspectorProtocol
@testable import InspectorTUI
import Testing

/// Issue 27, trap 4 (a): the slot dialog's default image is a plausible capture for its slot (an
/// ID card, a portrait), which the host draws small, not 1280×720 for both.
@Suite("Slot dialog: the default image")
struct SlotDialogDefaultImageTests {
    @Test("the default size is the slot's: a landscape card for document, a portrait for selfie; Enter sends it with no file")
    func defaultSizePerSlot() throws {
        for kind in CaptureCapability.Kind.allCases {
            let dialog = SlotDialog(slot: Fixture.slot(kind, active: "\(kind.rawValue)-1", since: 0))
            let size = SyntheticImage.defaultSize(for: kind)
            #expect(dialog.width.text == String(size.width) && dialog.height.text == String(size.height))
            guard case .success(.completeSlot(let args)) = dialog.command else {
                Issue.record("no command: \(dialog.command)")
                continue
            }
            #expect(args.result == .success(imageBase64: nil, width: size.width, height: size.height, mimeType: "image/png"))
        }
        #expect(SyntheticImage.defaultSize(for: .document) == (1280, 808))
        #expect(SyntheticImage.defaultSize(for: .selfie) == (720, 960))
    }
}
