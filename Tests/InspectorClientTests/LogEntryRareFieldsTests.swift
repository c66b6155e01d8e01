import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import Testing

/// A `LogEntry` keeps the fields few rows have in a box of their own (issue 30): they must read
/// and set exactly as the stored fields they were, on copies that stay apart, and a row must
/// stay small.
@Suite("LogEntry's rare fields: the same as stored fields")
struct LogEntryRareFieldsTests {
    /// The rare fields as they were: stored, each on its own.
    struct StoredRareFields: Equatable {
        var errorCode: String?
        var command: String?
        var deliveryError: String?
        var lost: String?
        var reported: Data?
        var heldMs: Double?
        var fault: FaultMark?
        var original: Data?
        var malformedCorrelationId: String?

        init(_ entry: LogEntry) {
            errorCode = entry.errorCode
            command = entry.command
            deliveryError = entry.deliveryError
            lost = entry.lost
            reported = entry.reported
            heldMs = entry.heldMs
            fault = entry.fault
            original = entry.original
            malformedCorrelationId = entry.malformedCorrelationId
        }

        init() {}
    }

    static func traffic(seq: Int) -> WireTraffic {
        let message = BridgeMessage(
            correlationId: "c-\(seq)", type: .response, timestamp: 1.5,
            payload: .init(action: "nfc.read", data: ["n": .number(0.25)], status: .error,
                error: BridgeErrorPayload(code: "BUSY", message: "busy", recoverable: true)))
        return WireTraffic(seq: seq, direction: .sent, time: 17.25, origin: .host, bytes: 99, message: message)
    }

    @Test("random sets and clears of the rare fields read back as stored fields would, copies apart", arguments: [1, 2, 3] as [UInt64])
    func setsAsStoredFields(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var entry = LogEntry(Self.traffic(seq: 1))
        var expected = StoredRareFields(entry)
        #expect(expected.errorCode == "BUSY")
        for step in 0..<2_000 {
            let copy = entry
            let copyExpected = expected
            let clear = random.next() % 3 == 0
            switch random.next() % 10 {
            case 0: let value = clear ? nil : "E\(step)"; entry.errorCode = value; expected.errorCode = value
            case 1: let value = clear ? nil : "cmd-\(step)"; entry.command = value; expected.command = value
            case 2: let value = clear ? nil : "gone \(step)"; entry.deliveryError = value; expected.deliveryError = value
            case 3: let value = clear ? nil : "lost \(step)"; entry.lost = value; expected.lost = value
            case 4: let value = clear ? nil : Data("r\(step)".utf8); entry.reported = value; expected.reported = value
            case 5: let value = clear ? nil : Double(step); entry.heldMs = value; expected.heldMs = value
            case 6: let value = clear ? nil : FaultMark(rule: "f\(step)", effect: .dropped); entry.fault = value; expected.fault = value
            case 7: let value = clear ? nil : Data("{\"o\":\(step)}".utf8); entry.original = value; expected.original = value
            case 8: let value = clear ? nil : "m-\(step)"; entry.malformedCorrelationId = value; expected.malformedCorrelationId = value
            default:
                // Every field cleared at once: the row is as one that never had any.
                entry.errorCode = nil; entry.command = nil; entry.deliveryError = nil; entry.lost = nil; entry.reported = nil
                entry.heldMs = nil; entry.fault = nil; entry.original = nil; entry.malformedCorrelationId = nil
                expected = StoredRareFields()
            }
            #expect(StoredRareFields(entry) == expected)
            #expect(StoredRareFields(copy) == copyExpected, "setting a field of a row changed its copy")
            #expect(entry.isInspectorCaused == (expected.fault != nil))
        }
    }

    @Test("a row made from a record with every rare field has them all; one without has none")
    func fromTraffic() throws {
        var traffic = Self.traffic(seq: 4)
        var plain = traffic
        plain.message.payload.error = nil
        let none = LogEntry(plain)
        #expect(StoredRareFields(none) == StoredRareFields())
        #expect(!none.isInspectorCaused)
        traffic.command = "cmd"
        traffic.deliveryError = "gone"
        traffic.lost = "no receive"
        traffic.reported = "{\"as\":\"reported\"}"
        traffic.fault = FaultMark(rule: "f", effect: .neverAnswered)
        traffic.original = plain.message
        let entry = LogEntry(traffic)
        #expect(entry.errorCode == "BUSY")
        #expect(entry.command == "cmd")
        #expect(entry.deliveryError == "gone")
        #expect(entry.lost == "no receive")
        #expect(entry.reported == Data("{\"as\":\"reported\"}".utf8))
        #expect(entry.fault == FaultMark(rule: "f", effect: .neverAnswered))
        #expect(entry.original == (try JSONEncoding.compact.encode(plain.message)))
        #expect(entry.heldMs == nil && entry.malformedCorrelationId == nil)
        #expect(entry.isInspectorCaused)
        #expect(entry.withheldFromJourney)
        // An edited message shown as delivered: its original and error code follow.
        var edited = LogEntry(plain)
        var delivered = traffic.message
        delivered.payload.error = BridgeErrorPayload(code: "TIMEOUT", message: "late", recoverable: true)
        edited.showDelivered(delivered)
        #expect(edited.errorCode == "TIMEOUT")
        #expect(edited.original == none.json)
    }

    @Test("markers keep their payloads")
    func markers() {
        let gap = LogEntry.marker(.gap(from: 3, to: 9), time: 1)
        let restarted = LogEntry.marker(.hostRestarted(name: "app", endedPid: 10, attachedPid: 11), time: 2)
        #expect(gap.kind == .gap(from: 3, to: 9))
        #expect(gap.kind != .gap(from: 3, to: 8))
        #expect(restarted.kind == .hostRestarted(name: "app", endedPid: 10, attachedPid: 11))
        guard case .hostRestarted(let name, let ended, let attached) = restarted.kind else {
            Issue.record("not a restart marker")
            return
        }
        #expect(name == "app" && ended == 10 && attached == 11)
        #expect(StoredRareFields(gap) == StoredRareFields())
    }

    @Test("a row is at most 128 bytes (336 with every field stored)")
    func rowIsSmall() {
        #expect(MemoryLayout<LogEntry>.size <= 128, "\(MemoryLayout<LogEntry>.size) bytes")
        #expect(MemoryLayout<LogEntry.Kind>.size <= 9, "\(MemoryLayout<LogEntry.Kind>.size) bytes")
    }
}
