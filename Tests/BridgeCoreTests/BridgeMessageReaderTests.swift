import BridgeCore
import Foundation
import TestSupport
import Testing

/// `BridgeMessageCodec.decode` reads a message in one pass (`BridgeMessageReader`) and falls back
/// to the full decoding (`decodeParsingWhole`) for anything that reader does not take: the two
/// must accept the same texts, read them to equal messages and refuse them with the same reason
/// (the GBGBridge `lastError` texts). Issue 30, item 3.
@Suite("Message reader: the same as the full decoding")
struct BridgeMessageReaderTests {
    /// What differs between the two ways of decoding `bytes` with nesting limit `depth`, or `nil`.
    static func difference(_ bytes: [UInt8], depth: Int = BridgeMessageCodec.defaultMaxDepth) -> String? {
        let codec = BridgeMessageCodec(maxDepth: depth)
        let fast = codec.decode(Data(bytes))
        let full = codec.decodeParsingWhole(Data(bytes))
        guard fast != full else { return nil }
        return "\(String(decoding: bytes, as: UTF8.self)) (depth \(depth)): fast \(fast), full \(full)"
    }

    static let valid: [String] = [
        #"{"version":"1.0","correlationId":"c","type":"request","timestamp":1,"payload":{"action":"x"}}"#,
        #" {"payload":{"data":{"a":[1,2,{"b":null}],"n":9007199254740993},"action":"camera.capture"},"timestamp":1.5e3,"type":"event","correlationId":"é\u00e9","version":"1.0","extra":[{}]} "#,
        #"{"version":"1.0","correlationId":"r","type":"response","timestamp":-0,"payload":{"action":"nfc.read","status":"error","data":null,"error":{"code":"BUSY","message":"busy","recoverable":false}}}"#,
        #"{"version":"1.0","correlationId":"r","type":"response","timestamp":0,"payload":{"action":"a","status":null,"error":null,"data":{}}}"#,
    ]

    static let invalid: [String] = [
        "", " ", "null", "[]", "{}", #"{"version":"1.0"}"#,
        #"{"version":"","correlationId":"c","type":"request","timestamp":1,"payload":{"action":"x"}}"#,
        #"{"version":"1.0","correlationId":"c","type":"Request","timestamp":1,"payload":{"action":"x"}}"#,
        #"{"version":"1.0","correlationId":"c","type":"request","timestamp":"1","payload":{"action":"x"}}"#,
        #"{"version":"1.0","correlationId":"c","type":"request","timestamp":1,"payload":{"action":""}}"#,
        #"{"version":"1.0","correlationId":"c","type":"request","timestamp":1,"payload":{"action":"x","data":[]}}"#,
        #"{"version":"1.0","correlationId":"c","type":"request","timestamp":1,"payload":{"action":"x","status":"fine"}}"#,
        #"{"version":"1.0","correlationId":"c","type":"request","timestamp":1,"payload":{"action":"x","error":{"code":1}}}"#,
        #"{"version":"1.0","correlationId":"c","type":"request","timestamp":1e400,"payload":{"action":"x"}}"#,
        #"{"version":"1.0","correlationId":"c","correlationId":"","type":"request","timestamp":1,"payload":{"action":"x"}}"#,
        #"{"version":"1.0","correlationId":"","correlationId":"c","type":"request","timestamp":1,"payload":{"action":"x"}}"#,
        #"{"\u0076ersion":"1.0","correlationId":"c","type":"request","timestamp":1,"payload":{"action":"x"}}"#,
        #"{"version":"1.0","correlationId":"c","type":"request","timestamp":1,"payload":{"action":"x"}} x"#,
        #"{"version":"1.0","correlationId":"c","type":"request","timestamp":1,"payload":{"action":"x"},}"#,
        #"{"version":"1.0","correlationId":"\ud800","type":"request","timestamp":1,"payload":{"action":"x"}}"#,
    ]

    @Test("valid messages are read on the fast path, to the messages the full decoding gives")
    func validMessages() {
        for text in Self.valid {
            #expect(BridgeMessageReader.message(in: Data(text.utf8), maxDepth: 100) != nil, "\(text)")
            #expect(Self.difference(Array(text.utf8)) == nil)
        }
    }

    @Test("refused messages get the full decoding's reason, at every nesting limit")
    func invalidMessages() {
        for text in Self.invalid + Self.valid {
            for depth in [1, 2, 3, 4, 100] {
                #expect(Self.difference(Array(text.utf8), depth: depth) == nil)
            }
        }
        let emptyVersion = Self.invalid.first { $0.contains(#""version":"""#) } ?? ""
        guard case .failure(let failure) = BridgeMessageCodec().decode(Data(emptyVersion.utf8)) else {
            Issue.record("an empty version was accepted")
            return
        }
        #expect(failure.reason == "field 'version' must not be empty")
    }

    @Test("random and mutated messages: both ways agree", arguments: [1, 2, 3, 4] as [UInt64])
    func randomMessages(seed: UInt64) {
        var text = HostileJSONText(seed: seed)
        var differences: [String] = []
        var fast = 0
        for _ in 0..<3_000 {
            let bytes = text.mutated(text.message())
            if BridgeMessageReader.message(in: Data(bytes), maxDepth: 100) != nil { fast += 1 }
            if let difference = Self.difference(bytes, depth: text.chance(0.1) ? text.pick([1, 2, 3, 4]) : 100) { differences.append(difference) }
        }
        #expect(differences.prefix(5) == [])
        // The generator makes both kinds.
        #expect(fast > 600 && fast < 2_700, "\(fast) of 3000 on the fast path")
    }

    @Test("the JSONTestSuite corpus as payload data, as data's value and as whole messages: both ways agree",
        .enabled(if: JSONTestSuiteCorpus.shouldRun(), JSONTestSuiteCorpus.skipNote))
    func corpus() throws {
        let directory = JSONTestSuiteCorpus.location
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }.sorted()
        var inputs: [[UInt8]] = []
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))
            let head = Array(#"{"version":"1.0","correlationId":"c","type":"event","timestamp":1,"payload":{"action":"x","data":"#.utf8)
            inputs.append(head + Array(#"{"v":"#.utf8) + bytes + Array("}}}".utf8))
            inputs.append(head + bytes + Array("}}".utf8))
            inputs.append(Array(#"{"version":"1.0","correlationId":"c","type":"event","timestamp":1,"extra":"#.utf8) + bytes + Array(#","payload":{"action":"x"}}"#.utf8))
            inputs.append(bytes)
        }
        let all = inputs
        let differences = onSmallStack { all.compactMap { Self.difference($0) } } ?? ["did not finish"]
        #expect(differences.prefix(5) == [])
        #expect(inputs.count > 1_000)
    }
}

