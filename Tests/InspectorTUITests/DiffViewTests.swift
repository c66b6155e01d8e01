import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import TestSupport
import Testing

/// The session diff as a view (`=`, issue 28 part 3): the journey of ``Fixture/journeyState(host:)``
/// compared with a recording of an earlier build (``recorded()``) that answered differently.
@Suite("The session diff view")
struct DiffViewTests {
    /// An hour before ``Fixture/t0``: when the "before" session ran.
    static let h = Fixture.t0 - 3_600_000

    /// The "before" messages: the same journey as the live fixture, but the capability query
    /// answered with `nfc.read`, the capture asked for the back side, `nfc.read` answered, a
    /// `host.ping` the host sent itself, the upload accepted, and no malformed input.
    static func recordedMessages(action: String = "document.upload", extra: [String: JSONValue]? = nil) -> [WireTraffic] {
        [
            Fixture.hostEvent(seq: 1, id: "ios-event-3f2a9c1d-0000-4000-8000-00000000aaaa", name: "host.ready", at: h - 10_000, data: ["version": "2.1.0"]),
            Fixture.request(seq: 2, id: "cap-9", action: "capability.query", at: h - 9_000),
            Fixture.response(seq: 3, id: "cap-9", action: "capability.query", at: h - 8_958, data: ["capabilities": ["nfc.read": "1.0"]]),
            Fixture.request(seq: 4, id: "doc-3", action: "camera.document.capture", at: h - 6_000, data: ["side": "back"]),
            Fixture.request(seq: 5, id: "nfc-4", action: "nfc.read", at: h - 4_000),
            Fixture.response(seq: 6, id: "nfc-4", action: "nfc.read", at: h - 3_900, data: ["uid": "04A2"]),
            Fixture.request(seq: 7, id: "cap-10", action: "capability.query", at: h - 3_000),
            Fixture.hostEvent(seq: 8, id: "ios-event-abcdef12-0000-4000-8000-00000000bbbb", name: "host.ping", at: h - 2_000),
            Fixture.request(seq: 9, id: "up-3", action: action, at: h - 1_500, data: extra),
            Fixture.response(seq: 10, id: "up-3", action: action, at: h - 1_380, data: extra),
        ]
    }

    /// The recording of the "before" session, as `Recording.load` reads it.
    static func recorded(_ messages: [WireTraffic] = recordedMessages()) -> Recording.Contents {
        Recording.Contents(header: nil, frames: [.snapshot(seq: 10, state: Fixture.state(messages: messages))], problem: nil, linesRead: 1)
    }

    /// The live journey with the "before" recording compared, the view open.
    static func compared(width: Int = 120, height: Int = 40) -> InspectorModel {
        var model = journeyModel(width: width, height: height)
        model.handle(.comparisonLoaded(path: "build-41.jsonl", recorded()))
        return model
    }

    static func view(_ model: InspectorModel) throws -> DiffView {
        try #require(model.topOverlay as? DiffView)
    }

    @Test("= asks for a file and the runner is asked to read it: the model reads no file")
    func equalsAsksForAFile() throws {
        var model = journeyModel()
        model.press(.char("="))
        #expect(model.topOverlay is CompareDialog)
        #expect(model.screenText.contains("Compare this session with a recording"))
        model.type("build-41.jsonl")
        let effects = model.press(.enter)
        #expect(effects == [.loadComparison(path: "build-41.jsonl")])
        #expect(model.topOverlay == nil)
    }

    @Test("The view shows both sides, the summary and each known difference with its path and values")
    func showsTheKnownDifferences() throws {
        let model = Self.compared()
        let view = try Self.view(model)
        let kinds = view.diff.differences.map(\.kind)
        #expect(kinds.contains(.statusChanged))
        #expect(kinds.contains(.missing))
        let screen = model.screen
        #expect(screen.line(containing: "before build-41.jsonl: host demo-app, 10 messages") != nil)
        #expect(screen.line(containing: "after  this session: host demo-app") != nil)
        #expect(screen.line(containing: "differences: ") != nil)
        // One row per difference: its kind, the action, what changed.
        func row(_ parts: String...) -> String? { screen.first { line in parts.allSatisfy { line.contains($0) } } }
        #expect(row("status changed", "document.upload", "status: success → error") != nil)
        #expect(row("field changed", "camera.document.capture", "data.side: \"back\" → \"front\"") != nil)
        #expect(row("event missing", "host.ping", "only before (#8)") != nil)
        #expect(row("answer missing", "nfc.read", "answered before, pending after") != nil)
        #expect(row("malformed added") != nil)
        // The hand-made host.ping of the live session is not the app's: left out, and said so.
        #expect(screen.line(containing: "1 inspector-made message left out (i: count them)") != nil)
    }

