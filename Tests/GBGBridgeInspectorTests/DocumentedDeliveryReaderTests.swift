import BridgeCore
import Foundation
@testable import GBGBridgeInspector
import InspectorProtocol
import Testing

/// The one-pass reader of the documented shape (`DocumentedDeliveryReader`) is a fast path only:
/// `SentDeliveryDecoder.decode` must give exactly what the full reading
/// (`decodeParsingWhole`) gives, for every report, read or refused, with the same reason.
@Suite("The page report's one-pass reader and the full reading agree")
struct DocumentedDeliveryReaderTests {
    static func action(of id: String) -> String? { id == "r1" ? "device.info" : nil }

    /// Both readings of `text`, and whether the one-pass reader took it.
    static func both(_ text: String, maxDepth: Int = 100) -> (fast: Result<SentDeliveryDecoder.Delivery, SentDeliveryDecoder.Unreadable>,
        whole: Result<SentDeliveryDecoder.Delivery, SentDeliveryDecoder.Unreadable>, taken: Bool)
    {
        let bytes = Data(text.utf8)
        return (
            SentDeliveryDecoder.decode(bytes, maxDepth: maxDepth, actionOfRequest: action(of:)),
            SentDeliveryDecoder.decodeParsingWhole(bytes, maxDepth: maxDepth, actionOfRequest: action(of:)),
            DocumentedDeliveryReader.message(in: bytes, maxDepth: maxDepth) != nil
        )
    }

    /// What BridgeCore's host sends: responses of every status, with data and errors, and events.
    static let documented: [String] = [
        #"{"correlationId":"r1","payload":{"action":"device.info","data":{"n":1},"status":"success"},"timestamp":1732400000000,"type":"response","version":"1.0"}"#,
        #"{"correlationId":"r2","payload":{"action":"nfc.read","error":{"code":"BUSY","message":"Another native operation is in progress","recoverable":true},"status":"error"},"timestamp":1732400000001,"type":"response","version":"1.0"}"#,
        #"{"correlationId":"r3","payload":{"action":"camera.document.capture","status":"cancelled"},"timestamp":1,"type":"response","version":"1.0"}"#,
        #"{"correlationId":"e1","payload":{"action":"bench.progress","data":{"ok":true,"step":3}},"timestamp":1732400000002,"type":"event","version":"1.0"}"#,
        #"{"version":"1.0","correlationId":"q1","type":"request","timestamp":-0,"payload":{"action":"a","data":null,"status":null,"error":null}}"#,
        #" { "version" : "2.0" , "correlationId" : "é-✓" , "type" : "event" , "timestamp" : 1.5e3 , "payload" : { "action" : "a\"b\u00e9" , "data" : { "x" : [1, {"y": null}], "x2": "\ud83d\ude00" } } , "extra": [1,2,{"status":1}] } "#,
    ]

    @Test("the documented shapes are read in one pass, with what the full reading gives")
    func documentedShapes() throws {
        for text in Self.documented {
            let (fast, whole, taken) = Self.both(text)
            #expect(taken, "\(text)")
            #expect(fast == whole, "\(text)")
            let delivery = try fast.get()
            #expect(delivery.json == Data(text.utf8))
            #expect(delivery.reported == nil)
        }
    }

