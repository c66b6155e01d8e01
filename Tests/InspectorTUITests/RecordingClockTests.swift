import BridgeCore
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

/// Issue 27, trap 3: `bridge-inspector open session.jsonl` showed pending `✗498813…` and
/// `BUSY 498813h08m` (its ages ran from 1970 twice over), offered `r`/`e`/`C` in its footer only
/// to refuse them, and a live msg/s rate for a file. A recording is as of its end.
@Suite("A recording is shown as of its end")
struct RecordingClockTests {
    /// The journey of ``Fixture/journeySnapshot(host:)``, then a request at ``Fixture/t0`` that
    /// became pending (the host stamps `since` on it: the event that set the viewer's clock off
    /// by the time since 1970): the recording's last record.
    static var frames: [AgentFrame] {
        [
            Fixture.journeySnapshot(),
            .event(seq: 12, event: .traffic(Fixture.request(seq: 12, id: "up-2", action: "document.upload", at: Fixture.t0))),
            .event(seq: 13, event: .pendingAdded(Fixture.pending("up-2", "document.upload", since: Fixture.t0))),
        ]
    }

    static func recording(width: Int = 80, height: Int = 24) -> InspectorModel {
        var model = InspectorModel(recording: frames, size: Size(width: width, height: height), path: "session.jsonl")
        model.timeFormat = TimeFormat(utcOffsetSeconds: 0)
        return model
    }

    @Test("ages in the Pending pane and a slot's BUSY time run to the recording's last record, not the wall clock")
    func agesAsOfTheEnd() {
        var model = Self.recording(width: 120, height: 40)
        #expect(model.recordingEnd == Fixture.t0)
        #expect(model.pendingClock == Fixture.t0)
        // nfc-1 waited 4 s and cap-2 3 s (past its 5 s half: "!") when the recording ended.
        let pending = model.pendingLines
        #expect(pending.contains { $0.contains("nfc.read") && $0.hasSuffix("4.0s") }, "\(pending)")
        #expect(pending.contains { $0.contains("cap-2") && $0.hasSuffix("!3.0s") }, "\(pending)")
        #expect(pending.contains { $0.contains("up-2") && $0.hasSuffix("0ms") }, "\(pending)")
        #expect(!pending.joined().contains("h"), "\(pending)")
        #expect(model.slotLines.contains { $0.contains("BUSY 6.0s") }, "\(model.slotLines)")
        // Ticks of the wall clock (the viewer's, for notices) leave the ages where they were.
        model.handle(.tick(Fixture.t0 + 86_400_000 * 365))
        #expect(model.pendingLines == pending)
        #expect(model.slotLines.contains { $0.contains("BUSY 6.0s") }, "\(model.slotLines)")
    }

    @Test("the views that show ages (held messages, the doctor, the respond dialog) read the recording's end")
    func viewsAsOfTheEnd() {
        let model = Self.recording()
        #expect(model.overlayContext.pendingClock == Fixture.t0)
        let nfc = model.live.pending[0]
        #expect(model.overlayContext.pendingAge(of: nfc) == 4_000)
    }

    @Test("the status line shows what the file holds and when it ends, never a rate")
    func noRateForAFile() {
        let model = Self.recording(width: 120, height: 40)
        let status = model.screen[0]
        #expect(status.contains("▣ recording (read-only)"), "\(status)")
        #expect(!status.contains("msg/s"), "\(status)")
        #expect(status.contains("11 messages over 10.0s, to 22:13:20.000"), "\(status)")
    }

    @Test("the footer, the lastError banner and the help offer no key that a recording refuses")
    func onlyKeysThatWork() {
        var model = Self.recording(width: 120, height: 40)
        let sending = Set(InspectorModel.keyTable.filter(\.sends).compactMap(\.hint?.key))
        #expect(sending.isSuperset(of: ["r", "e", "c", "x", "t", "P"]))
        for focus in 0..<3 {
            let offered = model.mainFooterKeys.map(\.key)
            #expect(sending.isDisjoint(with: offered), "focus \(focus): \(offered)")
            model.press(.tab)
        }
        #expect(!model.footer.contains("r respond") && !model.footer.contains("e event"), "\(model.footer)")
        let banner = model.screen[1]
        #expect(banner.contains("E:history") && !banner.contains("C:clear"), "\(banner)")
        model.press(.char("?"))
        let help = model.screenText
        #expect(!help.contains("respond to the selected pending request"), "\(help)")
        #expect(!help.contains("clear lastError"))
        #expect(!help.contains("fire a host event"))
        #expect(help.contains("filter: show only matching rows"))
        // A live inspector's help lists them all (on a screen tall enough that the line is on
        // its first page, however many keys come before it).
        var live = journeyModel()
        live.handle(.resize(Size(width: 120, height: 90)))
        live.press(.char("?"))
        #expect(live.screenText.contains("respond to the selected pending request"))
    }

    @Test("views over a recording leave out their hints that send: the rules view's n, the detail view's r")
    func viewFootersInARecording() {
        var model = Self.recording(width: 120, height: 40)
        model.press(.char("R"))
        #expect(!model.footerKeys.contains { $0.key == "n" }, "\(model.footerKeys)")
        model.press(.escape, .char("b"))
        #expect(!model.footerKeys.contains { $0.key == "n" || $0.key == "d" }, "\(model.footerKeys)")
        var live = journeyModel()
        live.press(.char("R"))
        #expect(live.footerKeys.contains { $0.key == "n" })
    }

    @Test("a notice shown as the recording opens times out on the wall clock, which the viewer ticks")
    func noticeTimesOut() {
        var model = Self.recording()
        model.handle(.notice("session.jsonl: line 9 is cut off", isError: true))
        let wall = Fixture.t0 + 86_400_000 * 365 * 3
        model.handle(.tick(wall))
        #expect(model.flash != nil, "shown at the first tick, it stays its 8 seconds from then")
        model.handle(.tick(wall + 9_000))
        #expect(model.flash == nil)
        #expect(model.notices.map(\.text) == ["session.jsonl: line 9 is cut off"])
    }
}