    @Test("Enter opens a difference: both sides' messages, stacked on a narrow screen and side by side on a wide one")
    func enterShowsBothMessages() throws {
        for (width, sideBySide) in [(80, false), (140, true)] {
            var model = Self.compared(width: width, height: 40)
            let view = try Self.view(model)
            let row = try #require(view.diff.differences.firstIndex { $0.path == "data.side" })
            for _ in 0..<row { model.press(.down) }
            model.press(.enter)
            #expect(model.topOverlay is DiffDetailView)
            let screen = model.screen
            let before = try #require(screen.index(containing: "before  build-41.jsonl"))
            let after = try #require(screen.index(containing: "after   this session"))
            #expect(screen.line(containing: "\"back\"") != nil)
            #expect(screen.line(containing: "\"front\"") != nil)
            #expect(screen.line(containing: "doc-3") != nil && screen.line(containing: "doc-7") != nil)
            #expect((before == after) == sideBySide, "width \(width)")
            model.press(.escape)
            #expect(model.topOverlay is DiffView)
        }
    }

    @Test("r compares again with the log as it is now; until then the header counts the new rows")
    func recomputesOnR() throws {
        var model = Self.compared()
        #expect(try Self.view(model).diff.differences.contains { $0.kind == .missing && $0.left?.action == "host.ping" })
        model.feed(12, .traffic(Fixture.hostEvent(seq: 12, id: "ios-event-abcdef12-0000-4000-8000-00000000cccc", name: "host.ping", at: Fixture.t0 + 100)))
        // Not computed on every frame: the view still shows what it computed.
        #expect(try Self.view(model).diff.differences.contains { $0.kind == .missing && $0.left?.action == "host.ping" })
        #expect(model.screen.line(containing: "1 new row since compared (r: compare again)") != nil)
        model.press(.char("r"))
        let view = try Self.view(model)
        #expect(!view.diff.differences.contains { $0.left?.action == "host.ping" || $0.right?.action == "host.ping" })
        #expect(model.screen.line(containing: "new row") == nil)
    }

    @Test("i counts the messages an inspector made, and back")
    func togglesInspectorMade() throws {
        var model = Self.compared()
        #expect(!(try Self.view(model).diff.differences.contains { $0.kind == .added && $0.right?.action == "host.ping" }))
        model.press(.char("i"))
        let view = try Self.view(model)
        #expect(view.includeInspectorMade)
        // Counted, the hand-made ping lines up with the recorded one: nothing missing any more.
        #expect(!view.diff.differences.contains { $0.kind == .missing && $0.left?.action == "host.ping" })
        #expect(model.screen.line(containing: "inspector-made messages counted (i: leave them out)") != nil)
        model.press(.char("i"))
        #expect(try Self.view(model).diff.differences.contains { $0.kind == .missing && $0.left?.action == "host.ping" })
    }

    @Test("A file that cannot be read: a notice, the dialog again with the name, and nothing lost")
    func loadProblem() throws {
        var model = journeyModel()
        model.press(.char("="))
        model.type("nope.jsonl")
        model.press(.enter)
        let rows = model.live.log.count
        model.handle(.comparisonLoaded(
            path: "nope.jsonl", Recording.Contents(header: nil, frames: [], problem: Recording.Problem(line: 0, reason: "no such file"), linesRead: 0)))
        #expect(model.notice.contains("cannot compare with nope.jsonl: no such file"))
        let dialog = try #require(model.topOverlay as? CompareDialog)
        #expect(dialog.input.path.text == "nope.jsonl")
        #expect(model.screen.line(containing: "no such file") != nil)
        #expect(model.live.log.count == rows)
        model.press(.escape)
        #expect(model.topOverlay == nil)
    }

    @Test("A recording cut off is compared up to where it broke, and a notice says where")
    func cutOffRecording() throws {
        var contents = Self.recorded()
        contents.problem = Recording.Problem(line: 7, reason: "the last line is cut off")
        var model = journeyModel()
        model.handle(.comparisonLoaded(path: "cut.jsonl", contents))
        #expect(model.topOverlay is DiffView)
        #expect(model.notice.contains("cut.jsonl: line 7: the last line is cut off; compared the 1 frame before it"))
    }

    @Test("= works in a recording (open): the open file is the \"after\"")
    func worksInARecording() throws {
        var model = InspectorModel(recording: [Fixture.journeySnapshot()], size: Size(width: 120, height: 40), path: "build-42.jsonl")
        model.timeFormat = TimeFormat(utcOffsetSeconds: 0)
        model.press(.char("="))
        #expect(model.screenText.contains("Compare this recording with a recording"))
        model.type("build-41.jsonl")
        #expect(model.press(.enter) == [.loadComparison(path: "build-41.jsonl")])
        model.handle(.comparisonLoaded(path: "build-41.jsonl", Self.recorded()))
        let view = try Self.view(model)
        #expect(view.afterName == "build-42.jsonl")
        #expect(view.diff.differences.contains { $0.kind == .statusChanged })
        #expect(model.screen.line(containing: "after  build-42.jsonl: host demo-app") != nil)
    }

    @Test("Opened before the host's state came, the view compares again when the snapshot arrives")
    func waitsForTheHost() throws {
        var model = makeModel()
        model.handle(.comparisonLoaded(path: "build-41.jsonl", Self.recorded()))
        #expect(model.screen.line(containing: "waiting for the host's state") != nil)
        #expect(try Self.view(model).diff.right.items.isEmpty)
        model.handle(.frame(Fixture.journeySnapshot()))
        let view = try Self.view(model)
        #expect(!view.diff.right.items.isEmpty)
        #expect(view.diff.differences.contains { $0.kind == .statusChanged })
        #expect(model.screen.line(containing: "waiting for the host's state") == nil)
    }

