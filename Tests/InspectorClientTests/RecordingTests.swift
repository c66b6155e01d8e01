import AgentTesting
import BridgeCore
import Foundation
import InspectorAgent
import InspectorClient
import InspectorProtocol
import TestSupport
import Testing
import ThreadSupport

private let hostJSON = #"{"environment":"ios","hostVersion":"1.0","name":"rec","pid":7,"startedAt":1000}"#
private let requestJSON = #"{"version":"1.0","correlationId":"r1","type":"request","timestamp":1,"payload":{"action":"nfc.read"}}"#
private let headerLine = #"{"kind":"recording","version":1,"socket":"/tmp/x.sock","startedAt":2000,"client":"bridge-inspector record"}"#
private let helloLine = #"{"kind":"hello","protocol":1,"agent":"a","host":\#(hostJSON),"features":[],"limits":{"maxFrameBytes":10,"maxClients":1}}"#
private let snapshotLine = #"{"kind":"snapshot","seq":1,"state":{"host":\#(hostJSON),"journeyAttached":true,"lastError":null,"errorHistory":[],"messages":[{"seq":1,"direction":"received","time":5,"origin":"journey","bytes":10,"message":\#(requestJSON)}],"malformed":[],"pending":[{"correlationId":"r1","action":"nfc.read","since":5,"message":\#(requestJSON)}],"slots":[],"customCapabilities":[],"counts":{"evicted":0,"malformed":0,"received":1,"sent":0}}}"#
private let eventLine = #"{"kind":"event","seq":2,"event":{"type":"pendingRemoved","correlationId":"r1"}}"#
private let gapLine = #"{"kind":"gap","from":3,"to":4}"#

private func load(_ lines: [String], trailingNewline: Bool = true) -> Recording.Contents {
    Recording.load(data: Data((lines.joined(separator: "\n") + (trailingNewline ? "\n" : "")).utf8))
}

@Suite("Recordings")
struct RecordingTests {
    @Test("a complete recording: the header is read and every frame is loaded")
    func complete() {
        let contents = load([headerLine, helloLine, snapshotLine, eventLine, gapLine])
        #expect(contents.problem == nil)
        #expect(contents.header == Recording.Header(socket: "/tmp/x.sock", startedAt: 2000))
        #expect(contents.frames.count == 4)
        #expect(contents.linesRead == 5)
        var state = LiveState()
        for frame in contents.frames { state.apply(frame, at: 0) }
        #expect(state.host?.name == "rec")
        #expect(state.pending.isEmpty, "the event removed the pending request")
        #expect(state.log.filter { $0.kind == .message }.map(\.correlationId) == ["r1"])
        #expect(state.gaps == [3...4])
    }

    @Test("the header line has the documented keys in the documented order")
    func headerLineShape() {
        let header = Recording.Header(socket: "/tmp/x.sock", startedAt: 2000)
        #expect(String(decoding: header.line, as: UTF8.self) == headerLine)
    }

    @Test("a recording cut off while writing: everything before the partial line is loaded, and the line is named")
    func truncated() {
        let cut = String(eventLine.prefix(30))
        let contents = load([headerLine, helloLine, snapshotLine, cut], trailingNewline: false)
        #expect(contents.frames.count == 2)
        #expect(contents.problem?.line == 4)
        #expect(contents.problem?.reason.contains("cut off") == true)
        #expect(Recording.load(from: URL(fileURLWithPath: "/nonexistent/x.jsonl")).problem?.line == 0)
    }

