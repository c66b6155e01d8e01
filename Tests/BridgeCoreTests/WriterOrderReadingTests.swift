@testable import BridgeCore
import Foundation
import TestSupport
import Testing

/// `JSONParser.readObject` expects the key a writer puts next and compares its bytes
/// (`ExpectedJSONKey`) before it looks a key up in the whole `JSONKeySet` (issue 30). Expecting
/// must never change what is read: with it on and off, every text must give the same members in
/// the same order, the same message, and the same refusals, whatever order, spelling, spacing or
/// damage its keys have.
@Suite("Reading keys in their writers' order: the same as looking every key up")
struct WriterOrderReadingTests {
    static let keys = JSONKeySet(
        ["version", "correlationId", "type", "timestamp", "payload", "a", "longerThanThirteen"],
        writerOrders: [["version", "correlationId", "type", "timestamp", "payload"], ["correlationId", "payload", "timestamp", "type", "version"]])

    /// A member `readObject` handed over: its key's position and its value.
    struct Member: Equatable {
        var position: Int
        var value: JSONValue
    }

    /// The members `readObject` hands over for `bytes` and where it ends, or `nil` when it
    /// refuses, read following the writers' order or not.
    static func members(_ bytes: [UInt8], following: Bool) -> [Member]? {
        JSONParser.reading(Data(bytes), maxDepth: 20, followingWriterOrder: following) { parser throws(JSONParser.Refusal) in
            var members: [Member] = []
            try parser.readObject(depth: 1, keys: keys) { parser, key throws(JSONParser.Refusal) in
                members.append(Member(position: key, value: try parser.readValue(depth: 1)))
            }
            members.append(Member(position: -1, value: .number(Double(parser.offset))))
            return members
        }
    }

    /// The message each way reads from `bytes` (as the host, and as the adapter's reports are read).
    static func messageDifference(_ bytes: [UInt8], depth: Int = 100) -> String? {
        for (deferring, refusing) in [(false, false), (true, true)] {
            let read = [true, false].map { following in
                JSONParser.reading(Data(bytes), maxDepth: depth, followingWriterOrder: following) { parser throws(JSONParser.Refusal) in
                    try BridgeMessageReader.message(from: &parser, depth: 1, deferringData: deferring, refusingTopLevelStatus: refusing)
                }
            }
            if read[0] != read[1] {
                return "\(String(decoding: bytes, as: UTF8.self)) (depth \(depth), deferring \(deferring)): ordered \(String(describing: read[0])), looked up \(String(describing: read[1]))"
            }
        }
        return nil
    }

    static func memberDifference(_ bytes: [UInt8]) -> String? {
        let ordered = members(bytes, following: true)
        let lookedUp = members(bytes, following: false)
        return ordered == lookedUp ? nil : "\(String(decoding: bytes, as: UTF8.self)): ordered \(String(describing: ordered)), looked up \(String(describing: lookedUp))"
    }

    /// Messages as BridgeCore's writer puts them (sorted keys), of every type and status.
    static var writtenMessages: [[UInt8]] {
        var messages: [BridgeMessage] = []
        for (index, type) in MessageType.allCases.enumerated() {
            for status in [nil] + BridgeResponseStatus.allCases.map(Optional.some) {
                for data in [nil, [:], ["step": JSONValue.string("selfie"), "n": .number(Double(index)), "deep": .array([.object(["k": .null])])]] {
                    messages.append(
                        BridgeMessage(
                            version: "1.0", correlationId: "c-\(index)", type: type, timestamp: 1_732_240_000_000 + Double(index),
                            payload: BridgeMessage.Payload(action: "journey.step", data: data, status: status)))
                }
            }
        }
        messages.append(
            BridgeMessage(
                version: "1.0", correlationId: "r", type: .response, timestamp: 0,
                payload: BridgeMessage.Payload(
                    action: "nfc.read", data: nil, status: .error, error: BridgeErrorPayload(code: "BUSY", message: "busy", recoverable: false))))
        return messages.compactMap { try? BridgeMessageCodec().encode($0) }.map { Array($0) }
    }

    /// A message in the documented shape's order, as a journey writes it.
    static let documented = Array(
        #"{"version":"1.0","correlationId":"m-7","type":"event","timestamp":1732240000007,"payload":{"action":"journey.step","data":{"step":"selfie","ok":true}}}"#
            .utf8)

