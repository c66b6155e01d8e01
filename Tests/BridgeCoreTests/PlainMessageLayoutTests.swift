@testable import BridgeCore
import Foundation
import TestSupport
import Testing

/// `BridgeMessageReader` first tries a message as its writers lay it out, compact, in the
/// documented order (a journey's `JSON.stringify`) or sorted (`BridgeMessageWriter`), its keys
/// compared as bytes (`readLiteral`); anything else is read key by key (issue 30). A traffic
/// record's plain integers are read without the general number reader (`readPlainInteger`),
/// tested here too. Those shortcuts must
/// never change what is read: with them (following the writers' order) and without, every text
/// must give the same message or the same refusal.
@Suite("Reading a message in its writers' layout: the same as reading it key by key")
struct PlainMessageLayoutTests {
    /// The message read from `bytes` following the writers' layout and not, for each way the
    /// host, an inspector and the adapter read one; a description of the first difference.
    static func difference(_ bytes: [UInt8], depth: Int = 100) -> String? {
        for (deferring, refusing) in [(false, false), (true, false), (true, true)] {
            let read = [true, false].map { following in
                JSONParser.reading(Data(bytes), maxDepth: depth, followingWriterOrder: following) { parser throws(JSONParser.Refusal) in
                    try BridgeMessageReader.message(from: &parser, depth: 1, deferringData: deferring, refusingTopLevelStatus: refusing)
                }
            }
            if read[0] != read[1] {
                return "\(String(decoding: bytes, as: UTF8.self)) (depth \(depth), deferring \(deferring)): in layout \(String(describing: read[0])), by key \(String(describing: read[1]))"
            }
        }
        let kept = [true, false].map { following in
            JSONParser.reading(Data(bytes), maxDepth: depth, followingWriterOrder: following) { parser throws(JSONParser.Refusal) in
                try BridgeMessageReader.messageKeepingBytes(from: &parser, depth: 1)
            }
        }
        if kept[0]?.message != kept[1]?.message || kept[0]?.bytes != kept[1]?.bytes {
            return "\(String(decoding: bytes, as: UTF8.self)) (depth \(depth), keeping bytes): the two ways differ"
        }
        return nil
    }

    /// A message in the documented order, compact.
    static func documented(
        version: String = #""1.0""#, id: String = #""m-1""#, type: String = #""event""#, timestamp: String = "1732240000001",
        payload: String = #"{"action":"journey.step","data":{"step":"selfie","n":1}}"#
    ) -> String {
        #"{"version":\#(version),"correlationId":\#(id),"type":\#(type),"timestamp":\#(timestamp),"payload":\#(payload)}"#
    }

    /// A message sorted, compact, as `BridgeMessageWriter` writes one.
    static func sorted(
        version: String = #""1.0""#, id: String = #""m-1""#, type: String = #""response""#, timestamp: String = "1732240000001",
        payload: String = #"{"action":"device.info","data":{"model":"x"},"status":"success"}"#
    ) -> String {
        #"{"correlationId":\#(id),"payload":\#(payload),"timestamp":\#(timestamp),"type":\#(type),"version":\#(version)}"#
    }

    static let payloads = [
        #"{"action":"journey.step","data":{"step":"selfie","n":1}}"#, #"{"action":"a"}"#, #"{"action":"a","data":null}"#,
        #"{"action":"a","data":{}}"#, #"{"action":"a","data":[]}"#, #"{"action":"a","data":1}"#, #"{"action":"a","status":"success"}"#,
        #"{"action":"a","data":{"k":[1,2,{"d":null}]},"status":"cancelled"}"#, #"{"action":"a","status":null}"#,
        #"{"action":"a","status":"bogus"}"#, #"{"action":"a","data":{},"status":"error","error":{"code":"E","message":"m"}}"#,
        #"{"action":"a","error":null}"#, #"{"action":""}"#, #"{"action":"a\u0062"}"#, #"{"action":"é"}"#, #"{"action":1}"#,
        #"{"action":"a","data":{}}  "#, #"{"action":"a","data": {"k":1}}"#, #"{"action":"a" ,"data":{}}"#, #"{"data":{},"action":"a"}"#,
        #"{"action":"a","data":{},"data":{}}"#, #"{"action":"a","status":"success","status":"error"}"#, #"{"action":"a","data":{"#, "{}",
        #"{"action":"a","extra":true}"#, #"{"status":"success","action":"a"}"#,
    ]

    static let numbers = [
        "0", "1", "7", "10", "1732240000001", "999999999999999", "1000000000000000", "9007199254740993", "12345678901234567890", "01", "00",
        "-1", "-0", "1.0", "1.5", "1e3", "1E3", "1.", "1e", "0.1", "1732240000001.25", "-1732240000001", "1 ", " 1", "+1", "1a", "0x10",
    ]

