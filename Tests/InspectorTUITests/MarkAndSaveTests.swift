import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

/// Marks on rows (`m`, `M`, `is:marked`) and saving what the inspector holds as a recording (`w`).
@Suite("Marks and saving a recording")
struct MarkAndSaveTests {
    /// The sequence numbers of the marked rows.
    static func markedSeqs(_ model: InspectorModel) -> [Int] {
        model.live.log.filter(\.marked).map(\.seq)
    }

    /// The journey at 80×24 with the upload's response (seq 9) and the capture request (seq 4) marked.
    static func markedModel() -> InspectorModel {
        var model = journeyModel(width: 80, height: 24)
        model.press(.char("k"), .char("m"))
        for _ in 0..<5 { model.press(.char("k")) }
        model.press(.char("m"))
        return model
    }

    @Test("m marks the selected row (◆ after its time, no column moves) and unmarks it; markers and other panes refuse")
    func markAndUnmark() {
        var model = journeyModel(width: 80, height: 24)
        model.press(.char("k"))
        let before = model.screen
        model.press(.char("m"))
        #expect(Self.markedSeqs(model) == [9])
        let row = model.screen.line(containing: "INVALID_REQUEST") ?? ""
        #expect(row.contains("22:13:18.620◆OUT resp document.upload"), "\(row)")
        #expect(before.line(containing: "INVALID_REQUEST")?.replacingOccurrences(of: "620 OUT", with: "620◆OUT") == row)
        #expect(model.flash?.text.hasPrefix("marked (1 marked") == true)
        model.press(.char("m"))
        #expect(Self.markedSeqs(model).isEmpty)
        #expect(model.screen.line(containing: "INVALID_REQUEST") == before.line(containing: "INVALID_REQUEST"))
        model.press(.tab, .char("m"))
        #expect(model.flash?.isError == true)
        #expect(Self.markedSeqs(model).isEmpty)
        model.press(.backTab)
        model.handle(.disconnected)
        model.press(.char("G"), .char("m"))
        #expect(model.selectedEntry?.kind == .disconnected)
        #expect(model.flash?.text.contains("only messages can be marked") == true)
        #expect(Self.markedSeqs(model).isEmpty)
    }

    @Test("M jumps to the next marked row after the selection, round to the first; says so when none is marked or shown")
    func nextMark() {
        var model = journeyModel(width: 80, height: 24)
        model.press(.char("M"))
        #expect(model.flash?.text.contains("no marked rows") == true)
        model = Self.markedModel()
        #expect(model.selectedEntry?.seq == 4)
        model.press(.char("M"))
        #expect(model.selectedEntry?.seq == 9)
        model.press(.char("M"))
        #expect(model.selectedEntry?.seq == 4, "round to the first")
        model.press(.char("f"))
        model.type("type:event")
        model.press(.enter, .char("M"))
        #expect(model.flash?.text.contains("not shown: the filter hides them") == true)
    }

    @Test("f is:marked lists the marked rows, and follows a mark made or removed under it")
    func filterMarked() {
        var model = Self.markedModel()
        model.press(.char("f"))
        model.type("is:marked")
        model.press(.enter)
        #expect(model.visible.map { model.live.log[$0].seq } == [4, 9])
        model.press(.char("m"))
        #expect(model.visible.map { model.live.log[$0].seq } == [4], "unmarked: it leaves the filtered rows")
    }

    @Test("Marks stay on their rows when a followed host is run again")
    func marksSurviveRestart() {
        var model = Self.markedModel()
        model.handle(.disconnected)
        model.handle(.attaching(socketPath: "/tmp/bridge-inspector-501/demo.5151.sock", note: nil))
        model.handle(.frame(Fixture.emptySnapshot(host: Fixture.restartedHost)))
        #expect(Self.markedSeqs(model) == [4, 9])
        #expect(model.live.markedCount == 2)
    }

    @Test("w asks where, prefilled with ./bridge-session-YYYYMMDD-HHMMSS.jsonl; Enter asks the runner to write the recording's bytes")
    func saveEffect() throws {
        var model = Self.markedModel()
        model.press(.char("w"))
        let dialog = try #require(model.topOverlay as? SaveDialog)
        #expect(dialog.path.text == "./bridge-session-20231114-221320.jsonl")
        #expect(model.screenText.contains("Save as a recording"))
        #expect(model.screenText.contains("10 rows (2 marked), 2 pending, lastError"))
        let effects = model.press(.enter)
        #expect(model.topOverlay == nil)
        guard case .saveRecording(let path, let bytes, let overwrite)? = effects.first, effects.count == 1 else {
            Issue.record("no save effect: \(effects)")
            return
        }
        #expect(path == "./bridge-session-20231114-221320.jsonl")
        #expect(!overwrite)
        let header = Recording.Header(socket: Fixture.socketPath, startedAt: Fixture.t0 - 10_000, client: "bridge-inspector (w)")
        #expect(bytes == model.live.recording(header: header))
        // A name typed replaces the default.
        model.press(.char("w"))
        model.type("mine.jsonl")
        guard case .saveRecording("mine.jsonl", _, false)? = model.press(.enter).first else {
            Issue.record("the typed name was not used")
            return
        }
        model.press(.char("w"), .ctrl("u"), .enter)
        #expect(model.topOverlay is SaveDialog, "an empty name saves nothing")
        #expect(model.flash?.text.contains("type a file name") == true)
    }

