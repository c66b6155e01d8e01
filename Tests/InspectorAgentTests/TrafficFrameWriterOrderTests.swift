import BridgeCore
import Foundation
@testable import InspectorAgent
@testable import InspectorProtocol
import TestSupport
import Testing

/// An inspector reads the agent's traffic frames expecting each key where the agent writes it
/// (the record's keys, then the message's, in the documented or BridgeCore's sorted order) and
/// compares its bytes before looking it up (issue 30). On the agent's own frames, and on frames
/// with their keys moved, repeated, escaped, dropped or spoiled, reading that way must give what
/// looking every key up gives: the same record, message and message bytes, or the same refusal.
@Suite("Traffic frames read in the agent's key order: the same as looking every key up")
struct TrafficFrameWriterOrderTests {
    /// The traffic event each way reads from `line`, as text to compare, or `nil` when they agree.
    static func difference(_ line: [UInt8]) -> String? {
        let read = [true, false].map { following in
            line.withUnsafeBytes { raw -> String in
                switch TrafficFrameReader.frame(in: raw, followingWriterOrder: following) {
                case .event(let seq, .traffic(let traffic))?: return "\(seq) \(traffic) \(traffic.messageJSON.map { Array($0) } ?? [])"
                case let other?: return "other \(other)"
                case nil: return "refused"
                }
            }
        }
        return read[0] == read[1] ? nil : "\(String(decoding: line, as: UTF8.self)):\n  ordered \(read[0])\n  looked up \(read[1])"
    }

    /// The line of a frame the agent writes (its bytes without the newline).
    static func line(_ frame: TrafficEventFrame) -> [UInt8] {
        Array(frame.bytes.last == 0x0A ? frame.bytes.dropLast() : frame.bytes[...])
    }

    /// Messages in the documented order (as a journey sends them) and BridgeCore's sorted order
    /// (as the host sends them).
    static var messages: [[UInt8]] {
        var messages: [[UInt8]] = []
        for index in 0..<8 {
            let documented =
                #"{"version":"1.0","correlationId":"m-\#(index)","type":"\#(index % 4 == 3 ? "request" : "event")","timestamp":\#(1_732_240_000_000 + index),"#
                + #""payload":{"action":"journey.step","data":{"step":"selfie","index":\#(index),"ok":true,"locale":"en-GB"}}}"#
            messages.append(Array(documented.utf8))
            let sent = BridgeMessage(
                version: "1.0", correlationId: "s-\(index)", type: index % 2 == 0 ? .event : .response, timestamp: 1_732_240_000_000 + Double(index),
                payload: BridgeMessage.Payload(
                    action: "device.info", data: index % 3 == 0 ? nil : ["step": .number(Double(index)), "ok": .bool(true)],
                    status: index % 2 == 0 ? nil : .success))
            if let written = try? BridgeMessageCodec().encode(sent) { messages.append(Array(written)) }
        }
        return messages
    }

    @Test("the agent's own frames read the same both ways, and as traffic")
    func ownFrames() {
        var compared = 0
        for (index, message) in Self.messages.enumerated() {
            for direction in [TrafficRecord.Direction.received, .sent] {
                for time in [1_732_240_000_123.0, 0, -1.5, 1e16] {
                    let line = message.withUnsafeBytes { json in Self.line(TrafficEventFrame(seq: index + 1, direction: direction, time: time, json: json)) }
                    let read = line.withUnsafeBytes { TrafficFrameReader.frame(in: $0) }
                    guard case .event(_, .traffic(let traffic))? = read else {
                        Issue.record("not read as traffic: \(String(decoding: line, as: UTF8.self))")
                        continue
                    }
                    #expect(traffic.messageJSON.map { Array($0) } == message)
                    #expect(Self.difference(line) == nil)
                    compared += 1
                }
            }
        }
        #expect(compared == Self.messages.count * 8)
    }

    @Test("the agent's frames of hostile messages, and spoiled: both ways agree", arguments: [21, 22, 23] as [UInt64])
    func hostileFrames(seed: UInt64) {
        var text = HostileJSONText(seed: seed)
        var differences: [String] = []
        var traffic = 0
        let own = Self.messages
        for round in 0..<2_000 {
            let message = round % 4 == 0 ? text.pick(own) : Array(text.message().utf8)
            let frame = message.withUnsafeBytes { json in
                Self.line(TrafficEventFrame(seq: round, direction: text.chance(0.5) ? .received : .sent, time: 1_732_240_000_000, json: json))
            }
            let line = text.mutated(String(decoding: frame, as: UTF8.self))
            if case .event(_, .traffic)? = line.withUnsafeBytes({ TrafficFrameReader.frame(in: $0) }) { traffic += 1 }
            if let difference = Self.difference(line) { differences.append(difference) }
        }
        #expect(differences.prefix(3) == [])
        #expect(traffic > 150 && traffic < 1_950, "\(traffic) of 2000 read as traffic")
    }

    @Test("records with their keys in the agent's order or another, rare fields, repeats and escapes: both ways agree", arguments: [31, 32] as [UInt64])
    func records(seed: UInt64) {
        var text = HostileJSONText(seed: seed)
        let order = [
            "seq", "direction", "time", "origin", "command", "rule", "deliveryError", "lost", "hold", "fault", "original", "bytes", "reported",
            "truncated", "message", "delivered",
        ]
        var differences: [String] = []
        for _ in 0..<1_500 {
            var fields = text.trafficRecordFields(extras: 0.2)
            let record: String
            if text.chance(0.5) {
                // As the agent writes it: its order, no spaces; sometimes a key repeated or escaped.
                fields.sort { (order.firstIndex(of: $0.0) ?? 99) < (order.firstIndex(of: $1.0) ?? 99) }
                if text.chance(0.1), let repeated = fields.randomElementIndex(&text) { fields.insert(fields[repeated], at: repeated) }
                record = "{" + fields.map { name, value in text.key(name) + ":" + value }.joined(separator: ",") + "}"
            } else {
                record = text.object(fields)
            }
            let line = text.mutated(#"{"kind":"event","seq":12,"event":{"type":"traffic","record":\#(record)}}"#)
            if let difference = Self.difference(line) { differences.append(difference) }
        }
        #expect(differences.prefix(3) == [])
        let escaped = Array(
            #"{"kind":"event","seq":1,"event":{"type":"traffic","record":{"seq":1,"direction":"sent","time":1,"origin":"host","bytes":3,"message":{"\u0063orrelationId":"c","payload":{"action":"x"},"timestamp":1,"type":"event","version":"1.0"}}}}"#
                .utf8)
        #expect(Self.difference(escaped) == nil)
        #expect(escaped.withUnsafeBytes { TrafficFrameReader.frame(in: $0) } == nil)
    }
}

extension Array {
    /// A random index of the array, or `nil` when it is empty.
    fileprivate func randomElementIndex(_ text: inout HostileJSONText) -> Int? {
        isEmpty ? nil : text.below(count)
    }
}