    /// Every other shape and what no build would send: the reader refuses, or reads what the full reading reads.
    static let others: [String] = [
        "", "{", "}", "null", "[]", "1", "true", "\"x\"", "{}", " ",
        // A JSON string holding the message.
        #""{\"version\":\"1.0\",\"correlationId\":\"r1\",\"type\":\"response\",\"timestamp\":1,\"payload\":{\"action\":\"device.info\"}}""#,
        // status and error at the top level, even null, even beside the payload's.
        #"{"version":"1.0","correlationId":"r1","type":"response","timestamp":1,"status":"error","payload":{"action":"device.info"}}"#,
        #"{"version":"1.0","correlationId":"r1","type":"response","timestamp":1,"status":null,"payload":{"action":"device.info","status":"success"}}"#,
        #"{"version":"1.0","correlationId":"r1","type":"event","timestamp":1,"error":null,"payload":{"action":"x"}}"#,
        #"{"version":"1.0","correlationId":"r1","type":"response","timestamp":1,"error":{"code":"c","message":"m","recoverable":false},"payload":{"action":"device.info","status":"error"}}"#,
        // An escaped key that spells status, or one of the message's fields.
        #"{"version":"1.0","correlationId":"r1","type":"response","timestamp":1,"st\u0061tus":"error","payload":{"action":"device.info"}}"#,
        #"{"version":"1.0","correlationId":"r1","type":"response","timestamp":1,"p\u0061yload":{"action":"device.info"}}"#,
        // ISO timestamps, good and bad.
        #"{"version":"1.0","correlationId":"e1","type":"event","timestamp":"2026-11-26T10:00:00.123+01:00","payload":{"action":"a"}}"#,
        #"{"version":"1.0","correlationId":"e1","type":"event","timestamp":"yesterday","payload":{"action":"a"}}"#,
        // Responses without an action, null, empty; for a request seen and for one not.
        #"{"version":"1.0","correlationId":"r1","type":"response","timestamp":1,"payload":{"status":"success"}}"#,
        #"{"version":"1.0","correlationId":"r9","type":"response","timestamp":1,"payload":{"action":null}}"#,
        #"{"version":"1.0","correlationId":"r1","type":"response","timestamp":1,"payload":{"action":""}}"#,
        #"{"version":"1.0","correlationId":"r1","type":"response","timestamp":1}"#,
        #"{"version":"1.0","correlationId":"e1","type":"event","timestamp":1,"payload":{"action":""}}"#,
        #"{"version":"1.0","correlationId":"e1","type":"event","timestamp":1}"#,
        // Duplicate keys: the full reading keeps the last.
        #"{"version":"1.0","correlationId":"e1","type":"event","timestamp":"x","timestamp":2,"payload":{"action":"a"}}"#,
        #"{"version":"1.0","correlationId":"e1","type":"event","timestamp":1,"payload":{"action":"a","action":"b"}}"#,
        #"{"version":"1.0","correlationId":"e1","type":"event","timestamp":1,"payload":{"action":"a"},"payload":{"action":"b"}}"#,
        // Wrong types and values.
        #"{"version":"","correlationId":"e1","type":"event","timestamp":1,"payload":{"action":"a"}}"#,
        #"{"version":"1.0","correlationId":"","type":"event","timestamp":1,"payload":{"action":"a"}}"#,
        #"{"version":1,"correlationId":"e1","type":"event","timestamp":1,"payload":{"action":"a"}}"#,
        #"{"version":"1.0","correlationId":"e1","type":"answer","timestamp":1,"payload":{"action":"a"}}"#,
        #"{"version":"1.0","correlationId":"e1","type":"ev\u0065nt","timestamp":1,"payload":{"action":"a"}}"#,
        #"{"version":"1.0","correlationId":"e1","type":"event","timestamp":true,"payload":{"action":"a"}}"#,
        #"{"version":"1.0","correlationId":"e1","type":"event","timestamp":1,"payload":[]}"#,
        #"{"version":"1.0","correlationId":"e1","type":"event","timestamp":1,"payload":{"action":"a","data":[1]}}"#,
        #"{"version":"1.0","correlationId":"e1","type":"event","timestamp":1,"payload":{"action":"a","data":"x"}}"#,
        #"{"version":"1.0","correlationId":"r1","type":"response","timestamp":1,"payload":{"action":"a","status":"done"}}"#,
        #"{"version":"1.0","correlationId":"r1","type":"response","timestamp":1,"payload":{"action":"a","status":1}}"#,
        #"{"version":"1.0","correlationId":"r1","type":"response","timestamp":1,"payload":{"action":"a","error":{"code":"c"}}}"#,
        #"{"version":"1.0","correlationId":"r1","type":"response","timestamp":1,"payload":{"action":"a","error":"x"}}"#,
        // Numbers JSON cannot carry as a Double, and texts that are not JSON.
        #"{"version":"1.0","correlationId":"e1","type":"event","timestamp":1e999,"payload":{"action":"a"}}"#,
        #"{"version":"1.0","correlationId":"e1","type":"event","timestamp":01,"payload":{"action":"a"}}"#,
        #"{"version":"1.0","correlationId":"e1","type":"event","timestamp":1,"payload":{"action":"a"}} x"#,
        #"{"version":"1.0","correlationId":"e1","type":"event","timestamp":1,"payload":{"action":"a"},}"#,
        #"{"version":"1.0","correlationId":"e\u0000","type":"event","timestamp":1,"payload":{"action":"\ud800"}}"#,
    ]