    @Test("A read-only inspector (--read-only) opened before the host's state came waits for it too; a recording never waits")
    func readOnlyWaitsForTheHost() throws {
        var model = makeModel()
        model.readOnly = true
        model.handle(.comparisonLoaded(path: "build-41.jsonl", Self.recorded()))
        #expect(try Self.view(model).awaitingHost)
        model.handle(.frame(Fixture.journeySnapshot()))
        #expect(try Self.view(model).diff.differences.contains { $0.kind == .statusChanged })

        var recording = InspectorModel(recording: [], size: Size(width: 120, height: 40), path: "empty.jsonl")
        recording.handle(.comparisonLoaded(path: "build-41.jsonl", Self.recorded()))
        #expect(try !Self.view(recording).awaitingHost)
        #expect(recording.screen.line(containing: "waiting for the host's state") == nil)
    }

    @Test("Moving through the rows: ↓ ↑, PgDn PgUp, g G")
    func moving() throws {
        var model = Self.compared(width: 80, height: 24)
        let count = try Self.view(model).diff.differences.count
        #expect(count >= 5)
        model.press(.char("G"))
        #expect(try Self.view(model).cursor == count - 1)
        model.press(.char("g"))
        #expect(try Self.view(model).cursor == 0)
        model.press(.pageDown)
        #expect(try Self.view(model).cursor > 1)
        model.press(.pageUp, .down)
        #expect(try Self.view(model).cursor == 1)
        model.press(.char("q"))
        #expect(model.topOverlay == nil)
    }

    @Test("Hostile text from a recording or a host reaches no cell as a control character")
    func hostileTextSanitized() throws {
        let evil = "upload\u{1B}]52;c;ZXZpbA==\u{07}\u{1B}[2J\u{202E}"
        var model = journeyModel()
        model.handle(.comparisonLoaded(
            path: "evil\u{1B}[31m.jsonl", Self.recorded(Self.recordedMessages(action: evil, extra: ["note": .string("a\u{1B}[2Jb\u{9B}c")]))))
        #expect(forbiddenCells(model.render()) == [])
        let view = try Self.view(model)
        let row = try #require(view.diff.differences.firstIndex { $0.left?.action == evil })
        for _ in 0..<row { model.press(.down) }
        model.press(.enter)
        #expect(model.topOverlay is DiffDetailView)
        #expect(forbiddenCells(model.render()) == [])
    }

    /// A measurement, run on request (`DIFFVIEW_MEASURE=1 swift test --filter bigSession`): it
    /// takes seconds in a debug build on a busy machine, too long for every run of the suite.
    @Test(
        "A 100,000-message session is compared once, when asked (the time is printed, not asserted)",
        .enabled(if: ProcessInfo.processInfo.environment["DIFFVIEW_MEASURE"] != nil))
    func bigSession() throws {
        var messages: [WireTraffic] = []
        messages.reserveCapacity(100_000)
        for i in 0..<50_000 {
            let time = Fixture.t0 + Double(i) * 10
            messages.append(Fixture.request(seq: 2 * i + 1, id: "r\(i)", action: "step.\(i % 50)", at: time, data: ["n": .number(Double(i % 7))]))
            messages.append(Fixture.response(seq: 2 * i + 2, id: "r\(i)", action: "step.\(i % 50)", at: time + 5, data: ["ok": true]))
        }
        var changed = messages
        changed[50_001] = Fixture.response(seq: 50_002, id: "r25000", action: "step.0", at: Fixture.t0 + 250_005, status: .error)
        var model = makeModel()
        model.handle(.frame(.snapshot(seq: 100_000, state: Fixture.state(messages: changed))))
        let clock = ContinuousClock()
        let started = clock.now
        model.handle(.comparisonLoaded(path: "big.jsonl", Self.recorded(messages)))
        let took = clock.now - started
        print("DiffView: a 100,000-message session against a 100,000-message recording opened (read and compared) in \(took)")
        // The parts: the transcripts of both logs, then the engine.
        var before = LiveState()
        before.apply(.snapshot(seq: 100_000, state: Fixture.state(messages: messages)), at: 0)
        let transcribing = clock.now
        let left = SessionTranscript(log: before.log, name: "big.jsonl")
        let right = SessionTranscript(log: model.live.log, name: "this session")
        let comparing = clock.now
        _ = SessionDiff(left: left, right: right)
        print("DiffView: transcripts in \(comparing - transcribing), SessionDiff in \(clock.now - comparing)")
        let view = try Self.view(model)
        #expect(view.diff.differences.map(\.kind).contains(.statusChanged))
        #expect(view.diff.alignedCount == 50_000)
        // Drawing does not compute again.
        let drawStarted = clock.now
        _ = model.render()
        print("DiffView: drawn in \(clock.now - drawStarted)")
    }
}
