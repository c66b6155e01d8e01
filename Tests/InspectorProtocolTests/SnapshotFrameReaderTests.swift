import BridgeCore
import Foundation
@testable import InspectorProtocol
import TestSupport
import Testing

/// `AgentFrame.read` reads a snapshot in one pass (`SnapshotFrameReader`) and falls back to the
/// full decoding (`readParsingWhole`) for anything that reader does not take: both must accept the
/// same frames, read them to equal states with the same message bytes, and refuse the others with
/// the same words. Issue 30 (a 30 MiB snapshot decoded 3 times faster).
@Suite("Snapshot frame reader: the same as the full decoding")
struct SnapshotFrameReaderTests {
    /// What a way of reading gives for a line, in a form two results can be compared in.
    enum Outcome: Equatable, CustomStringConvertible {
        /// A snapshot: its sequence number, its state encoded with sorted keys, and the message
        /// bytes of its log and of its pending requests (not encoded, so compared apart).
        case snapshot(Int, String, [Data?], [Data?])
        /// Another frame (the fast reader never makes one, so only its kind is compared).
        case other(String)
        /// Refused, and why.
        case refused(String)

        init(_ read: (Data) throws(JSONDecoding.Failure) -> AgentFrame, _ line: Data) {
            do throws(JSONDecoding.Failure) {
                self.init(try read(line))
            } catch {
                self = .refused(error.description)
            }
        }

        init(_ frame: AgentFrame) {
            switch frame {
            case .snapshot(let seq, let state):
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                let text = (try? encoder.encode(state)).map { String(decoding: $0, as: UTF8.self) } ?? "not encodable"
                self = .snapshot(seq, text, state.messages.map(\.messageJSON), state.pending.map(\.messageJSON))
            case let frame: self = .other(String(describing: frame).prefix { $0 != "(" }.description)
            }
        }

        var description: String {
            switch self {
            case .snapshot(let seq, let state, let messages, let pending):
                "snapshot \(seq) \(state.prefix(300)) log bytes \(messages.map { $0?.count }) pending bytes \(pending.map { $0?.count })"
            case .other(let kind): "other \(kind)"
            case .refused(let reason): "refused: \(reason)"
            }
        }
    }

    /// What differs between the two ways of reading `bytes`, or `nil`; `fast` counts the lines the
    /// one-pass reader took.
    static func difference(_ bytes: [UInt8], fast: inout Int) -> String? {
        // A slice not starting at 0, as a line cut from a stream is.
        let line = (Data([0x0A]) + Data(bytes)).dropFirst()
        if let frame = SnapshotFrameReader.frame(in: line) {
            fast += 1
            // What the reader gives must be what `read` gives: the reader is not bypassed.
            if Outcome(frame) != Outcome(AgentFrame.read, line) { return "the reader and read differ on \(text(bytes))" }
        }
        let read = Outcome(AgentFrame.read, line)
        let full = Outcome(AgentFrame.readParsingWhole, line)
        return read == full ? nil : "\(text(bytes)):\n  read \(read)\n  full \(full)"
    }

    static func text(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.count > 2_000 ? text.prefix(2_000) + "…" : text
    }

    @Test("the documented snapshot is read on the fast path, to what the full decoding gives, message bytes and all")
    func documentedSnapshot() throws {
        let line = Data(FrameDecodingTests.snapshotLine().utf8)
        let frame = try #require(SnapshotFrameReader.frame(in: line))
        guard case .snapshot(9, let state) = frame else {
            Issue.record("not the snapshot")
            return
        }
        let text = String(decoding: line, as: UTF8.self)
        #expect(state.messages.count == 3)
        #expect(state.pending.count == 3)
        for bytes in state.messages.map(\.messageJSON) + state.pending.map(\.messageJSON) {
            let message = try #require(bytes.map { String(decoding: $0, as: UTF8.self) })
            #expect(message.hasPrefix("{") && text.contains(message))
        }
        var fast = 0
        #expect(Self.difference(Array(line), fast: &fast) == nil)
        #expect(fast == 1)
    }

