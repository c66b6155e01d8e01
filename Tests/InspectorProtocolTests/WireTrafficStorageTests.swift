import BridgeCore
import Foundation
import InspectorProtocol
import TestSupport
import Testing

/// `WireTraffic` keeps its fields in one copy-on-write box (issue 30): it must still be a value
/// (a copy never sees another's change, from any thread), and decode, encode, compare and hash
/// exactly as the struct of stored fields with synthesized `Codable` it replaced, kept here as
/// `StoredWireTraffic`. The same holds with its rare fields in a box of their own, and for a
/// record that has some of them or none.
@Suite("WireTraffic's box: the same value as the stored fields")
struct WireTrafficStorageTests {
    /// `WireTraffic` as it was before the box: stored fields, synthesized `Codable`.
    struct StoredWireTraffic: Codable, Equatable {
        var seq: Int
        var direction: TrafficRecord.Direction
        var time: Double
        var origin: MessageOrigin
        var command: String?
        var rule: String?
        var deliveryError: String?
        var hold: HoldMark?
        var fault: FaultMark?
        var delivered: BridgeMessage?
        var original: BridgeMessage?
        var bytes: Int
        var truncated: Bool?
        var reported: String?
        var lost: String?
        var message: BridgeMessage

        var boxed: WireTraffic {
            WireTraffic(
                seq: seq, direction: direction, time: time, origin: origin, command: command, rule: rule,
                deliveryError: deliveryError, hold: hold, bytes: bytes, truncated: truncated, reported: reported, lost: lost,
                delivered: delivered, original: original, fault: fault, message: message)
        }
    }

    /// Finds the record in an event frame, as `AgentFrame`'s full decoding does.
    struct Frame<Record: Decodable>: Decodable {
        struct Event: Decodable { var record: Record }
        var event: Event
    }

