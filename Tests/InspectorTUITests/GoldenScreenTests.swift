import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

/// Every overlay and the main screen, drawn at 80×24 and 120×40 from fixed inputs (the journey of
/// ``Fixture/journeyState(host:)`` at ``Fixture/t0``, UTC clocks, a fixed replay suffix) and
/// compared with the files in `Tests/Goldens/InspectorTUITests/` (``GoldenScreen``): a change to the TUI's code that
/// changes nothing on screen leaves them all as they are.
@Suite("Golden screens")
struct GoldenScreenTests {
    /// A screen size the goldens are drawn at.
    struct ScreenSize: Sendable, CustomTestStringConvertible {
        let width: Int
        let height: Int
        var testDescription: String { "\(width)x\(height)" }
    }

    static let sizes = [ScreenSize(width: 80, height: 24), ScreenSize(width: 120, height: 40)]

    /// One screen to keep, and how to get there from a fresh model.
    enum Scene: String, CaseIterable, Sendable {
        // The main screen.
        case main
        case mainPendingFocus = "main-pending-focus"
        case mainSlotsFocus = "main-slots-focus"
        case mainPaused = "main-paused"
        case mainEmpty = "main-empty"
        case mainDisconnected = "main-disconnected"
        case mainRecording = "main-recording"
        case mainMarked = "main-marked"
        case filterPrompt = "filter-prompt"
        // Every overlay.
        case help
        case detail
        case respond
        case event
        case slot
        case confirm
        case replay
        case errors
        case actions
        case rules
        case newRule = "new-rule"
        case held
        case heldEdit = "held-edit"
        case breakpoints
        case newBreakpoint = "new-breakpoint"
        case faults
        case newFault = "new-fault"
        case mainFaulted = "main-faulted"
        case inject
        case lifecycle
        case stats
        case statsCoverage = "stats-coverage"
        case doctor
        case save
        case capabilities
        case commandPrompt = "command-prompt"
        case keyBrowser = "key-browser"
        case diff
        case diffOpened = "diff-opened"

