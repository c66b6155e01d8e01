import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

/// Issue 13, trap 4: "Integers above 2^53 are shown rounded". A message's numbers are `Double`s
/// once decoded; the inspector must show the message's own text (digits, key order), which the
/// agent forwards verbatim inside its frames (docs/inspector-protocol.md, 4.1 "Traffic":
/// `message` is "exactly as it crossed the bridge").
@Suite("Messages shown exactly as they crossed the bridge")
struct ExactMessageTextTests {
    /// Numbers a `Double` cannot spell back, and keys out of alphabetical order.
    static let data = #"{"z":1,"a":2,"id":9007199254740993,"big":12345678901234567890,"f":1.0,"e":1E2,"n":-0}"#

    static func message(_ id: String) -> String {
        #"{"version":"1.0","correlationId":"\#(id)","type":"event","timestamp":1700000000000,"payload":{"action":"journey.step","data":\#(data)}}"#
    }

    static func record(seq: Int, id: String) -> String {
        #"{"seq":\#(seq),"direction":"received","time":\#(Fixture.t0),"origin":"journey","bytes":\#(message(id).utf8.count),"message":\#(message(id))}"#
    }

    static let snapshotLine =
        #"{"kind":"snapshot","seq":1,"state":{"host":{"environment":"ios","hostVersion":"1","name":"h","pid":1,"startedAt":1},"journeyAttached":true,"lastError":null,"errorHistory":[],"messages":[\#(record(seq: 1, id: "in-snapshot"))],"malformed":[],"pending":[],"slots":[],"customCapabilities":[],"counts":{"evicted":0,"malformed":0,"received":1,"sent":0}}}"#
    static let eventLine = #"{"kind":"event","seq":2,"event":{"type":"traffic","record":\#(record(seq: 2, id: "live"))}}"#

    /// The detail view's lines for log row `row` (0 is the oldest).
    static func detailLines(_ model: inout InspectorModel, row: Int) throws -> [String] {
        model.press(.char("g"))
        for _ in 0..<row { model.press(.char("j")) }
        model.press(.enter)
        let lines = plain(try #require(detailView(model)).lines)
        model.press(.escape)
        return lines
    }

    @Test("The detail view shows big integers digit for digit and keys in the order they were sent, from a snapshot and a live event")
    func detailViewShowsExactText() throws {
        var model = makeModel()
        model.handle(.frame(try AgentFrame.decode(Data(Self.snapshotLine.utf8))))
        model.handle(.frame(try AgentFrame.decode(Data(Self.eventLine.utf8))))
        #expect(model.live.log.count == 2)
        for row in 0..<2 {
            let lines = try Self.detailLines(&model, row: row)
            let text = lines.joined(separator: "\n")
            for expected in [#""id": 9007199254740993"#, #""big": 12345678901234567890"#, #""f": 1.0"#, #""e": 1E2"#, #""n": -0"#] {
                #expect(text.contains(expected), "row \(row) lacks \(expected):\n\(text)")
            }
            let z = try #require(lines.firstIndex { $0.contains(#""z": 1"#) })
            let a = try #require(lines.firstIndex { $0.contains(#""a": 2"#) })
            #expect(z < a, "keys re-sorted in row \(row):\n\(text)")
        }
    }

    @Test("A log row keeps the message's bytes exactly as they stand in the frame, and a body: filter finds its digits")
    func logEntryKeepsBytes() throws {
        var state = LiveState()
        state.apply(try AgentFrame.decode(Data(Self.snapshotLine.utf8)), at: 0)
        state.apply(try AgentFrame.decode(Data(Self.eventLine.utf8)), at: 0)
        #expect(state.log.map { String(decoding: $0.json, as: UTF8.self) } == [Self.message("in-snapshot"), Self.message("live")])
        let filter = try LogFilter.parse("body:9007199254740993")
        #expect(state.log.filter { filter.matches($0, pending: []) }.count == 2)
    }

    @Test("Pending records keep the request's bytes, from a snapshot and from a pendingAdded event")
    func pendingKeepsBytes() throws {
        let pending = #"{"correlationId":"live","action":"journey.step","since":1,"message":\#(Self.message("live"))}"#
        let added = #"{"kind":"event","seq":3,"event":{"type":"pendingAdded","record":\#(pending)}}"#
        guard case .event(_, .pendingAdded(let request)) = try AgentFrame.decode(Data(added.utf8)) else {
            Issue.record("not a pendingAdded event")
            return
        }
        #expect(request.messageJSON.map { String(decoding: $0, as: UTF8.self) } == Self.message("live"))
        let snapshot = Self.snapshotLine.replacingOccurrences(of: #""pending":[]"#, with: #""pending":[\#(pending)]"#)
        guard case .snapshot(_, let state) = try AgentFrame.decode(Data(snapshot.utf8)) else {
            Issue.record("not a snapshot")
            return
        }
        #expect(state.pending.map { $0.messageJSON.map { String(decoding: $0, as: UTF8.self) } } == [Self.message("live")])
    }

    @Test("A recording opens with the messages' exact text")
    func recordingKeepsBytes() throws {
        let contents = Recording.load(data: Data([Self.snapshotLine, Self.eventLine].joined(separator: "\n").utf8))
        #expect(contents.problem == nil)
        var state = LiveState()
        for frame in contents.frames { state.apply(frame, at: 0) }
        #expect(state.log.map { String(decoding: $0.json, as: UTF8.self) } == [Self.message("in-snapshot"), Self.message("live")])
    }
}

/// The bytes of each message are noted by the parser in its one pass over a frame (the light
/// re-scan, `JSONExtent`, is gone; its cases are in `JSONParserCaptureTests`).
@Suite("Frames keep their messages' bytes from the one parse")
struct FrameMessageBytesTests {
    @Test("A message under a key spelled with an escape keeps its bytes, as the parser reads the key")
    func escapedKey() throws {
        let line = ExactMessageTextTests.eventLine.replacingOccurrences(of: #""message":"#, with: #""message":"#)
        guard case .event(_, .traffic(let traffic)) = try AgentFrame.decode(Data(line.utf8)) else {
            Issue.record("not a traffic event")
            return
        }
        #expect(traffic.messageJSON.map { String(decoding: $0, as: UTF8.self) } == ExactMessageTextTests.message("live"))
    }

    @Test("A snapshot's records each keep their own message, and a repeated key keeps the last")
    func snapshotRecords() throws {
        let two = ExactMessageTextTests.snapshotLine.replacingOccurrences(
            of: ExactMessageTextTests.record(seq: 1, id: "in-snapshot"),
            with: ExactMessageTextTests.record(seq: 1, id: "first") + "," + ExactMessageTextTests.record(seq: 2, id: "second"))
            .replacingOccurrences(of: #""received":1"#, with: #""received":2"#)
        guard case .snapshot(_, let state) = try AgentFrame.decode(Data(two.utf8)) else {
            Issue.record("not a snapshot")
            return
        }
        #expect(state.messages.map { $0.messageJSON.map { String(decoding: $0, as: UTF8.self) } } == [
            ExactMessageTextTests.message("first"), ExactMessageTextTests.message("second"),
        ])
        let repeated = ExactMessageTextTests.eventLine.replacingOccurrences(
            of: #""record":"#, with: #""record":{"message":{"x":1}},"record":"#)
        guard case .event(_, .traffic(let traffic)) = try AgentFrame.decode(Data(repeated.utf8)) else {
            Issue.record("not a traffic event")
            return
        }
        #expect(traffic.messageJSON.map { String(decoding: $0, as: UTF8.self) } == ExactMessageTextTests.message("live"))
    }
}