    /// What decoding `bytes` as a frame's record gives, re-encoded with sorted keys, or which
    /// field of the record failed (deeper than that, the order a dictionary is decoded in, and so
    /// the error, changes from run to run).
    static func outcome<Record: Codable>(_ type: Record.Type, _ bytes: [UInt8]) -> String {
        do {
            let record = try JSONDecoder().decode(Frame<Record>.self, from: Data(bytes)).event.record
            return "decoded " + String(decoding: try sorted.encode(record), as: UTF8.self)
        } catch let error as DecodingError {
            switch error {
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context), .dataCorrupted(let context):
                return "failed at " + context.codingPath.prefix(3).map(\.stringValue).joined(separator: ".")
            @unknown default:
                return "failed"
            }
        } catch {
            return "failed \(error)"
        }
    }

    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    static func allFields(seq: Int = 3) -> WireTraffic {
        let message = BridgeMessage(
            correlationId: "c-\(seq)", type: .response, timestamp: 1.5,
            payload: .init(action: "nfc.read", data: ["n": .number(0.25), "s": "é"], status: .error,
                error: BridgeErrorPayload(code: "BUSY", message: "busy", recoverable: true)))
        var delivered = message
        delivered.payload.status = .success
        return WireTraffic(
            seq: seq, direction: .sent, time: 17.25, origin: .inspector, command: "cmd", rule: "rule", deliveryError: "gone",
            hold: HoldMark(id: "h1", outcome: .edited), bytes: 321, truncated: false, reported: "{\"as\":\"reported\"}",
            lost: "no receive", delivered: delivered, original: message, fault: FaultMark(rule: "f", effect: .delayed, detail: "40 ms"),
            message: message)
    }

    @Test("hostile and random frames decode to the same record or fail at the same field, and encode to the same bytes", arguments: [5, 6, 7] as [UInt64])
    func codableAgrees(seed: UInt64) {
        var text = HostileJSONText(seed: seed)
        var differences: [String] = []
        var decoded = 0
        for _ in 0..<1_500 {
            let bytes = text.mutated(text.trafficFrame())
            let boxed = Self.outcome(WireTraffic.self, bytes)
            let stored = Self.outcome(StoredWireTraffic.self, bytes)
            if boxed.hasPrefix("decoded") { decoded += 1 }
            if boxed != stored { differences.append("\(String(decoding: bytes, as: UTF8.self))\n  boxed \(boxed)\n  stored \(stored)") }
            if let old = try? JSONDecoder().decode(Frame<StoredWireTraffic>.self, from: Data(bytes)).event.record,
                let new = try? JSONDecoder().decode(Frame<WireTraffic>.self, from: Data(bytes)).event.record
            {
                if new != old.boxed || new.hashValue != old.boxed.hashValue { differences.append("\(new) is not \(old)") }
                // The same bytes, too (the rare fields are kept apart: issue 30).
                if (try? Self.sorted.encode(new)) != (try? Self.sorted.encode(old)) { differences.append("\(new) encodes otherwise than \(old)") }
            }
        }
        #expect(differences.prefix(3) == [])
        // The generator makes both kinds.
        #expect(decoded > 100 && decoded < 1_450, "\(decoded) of 1500 decoded")
    }

    @Test("a record with every field encodes as the stored fields did, and reads back equal")
    func everyField() throws {
        let traffic = Self.allFields()
        let stored = StoredWireTraffic(
            seq: traffic.seq, direction: traffic.direction, time: traffic.time, origin: traffic.origin, command: traffic.command,
            rule: traffic.rule, deliveryError: traffic.deliveryError, hold: traffic.hold, fault: traffic.fault, delivered: traffic.delivered,
            original: traffic.original, bytes: traffic.bytes, truncated: traffic.truncated, reported: traffic.reported, lost: traffic.lost,
            message: traffic.message)
        #expect(try Self.sorted.encode(traffic) == Self.sorted.encode(stored))
        #expect(try JSONEncoding.compact.encode(traffic) == JSONEncoding.compact.encode(stored))
        let back = try JSONDecoder().decode(WireTraffic.self, from: Self.sorted.encode(traffic))
        #expect(back == traffic)
        #expect(back.hashValue == traffic.hashValue)
        #expect(back.messageJSON == nil)
    }

    @Test("a copy is a value: setting any field of one leaves the other as it was")
    func copiesAreValues() {
        let original = Self.allFields()
        var changes: [(String, (inout WireTraffic) -> Void)] = [
            ("seq", { $0.seq = 99 }), ("direction", { $0.direction = .received }), ("time", { $0.time = 0 }),
            ("origin", { $0.origin = .host }), ("command", { $0.command = nil }), ("rule", { $0.rule = "other" }),
            ("deliveryError", { $0.deliveryError = nil }), ("hold", { $0.hold = nil }), ("fault", { $0.fault = nil }),
            ("delivered", { $0.delivered = nil }), ("original", { $0.original = nil }), ("bytes", { $0.bytes = 1 }),
            ("truncated", { $0.truncated = true }), ("reported", { $0.reported = nil }), ("lost", { $0.lost = nil }),
            ("message", { $0.message.correlationId = "changed" }),
        ]
        changes.append(("messageJSON", { $0.messageJSON = Data("{}".utf8) }))
        for (name, change) in changes {
            var copy = original
            change(&copy)
            #expect(original == Self.allFields(), "setting \(name) of a copy changed the original")
            #expect(original.messageJSON == nil, "setting \(name) of a copy changed the original's bytes")
            if name == "messageJSON" {
                #expect(copy == original, "messageJSON is not part of equality")
                #expect(copy.messageJSON == Data("{}".utf8))
            } else {
                #expect(copy != original, "setting \(name) did not change the copy")
            }
        }
    }

    @Test("records with any few of the rare fields encode, compare and set as the stored fields", arguments: [11, 12] as [UInt64])
    func someRareFields(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let full = Self.allFields()
        for _ in 0..<300 {
            // Each rare field kept or left out at random, then one set or cleared.
            func keep<T>(_ value: T?) -> T? { random.next() % 2 == 0 ? value : nil }
            var stored = StoredWireTraffic(
                seq: 1, direction: .received, time: 2, origin: .journey, command: keep(full.command), rule: keep(full.rule),
                deliveryError: keep(full.deliveryError), hold: keep(full.hold), fault: keep(full.fault), delivered: keep(full.delivered),
                original: keep(full.original), bytes: 7, truncated: keep(full.truncated), reported: keep(full.reported), lost: keep(full.lost),
                message: full.message)
            var boxed = stored.boxed
            switch random.next() % 5 {
            case 0: stored.command = keep("c"); boxed.command = stored.command
            case 1: stored.hold = keep(full.hold); boxed.hold = stored.hold
            case 2: stored.original = keep(full.message); boxed.original = stored.original
            case 3: stored.truncated = keep(true); boxed.truncated = stored.truncated
            default: stored.lost = nil; boxed.lost = nil
            }
            #expect(boxed == stored.boxed)
            #expect(boxed.hashValue == stored.boxed.hashValue)
            #expect(try Self.sorted.encode(boxed) == Self.sorted.encode(stored))
            let back = try JSONDecoder().decode(WireTraffic.self, from: Self.sorted.encode(stored))
            #expect(back == boxed)
            #expect(back.command == stored.command && back.rule == stored.rule && back.deliveryError == stored.deliveryError)
            #expect(back.hold == stored.hold && back.fault == stored.fault && back.delivered == stored.delivered)
            #expect(back.original == stored.original && back.truncated == stored.truncated && back.reported == stored.reported)
            #expect(back.lost == stored.lost)
        }
    }

    @Test("copies changed on many threads at once stay apart")
    func copiesAcrossThreads() async {
        let shared = Self.allFields()
        let results = await withTaskGroup(of: (Int, WireTraffic).self) { group in
            for index in 0..<16 {
                group.addTask {
                    var mine = shared
                    for step in 0..<200 {
                        mine.seq = index * 1_000 + step
                        mine.message.correlationId = "t-\(index)"
                    }
                    return (index, mine)
                }
            }
            var all: [(Int, WireTraffic)] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 16)
        for (index, traffic) in results {
            #expect(traffic.seq == index * 1_000 + 199)
            #expect(traffic.message.correlationId == "t-\(index)")
            #expect(traffic.command == "cmd")
        }
        #expect(shared == Self.allFields())
    }
}