    @Test("every other shape, and what is not a message, is read or refused exactly as the full reading does")
    func otherShapes() {
        for text in Self.others + ["{\"a\":" + String(repeating: "[", count: 500) + String(repeating: "]", count: 500) + "}"] {
            let (fast, whole, taken) = Self.both(text)
            #expect(fast == whole, "\(text)")
            if taken { #expect((try? whole.get())?.reported == nil, "taken, yet the full reading moved something: \(text)") }
        }
    }

    @Test("the nesting bound is the full reading's, at every depth")
    func nestingBound() {
        let nested = #"{"version":"1.0","correlationId":"e1","type":"event","timestamp":1,"payload":{"action":"a","data":{"x":{"y":[[1]]}}}}"#
        var read = 0
        for depth in [-1, 0, 1, 2, 3, 4, 5, 6, 7, 100] {
            let (fast, whole, _) = Self.both(nested, maxDepth: depth)
            #expect(fast == whole, "depth \(depth)")
            if case .success = fast { read += 1 }
        }
        // Some depths are too shallow for it and some are deep enough: both sides of the bound were met.
        #expect(read > 0 && read < 10)
    }

    /// One to three random changes to `bytes`: a byte replaced from `alphabet`, a run cut, a run
    /// doubled, or a byte from `alphabet` inserted.
    static func damage(_ bytes: inout [UInt8], alphabet: [UInt8], random: inout SplitMix64) {
        for _ in 0...Int(random.next() % 3) {
            guard !bytes.isEmpty else { break }
            let at = Int(random.next() % UInt64(bytes.count))
            switch random.next() % 4 {
            case 0: bytes[at] = alphabet[Int(random.next() % UInt64(alphabet.count))]
            case 1: bytes.removeSubrange(at..<min(bytes.count, at + 1 + Int(random.next() % 8)))
            case 2: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + Int(random.next() % 12))], at: at)
            default: bytes.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: at)
            }
        }
    }

    @Test("the same on reports with random damage: bytes changed, cut, doubled or dropped", arguments: [1, 2, 3, 42, 2026] as [UInt64])
    func randomDamage(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let alphabet = Array(#"{}[]":,\ 0123456789.eE+-truefalsnul"statuserrorpayloadaction\u00"#.utf8) + [0, 0x80, 0xC3, 0xA9, 0xFF, 0x0A]
        var taken = 0
        var refused = 0
        for round in 0..<3000 {
            let sources = Self.documented + Self.others
            var bytes = Array(sources[Int(random.next() % UInt64(sources.count))].utf8)
            Self.damage(&bytes, alphabet: alphabet, random: &random)
            let data = Data(bytes)
            let fast = SentDeliveryDecoder.decode(data, actionOfRequest: Self.action(of:))
            let whole = SentDeliveryDecoder.decodeParsingWhole(data, actionOfRequest: Self.action(of:))
            #expect(fast == whole, "seed \(seed), round \(round): \(String(decoding: data, as: UTF8.self))")
            if DocumentedDeliveryReader.message(in: data, maxDepth: 100) != nil { taken += 1 } else { refused += 1 }
        }
        // Both paths were exercised: damage that leaves a message readable, and damage that does not.
        #expect(taken > 10)
        #expect(refused > 100)
    }
}