    static var texts: [String] {
        var texts: [String] = []
        for payload in payloads {
            texts.append(documented(payload: payload))
            texts.append(sorted(payload: payload))
        }
        for number in numbers {
            texts.append(documented(timestamp: number))
            texts.append(sorted(timestamp: number))
        }
        for type in [#""request""#, #""response""#, #""event""#, #""Event""#, #""eventx""#, #""""#, "1", "null", #""ev\u0065nt""#] {
            texts.append(documented(type: type))
            texts.append(sorted(type: type))
        }
        for version in [#""1.0""#, #""2.0""#, #""""#, #""1.0 ""#, #""1\u002e0""#, "1.0", "null"] {
            texts.append(documented(version: version))
            texts.append(sorted(version: version))
        }
        for id in [#""m-1""#, #""""#, #""a-correlation-id-longer-than-sixteen""#, #""\u00e9\n""#, #""\ud800""#, "7", "null"] {
            texts.append(documented(id: id))
            texts.append(sorted(id: id))
        }
        // Spaced, reordered, repeated, extra and missing keys, around the layouts.
        texts += [
            #"{"version":"1.0","correlationId":"m","type":"event","timestamp":1,"payload":{"action":"a"},"status":"success"}"#,
            #"{"version":"1.0","correlationId":"m","type":"event","timestamp":1,"payload":{"action":"a"},"error":null}"#,
            #"{"version":"1.0","correlationId":"m","type":"event","timestamp":1,"payload":{"action":"a"},"version":"2"}"#,
            #"{"version":"1.0","correlationId":"m","type":"event","timestamp":1,"payload":{"action":"a"} }"#,
            #"{"version":"1.0","correlationId":"m","type":"event","timestamp":1,"payload":{"action":"a"}"#,
            #"{"version":"1.0","correlationId":"m","type":"event","timestamp":1}"#,
            #"{"version":"1.0", "correlationId":"m","type":"event","timestamp":1,"payload":{"action":"a"}}"#,
            #"{"version":"1.0","correlationId":"m","timestamp":1,"type":"event","payload":{"action":"a"}}"#,
            #"{"correlationId":"m","payload":{"action":"a"},"timestamp":1,"type":"event","version":"1.0","version":"1.0"}"#,
            #"{"correlationId":"m","payload":{"action":"a"},"timestamp":1,"type":"event","version":"1.0","extra":1}"#,
            #"{"correlationId":"m","payload":{"action":"a"},"timestamp":1,"type":"event"}"#,
            #"{"correlationId":"m","payload":{"action":"a"},"timestamp":1,"version":"1.0","type":"event"}"#,
            #"{"correlationId":"m","payload":{"action":"a"},"timestamp":1,"type":"event","version":"1.0"}   "#,
        ]
        return texts
    }

    @Test("messages in and around both layouts, at every nesting limit: both ways agree")
    func layouts() {
        var differences: [String] = []
        for text in Self.texts {
            for depth in [1, 2, 3, 4, 100] {
                if let difference = Self.difference(Array(text.utf8), depth: depth) { differences.append(difference) }
            }
        }
        #expect(differences.prefix(3) == [])
        #expect(Self.texts.count > 100)
    }

    /// Whether the layouts' own reader (not the key-by-key one it falls back to) takes `text` whole.
    static func takenAsLaidOut(_ text: some ContiguousBytes) -> Bool {
        JSONParser.reading(text, maxDepth: 100) { parser throws(JSONParser.Refusal) in
            _ = try BridgeMessageReader.plainFields(from: &parser, depth: 1, deferringData: true)
        } != nil
    }

    @Test("the usual messages are taken as laid out, not left to the key-by-key reading the comparisons fall back to")
    func layoutsAreTaken() throws {
        // Without this, a typo in a layout's literal, or a writer that changed its order, would
        // leave every comparison here comparing the key-by-key reading with itself.
        #expect(Self.takenAsLaidOut(Data(Self.documented().utf8)))
        #expect(Self.takenAsLaidOut(Data(Self.sorted().utf8)))
        let written = BridgeMessage(
            correlationId: "r-1", type: .response, timestamp: 1_732_240_000_002,
            payload: .init(action: "device.info", data: ["model": .string("x")], status: .success))
        #expect(Self.takenAsLaidOut(try #require(BridgeMessageWriter.json(written))))
        let event = BridgeMessage(correlationId: "e-1", type: .event, timestamp: 1, payload: .init(action: "journey.step"))
        #expect(Self.takenAsLaidOut(try #require(BridgeMessageWriter.json(event))))
        // Spaced, or with a key beside the payload: left to the key-by-key reading.
        #expect(!Self.takenAsLaidOut(Data(Self.documented().replacingOccurrences(of: #","type""#, with: #", "type""#).utf8)))
        #expect(!Self.takenAsLaidOut(Data(Self.sorted(payload: #"{"action":"a"},"status":"success""#).utf8)))
    }

