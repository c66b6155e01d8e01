import BridgeCore
import Foundation
import InspectorProtocol
import TestSupport
import Testing

/// A client decodes the line its framer hands over from the line's own bytes
/// (`AgentFrame.decode(bytes:)`, `read(bytes:)`), no longer from a copy in `Data` (issue 30: one
/// 10 MiB copy less for a 10 MiB message), or from the bytes lent where the framer found them
/// (`decode(lentBytes:)`, `read(lentBytes:)`: no array per line). All must accept the same
/// frames, read them to equal values with the same message bytes, and refuse the others with the
/// same words.
@Suite("Decoding a frame from its bytes: the same as from Data")
struct AgentFrameBytesTests {
    /// What a way of decoding gives for a line, in a form two results can be compared in.
    enum Outcome: Equatable, CustomStringConvertible {
        /// A traffic event: its sequence number, the record and its message's bytes.
        case traffic(Int, WireTraffic, Data?)
        /// A snapshot: its sequence number, its state encoded with sorted keys, and the message
        /// bytes of its log and of its pending requests (not encoded, so compared apart).
        case snapshot(Int, String, [Data?], [Data?])
        /// A pending request added: the whole frame described, and its message's bytes.
        case pendingAdded(String, Data?)
        /// Any other frame, described whole.
        case other(String)
        /// Refused, and why (`decode`'s error, described).
        case refused(String)

        init(_ decode: () throws -> AgentFrame) {
            do {
                self.init(try decode())
            } catch {
                self = .refused(String(describing: error))
            }
        }

        init(_ frame: AgentFrame) {
            switch frame {
            case .event(let seq, .traffic(let traffic)):
                self = .traffic(seq, traffic, traffic.messageJSON)
            case .event(_, .pendingAdded(let pending)):
                self = .pendingAdded(String(describing: frame), pending.messageJSON)
            case .snapshot(let seq, let state):
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                let text = (try? encoder.encode(state)).map { String(decoding: $0, as: UTF8.self) } ?? "not encodable"
                self = .snapshot(seq, text, state.messages.map(\.messageJSON), state.pending.map(\.messageJSON))
            default:
                self = .other(String(describing: frame))
            }
        }

        var description: String {
            switch self {
            case .traffic(let seq, let traffic, let bytes): "traffic \(seq) \(traffic.message.correlationId) \(bytes?.count ?? -1) bytes"
            case .snapshot(let seq, let state, _, _): "snapshot \(seq) \(state.prefix(200))"
            case .pendingAdded(let frame, _): "pendingAdded \(frame.prefix(200))"
            case .other(let frame): "other \(frame.prefix(200))"
            case .refused(let reason): "refused: \(reason.prefix(300))"
            }
        }

        /// Whether a frame came out.
        var decoded: Bool {
            if case .refused = self { return false }
            return true
        }
    }

    /// What differs between decoding `bytes` from a `Data` and from the bytes themselves (with
    /// `decode` and with `read`), or `nil`. Both forms share one reading, so this holds the two
    /// entries to each other; that the shared reading gives what it gave before the bytes entry
    /// came is held by the older tests against the full decoding (`readParsingWhole`), the
    /// hostile-input runs and the JSONTestSuite corpus.
    static func difference(_ bytes: [UInt8]) -> String? {
        // A slice not starting at 0, as a line cut from a stream is.
        let line = (Data([0x0A]) + Data(bytes)).dropFirst()
        let fromData = Outcome { try AgentFrame.decode(line) }
        let fromBytes = Outcome { try AgentFrame.decode(bytes: bytes) }
        let readFromData = Outcome { () throws -> AgentFrame in try AgentFrame.read(line) }
        let readFromBytes = Outcome { () throws -> AgentFrame in try AgentFrame.read(bytes: bytes) }
        // Lent for the call, as a client's framer lends a line in its read buffer.
        let fromLent = bytes.withUnsafeBytes { lent in Outcome { try AgentFrame.decode(lentBytes: lent) } }
        let readFromLent = bytes.withUnsafeBytes { lent in Outcome { () throws -> AgentFrame in try AgentFrame.read(lentBytes: lent) } }
        guard fromData == fromBytes, fromData == fromLent, readFromData == readFromBytes, readFromData == readFromLent,
            fromData.decoded == readFromData.decoded
        else {
            return "\(String(decoding: bytes.prefix(2_000), as: UTF8.self)):\n  Data \(fromData)\n  bytes \(fromBytes)\n  lent \(fromLent)\n  read Data \(readFromData)\n  read bytes \(readFromBytes)\n  read lent \(readFromLent)"
        }
        return nil
    }

    static let hostJSON = #"{"environment":"ios","hostVersion":"1.0","name":"h","pid":7,"startedAt":1000}"#

