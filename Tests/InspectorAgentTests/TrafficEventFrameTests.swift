import BridgeCore
import Foundation
@testable import InspectorAgent
import InspectorProtocol
import TestSupport
import Testing

/// The one-pass frame of a plain traffic record (`TrafficEventFrame`, the agent's hot path) must
/// be the general path's frame byte for byte, and leave the agent's state as the general path
/// leaves it (the log, the counts, a pending record reusing the received bytes), for any bytes
/// and any time: valid and hostile messages, raw line breaks, empty text, odd clocks.
@Suite("The one-pass traffic frame follows the general path")
struct TrafficEventFrameTests {
    static let times: [Date] = [
        CompactTrafficTests.t0, Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -1.5), Date(timeIntervalSince1970: 0.0004),
        Date(timeIntervalSince1970: 0.0005), Date(timeIntervalSince1970: -0.0005), Date(timeIntervalSince1970: 999_999_999_999.999),
        Date(timeIntervalSince1970: 1_000_000_000_000), Date(timeIntervalSince1970: -2_000_000_000_000), .distantFuture, .distantPast,
        Date(timeIntervalSince1970: .infinity), Date(timeIntervalSince1970: -.infinity), Date(timeIntervalSince1970: .nan),
        Date(timeIntervalSince1970: 9.2e15), Date(timeIntervalSince1970: 1_764_000_000.123_456_7),
    ]

    /// Message texts: the hostile generator's messages, mutated or not, and a few edge cases.
    static func texts(count: Int) -> [[UInt8]] {
        var text = HostileJSONText(seed: 30)
        var texts: [[UInt8]] = [
            [], Array("{}".utf8), [0x0A], [0x0D, 0x0A], Array("{\n\"a\":\r1}".utf8), [0xFF, 0x00, 0x22, 0x5C, 0x7F],
            Array(repeating: 0x0A, count: 70), Array(repeating: UInt8(ascii: "x"), count: AgentState.pendingMessageLimit + 1),
            Array(repeating: UInt8(ascii: "y"), count: AgentState.pendingMessageLimit),
        ]
        while texts.count < count {
            let message = text.message()
            texts.append(text.chance(0.5) ? text.mutated(message) : Array(message.utf8))
        }
        return texts
    }

    @Test("Frames, log, counts and pending records match the general path's, message after message")
    func followsGeneralPath() throws {
        var fast = CompactTrafficTests.freshState()
        var general = CompactTrafficTests.freshState()
        let (request, _) = try CompactTrafficTests.message("p", "request", action: "custom.thing")
        var random = SeededRandom(seed: 30)
        var compared = 0
        for (index, text) in Self.texts(count: 400).enumerated() {
            let direction: TrafficRecord.Direction = random.next() % 2 == 0 ? .received : .sent
            let time = Self.times[Int(random.next() % UInt64(Self.times.count))]
            let (left, right) = text.withUnsafeBytes { json in
                let traffic = TrafficArena.Record(direction: direction, time: time, json: json)
                return (fast.apply(traffic), general.applyInGeneral(traffic))
            }
            #expect(left == right, "message \(index) at \(time): \(String(decoding: left.prefix(200), as: UTF8.self)) vs \(String(decoding: right.prefix(200), as: UTF8.self))")
            compared += 1
            // Now and then the message just received goes pending: its record reuses its bytes.
            if random.next() % 5 == 0 {
                let change = BridgeChange.pendingAdded(PendingRequest(message: request, since: time))
                let links = AgentInbox.Links(isLastReceived: direction == .received)
                #expect(fast.apply(change, tag: nil, links: links).frame == general.apply(change, tag: nil, links: links).frame, "pending after \(index)")
                let removed = BridgeChange.pendingRemoved(correlationId: "p", action: "custom.thing")
                _ = fast.apply(removed, tag: nil)
                _ = general.apply(removed, tag: nil)
            }
        }
        #expect(compared == 400)
        #expect(fast.seq == general.seq)
        #expect(fast.heldBytes == general.heldBytes)
        #expect(fast.snapshotFrame() == general.snapshotFrame())
    }

    @Test("The frame is what the general path writes, field by field, for an ordinary message each way")
    func readsAsExpected() throws {
        let json = Array(#"{"version":"1.0","correlationId":"m-1","type":"event","timestamp":1,"payload":{"action":"a","data":{}}}"#.utf8)
        var state = CompactTrafficTests.freshState()
        let time = Date(timeIntervalSince1970: 1_764_000_000.123)
        let received = json.withUnsafeBytes { state.apply(TrafficArena.Record(direction: .received, time: time, json: $0)) }
        let sent = json.withUnsafeBytes { state.apply(TrafficArena.Record(direction: .sent, time: time, json: $0)) }
        let message = String(decoding: json, as: UTF8.self)
        #expect(String(decoding: received, as: UTF8.self)
            == #"{"kind":"event","seq":1,"event":{"type":"traffic","record":{"seq":1,"direction":"received","time":1764000000123,"origin":"journey","bytes":\#(json.count),"message":\#(message)}}}"# + "\n")
        #expect(String(decoding: sent, as: UTF8.self)
            == #"{"kind":"event","seq":2,"event":{"type":"traffic","record":{"seq":2,"direction":"sent","time":1764000000123,"origin":"host","bytes":\#(json.count),"message":\#(message)}}}"# + "\n")
        // The log keeps the records, as the snapshot shows them.
        let snapshot = String(decoding: state.snapshotFrame(), as: UTF8.self)
        #expect(snapshot.contains(#""messages":[{"seq":1,"direction":"received""#))
        #expect(snapshot.contains(#""origin":"host","bytes":\#(json.count),"message":\#(message)}]"#))
    }
}