        /// The model showing this scene at `size`.
        func model(_ size: ScreenSize) -> InspectorModel {
            let (width, height) = (size.width, size.height)
            var model = journeyModel(width: width, height: height)
            switch self {
            case .main:
                break
            case .mainPendingFocus:
                model.press(.tab)
            case .mainSlotsFocus:
                model.press(.tab, .tab)
            case .mainPaused:
                // Paused and filtered, with a row kept back and ages past the timeouts.
                model.press(.char("f"))
                model.type("!is:manual")
                model.press(.enter, .char(" "))
                model.feed(12, .traffic(Fixture.request(seq: 12, id: "late-1", action: "nfc.read", at: Fixture.t0 + 500)))
                model.handle(.tick(Fixture.t0 + 9_000))
            case .mainEmpty:
                model = makeModel(width: width, height: height)
                model.handle(.frame(Fixture.emptySnapshot()))
            case .mainDisconnected:
                model.handle(.disconnected)
                model.handle(.tick(Fixture.t0 + 3_000))
            case .mainRecording:
                // As `bridge-inspector open` builds it: read-only, as of the recording's end.
                model = InspectorModel(recording: [Fixture.journeySnapshot()], size: Size(width: width, height: height), path: Fixture.socketPath)
                model.timeFormat = TimeFormat(utcOffsetSeconds: 0)
                model.press(.char("k"), .char("k"))
            case .mainMarked:
                // Two rows marked: the refused upload's response (selected) and the capture request.
                model.press(.char("k"), .char("m"))
                for _ in 0..<5 { model.press(.char("k")) }
                model.press(.char("m"))
                for _ in 0..<5 { model.press(.char("j")) }
            case .filterPrompt:
                model.press(.char("f"))
                model.type("type:requst")
            case .help:
                model.press(.char("?"))
            case .detail:
                // The refused upload's response: threaded with its request.
                model.press(.char("k"), .enter)
            case .respond:
                // The respond dialog with the BUSY template.
                model.press(.tab, .enter)
                for _ in 0..<6 { model.press(.ctrl("t")) }
            case .event:
                model.press(.char("e"))
                model.type("host.ping")
            case .slot:
                model.press(.char("c"))
            case .confirm:
                model.press(.char("C"))
            case .replay:
                // The upload request (an IN row), with a fixed suffix for its new id.
                model.press(.char("k"), .char("k"))
                model.openReplay(suffix: "r3pl4y")
            case .errors:
                model.press(.char("E"))
            case .actions:
                model.press(.char("C"), .char("y"))
                model.handle(.commandSent(id: "c1", label: "clear lastError"))
                model.handle(.frame(.reply(id: "c1", result: .success(.object([:])), sent: [])))
                model.handle(.tick(Fixture.t0 + 10_000))
                model.press(.char("A"))
            case .rules:
                model.addRule(ReplyRule(name: "nfc-ok", action: "nfc.*", times: 2, delayMs: 500, response: .init(status: .success, data: ["uid": "04A2"])))
                model.handle(.tick(Fixture.t0 + 10_000))
                model.press(.char("R"))
            case .newRule:
                model.press(.char("R"), .char("n"))
            case .held, .heldEdit, .breakpoints, .newBreakpoint:
                // Two breakpoints (b1 this inspector's) and two held messages.
                model = InterceptionScreenTests.heldModel(width: width, height: height)
                let keys: [Scene: [Key]] = [
                    .held: [.char("H")], .heldEdit: [.char("H"), .char("e")], .breakpoints: [.char("b")], .newBreakpoint: [.char("b"), .char("n")],
                ]
                for key in keys[self] ?? [] { model.press(key) }
            case .faults, .newFault, .mainFaulted:
                // Two fault rules (f1 this inspector's) and a request f1 answered BUSY.
                model = FaultRulesScreenTests.faultedRowModel(width: width, height: height)
                if self == .faults { model.press(.char("X")) }
                if self == .newFault {
                    model.press(.char("X"), .char("n"))
                    model.type("action:camera.*")
                    model.press(.tab)
                    model.type("error:BUSY,error:BUSY,pass")
                }
            case .inject:
                model.press(.char("i"))
                // The dialog's id is random; the golden's is fixed.
                model.overlays[model.overlays.count - 1] = InjectDialog(correlationId: "inspector-0f1e2d3c-4b5a-4968-8776-655443322110")
            case .lifecycle:
                model.press(.char("W"), .down)
            case .stats:
                model.press(.char("S"))
            case .statsCoverage:
                model.press(.char("S"), .char("c"))
            case .doctor:
                model.press(.char("D"))
            case .save:
                model.press(.char("w"))
            case .capabilities:
                // A custom capability the selfie slot shadows, one with a handler, one declared only.
                model.feed(12, .customCapabilities([
                    WireCapability(id: "camera.selfie", version: "2.0", hasHandler: true, shadowedBySlot: true),
                    WireCapability(id: "device.info", version: "1.1", hasHandler: true, shadowedBySlot: false),
                    WireCapability(id: "nfc.read", version: "1.0", hasHandler: false, shadowedBySlot: false),
                ]))
                model.press(.char("v"))
            case .commandPrompt:
                // What `re` matches, best first, the first chosen.
                model.press(.char(":"))
                model.type("re")
            case .keyBrowser:
                // The second binding chosen.
                model.press(.char("K"), .down)
            case .diff, .diffOpened:
                // The journey compared with a recording of an earlier build (DiffViewTests), the
                // status change selected; opened, both sides' messages.
                model = DiffViewTests.compared(width: width, height: height)
                let row = (model.topOverlay as? DiffView)?.diff.differences.firstIndex { $0.kind == .statusChanged } ?? 0
                for _ in 0..<row { model.press(.down) }
                if self == .diffOpened { model.press(.enter) }
            }
            return model
        }
    }

    @Test("Each screen matches its golden", arguments: Scene.allCases, Self.sizes)
    func screen(_ scene: Scene, _ size: ScreenSize) {
        GoldenScreen.assert(scene.model(size).screenText, named: "\(scene.rawValue)-\(size.testDescription)")
    }

    @Test("The host picker matches its golden", arguments: Self.sizes)
    func hostPicker(_ size: ScreenSize) {
        var picker = HostPicker(hosts: HostPickerTests.hosts)
        picker.handle(.char("j"))
        let screen = picker.render(size: Size(width: size.width, height: size.height), now: Fixture.t0).rendered()
        GoldenScreen.assert(screen, named: "host-picker-\(size.testDescription)")
    }

    @Test("Each scene drawn twice is the same screen: nothing in it depends on the wall clock or chance")
    func deterministic() {
        for scene in Scene.allCases {
            #expect(scene.model(Self.sizes[0]).screenText == scene.model(Self.sizes[0]).screenText, "\(scene.rawValue)")
        }
    }

    @Test("A mismatch is shown as a line diff with numbers")
    func diffIsReadable() {
        let diff = GoldenScreen.diff(expected: "a\nb\nc\nd", actual: "a\nB\nc\nd")
        #expect(diff == "    1 │a\n-   2 │b\n+   2 │B\n    3 │c\n    4 │d")
    }
}