    @Test("an expected key is held only for a short, plain name, and is found exactly")
    func expectedKeys() {
        #expect(ExpectedJSONKey(Array("correlationId".utf8))?.length == 16)
        #expect(ExpectedJSONKey(Array("a".utf8))?.length == 4)
        #expect(ExpectedJSONKey(Array("longerThanThirteen".utf8)) == nil)
        #expect(ExpectedJSONKey(Array("q\"".utf8)) == nil)
        #expect(ExpectedJSONKey(Array("b\\".utf8)) == nil)
        #expect(ExpectedJSONKey([0x61, 0x0A]) == nil)
        #expect(ExpectedJSONKey([0x61, 0xC3, 0xA9]) == nil)
        let key = ExpectedJSONKey(Array("type".utf8))
        let texts: [(String, Bool)] = [
            (#""type":"event",..."#, true), (#""type" :"event",.."#, false), (#""types":"event",.."#, false), (#""typ":"event",..."#, false),
            (#""Type":"event",..."#, false), (#""type"," ",...."#, false),
        ]
        for (text, found) in texts {
            // Sixteen bytes and more, as the reader makes sure there are before it looks.
            let bytes = Array((text + "................").utf8)
            #expect(bytes.withUnsafeBufferPointer { buffer in buffer.baseAddress.map { key?.isAt($0) == true } } == found, "\(text)")
        }
    }

    @Test("a known name or a usual string compared whole is what reading it gives")
    func namesAndUsualStrings() {
        let names = JSONKeySet(strings: ["received", "sent", "sent", "a-much-longer-name"])
        let usual = ExpectedJSONString("1.0")
        let texts = [
            #""received""#, #""sent""#, #""receivedX""#, #""receive""#, #""re\u0063eived""#, #""Sent""#, #""a-much-longer-name""#, #""1.0""#,
            #""1.0 ""#, #""1.00""#, #""1\u002e0""#, #""1.0"#, #"1.0"#, #""""#, "\"sent\u{01}\"", #""é""#,
        ]
        for text in texts {
            for tail in ["", "}", ",\"x\":1}              "] {
                let bytes = Data((text + tail).utf8)
                let among = [true, false].map { following in
                    JSONParser.reading(bytes, maxDepth: 5, followingWriterOrder: following) { parser throws(JSONParser.Refusal) in
                        let position = try parser.readString(among: names)
                        return "\(String(describing: position)) at \(parser.offset)"
                    }
                }
                #expect(among[0] == among[1], "\(text + tail)")
                let read = [true, false].map { following in
                    JSONParser.reading(bytes, maxDepth: 5, followingWriterOrder: following) { parser throws(JSONParser.Refusal) in
                        "\(try parser.readString(usually: usual)) at \(parser.offset)"
                    }
                }
                #expect(read[0] == read[1], "\(text + tail)")
            }
        }
        // Long enough to be compared whole: found, and the duplicate at its first position.
        let sent = Data(#""sent"                "#.utf8)
        #expect(JSONParser.reading(sent, maxDepth: 5) { parser throws(JSONParser.Refusal) in try parser.readString(among: names) } == 1)
        #expect(ExpectedJSONString("a string of more than fourteen bytes").text == nil)
    }

    @Test("a key set lays its writers' orders out, and where each key leads")
    func keySetOrders() {
        let keys = Self.keys
        #expect(keys.orderStarts == [0, 6])
        #expect(keys.script == [0, 1, 2, 3, 4, -1, 1, 4, 3, 2, 0, -1])
        // After `type` in the documented order comes `timestamp`; after `payload` in the sorted one, `timestamp`.
        #expect(keys.script[keys.resumptions[2]] == 3)
        #expect(keys.script[keys.resumptions[7 + 4]] == 3)
        // A key in no order leads to that order's end.
        #expect(keys.script[keys.resumptions[5]] == -1)
        #expect(keys.expected[6] == nil)
        // A name given twice is expected at its first position only.
        let twice = JSONKeySet(["a", "b", "a"], writerOrders: [["a", "b", "a", "c"]])
        #expect(twice.expected.map { $0 != nil } == [true, true, false])
        #expect(twice.script == [0, 1, -1])
    }

    @Test("written and documented messages read the same both ways, and on the fast path")
    func ownMessages() {
        let messages = Self.writtenMessages + [Self.documented]
        #expect(messages.count > 20)
        for bytes in messages {
            #expect(BridgeMessageReader.message(in: Data(bytes), maxDepth: 100) != nil, "\(String(decoding: bytes, as: UTF8.self))")
            #expect(Self.messageDifference(bytes) == nil)
            #expect(Self.memberDifference(bytes) == nil)
        }
    }

    @Test("own messages cut short at every byte, or followed by more: both ways agree")
    func cutShort() {
        var differences: [String] = []
        for bytes in Self.writtenMessages.prefix(6) + [Self.documented] {
            for end in 0...bytes.count {
                let cut = Array(bytes.prefix(end))
                if let difference = Self.messageDifference(cut) ?? Self.memberDifference(cut) { differences.append(difference) }
            }
            for extra in ["}", " ", ",", #","x":1}"#] {
                let longer = bytes + Array(extra.utf8)
                if let difference = Self.messageDifference(longer) ?? Self.memberDifference(longer) { differences.append(difference) }
            }
        }
        #expect(differences.prefix(3) == [])
    }

    @Test("reordered, repeated, escaped, missing and extra keys: both ways agree")
    func unusualKeys() {
        let texts = [
            #"{"correlationId":"c","version":"1.0","type":"event","timestamp":1,"payload":{"action":"x"}}"#,
            #"{"version":"1.0","correlationId":"c","correlationId":"d","type":"event","timestamp":1,"payload":{"action":"x"}}"#,
            #"{"version":"1.0","\u0063orrelationId":"c","type":"event","timestamp":1,"payload":{"action":"x"}}"#,
            #"{"\u0063orrelationId":"c","payload":{"action":"x"},"timestamp":1,"type":"event","version":"1.0"}"#,
            #"{"correlationId":"c","payload":{"\u0061ction":"x"},"timestamp":1,"type":"event","version":"1.0"}"#,
            #"{"correlationId":"c","payload":{"action":"x","action":"y"},"timestamp":1,"type":"event","version":"1.0"}"#,
            #"{"correlationId":"c","payload":{"action":"x"},"timestamp":1,"type":"event","version":"1.0","version":"2"}"#,
            #"{"correlationId":"c","payload":{"action":"x"},"timestamp":1,"type":"event"}"#,
            #"{"correlationId":"c","extra":[1,{"version":"9"}],"payload":{"action":"x"},"timestamp":1,"type":"event","version":"1.0"}"#,
            #"{"extra":1,"correlationId":"c","payload":{"action":"x"},"timestamp":1,"type":"event","version":"1.0"}"#,
            #"{"correlationId" :"c", "payload": {"action":"x"} ,"timestamp":1,"type":"event","version":"1.0"}"#,
            #"{"correlationIdX":"c","correlationI":"d","payload":{"action":"x"},"timestamp":1,"type":"event","version":"1.0"}"#,
            #"{"correlationId":"c","payload":{"action":"x","data":{"a":1},"status":"success","error":null},"timestamp":1,"type":"response","version":"1.0"}"#,
            #"{"correlationId":"c","payload":{"action":"x"},"timestamp":1,"type":"event","version":"1.0","status":"success"}"#,
            #"{"correlationId":"c","payload":{"action":"x"},"timestamp":1,"type":"event","version":"1.0","error":null}"#,
            #"{"version":"1.0","correlationId":"c","type":"event","payload":{"action":"x"},"timestamp":1}"#,
            #"{"longerThanThirteen":1,"a":2,"a":3}"#,
            #"{"a":1,"version":"1.0","correlationId":"c","type":"event","timestamp":1,"payload":{"action":"x"}}"#,
            #"{"version":"1.0","correlationId":"c","type":"event","timestamp":1,"payload":{"action":"x"}}"#,
            #"{"type":"event"}"#, #"{"a":1}"#, #"{"a":"#, #"{"a""#, #"{"a":1,"#, "{}",
        ]
        for text in texts {
            let bytes = Array(text.utf8)
            #expect(Self.messageDifference(bytes) == nil)
            #expect(Self.memberDifference(bytes) == nil)
        }
        // The repeated and escaped keys are refused both ways (the full decoding reads them).
        #expect(Self.members(Array(texts[1].utf8), following: true) == nil)
        #expect(Self.members(Array(texts[2].utf8), following: true) == nil)
    }

    @Test("random and mutated messages, at every nesting limit: both ways agree", arguments: [11, 12, 13] as [UInt64])
    func randomMessages(seed: UInt64) {
        var text = HostileJSONText(seed: seed)
        var differences: [String] = []
        var read = 0
        let written = Self.writtenMessages
        for round in 0..<3_000 {
            // The writer's own text, spoiled, a third of the time; the generator's (any order) otherwise.
            let source = round % 3 == 0 ? String(decoding: text.pick(written), as: UTF8.self) : text.message()
            let bytes = text.mutated(source)
            if BridgeMessageReader.message(in: Data(bytes), maxDepth: 100) != nil { read += 1 }
            let depth = text.chance(0.1) ? text.pick([1, 2, 3]) : 100
            if let difference = Self.messageDifference(bytes, depth: depth) ?? Self.memberDifference(bytes) { differences.append(difference) }
        }
        #expect(differences.prefix(3) == [])
        #expect(read > 600 && read < 2_900, "\(read) of 3000 read")
    }

    @Test(
        "the JSONTestSuite corpus as a member and as the whole text: both ways agree",
        .enabled(if: JSONTestSuiteCorpus.shouldRun(), Comment(rawValue: JSONTestSuiteCorpus.skipText)))
    func corpus() throws {
        let directory = JSONTestSuiteCorpus.location
        let names = JSONTestSuiteCorpus.fileNames()
        try #require(names.count > 300, "the JSONTestSuite corpus is missing at \(directory.path)")
        var inputs: [[UInt8]] = []
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
            inputs.append(bytes)
            inputs.append(Array(#"{"correlationId":"c","payload":{"action":"x","data":"#.utf8) + bytes + Array(#"},"timestamp":1,"type":"event","version":"1.0"}"#.utf8))
            inputs.append(Array(#"{"correlationId":"#.utf8) + bytes + Array(#","payload":{"action":"x"},"timestamp":1,"type":"event","version":"1.0"}"#.utf8))
            inputs.append(Array(#"{"version":"1.0","correlationId":"c","type":"event","timestamp":1,"payload":"#.utf8) + bytes + Array("}".utf8))
        }
        let all = inputs
        let differences = onSmallStack { all.compactMap { Self.messageDifference($0) ?? Self.memberDifference($0) } } ?? ["did not finish"]
        #expect(differences.prefix(3) == [])
        #expect(inputs.count > 1_000)
    }
}
