import BridgeCore
import Foundation
import Testing

/// The one JSON reader must judge every input exactly as Foundation's `JSONDecoder` (the
/// reference here) does: the same values for what it takes, and a refusal for anything else.
/// Page: Security, "Incoming Message Decoding" (malformed messages never reach a handler).
@Suite("JSONParser reads JSON as JSONDecoder does")
struct JSONParserTests {
    static let valid: [String] = [
        #"{}"#, #"[]"#, #" {"a" : [1, 2.5, -3, 0, -0.25, 1e3, 2E-2, 12345678901234567890]} "#,
        #"{"s":"plain","e":"q\"b\\s\/n\nt\tr\rf\fb\b","u":"\u00e9\u20ac\ud83d\ude00","raw":"é€😀\u2028"}"#,
        #"{"t":true,"f":false,"n":null,"nested":{"deep":[{"x":[[]]}]}}"#,
        #"[1.7976931348623157e308, 5e-324, 9007199254740993, -9007199254740993, 0.1]"#,
        #""just a string""#, "42", "true", "null",
    ]

    @Test("valid JSON gives the same value as JSONDecoder (Security: Incoming Message Decoding)", arguments: valid)
    func agreesWithJSONDecoder(text: String) throws {
        let data = Data(text.utf8)
        let expected = try JSONDecoder().decode(JSONValue.self, from: data)
        #expect(JSONParser.parse(data) == expected)
    }

    static let refused: [String] = [
        "", " ", "{", "[1,]", #"{"a":1,}"#, #"{"a" 1}"#, "01", "1.", ".5", "-", "1e", "+1", "tru", "nul", "[1 2]",
        #""unterminated"#, "\"tab\there\"", #""\x""#, #""\u12""#, #""\ud800""#, #""\udc00x""#, #""\ud800\u0041""#,
        "1e400", "-1e400", "{} {}", "[1]]",
    ]

    @Test("anything JSONDecoder refuses gives nil", arguments: refused)
    func refusesWhatItDoesNotTake(text: String) {
        #expect(JSONParser.parse(Data(text.utf8)) == nil)
    }

    @Test("invalid UTF-8 and nesting deeper than the limit give nil")
    func refusesInvalidUTF8AndDeepNesting() {
        #expect(JSONParser.parse(Data([0x22, 0xFF, 0xFE, 0x22])) == nil)
        #expect(JSONParser.parse(Data(("[" + String(repeating: "[", count: 10) + String(repeating: "]", count: 11)).utf8), maxDepth: 5) == nil)
        #expect(JSONParser.parse(Data((String(repeating: "[", count: 5) + String(repeating: "]", count: 5)).utf8), maxDepth: 5) != nil)
        let hostile = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(JSONParser.parse(Data(hostile.utf8)) == nil)
    }

    static let messages: [String] = [
        #"{"version":"1.0","correlationId":"a","type":"request","timestamp":1,"payload":{"action":"x"}}"#,
        #"{"version":"1.0","correlationId":"a","type":"event","timestamp":1.5,"payload":{"action":"x","data":{"k":[1,"2",true,null,{"n":{}}]}},"extra":1}"#,
        #"{"version":"2","correlationId":"r","type":"response","timestamp":0,"payload":{"action":"x","data":null,"status":"error","error":{"code":"BUSY","message":"m","recoverable":true}}}"#,
        #"{"version":"1.0","correlationId":"r","type":"response","timestamp":0,"payload":{"action":"x","status":null,"error":null}}"#,
    ]

    @Test("messages decode to the same BridgeMessage either way (Troubleshooting: Message Decoding Failures)", arguments: messages)
    func messageFastPathAgrees(text: String) throws {
        let data = Data(text.utf8)
        let expected = try JSONDecoder().decode(BridgeMessage.self, from: data)
        let value = try #require(JSONParser.parse(data))
        #expect(BridgeMessage(validating: value) == expected)
        #expect(try BridgeMessageCodec().decode(data).get() == expected)
    }

    static let invalidMessages: [String] = [
        #"{"version":"","correlationId":"a","type":"request","timestamp":1,"payload":{"action":"x"}}"#,
        #"{"version":"1.0","correlationId":"","type":"request","timestamp":1,"payload":{"action":"x"}}"#,
        #"{"version":"1.0","correlationId":"a","type":"call","timestamp":1,"payload":{"action":"x"}}"#,
        #"{"version":"1.0","correlationId":"a","type":"request","timestamp":"1","payload":{"action":"x"}}"#,
        #"{"version":"1.0","correlationId":"a","type":"request","timestamp":true,"payload":{"action":"x"}}"#,
        #"{"version":"1.0","correlationId":"a","type":"request","timestamp":1,"payload":{"action":""}}"#,
        #"{"version":"1.0","correlationId":"a","type":"request","timestamp":1,"payload":{"action":"x","data":[]}}"#,
        #"{"version":"1.0","correlationId":"a","type":"response","timestamp":1,"payload":{"action":"x","status":"done"}}"#,
        #"{"version":"1.0","correlationId":"a","type":"response","timestamp":1,"payload":{"action":"x","error":{"code":"E","message":"m"}}}"#,
        #"{"version":1,"correlationId":"a","type":"request","timestamp":1,"payload":{"action":"x"}}"#,
        #"{"correlationId":"a","type":"request","timestamp":1,"payload":{"action":"x"}}"#,
        #"["version"]"#,
    ]

    @Test("what JSONDecoder refuses, the fast path refuses too (Troubleshooting: Message Decoding Failures)", arguments: invalidMessages)
    func messageFastPathRefuses(text: String) throws {
        let data = Data(text.utf8)
        #expect(throws: (any Error).self) { try JSONDecoder().decode(BridgeMessage.self, from: data) }
        let value = try #require(JSONParser.parse(data))
        #expect(BridgeMessage(validating: value) == nil)
        #expect(throws: BridgeMessageCodec.DecodeFailure.self) { try BridgeMessageCodec().decode(data).get() }
    }
}

extension JSONParserTests {
    @Test("a mistake inside an array or object is refused, never read as null")
    func mistakeInsideIsNotNull() {
        // JSONValue is ExpressibleByNilLiteral; a refusal must never turn into `.null`.
        for text in ["[1 2", "{\"a\":1 \"b\":2", "[[1 2]]", "{\"a\":{\"b\":1 \"c\":2}}"] {
            #expect(JSONParser.parse(Data(text.utf8)) == nil, "\(text)")
        }
    }
}
