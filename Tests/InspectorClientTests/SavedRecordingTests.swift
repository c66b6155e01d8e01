import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
import TestSupport
import Testing

/// What an inspector holds, saved as a recording (``LiveState/recording(header:)``, the TUI's
/// `w`), its mark lines, and writing it to a file (``RecordingFile``).
@Suite("Saved recordings and marks")
struct SavedRecordingTests {
    static let t0: Double = 1_700_000_000_000
    static let first = WireHostInfo(name: "demo", pid: 7, hostVersion: "1.0", environment: "ios", startedAt: t0 - 60_000)
    static let second = WireHostInfo(name: "demo", pid: 8, hostVersion: "1.0", environment: "ios", startedAt: t0 + 5_000)

    static func state(host: WireHostInfo, messages: [WireTraffic], malformed: [WireMalformed] = []) -> WireState {
        WireState(
            host: host, journeyAttached: true, lastError: nil, errorHistory: [], messages: messages, malformed: malformed,
            pending: [], slots: [], customCapabilities: [], counts: WireCounts())
    }

    /// Two runs of a host (pid 7, then pid 8, whose sequence numbers start again at 1), with
    /// pending requests, a busy slot, lastError and its history, a held message and a breakpoint
    /// in the second; rows of both runs marked, the malformed one too.
    static func session() -> LiveState {
        var live = LiveState()
        live.apply(
            .snapshot(
                seq: 3,
                state: state(
                    host: first,
                    messages: [
                        Fixture.request(seq: 1, id: "r1", action: "nfc.read", at: t0 - 9_000),
                        Fixture.response(seq: 2, id: "r1", action: "nfc.read", at: t0 - 8_900, status: .error, error: BridgeErrorCode.busy.payload()),
                    ],
                    malformed: [WireMalformed(seq: 3, time: t0 - 8_000, raw: "{oops", bytes: 5, reason: "invalid JSON")])),
            at: t0 - 8_000)
        live.markDisconnected(at: t0 - 7_000)
        var later = state(
            host: second,
            messages: [
                Fixture.request(seq: 1, id: "doc-1", action: "camera.document.capture", at: t0 - 2_000, data: ["side": "front"]),
                Fixture.request(seq: 2, id: "q-1", action: "capability.query", at: t0 - 1_000),
            ])
        later.pending = [WirePending(correlationId: "q-1", action: "capability.query", since: t0 - 1_000, message: later.messages[1].message)]
        later.slots = [
            WireSlot(
                kind: .document, capabilityId: "camera.document", action: "camera.document.capture", version: "1.0", hasHandler: true,
                enabled: true, supported: true, permissionState: .granted, activeRequest: "doc-1", activeAction: "camera.document.capture",
                activeSince: t0 - 2_000)
        ]
        let error = WireError(seq: 3, time: t0 - 500, text: "Failed to decode message", cause: 2)
        later.lastError = error
        later.errorHistory = [WireError(seq: 0, time: t0 - 3_000, text: "WebView not attached", cause: nil), error]
        later.held = [WireHeld(id: "h1", direction: .sent, since: t0 - 100, breakpoint: "bp-1", message: Fixture.message("e1", .event, "host.ping", at: t0 - 100))]
        later.breakpoints = [WireBreakpoint(id: "bp-1", filter: "dir:out", owner: "someone", ownerClient: 3, holdSeconds: 30, hits: 1)]
        later.counts = WireCounts(received: 2, sent: 0, malformed: 0, evicted: 0)
        live.apply(.snapshot(seq: 4, state: later), at: t0)
        for seq in [1, 3] { live.setMarked(true, at: live.log.firstIndex { $0.seq == seq && $0.time < t0 - 7_000 }!) }
        live.setMarked(true, at: live.log.firstIndex { $0.correlationId == "doc-1" }!)
        return live
    }

    /// The saved bytes read back through the one reader, replayed as `open` replays them.
    static func reopened(_ bytes: [UInt8]) -> (LiveState, Recording.Contents) {
        let contents = Recording.load(data: Data(bytes))
        var live = LiveState()
        let marksByFrame = Dictionary(grouping: contents.marks, by: \.frame)
        for (index, frame) in contents.frames.enumerated() {
            live.apply(frame, at: 0)
            live.applyMarks(marksByFrame[index] ?? [])
        }
        return (live, contents)
    }

    /// A row as a person sees it, and its exact bytes.
    static func rows(_ live: LiveState) -> [String] {
        live.log.compactMap { row in
            guard row.kind == .message || row.kind == .malformed else {
                if case .hostRestarted(_, let ended, let attached) = row.kind { return "restart \(ended)->\(attached)" }
                return nil
            }
            return "\(row.seq) \(row.correlationId) \(row.summary) \(row.status?.rawValue ?? "-") marked:\(row.marked) \(String(decoding: row.json, as: UTF8.self))"
        }
    }