    @Test("Saved: a notice with the full path, kept in the action log; a file there: asks to replace it; a failure: says why")
    func saveOutcomes() throws {
        var model = Self.markedModel()
        model.handle(.recordingSaved(.saved(path: "/home/me/bridge-session.jsonl", bytes: 2048)))
        #expect(model.flash?.isError == false)
        #expect(model.flash?.text.contains("to /home/me/bridge-session.jsonl") == true)
        #expect(model.flash?.text.contains("bridge-inspector open /home/me/bridge-session.jsonl") == true)
        #expect(model.notices.last?.text == model.flash?.text)

        model.handle(.recordingSaved(.exists(path: "/home/me/bridge-session.jsonl")))
        let asking = try #require(model.topOverlay as? SaveDialog)
        #expect(asking.existing == "/home/me/bridge-session.jsonl")
        #expect(model.screenText.contains("already exists. Replace it"))
        guard case .saveRecording("/home/me/bridge-session.jsonl", _, true)? = model.press(.char("y")).first else {
            Issue.record("y did not replace the file")
            return
        }
        model.handle(.recordingSaved(.exists(path: "/home/me/bridge-session.jsonl")))
        #expect(model.press(.char("n")).isEmpty)
        #expect((model.topOverlay as? SaveDialog)?.existing == nil, "n goes back to the name")
        #expect(model.topOverlay?.takesText == true)
        model.press(.escape)

        model.handle(.recordingSaved(.failed(path: "/ro/x.jsonl", reason: "Permission denied: choose a folder you can write to")))
        #expect(model.flash?.isError == true)
        #expect(model.flash?.text == "not saved to /ro/x.jsonl: Permission denied: choose a folder you can write to (w to try again)")
    }

    @Test("w works read-only (--read-only) and in a recording: it sends nothing; before any state it says there is nothing to save")
    func saveReadOnly() {
        var empty = makeModel(width: 80, height: 24)
        empty.press(.char("w"))
        #expect(empty.topOverlay == nil)
        #expect(empty.flash?.text == "nothing to save yet: no host has sent its state")
        var live = Self.markedModel()
        live.readOnly = true
        live.press(.char("w"))
        #expect(live.topOverlay is SaveDialog)
        var recording = InspectorModel(recording: [Fixture.journeySnapshot()], size: Size(width: 80, height: 24), path: "/tmp/r.jsonl")
        recording.press(.char("m"), .char("w"))
        #expect(recording.topOverlay is SaveDialog)
        #expect(recording.live.markedCount == 1)
    }

    @Test("open of a saved recording: the same rows, marks, pending, slots and lastError, through the real reader")
    func roundTripThroughOpen() throws {
        var model = Self.markedModel()
        model.press(.char("w"))
        guard case .saveRecording(_, let bytes, _)? = model.press(.enter).first else {
            Issue.record("no save effect")
            return
        }
        let contents = Recording.load(data: Data(bytes))
        #expect(contents.problem == nil)
        var opened = InspectorModel(
            recording: contents.frames, restarts: contents.restarts, marks: contents.marks, size: Size(width: 80, height: 24), path: "/tmp/saved.jsonl")
        opened.timeFormat = TimeFormat(utcOffsetSeconds: 0)
        let rows = { (model: InspectorModel) in model.live.log.map { "\($0.seq) \($0.marked) \(String(decoding: $0.json, as: UTF8.self))" } }
        #expect(rows(opened) == rows(model))
        #expect(opened.live.pending == model.live.pending)
        #expect(opened.live.slots == model.live.slots)
        #expect(opened.live.lastError == model.live.lastError)
        #expect(opened.live.errorHistory == model.live.errorHistory)
        #expect(opened.screen.count(containing: "◆") == 2)
        #expect(opened.flash == nil, "every mark found its row")
        // A copy of the recording with a mark made there keeps both.
        opened.press(.char("G"), .char("m"), .char("w"))
        guard case .saveRecording(_, let again, _)? = opened.press(.enter).first else {
            Issue.record("no save effect in the recording")
            return
        }
        #expect(Recording.load(data: Data(again)).marks.count == 3)
    }
}
