import BridgeCore
import Foundation
import TestSupport
import Testing

/// An inspector's reader keeps a message's `payload.data` object as checked text, built when read
/// (`BridgeMessageReader.message(from:depth:deferringData:)`, issue 30): it must accept and refuse
/// exactly what the reader that builds it does, and give a message equal to it in every way a
/// caller can see (`data`, `==`, the hash, the encoding), from any thread, and a copy whose data
/// is set must not change the other.
@Suite("Deferred payload data: the same message as built data")
struct DeferredPayloadDataTests {
    /// Reads `bytes` as one message, deferring its data or not.
    static func read(_ bytes: [UInt8], maxDepth: Int, deferring: Bool) -> BridgeMessage? {
        JSONParser.reading(Data(bytes), maxDepth: maxDepth) { parser throws(JSONParser.Refusal) in
            try BridgeMessageReader.message(from: &parser, depth: 1, deferringData: deferring)
        }
    }

    /// What differs between the message read with deferred data and with built data, or `nil`.
    static func difference(_ bytes: [UInt8], maxDepth: Int) -> String? {
        let deferred = read(bytes, maxDepth: maxDepth, deferring: true)
        let built = read(bytes, maxDepth: maxDepth, deferring: false)
        let text = "\(String(decoding: bytes, as: UTF8.self)) (depth \(maxDepth))"
        switch (deferred, built) {
        case (nil, nil): return nil
        case (let deferred?, let built?):
            if deferred != built || built != deferred { return "\(text): not equal" }
            if deferred.payload.data != built.payload.data { return "\(text): data differs" }
            if deferred.hashValue != built.hashValue || deferred.payload.hashValue != built.payload.hashValue { return "\(text): hash differs" }
            let encoded = try? JSONEncoding.compact.encode(deferred)
            if encoded == nil || encoded != (try? JSONEncoding.compact.encode(built)) { return "\(text): encoding differs" }
            return nil
        default:
            return "\(text): deferred \(deferred.map { "\($0)" } ?? "refused"), built \(built.map { "\($0)" } ?? "refused")"
        }
    }

    static let texts: [String] = BridgeMessageReaderTests.valid + BridgeMessageReaderTests.invalid + [
        #"{"version":"1.0","correlationId":"c","type":"event","timestamp":1,"payload":{"action":"x","data":{"a":{"b":{"c":[1,[2,[3]]]}},"a":"last wins","e":"\u00e9\ud83d\ude00","n":-0.0,"big":1e308,"tiny":1e-400}}}"#,
        #"{"version":"1.0","correlationId":"c","type":"event","timestamp":1,"payload":{"action":"x","data":{"bad":"\ud800"}}}"#,
        #"{"version":"1.0","correlationId":"c","type":"event","timestamp":1,"payload":{"action":"x","data":{"inf":1e400}}}"#,
        #"{"version":"1.0","correlationId":"c","type":"event","timestamp":1,"payload":{"action":"x","data":{"open":[1,2}}}"#,
        #"{"version":"1.0","correlationId":"c","type":"event","timestamp":1,"payload":{"action":"x","data": { } ,"status":"success"}}"#,
        #"{"version":"1.0","correlationId":"c","type":"event","timestamp":1,"payload":{"data":{"k":"v"},"action":"x","data":{"k":"w"}}}"#,
        #"{"version":"1.0","correlationId":"c","type":"event","timestamp":1,"payload":{"action":"x","data":"text"}}"#,
        #"{"version":"1.0","correlationId":"c","type":"event","timestamp":1,"payload":{"action":"x","data":[{}]}}"#,
    ]

    @Test("known texts, at every nesting limit: the same message or the same refusal")
    func knownTexts() {
        var differences: [String] = []
        for text in Self.texts {
            for depth in [1, 2, 3, 4, 5, 6, 7, 100] {
                if let difference = Self.difference(Array(text.utf8), maxDepth: depth) { differences.append(difference) }
            }
        }
        #expect(differences == [])
        // Deferred data is read back whole.
        let message = Self.read(Array(Self.texts[Self.texts.count - 8].utf8), maxDepth: 100, deferring: true)
        #expect(message?.payload.data?["a"] == .string("last wins"))
        #expect(message?.payload.data?["e"] == .string("é😀"))
    }

    @Test("random and mutated messages: the same message or the same refusal", arguments: [11, 12, 13] as [UInt64])
    func randomMessages(seed: UInt64) {
        var text = HostileJSONText(seed: seed)
        var differences: [String] = []
        var read = 0
        for _ in 0..<3_000 {
            let bytes = text.mutated(text.message())
            let depth = text.chance(0.2) ? text.pick([2, 3, 4, 5]) : 100
            if Self.read(bytes, maxDepth: depth, deferring: true) != nil { read += 1 }
            if let difference = Self.difference(bytes, maxDepth: depth) { differences.append(difference) }
        }
        #expect(differences.prefix(5) == [])
        #expect(read > 150 && read < 2_900, "\(read) of 3000 read")
    }