    @Test("Saved and read back: the same rows (each message's bytes), marks, pending, slots, lastError and history, held, breakpoints")
    func roundTrip() throws {
        let live = Self.session()
        #expect(live.markedCount == 3)
        let header = Recording.Header(socket: "/tmp/demo.sock", startedAt: Self.t0, client: "bridge-inspector (w)")
        let (back, contents) = Self.reopened(live.recording(header: header))
        #expect(contents.problem == nil)
        #expect(contents.header == header)
        #expect(contents.restarts.map(\.endedPid) == [7])
        #expect(contents.marks.count == 3)
        #expect(Self.rows(back) == Self.rows(live))
        #expect(back.markedCount == 3)
        #expect(back.log.filter(\.marked).map(\.correlationId) == ["r1", "", "doc-1"], "the seq 1 of each run is told apart")
        #expect(back.pending.map(\.correlationId) == ["q-1"])
        #expect(back.slots == live.slots)
        #expect(back.lastError == live.lastError)
        #expect(back.errorHistory == live.errorHistory)
        #expect(back.held == live.held)
        #expect(back.breakpoints == live.breakpoints)
        #expect(back.counts == live.counts)
        #expect(back.host == live.host)
    }

    @Test("Mark lines come after every frame, one per marked row: {\"kind\":\"mark\",\"frame\":N,\"seq\":N}")
    func markLines() {
        let bytes = Self.session().recording(header: Recording.Header(socket: "s", startedAt: 0))
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        let marks = lines.filter { $0.hasPrefix(#"{"kind":"mark""#) }
        #expect(marks == [#"{"kind":"mark","frame":1,"seq":1}"#, #"{"kind":"mark","frame":1,"seq":3}"#, #"{"kind":"mark","frame":3,"seq":1}"#])
        #expect(Array(lines.suffix(3)) == marks, "an older reader loads every frame before it stops at the first mark")
    }

    @Test("A garbled mark line is a problem that names it, everything before it loaded; a mark naming no row is skipped")
    func garbledMarks() {
        let bytes = Self.session().recording(header: Recording.Header(socket: "s", startedAt: 0))
        var text = String(decoding: bytes, as: UTF8.self)
        let frames = Recording.load(data: Data(bytes)).frames.count
        for garbled in [#"{"kind":"mark","frame":"one","seq":1}"#, #"{"kind":"mark","frame":1}"#, #"{"kind":"mark","frame":-1,"seq":2}"#] {
            let contents = Recording.load(data: Data((text + garbled + "\n").utf8))
            #expect(contents.frames.count == frames)
            #expect(contents.marks.count == 3)
            #expect(contents.problem?.line == text.split(separator: "\n").count + 1)
            #expect(contents.problem?.reason.contains(#"a mark line needs "frame" and "seq""#) == true, "\(contents.problem?.reason ?? "")")
        }
        text += #"{"kind":"mark","frame":1,"seq":99}"# + "\n"
        let (back, contents) = Self.reopened(Array(text.utf8))
        #expect(contents.problem == nil)
        #expect(contents.marks.count == 4)
        #expect(back.markedCount == 3, "the mark of a row the frame does not hold is skipped")
    }

    @Test("Marks stay on their rows when the host is attached again, and only messages can be marked")
    func marksSurviveReattach() {
        var live = Self.session()
        let marked = live.log.indices.filter { live.log[$0].marked }
        live.markDisconnected(at: Self.t0 + 1)
        live.apply(.snapshot(seq: 4, state: Self.state(host: Self.second, messages: [])), at: Self.t0 + 2)
        #expect(live.log.indices.filter { live.log[$0].marked } == marked)
        let marker = live.log.indices.last { live.log[$0].kind == .disconnected }!
        #expect(live.setMarked(true, at: marker) == nil)
        #expect(live.setMarked(true, at: live.log.count) == nil)
        #expect(live.setMarked(false, at: marked[0]) == false)
        #expect(live.markedCount == 2)
    }

    @Test("Writing a recording file: never over a file already there unless asked, the full path said, and why not")
    func writingFiles() throws {
        let directory = try TemporaryDirectory()
        let bytes = Array("{\"kind\":\"recording\"}\n".utf8)
        #expect(RecordingFile.write(bytes, to: "saved.jsonl", overwrite: false, from: directory.path) == .saved(path: directory.path + "/saved.jsonl", bytes: bytes.count))
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.path + "/saved.jsonl")) == Data(bytes))
        #expect(RecordingFile.write([1], to: "./saved.jsonl", overwrite: false, from: directory.path) == .exists(path: directory.path + "/saved.jsonl"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.path + "/saved.jsonl")) == Data(bytes), "left alone")
        #expect(RecordingFile.write([0x41], to: directory.path + "/saved.jsonl", overwrite: true, from: "/") == .saved(path: directory.path + "/saved.jsonl", bytes: 1))
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.path + "/saved.jsonl")) == Data([0x41]))
        guard case .failed(let path, let reason) = RecordingFile.write(bytes, to: "no/such/folder/x.jsonl", overwrite: false, from: directory.path) else {
            Issue.record("a missing folder was not a failure")
            return
        }
        #expect(path == directory.path + "/no/such/folder/x.jsonl")
        #expect(reason.contains("the folder does not exist"))
        guard case .failed(_, let folder) = RecordingFile.write(bytes, to: ".", overwrite: true, from: directory.path) else {
            Issue.record("a folder was written")
            return
        }
        #expect(folder.contains("add a file name"), "\(folder)")
    }
}