    @Test("the usual messages of both layouts are read, with their data deferred and their exact values")
    func usualMessages() throws {
        let documented = Array(Self.documented().utf8)
        let read = try #require(
            JSONParser.reading(Data(documented), maxDepth: 100) { parser throws(JSONParser.Refusal) in
                try BridgeMessageReader.messageKeepingBytes(from: &parser, depth: 1)
            })
        #expect(read.message.timestamp == 1_732_240_000_001)
        #expect(read.message.correlationId == "m-1")
        #expect(read.message.type == .event)
        #expect(read.message.payload.data == ["step": .string("selfie"), "n": .number(1)])
        if case .deferred = read.message.payload.storedData {} else { Issue.record("the data was built, not deferred") }
        #expect(Array(read.bytes) == documented)
        let sorted = try #require(BridgeMessageReader.message(in: Data(Self.sorted().utf8), maxDepth: 100))
        #expect(sorted.payload.status == .success)
        #expect(sorted.type == .response)
        #expect(sorted.version == "1.0")
    }

    @Test("cut short at every byte, or followed by more: both ways agree")
    func cutShort() {
        var differences: [String] = []
        for text in [Self.documented(), Self.sorted(), Self.documented(payload: #"{"action":"a","status":"success"}"#)] {
            let bytes = Array(text.utf8)
            for end in 0...bytes.count {
                if let difference = Self.difference(Array(bytes.prefix(end))) { differences.append(difference) }
            }
            for extra in ["}", " ", ",", #","x":1}"#, "\n"] {
                if let difference = Self.difference(bytes + Array(extra.utf8)) { differences.append(difference) }
            }
        }
        #expect(differences.prefix(3) == [])
    }

    @Test("random and mutated messages in both layouts: both ways agree", arguments: [21, 22, 23] as [UInt64])
    func randomMessages(seed: UInt64) {
        var text = HostileJSONText(seed: seed)
        var differences: [String] = []
        var read = 0
        let sources = Self.texts.prefix(60).map { Array($0.utf8) }
        for _ in 0..<2_000 {
            let bytes = text.mutated(String(decoding: text.pick(sources), as: UTF8.self))
            if BridgeMessageReader.message(in: Data(bytes), maxDepth: 100) != nil { read += 1 }
            let depth = text.chance(0.1) ? text.pick([1, 2, 3]) : 100
            if let difference = Self.difference(bytes, depth: depth) { differences.append(difference) }
        }
        #expect(differences.prefix(3) == [])
        #expect(read > 100, "\(read) of 2000 read")
    }

    /// The number at the start of `bytes`, read by `readNumber` following the writers' layout or
    /// not, and how far it read.
    static func number(_ bytes: [UInt8], following: Bool) -> String {
        bytes.withUnsafeBytes { raw in
            var parser = JSONParser(lending: raw, maxDepth: 5, followingWriterOrder: following)
            let start = parser.offset
            do throws(JSONParser.Refusal) {
                return "\(try parser.readNumber()) to \(parser.offset - start)"
            } catch {
                return "refused"
            }
        }
    }

    @Test("a plain integer is read to the value the number reader gives, or left to it", arguments: numbers)
    func plainIntegers(number: String) {
        for tail in ["", ",", "}", " ", ".5", "e2", "0", "x"] {
            let bytes = Array((number + tail).utf8)
            let read = Self.number(bytes, following: true)
            #expect(read == Self.number(bytes, following: false), "\(number + tail)")
            let plain = bytes.withUnsafeBytes { raw -> String in
                var parser = JSONParser(lending: raw, maxDepth: 5)
                let start = parser.offset
                guard let value = parser.readPlainInteger() else { return parser.offset == start ? "left" : "moved" }
                return "\(Double(value)) to \(parser.offset - start)"
            }
            // Taken only where the number reader reads the same text to the same value; never
            // moved when not taken.
            #expect(plain == "left" || plain == read, "\(number + tail): \(plain), \(read)")
        }
        #expect(Self.number(Array("1732240000001,".utf8), following: true) == "1732240000001.0 to 13")
    }

    @Test("a literal is found exactly where its bytes are, at every length and every differing byte")
    func literals() {
        var random = HostileJSONText(seed: 99)
        for length in 0...48 {
            let literal = (0..<length).map { _ in UInt8(33 + random.below(94)) }
            for differing in [-1] + Array(0..<length) {
                var text = literal
                if differing >= 0 { text[differing] ^= 0x01 }
                for tail in [[], [UInt8(ascii: "x")], Array(repeating: UInt8(ascii: "y"), count: 20)] as [[UInt8]] {
                    for cut in [0, 1] where cut <= text.count {
                        let bytes = Array(text.dropLast(cut)) + (cut == 0 ? tail : [])
                        let found = bytes.withUnsafeBytes { raw -> (Bool, Int) in
                            var parser = JSONParser(lending: raw, maxDepth: 5)
                            let start = parser.offset
                            return (parser.readLiteralIfPresent(literal), parser.offset - start)
                        }
                        let expected = bytes.starts(with: literal)
                        #expect(found.0 == expected, "length \(length), differing at \(differing), cut \(cut)")
                        #expect(found.1 == (expected ? length : 0))
                    }
                }
            }
        }
    }
}
