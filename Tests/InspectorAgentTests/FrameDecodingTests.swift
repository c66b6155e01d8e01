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