    @Test("a damaged line in the middle: the frames before it are loaded; the problem names the line and the JSON mistake")
    func corrupt() {
        let contents = load([headerLine, helloLine, #"{"kind":"event","seq":2,"event":{"type":"pendingRemoved",}}"#, eventLine])
        #expect(contents.frames.count == 1)
        #expect(contents.problem?.line == 3)
        #expect(contents.problem?.reason.contains("invalid JSON at column") == true, "\(String(describing: contents.problem))")
        let wrongShape = load([headerLine, helloLine, #"{"kind":"event","seq":"two"}"#])
        #expect(wrongShape.problem?.line == 3)
        #expect(wrongShape.frames.count == 1)
    }

    @Test("files that are not recordings say so, at line 1", arguments: [
        ("", "empty"), ("\n\n", "only blank lines"), ("hello\n", "not JSON"), (#"{"kind":"nope"}"# + "\n", "should be"),
        (#"{"kind":"recording","version":2}"# + "\n", "newer"),
    ])
    func notRecordings(text: String, reason: String) {
        let contents = Recording.load(data: Data(text.utf8))
        #expect(contents.frames.isEmpty)
        #expect(contents.problem?.line == 1)
        #expect(contents.problem?.reason.contains(reason) == true, "\(String(describing: contents.problem))")
    }

    @Test("tolerated: no header (frames captured by hand), CRLF line ends, blank lines, no final newline")
    func tolerated() {
        let contents = Recording.load(data: Data((helloLine + "\r\n\r\n" + snapshotLine + "\r\n" + eventLine).utf8))
        #expect(contents.problem == nil)
        #expect(contents.header == nil)
        #expect(contents.frames.count == 3)
    }

    @Test("huge times load and apply; an inverted gap is refused at its line, and LiveState normalises one made in code")
    func hostileValues() {
        let huge = snapshotLine.replacingOccurrences(of: #""time":5"#, with: #""time":-1.7976931348623157e308"#)
            .replacingOccurrences(of: #""since":5"#, with: #""since":1e300"#)
            .replacingOccurrences(of: #""startedAt":1000"#, with: #""startedAt":-1e300"#)
        let inverted = #"{"kind":"gap","from":9,"to":3}"#
        let contents = load([headerLine.replacingOccurrences(of: "2000", with: "1e300"), helloLine, huge, eventLine, inverted, gapLine])
        #expect(contents.header?.startedAt == 1e300)
        #expect(contents.frames.count == 3)
        #expect(contents.problem?.line == 5)
        #expect(contents.problem?.reason.contains("a gap's 'to' (3) must not be before its 'from' (9)") == true, "\(String(describing: contents.problem))")
        var state = LiveState()
        for frame in contents.frames { state.apply(frame, at: .greatestFiniteMagnitude) }
        #expect(state.host?.startedAt == -1e300)
        #expect(state.log.first?.time == -.greatestFiniteMagnitude)
        #expect(state.gaps.isEmpty)
        state.apply(.gap(from: 9, to: 3), at: -1e300)
        state.apply(.gap(from: Int.max, to: Int.min), at: .nan)
        #expect(state.gaps == [3...9, Int.min...Int.max])
        #expect(state.log.suffix(2).map(\.kind) == [.gap(from: 3, to: 9), .gap(from: Int.min, to: Int.max)])
    }

    @MainActor
    @Test("recording a live agent stores its frames byte for byte, and reopening gives the same state")
    func liveRoundTrip() async throws {
        // A request with the journey's own spacing and key order: a re-encoded copy would lose it.
        let oddlySpaced = #"{"type": "request", "version": "1.0", "correlationId": "odd-1", "timestamp": 1, "payload": {"action": "nfc.read", "data": {"b": 1, "a": 2}}}"#
        let fixture = try LiveAgent { host in
            host.receive(text: LiveAgent.messageText(action: "device.info", id: "early-1"))
        }
        defer { fixture.stop() }
        fixture.makeSlotWaitForCompletion(.document)
        let file = fixture.directory + "/session.jsonl"
        let path = fixture.socketPath
        let attached = Locked(0)
        let reader = Task {
            try await onThread { () -> LiveState in
                let stream = try RawFrameStream(socketPath: path)
                defer { stream.close() }
                let writer = try RecordingWriter(path: file, header: Recording.Header(socket: path, startedAt: 1))
                defer { writer.close() }
                var live = LiveState()
                var events = 0
                while events < 9, let next = try stream.next(timeout: 600) {
                    try writer.write(line: next.line)
                    live.apply(next.frame, at: 0)
                    if case .snapshot = next.frame { attached.withLock { $0 = 1 } }
                    if case .event = next.frame { events += 1 }
                }
                return live
            }
        }
        #expect(await eventually { attached.current == 1 })
        fixture.receive(oddlySpaced)                                                               // traffic, pendingAdded
        fixture.receive(LiveAgent.messageText(action: "camera.document.capture", id: "cap-1"))     // traffic, slot
        fixture.receive("{oops")                                                                   // malformed, lastError
        fixture.host.send(event: "host.ping", data: ["n": 1])                                      // traffic
        fixture.host.respond(to: "early-1", status: .success)                                      // pendingRemoved, traffic
        let live = try await reader.value

        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains(oddlySpaced), "the journey's bytes are stored as they arrived")
        let contents = Recording.load(from: URL(fileURLWithPath: file))
        #expect(contents.problem == nil)
        #expect(contents.header?.socket == path)
        var reopened = LiveState()
        for frame in contents.frames { reopened.apply(frame, at: 0) }
        #expect(StateDigest(reopened) == StateDigest(live))
        #expect(reopened.pending.map(\.correlationId) == ["odd-1"])
        #expect(reopened.slots.first { $0.kind == .document }?.activeRequest == "cap-1")
        #expect(reopened.log.count == live.log.count)
    }
}

extension RecordingTests {
    /// A message nested as deep as the host accepts (`JSONSyntaxCheck.defaultMaxDepth`), as the
    /// agent frames it: verbatim, a few levels down.
    static func deepestRequest(id: String) -> String {
        // The envelope is level 1, payload 2, data 3: 97 more levels make 100.
        let deep = String(repeating: "[", count: 97) + String(repeating: "]", count: 97)
        return #"{"version":"1.0","correlationId":"\#(id)","type":"request","timestamp":1,"payload":{"action":"nfc.read","data":{"d":\#(deep)}}}"#
    }

    @Test("a message at the host's exact depth limit, and one with 0e1 and a duplicate key, can be recorded and opened; nothing after them is lost")
    func everythingTheHostAcceptsOpens() throws {
        let deepest = Self.deepestRequest(id: "deep-1")
        let quirky = #"{"version":"1.0","correlationId":"q-1","correlationId":"q-2","type":"event","timestamp":1,"payload":{"action":"x","data":{"n":0e1,"u":1e-400}}}"#
        let codec = BridgeMessageCodec()
        #expect((try? codec.decode(Data(deepest.utf8)).get()) != nil, "the host accepts it")
        #expect((try? codec.decode(Data(deepest.replacingOccurrences(of: "[]", with: "[[]]").utf8)).get()) == nil, "one level more is refused")
        #expect(try codec.decode(Data(quirky.utf8)).get().correlationId == "q-2")
        func record(_ message: String, seq: Int) -> String {
            #"{"seq":\#(seq),"direction":"received","time":5,"origin":"journey","bytes":10,"message":\#(message)}"#
        }
        let snapshot = snapshotLine.replacingOccurrences(
            of: #""messages":["#, with: #""messages":[\#(record(deepest, seq: 7)),\#(record(quirky, seq: 8)),"#)
        let traffic = #"{"kind":"event","seq":3,"event":{"type":"traffic","record":\#(record(deepest, seq: 9))}}"#
        let pending = #"{"kind":"event","seq":4,"event":{"type":"pendingAdded","record":{"correlationId":"deep-1","action":"nfc.read","since":5,"message":\#(deepest)}}}"#
        let contents = load([headerLine, helloLine, snapshot, traffic, pending, eventLine])
        #expect(contents.problem == nil)
        #expect(contents.frames.count == 5, "every frame loads, including the one after the deep ones")
        var state = LiveState()
        for frame in contents.frames { state.apply(frame, at: 0) }
        #expect(state.log.filter { $0.kind == .message }.map(\.correlationId).contains("q-2"))
    }
}
