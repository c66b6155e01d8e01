import BridgeCore
import Foundation
import InspectorProtocol
import Testing

/// `AgentFrame.decode` parses `traffic` events on a fast path; it must give exactly what
/// `JSONDecoder` gives for the same record, and leave everything else to `JSONDecoder`.
@Suite("Agent frame decoding")
struct FrameDecodingTests {
    static let records: [String] = [
        #"{"seq":7,"direction":"received","time":1795541427124,"origin":"journey","bytes":154,"message":{"correlationId":"e-6","payload":{"action":"journey.step","data":{"step":"selfie"}},"timestamp":1795541427124,"type":"event","version":"1.0"}}"#,
        #"{"seq":8,"direction":"sent","time":1.5,"origin":"inspector","command":"c1","rule":"nfc","deliveryError":null,"bytes":9,"truncated":true,"message":{"correlationId":"r","payload":{"action":"nfc.read","status":"error","error":{"code":"BUSY","message":"busy","recoverable":true}},"timestamp":0,"type":"response","version":"1.0"},"future":{"field":1}}"#,
        #"{"seq":9,"direction":"sent","time":2,"origin":"host","deliveryError":"WebView not attached","bytes":10,"message":{"correlationId":"ios-event-1","payload":{"action":"host.ping"},"timestamp":0,"type":"event","version":"1.0"}}"#,
    ]

    @Test("a traffic event decodes to the same record as JSONDecoder gives", arguments: records)
    func trafficAgrees(record: String) throws {
        let expected = try JSONDecoder().decode(WireTraffic.self, from: Data(record.utf8))
        let line = #"{"kind":"event","seq":\#(expected.seq),"event":{"type":"traffic","record":\#(record)}}"#
        guard case .event(let seq, .traffic(let traffic)) = try AgentFrame.decode(Data(line.utf8)) else {
            Issue.record("not a traffic event")
            return
        }
        #expect(seq == expected.seq)
        #expect(traffic == expected)
    }

    /// A snapshot holding the records above in its log, and pending records that exercise every
    /// field (`truncated` absent, `true` and `null`, an unknown field).
    static func snapshotLine(messages: [String] = records, pending: [String]? = nil) -> String {
        let pendingRecords = pending ?? [
            #"{"correlationId":"p-1","action":"nfc.read","since":1795541427124,"message":{"correlationId":"p-1","payload":{"action":"nfc.read","data":{"deep":[[1,2],{"a":null}]}},"timestamp":1,"type":"request","version":"1.0"}}"#,
            #"{"correlationId":"p-2","action":"big.upload","since":2.5,"truncated":true,"future":7,"message":{"correlationId":"p-2","payload":{"action":"big.upload"},"timestamp":1,"type":"request","version":"1.0"}}"#,
            #"{"correlationId":"p-3","action":"x","since":3,"truncated":null,"message":{"correlationId":"p-3","payload":{"action":"x"},"timestamp":1,"type":"request","version":"1.0"}}"#,
        ]
        return #"{"kind":"snapshot","seq":9,"state":{"host":{"environment":"ios","hostVersion":"1","name":"h","pid":1,"startedAt":1},"journeyAttached":true,"lastError":null,"errorHistory":[],"messages":[\#(messages.joined(separator: ","))],"malformed":[],"pending":[\#(pendingRecords.joined(separator: ","))],"slots":[],"customCapabilities":[],"counts":{"evicted":0,"malformed":0,"received":1,"sent":2,"pendingOmitted":4}}}"#
    }

    /// `state`, as JSONDecoder alone decodes it, re-encoded with sorted keys for comparison.
    static func canonical(_ state: WireState) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(state), as: UTF8.self)
    }

    @Test("a snapshot's log and pending records, read on the fast path, are what JSONDecoder reads")
    func snapshotAgrees() throws {
        let line = Self.snapshotLine()
        guard case .snapshot(let seq, let state) = try AgentFrame.decode(Data(line.utf8)) else {
            Issue.record("not a snapshot")
            return
        }
        struct Outer: Decodable { var state: WireState }
        let expected = try JSONDecoder().decode(Outer.self, from: Data(line.utf8)).state
        #expect(seq == 9)
        #expect(state.messages.count == 3)
        #expect(state.pending.map(\.truncated) == [nil, true, nil])
        #expect(state.counts.pendingOmitted == 4)
        #expect(try Self.canonical(state) == Self.canonical(expected))
    }

    @Test("a snapshot with a record the fast path refuses is refused with JSONDecoder's error")
    func badSnapshotIsRefused() {
        let badTraffic = #"{"seq":1,"direction":"sideways","time":1,"origin":"host","bytes":1,"message":{"correlationId":"a","payload":{"action":"x"},"timestamp":0,"type":"event","version":"1.0"}}"#
        let badPending = #"{"correlationId":"p","action":"x","since":"yesterday","message":{"correlationId":"p","payload":{"action":"x"},"timestamp":1,"type":"request","version":"1.0"}}"#
        for line in [Self.snapshotLine(messages: [badTraffic]), Self.snapshotLine(pending: [badPending])] {
            #expect(throws: DecodingError.self) { try AgentFrame.decode(Data(line.utf8)) }
        }
    }

    @Test("a traffic record JSONDecoder refuses is refused, with JSONDecoder's error")
    func badTrafficIsRefused() {
        for record in [
            #"{"seq":1.5,"direction":"sent","time":1,"origin":"host","bytes":1,"message":{"correlationId":"a","payload":{"action":"x"},"timestamp":0,"type":"event","version":"1.0"}}"#,
            #"{"seq":1,"direction":"sideways","time":1,"origin":"host","bytes":1,"message":{"correlationId":"a","payload":{"action":"x"},"timestamp":0,"type":"event","version":"1.0"}}"#,
            #"{"seq":1,"direction":"sent","time":1,"origin":"host","bytes":1,"message":{"correlationId":"a","payload":{"action":""},"timestamp":0,"type":"event","version":"1.0"}}"#,
            #"{"seq":1,"direction":"sent","time":1,"origin":"host","bytes":1,"rule":7,"message":{"correlationId":"a","payload":{"action":"x"},"timestamp":0,"type":"event","version":"1.0"}}"#,
        ] {
            let line = #"{"kind":"event","seq":1,"event":{"type":"traffic","record":\#(record)}}"#
            #expect(throws: DecodingError.self, "\(record)") { try AgentFrame.decode(Data(line.utf8)) }
        }
    }

    @Test("other frames still decode through JSONDecoder")
    func otherFrames() throws {
        let removed = #"{"kind":"event","seq":3,"event":{"type":"pendingRemoved","correlationId":"p-1"}}"#
        guard case .event(3, .pendingRemoved("p-1")) = try AgentFrame.decode(Data(removed.utf8)) else {
            Issue.record("pendingRemoved not decoded")
            return
        }
        guard case .gap(4, 9) = try AgentFrame.decode(Data(#"{"kind":"gap","from":4,"to":9}"#.utf8)) else {
            Issue.record("gap not decoded")
            return
        }
        #expect(throws: DecodingError.self) { try AgentFrame.decode(Data(#"{"kind":"mystery"}"#.utf8)) }
    }
}