    @Test("refusals give the full decoding's words, and a frame that is not a snapshot is left to the others")
    func refusals() {
        let good = FrameDecodingTests.snapshotLine()
        let lines = [
            good.replacingOccurrences(of: #""seq":9"#, with: #""seq":9.5"#),
            good.replacingOccurrences(of: #""seq":9,"#, with: ""),
            good.replacingOccurrences(of: #""journeyAttached":true"#, with: #""journeyAttached":1"#),
            good.replacingOccurrences(of: #""pid":1,"#, with: #""pid":"one","#),
            good.replacingOccurrences(of: #""messages":["#, with: #""messages":null,"old":["#),
            good.replacingOccurrences(of: #""pending":["#, with: #""pendingX":["#),
            good.replacingOccurrences(of: #""direction":"received""#, with: #""direction":"sideways""#),
            good.replacingOccurrences(of: #""since":2.5"#, with: #""since":"later""#),
            good.replacingOccurrences(of: #""state":{"#, with: #""state":{"messages":[],"#),
            good.replacingOccurrences(of: #""kind":"snapshot""#, with: #""kind":"snapshot","kind":"gap""#),
            good.replacingOccurrences(of: #""kind":"snapshot""#, with: #""kind":"snaps\u0068ot""#),
            good + " x",
            String(good.dropLast()),
            #"{"kind":"snapshot"}"#,
            #"{"kind":"snapshot","seq":1,"state":[]}"#,
            #"{"kind":"snapshot"  ,"seq":1}"#,
            #"{"kind":"gap","from":1,"to":2}"#,
        ]
        var fast = 0
        for line in lines {
            let difference = Self.difference(Array(line.utf8), fast: &fast)
            #expect(difference == nil)
        }
        // None is taken by the fast reader (a duplicate `messages` is read the full way, the last winning).
        #expect(fast == 0)
        for line in lines.prefix(8) {
            #expect(throws: JSONDecoding.Failure.self) { try AgentFrame.read(Data(line.utf8)) }
        }
    }

    @Test("random and mutated snapshots: both ways agree", arguments: [1, 2, 3, 4] as [UInt64])
    func randomSnapshots(seed: UInt64) {
        var text = HostileJSONText(seed: seed)
        var differences: [String] = []
        var fast = 0
        var snapshots = 0
        for _ in 0..<1_500 {
            let bytes = text.mutated(text.snapshotFrame())
            if case .snapshot? = try? AgentFrame.readParsingWhole(Data(bytes)) { snapshots += 1 }
            if let difference = Self.difference(bytes, fast: &fast) { differences.append(difference) }
        }
        #expect(differences.prefix(3) == [])
        // The generator makes snapshots the fast reader takes, others it leaves, and refusals.
        #expect(fast > 60 && snapshots < 1_400, "\(fast) of 1500 read on the fast path, \(snapshots) snapshots")
        #expect(fast <= snapshots)
    }

    @Test("nesting at the frame's depth limit and one past it, in every list and in the rest: both ways agree")
    func depthLimit() {
        let limit = WireProtocol.maxAgentFrameDepth
        // The frame is level 1, the state 2, a list 3, a record 4, its message 5, the payload 6,
        // `data` 7: `data`'s value opens level 8.
        func nested(_ levels: Int) -> String { String(repeating: "[", count: levels) + String(repeating: "]", count: levels) }
        func message(data: String) -> String {
            #"{"version":"1.0","correlationId":"c","type":"request","timestamp":1,"payload":{"action":"x","data":{"v":\#(data)}}}"#
        }
        var fast = 0
        var read = 0
        for levels in [limit - 8, limit - 7, limit - 6] {
            let deep = nested(levels)
            let record = #"{"seq":1,"direction":"received","time":1,"origin":"journey","bytes":1,"message":\#(message(data: deep))}"#
            let pending = #"{"correlationId":"c","action":"x","since":1,"message":\#(message(data: deep))}"#
            // In the rest of the state (level 2), a known field and an unknown one; beside the state.
            let lines = [
                FrameDecodingTests.snapshotLine(messages: [record], pending: []),
                FrameDecodingTests.snapshotLine(messages: [], pending: [pending]),
                FrameDecodingTests.snapshotLine(messages: [], pending: []).replacingOccurrences(
                    of: #""errorHistory":[]"#, with: #""errorHistory":\#(nested(levels + 5))"#),
                FrameDecodingTests.snapshotLine(messages: [], pending: []).replacingOccurrences(
                    of: #""state":{"#, with: #""state":{"future":\#(nested(levels + 5)),"#),
                FrameDecodingTests.snapshotLine(messages: [], pending: []).replacingOccurrences(
                    of: #""seq":9"#, with: #""seq":9,"future":\#(nested(levels + 6))"#),
            ]
            for line in lines {
                #expect(Self.difference(Array(line.utf8), fast: &fast) == nil)
                if (try? AgentFrame.read(Data(line.utf8))) != nil { read += 1 }
            }
        }
        // At the limit (levels limit - 8 and - 7) every line but the bad `errorHistory` is read,
        // on the fast path; one past it none is.
        #expect(fast == 8)
        #expect(read == 8)
    }

    @Test("the fast reader's limit is the agent's, counted from 0")
    func shiftedLimit() {
        #expect(SnapshotFrameReader.maxDepth == WireProtocol.maxAgentFrameDepth - 1)
        #expect(SnapshotFrameReader.maxDepth >= 1 && WireProtocol.maxAgentFrameDepth <= JSONSyntaxCheck.maximumDepth)
    }

    @Test("every field of WireState is read by the fast reader: none is skipped")
    func everyStateField() throws {
        // A state with every field given, decoded from the documented snapshot plus the optional ones.
        let line = FrameDecodingTests.snapshotLine().replacingOccurrences(
            of: #""counts":"#,
            with: #""held":[],"breakpoints":[],"faults":[],"lastUnreadSentReport":{"seq":1,"time":1,"raw":"r","bytes":1,"reason":"why","direction":"sent"},"counts":"#)
        guard case .snapshot(_, let state)? = SnapshotFrameReader.frame(in: Data(line.utf8)) else {
            Issue.record("not read on the fast path")
            return
        }
        #expect(state.held != nil && state.breakpoints != nil && state.faults != nil && state.lastUnreadSentReport != nil)
        // Every stored property of WireState is one the reader knows (a new one must be added there).
        let known = Set(SnapshotFrameReader.stateFieldNames)
        let fields = Mirror(reflecting: state).children.compactMap(\.label)
        #expect(fields.count >= 14)
        #expect(fields.filter { !known.contains($0) } == [])
    }

    @Test(
        "the JSONTestSuite corpus in every part of a snapshot: both ways agree",
        .enabled(if: JSONTestSuiteCorpus.shouldRun(), Comment(rawValue: JSONTestSuiteCorpus.skipText)))
    func corpus() throws {
        let directory = JSONTestSuiteCorpus.location
        let names = JSONTestSuiteCorpus.fileNames()
        try #require(names.count > 300, "the JSONTestSuite corpus is missing at \(directory.path)")
        let message = #"{"version":"1.0","correlationId":"c","type":"event","timestamp":1,"payload":{"action":"x","data":{"v":1}}}"#
        let record = #"{"seq":7,"direction":"sent","time":1,"origin":"host","bytes":3,"message":\#(message)}"#
        let request = message.replacingOccurrences(of: #""event""#, with: #""request""#)
        let pending = #"{"correlationId":"c","action":"x","since":1,"message":\#(request)}"#
        let frame = FrameDecodingTests.snapshotLine(messages: [record, record], pending: [pending])
        // Where the corpus's text goes (@@), in a frame that is otherwise a valid snapshot.
        let templates = [
            FrameDecodingTests.snapshotLine(messages: [record.replacingOccurrences(of: #"{"v":1}"#, with: #"{"v":@@}"#)], pending: [pending]),
            FrameDecodingTests.snapshotLine(messages: [record], pending: [pending.replacingOccurrences(of: #"{"v":1}"#, with: "@@")]),
            FrameDecodingTests.snapshotLine(messages: [record, "@@"], pending: [pending]),
            FrameDecodingTests.snapshotLine(messages: [record], pending: ["@@"]),
            FrameDecodingTests.snapshotLine(messages: [record.replacingOccurrences(of: #""bytes":3"#, with: #""bytes":3,"future":@@"#)], pending: []),
            FrameDecodingTests.snapshotLine(messages: [], pending: [pending.replacingOccurrences(of: #""since":1"#, with: #""since":@@"#)]),
            FrameDecodingTests.snapshotLine(messages: [], pending: [pending.replacingOccurrences(of: #""since":1"#, with: #""since":1,"truncated":@@"#)]),
            frame.replacingOccurrences(of: #""errorHistory":[]"#, with: #""errorHistory":@@"#),
            frame.replacingOccurrences(of: #""lastError":null"#, with: #""lastError":@@"#),
            frame.replacingOccurrences(of: #""journeyAttached":true"#, with: #""journeyAttached":true,"future":@@"#),
            frame.replacingOccurrences(of: #""seq":9"#, with: #""seq":@@"#),
            frame.replacingOccurrences(of: #""seq":9"#, with: #""seq":9,"extra":@@"#),
            #"{"kind":"snapshot","seq":1,"state":@@}"#,
            #"{"kind":"snapshot","seq":1,"state":{"messages":@@,"pending":[]}}"#,
        ]
        var differences: [String] = []
        var fast = 0
        var count = 0
        for name in names {
            let value = [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
            for template in templates {
                let parts = template.components(separatedBy: "@@")
                let line = Array(parts[0].utf8) + value + Array(parts[1].utf8)
                count += 1
                if let difference = Self.difference(line, fast: &fast) { differences.append(difference) }
            }
        }
        #expect(differences.prefix(3) == [])
        #expect(count > 4_000)
        #expect(fast > 200, "\(fast) read on the fast path")
    }
}

extension HostileJSONText {
    /// A snapshot frame, usually valid, sometimes another kind of frame: a log of traffic
    /// records and pending requests, right and wrong, and the rest of the state.
    mutating func snapshotFrame() -> String {
        // Few records, and the rest mostly as the agent writes it: every object built by
        // `object(_:)` may be spoiled, and enough snapshots must come out whole.
        let messages = (0..<below(3)).map { _ in usually(trafficRecord(), ["null", "[]"]) }
        let pending = (0..<below(2)).map { _ in usually(pendingRecord(), ["null", "7"]) }
        let host = #"{"name":"h","pid":12,"hostVersion":"1","environment":"ios","startedAt":1795541427124.5}"#
        let counts = #"{"received":1,"sent":2,"malformed":0,"evicted":0,"pendingOmitted":4}"#
        let lastError = #"{"seq":3,"time":1,"text":"boom"}"#
        var state: [(String, String)] = [
            ("host", usually(host, ["null", #"{"name":"h"}"#, host.replacingOccurrences(of: "12", with: "1.5")])),
            ("journeyAttached", usually(pick(["true", "false"]), ["1", "null"])),
            ("lastError", usually(pick(["null", lastError]), [#"{"seq":3}"#])),
            ("errorHistory", usually(chance(0.5) ? "[]" : "[" + lastError + "]", ["null"])),
            ("messages", "[" + space() + messages.joined(separator: "," + space()) + "]"),
            ("malformed", usually("[]")),
            ("pending", "[" + pending.joined(separator: ",") + space() + "]"),
            ("slots", usually("[]")),
            ("customCapabilities", usually("[]")),
            ("counts", usually(counts, ["{}"])),
        ]
        for name in ["held", "breakpoints", "faults"] where chance(0.2) { state.append((name, usually(pick(["[]", "null"])))) }
        return space() + object([
            ("kind", usually(#""snapshot""#, [#""event""#, #""gap""#, "1"])), ("seq", usually("9", ["1.5", "null", #""9""#])),
            ("state", usually(object(state))),
        ]) + space()
    }

    /// A traffic record, usually valid.
    mutating func trafficRecord() -> String {
        object(trafficRecordFields(extras: 0.1))
    }

    /// A pending request's record, usually valid.
    mutating func pendingRecord() -> String {
        var record: [(String, String)] = [
            ("correlationId", usually(#""p-1""#, ["7", "null", string()])),
            ("action", usually(#""nfc.read""#, ["null"])),
            ("since", usually(pick(["1795541427124", "2.5"]), [#""later""#, "null"])),
            ("message", usually(message(), ["null"])),
        ]
        if chance(0.3) { record.append(("truncated", usually(pick(["true", "false", "null"]), ["1", #""yes""#]))) }
        return object(record)
    }
}
