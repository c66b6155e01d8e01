import BridgeCore
import Foundation
import InspectorProtocol
import TestSupport
import Testing

/// `AgentFrame.read` reads a `traffic` event in one pass (`TrafficFrameReader`) and falls back to
/// the full decoding (`readParsingWhole`) for anything that reader does not take: both must accept
/// the same frames, read them to equal records with the same message bytes, and refuse the
/// others with the same words. Issue 30, item 1.
@Suite("Traffic frame reader: the same as the full decoding")
struct TrafficFrameReaderTests {
    /// What `read` gives for a line, in a form two results can be compared in.
    enum Outcome: Equatable {
        /// A traffic event: its sequence number, the record and its message's bytes.
        case traffic(Int, WireTraffic, Data?)
        /// Another frame (the fast reader never makes one, so only its kind is compared).
        case other(String)
        /// Refused, and why.
        case refused(String)

        init(_ read: (Data) throws(JSONDecoding.Failure) -> AgentFrame, _ line: Data) {
            do throws(JSONDecoding.Failure) {
                switch try read(line) {
                case .event(let seq, .traffic(let traffic)): self = .traffic(seq, traffic, traffic.messageJSON)
                case let frame: self = .other(String(describing: frame).prefix { $0 != "(" }.description)
                }
            } catch {
                self = .refused(error.description)
            }
        }
    }

    /// What differs between the two ways of reading `bytes`, or `nil`.
    static func difference(_ bytes: [UInt8]) -> String? {
        // A slice not starting at 0, as a line cut from a stream is.
        let line = (Data([0x0A]) + Data(bytes)).dropFirst()
        let fast = Outcome(AgentFrame.read, line)
        let full = Outcome(AgentFrame.readParsingWhole, line)
        return fast == full ? nil : "\(String(decoding: bytes, as: UTF8.self)):\n  fast \(fast)\n  full \(full)"
    }

    static func frame(record: String) -> String { #"{"kind":"event","seq":12,"event":{"type":"traffic","record":\#(record)}}"# }

    @Test("the documented records are read on the fast path, to what the full decoding gives", arguments: FrameDecodingTests.records)
    func knownRecords(record: String) throws {
        let line = Data(Self.frame(record: record).utf8)
        guard case .event(_, .traffic(let traffic)) = try AgentFrame.read(line) else {
            Issue.record("not a traffic event")
            return
        }
        #expect(traffic.messageJSON.map { String(decoding: $0, as: UTF8.self) }.map { record.contains($0) } == true)
        #expect(Self.difference(Array(line)) == nil)
    }

    @Test("random and mutated frames: both ways agree", arguments: [1, 2, 3, 4] as [UInt64])
    func randomFrames(seed: UInt64) {
        var text = HostileJSONText(seed: seed)
        var differences: [String] = []
        var traffic = 0
        for _ in 0..<2_000 {
            let bytes = text.mutated(text.trafficFrame())
            if case .event(_, .traffic)? = try? AgentFrame.read(Data(bytes)) { traffic += 1 }
            if let difference = Self.difference(bytes) { differences.append(difference) }
        }
        #expect(differences.prefix(3) == [])
        // The generator makes both kinds.
        #expect(traffic > 150 && traffic < 1_900, "\(traffic) of 2000 read as traffic")
    }

    @Test(
        "the JSONTestSuite corpus in every field of a frame: both ways agree",
        .enabled(if: JSONTestSuiteCorpus.shouldRun(), Comment(rawValue: JSONTestSuiteCorpus.skipText)))
    func corpus() throws {
        let directory = JSONTestSuiteCorpus.location
        let names = JSONTestSuiteCorpus.fileNames()
        try #require(names.count > 300, "the JSONTestSuite corpus is missing at \(directory.path)")
        let message = #"{"version":"1.0","correlationId":"c","type":"event","timestamp":1,"payload":{"action":"x","data":{"v":1}}}"#
        let record = #"{"seq":7,"direction":"sent","time":1,"origin":"host","bytes":3,"message":\#(message)}"#
        var differences: [String] = []
        var count = 0
        let frame = Self.frame(record: record)
        // Where the corpus's text goes (@@), in a frame that is otherwise a valid traffic event.
        let templates = [
            frame.replacingOccurrences(of: #"{"v":1}"#, with: #"{"v":@@}"#),
            frame.replacingOccurrences(of: #"{"v":1}"#, with: "@@"),
            frame.replacingOccurrences(of: #""bytes":3"#, with: #""bytes":3,"future":@@"#),
            frame.replacingOccurrences(of: #""bytes":3"#, with: #""bytes":@@"#),
            frame.replacingOccurrences(of: #""bytes":3"#, with: #""bytes":3,"command":@@"#),
            frame.replacingOccurrences(of: #""bytes":3"#, with: #""bytes":3,"hold":@@"#),
            frame.replacingOccurrences(of: #""bytes":3"#, with: #""bytes":3,"original":@@"#),
            frame.replacingOccurrences(of: message, with: "@@"),
            Self.frame(record: "@@"),
            #"{"kind":"event","extra":@@,"seq":1,"event":{"record":\#(record),"type":"traffic"}}"#,
            "@@",
        ]
        for name in names {
            let value = [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
            for template in templates {
                let parts = template.components(separatedBy: "@@")
                let line = Array(parts[0].utf8) + value + Array(parts[1].utf8)
                count += 1
                if let difference = Self.difference(line) { differences.append(difference) }
            }
        }
        #expect(differences.prefix(3) == [])
        #expect(count > 3_000)
    }
}

/// `TrafficFrameReader` first compares a frame's envelope with the bytes the agent writes around
/// every record (issue 30) and reads it key by key only when they differ: frames laid out as the
/// agent writes them, with hostile records and bytes changed anywhere (in the envelope too),
/// must read as the full decoding reads them.
@Suite("Traffic frame reader: the agent's own layout")
struct AgentLayoutFrameTests {
    @Test("frames with the agent's envelope, records and bytes spoiled: both ways agree", arguments: [5, 6, 7] as [UInt64])
    func agentLayout(seed: UInt64) {
        var text = HostileJSONText(seed: seed)
        var differences: [String] = []
        var traffic = 0
        for _ in 0..<2_000 {
            let record = text.chance(0.5)
                ? text.object(text.trafficRecordFields(extras: 0.15))
                : "{" + text.trafficRecordFields(extras: 0.15).map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
            let bytes = text.mutated(TrafficFrameReaderTests.frame(record: record))
            if case .event(_, .traffic)? = try? AgentFrame.read(Data(bytes)) { traffic += 1 }
            if let difference = TrafficFrameReaderTests.difference(bytes) { differences.append(difference) }
        }
        #expect(differences.prefix(3) == [])
        #expect(traffic > 150 && traffic < 1_900, "\(traffic) of 2000 read as traffic")
    }

    @Test("an envelope cut short at every byte, or with more after it: both ways agree")
    func envelopeEdges() {
        let frame = TrafficFrameReaderTests.frame(record: FrameDecodingTests.records[0])
        var differences: [String] = []
        let bytes = Array(frame.utf8)
        for end in 0...bytes.count {
            if let difference = TrafficFrameReaderTests.difference(Array(bytes.prefix(end))) { differences.append(difference) }
        }
        for extra in [#"}}"#, #","x":1}"#, " ", "}"] {
            if let difference = TrafficFrameReaderTests.difference(Array((frame + extra).utf8)) { differences.append(difference) }
        }
        #expect(differences == [])
    }
}