    @Test("setting data on a copy leaves the other as it was; a deferred message reads the same on many threads")
    func valueAndThreads() async {
        let text = #"{"version":"1.0","correlationId":"c","type":"event","timestamp":1,"payload":{"action":"x","data":{"k":[1,2,3],"s":"v"}}}"#
        guard let message = Self.read(Array(text.utf8), maxDepth: 100, deferring: true),
            let built = Self.read(Array(text.utf8), maxDepth: 100, deferring: false)
        else {
            Issue.record("the message was refused")
            return
        }
        var copy = message
        copy.payload.data?["s"] = "changed"
        #expect(copy.payload.data?["s"] == .string("changed"))
        #expect(message.payload.data?["s"] == .string("v"))
        #expect(message == built)
        #expect(copy != built)
        let readings = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<16 {
                group.addTask { (0..<100).allSatisfy { _ in message.payload.data == built.payload.data && message == built } }
            }
            var all: [Bool] = []
            for await reading in group { all.append(reading) }
            return all
        }
        #expect(readings == Array(repeating: true, count: 16))
    }
}

/// `BridgeMessageReader.messageKeepingBytes(from:depth:)` gives a message's bytes with it and
/// keeps its deferred `payload.data` as a slice of those bytes (issue 30): the same message as
/// the reader that builds its data, or the same refusal, and exactly the text it was read from.
@Suite("Kept message bytes: the same message, its own text")
struct KeptMessageBytesTests {
    /// Reads `bytes` as one message keeping its bytes.
    static func readKeeping(_ bytes: [UInt8], maxDepth: Int) -> (message: BridgeMessage, bytes: Data)? {
        JSONParser.reading(Data(bytes), maxDepth: maxDepth) { parser throws(JSONParser.Refusal) in
            try BridgeMessageReader.messageKeepingBytes(from: &parser, depth: 1)
        }
    }

    /// What differs from the message read with built data, or `nil`.
    static func difference(_ bytes: [UInt8], maxDepth: Int) -> String? {
        let kept = readKeeping(bytes, maxDepth: maxDepth)
        let built = DeferredPayloadDataTests.read(bytes, maxDepth: maxDepth, deferring: false)
        let text = "\(String(decoding: bytes, as: UTF8.self)) (depth \(maxDepth))"
        switch (kept, built) {
        case (nil, nil): return nil
        case (let kept?, let built?):
            if kept.message != built { return "\(text): not equal" }
            if kept.message.payload.data != built.payload.data { return "\(text): data differs" }
            if kept.message.hashValue != built.hashValue { return "\(text): hash differs" }
            // The message's own text: the bytes between the whitespace around it.
            let isSpace: (UInt8) -> Bool = { [0x20, 0x0A, 0x0D, 0x09].contains($0) }
            let trimmed = Array(bytes.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
            if Array(kept.bytes) != trimmed { return "\(text): bytes differ" }
            if kept.bytes.startIndex != 0 { return "\(text): bytes start at \(kept.bytes.startIndex)" }
            return nil
        default:
            return "\(text): kept \(kept.map { "\($0.message)" } ?? "refused"), built \(built.map { "\($0)" } ?? "refused")"
        }
    }

    @Test("known texts with space around them, at every nesting limit")
    func knownTexts() {
        var differences: [String] = []
        for text in DeferredPayloadDataTests.texts {
            for around in ["", " ", "\n\t  "] {
                for depth in [1, 2, 3, 4, 5, 6, 7, 100] {
                    if let difference = Self.difference(Array((around + text + around).utf8), maxDepth: depth) { differences.append(difference) }
                }
            }
        }
        #expect(differences == [])
        let kept = Self.readKeeping(Array(("  " + DeferredPayloadDataTests.texts[DeferredPayloadDataTests.texts.count - 8]).utf8), maxDepth: 100)
        #expect(kept?.message.payload.data?["a"] == .string("last wins"))
    }

    @Test("random and mutated messages", arguments: [31, 32] as [UInt64])
    func randomMessages(seed: UInt64) {
        var text = HostileJSONText(seed: seed)
        var differences: [String] = []
        var read = 0
        for _ in 0..<3_000 {
            let bytes = Array(text.space().utf8) + text.mutated(text.message())
            let depth = text.chance(0.2) ? text.pick([2, 3, 4, 5]) : 100
            if Self.readKeeping(bytes, maxDepth: depth) != nil { read += 1 }
            if let difference = Self.difference(bytes, maxDepth: depth) { differences.append(difference) }
        }
        #expect(differences.prefix(5) == [])
        #expect(read > 150 && read < 2_900, "\(read) of 3000 read")
    }
}