    /// One frame of every kind the agent sends, valid.
    static let validFrames: [String] = [
        #"{"kind":"hello","protocol":1,"agent":"a","host":\#(hostJSON),"features":["x"],"limits":{"maxFrameBytes":10,"maxClients":1},"clientId":3}"#,
        #"{"kind":"gap","from":3,"to":4}"#,
        #"{"kind":"reply","id":"c1","ok":true,"result":{"n":1.5},"sent":[]}"#,
        #"{"kind":"reply","ok":false,"error":{"code":"auth_failed","message":"no"}}"#,
        #"{"kind":"event","seq":2,"event":{"type":"pendingRemoved","correlationId":"r1"}}"#,
        #"{"kind":"event","seq":3,"event":{"type":"pendingAdded","record":{"correlationId":"p-1","action":"nfc.read","since":1,"message":{"version":"1.0","correlationId":"p-1","type":"request","timestamp":1,"payload":{"action":"nfc.read","data":{"a":[1,2]}}}}}}"#,
        #"{"kind":"snapshot","seq":1,"state":{"host":\#(hostJSON),"journeyAttached":true,"lastError":null,"errorHistory":[],"messages":[],"malformed":[],"pending":[],"slots":[],"customCapabilities":[],"counts":{"evicted":0,"malformed":0,"received":0,"sent":0}}}"#,
    ]

    /// Lines that are not frames: each refused.
    static let refusedLines: [String] = [
        #"{"kind":"gap","from":4,"to":3}"#, #"{"kind":"nonsense"}"#, "", "   ", "[1,2]", #"{"kind":"event","seq":1,"event":{"type":"traffic"}}"#,
    ]

    @Test("every kind of frame, the documented traffic records and lines that are no frame: the same from bytes as from Data")
    func everyKind() {
        let valid = Self.validFrames + FrameDecodingTests.records.map(TrafficFrameReaderTests.frame(record:))
        for line in valid + Self.refusedLines {
            #expect(Self.difference(Array(line.utf8)) == nil)
        }
        #expect(valid.filter { (try? AgentFrame.decode(bytes: Array($0.utf8))) == nil } == [])
        #expect(Self.refusedLines.filter { (try? AgentFrame.decode(bytes: Array($0.utf8))) != nil } == [])
    }

    @Test("random and mutated traffic events and snapshots: the same from bytes as from Data", arguments: [11, 12, 13] as [UInt64])
    func randomFrames(seed: UInt64) {
        var text = HostileJSONText(seed: seed)
        var differences: [String] = []
        var traffic = 0
        var snapshots = 0
        for index in 0..<3_000 {
            let bytes = text.mutated(index % 3 == 0 ? text.snapshotFrame() : text.trafficFrame())
            switch try? AgentFrame.decode(bytes: bytes) {
            case .event(_, .traffic)?: traffic += 1
            case .snapshot?: snapshots += 1
            default: break
            }
            if let difference = Self.difference(bytes) { differences.append(difference) }
        }
        #expect(differences.prefix(3) == [])
        // The generator makes frames of both kinds and refusals.
        #expect(traffic > 150 && snapshots > 50 && traffic + snapshots < 2_900, "\(traffic) traffic events, \(snapshots) snapshots")
    }

    @Test(
        "the JSONTestSuite corpus in a frame's fields: the same from bytes as from Data",
        .enabled(if: JSONTestSuiteCorpus.shouldRun(), Comment(rawValue: JSONTestSuiteCorpus.skipText)))
    func corpus() throws {
        let directory = JSONTestSuiteCorpus.location
        let names = JSONTestSuiteCorpus.fileNames()
        try #require(names.count > 300, "the JSONTestSuite corpus is missing at \(directory.path)")
        let message = #"{"version":"1.0","correlationId":"c","type":"event","timestamp":1,"payload":{"action":"x","data":{"v":@@}}}"#
        let record = #"{"seq":7,"direction":"sent","time":1,"origin":"host","bytes":3,"message":\#(message)}"#
        let templates = [
            TrafficFrameReaderTests.frame(record: record),
            #"{"kind":"snapshot","seq":1,"state":{"host":\#(Self.hostJSON),"journeyAttached":true,"lastError":null,"errorHistory":[],"messages":[\#(record)],"malformed":[],"pending":[],"slots":[],"customCapabilities":[],"counts":{"evicted":0,"malformed":0,"received":0,"sent":0}}}"#,
            #"{"kind":"reply","id":"c1","ok":true,"result":@@}"#,
            "@@",
        ]
        var differences: [String] = []
        var count = 0
        for name in names {
            let value = [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
            for template in templates {
                let parts = template.components(separatedBy: "@@")
                count += 1
                if let difference = Self.difference(Array(parts[0].utf8) + value + Array(parts[1].utf8)) { differences.append(difference) }
            }
        }
        #expect(differences.prefix(3) == [])
        #expect(count > 1_200)
    }

    @Test("a large message: the same record and the same message bytes from bytes as from Data")
    func largeMessage() throws {
        let fill = String(repeating: "ABCDEFGH", count: 128 * 1024)
        let message = #"{"version":"1.0","correlationId":"big","type":"event","timestamp":1,"payload":{"action":"journey.upload","data":{"image":"\#(fill)"}}}"#
        let record = #"{"seq":1,"direction":"received","time":1764000000123,"origin":"journey","bytes":\#(message.utf8.count),"message":\#(message)}"#
        let bytes = Array(TrafficFrameReaderTests.frame(record: record).utf8)
        #expect(Self.difference(bytes) == nil)
        guard case .event(_, .traffic(let traffic)) = try AgentFrame.decode(bytes: bytes) else {
            Issue.record("not a traffic event")
            return
        }
        #expect(traffic.messageJSON == Data(message.utf8))
    }
}
