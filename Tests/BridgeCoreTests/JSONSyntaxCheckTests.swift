import BridgeCore
import Foundation
import Testing

/// The syntax check behind `Failed to decode message: invalid JSON at line L, column C: ...`.
/// Pages: Troubleshooting, "Message Decoding Failures" (malformed JSON); Security, "Incoming
/// Message Decoding".
@Suite("JSON syntax check")
struct JSONSyntaxCheckTests {
    // Troubleshooting, "Message Decoding Failures", cause 1: malformed JSON, located precisely.
    @Test(
        "Mistakes are located by line and column (Troubleshooting: Message Decoding Failures)",
        arguments: [
            (#"{"a" 1}"#, 1, 6, "expected ':' after an object key, found '1'"),
            (#"{"a":}"#, 1, 6, "expected a value, found '}'"),
            (#"{"a":1,}"#, 1, 8, "expected '\"' to start an object key, found '}'"),
            (#"{"a":1 "b":2}"#, 1, 8, "expected ',' or '}' in an object, found '\"'"),
            ("[1,2", 1, 5, "unexpected end of text inside an array; expected ',' or ']'"),
            ("[1 2]", 1, 4, "expected ',' or ']' in an array, found '2'"),
            ("{\n  \"a\": tru\n}", 2, 8, "expected a value, found 't' (did you mean true?)"),
            ("{\n  \"a\": 01\n}", 2, 8, "numbers must not have leading zeros"),
            ("[1.]", 1, 4, "expected a digit after '.', found ']'"),
            ("[1e]", 1, 4, "expected a digit in an exponent, found ']'"),
            ("[-]", 1, 3, "expected a digit in a number, found ']'"),
            ("[1e400]", 1, 2, "the number 1e400 is too large to represent"),
            (#"["a\x"]"#, 1, 5, "invalid escape '\\x' in a string"),
            (#"["\u12G4"]"#, 1, 7, "expected 4 hex digits after '\\u' in a string"),
            ("[\"a\tb\"]", 1, 4, "control character byte 0x9 inside a string must be escaped"),
            (#"{"a":"b"#, 1, 6, "unterminated string (no closing '\"')"),
            ("{} {}", 1, 4, "unexpected '{' after the end of the JSON value"),
            ("   ", 1, 4, "the text is empty; expected a JSON value"),
            ("{\"a\":1}\n\n  x", 3, 3, "unexpected 'x' after the end of the JSON value"),
            ("\r\n{\r\n\"a\": nul}", 3, 6, "expected a value, found 'n' (did you mean null?)"),
        ] as [(String, Int, Int, String)])
    func locatesMistakes(_ text: String, _ line: Int, _ column: Int, _ reason: String) throws {
        let problem = try #require(JSONSyntaxCheck.firstProblem(in: text))
        #expect(problem.line == line)
        #expect(problem.column == column)
        #expect(problem.reason == reason)
        #expect(problem.description == "line \(line), column \(column): \(reason)")
        // The byte form agrees with the string form.
        #expect(JSONSyntaxCheck.firstProblem(in: Array(text.utf8)) == problem)
        #expect(JSONSyntaxCheck.firstProblem(in: Data(text.utf8)) == problem)
    }

    @Test(
        "A mistake's column for a person counts characters, not bytes, from the line's first character",
        arguments: [
            (#"    {"a": 1 2}"#, 13, 13),
            (#"{"né": "é" 2}"#, 12, 14),
            ("{\n  \"名前\": \"値\" 2}", 13, 19),
            ("[\"👍🏽\" 1]", 6, 13),
        ] as [(String, Int, Int)])
    func characterColumns(_ text: String, _ characters: Int, _ bytes: Int) throws {
        let utf8 = Array(text.utf8)
        let problem = try #require(JSONSyntaxCheck.firstProblem(in: utf8))
        #expect(problem.column == bytes)
        #expect(problem.characterColumn(in: utf8) == characters)
        #expect(problem.describe(in: utf8) == "line \(problem.line), column \(characters): \(problem.reason)")
    }

    // Troubleshooting, "Message Decoding Failures": valid JSON passes, including every kind of value.
    @Test(
        "Valid JSON passes (Troubleshooting: Message Decoding Failures)",
        arguments: [
            "{}", "[]", "0", "-0", "-1.5e-3", "1E+2", "true", "false", "null", "\"\"",
            #"{"version":"1.0","correlationId":"unique-id","type":"request","timestamp":1732240000000,"payload":{"action":"camera.capture","data":{}}}"#,
            " \t\r\n{ \"a\" : [ 1 , { } , [ ] , \"\\u00e9\\n\\\"\" ] } \n",
            "\"é 😀 \u{2028}\"",
            #"["\ud83d\ude00", "\/"]"#,
        ])
    func validPasses(_ text: String) {
        #expect(JSONSyntaxCheck.firstProblem(in: text) == nil)
        // Foundation agrees that it is JSON.
        #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) != nil)
    }

    // Security, "Incoming Message Decoding": nesting is bounded (default 100), without recursion
    // past the limit, so 100,000 levels cannot exhaust the stack.
    @Test("Nesting depth is limited (Security: Incoming Message Decoding)")
    func depthLimit() throws {
        #expect(JSONSyntaxCheck.defaultMaxDepth == 100)
        func nested(_ depth: Int) -> String { String(repeating: "[", count: depth) + String(repeating: "]", count: depth) }
        #expect(JSONSyntaxCheck.firstProblem(in: nested(100)) == nil)
        let problem = try #require(JSONSyntaxCheck.firstProblem(in: nested(101)))
        #expect(problem.reason == "nesting is deeper than 100 levels")
        #expect(problem.column == 101)
        #expect(JSONSyntaxCheck.firstProblem(in: nested(5), maxDepth: 5) == nil)
        #expect(JSONSyntaxCheck.firstProblem(in: nested(6), maxDepth: 5)?.reason == "nesting is deeper than 5 levels")
        #expect(JSONSyntaxCheck.firstProblem(in: nested(100_000))?.reason == "nesting is deeper than 100 levels")
        let objects = String(repeating: #"{"k":"#, count: 101) + "0" + String(repeating: "}", count: 101)
        #expect(JSONSyntaxCheck.firstProblem(in: objects)?.reason == "nesting is deeper than 100 levels")
        // The codec uses the same limit and can be given another one.
        let shallow = BridgeMessageCodec(maxDepth: 2)
        let text = #"{"version":"1.0","correlationId":"a","type":"event","timestamp":1,"payload":{"action":"x","data":{}}}"#
        guard case .failure(let failure) = shallow.decode(Data(text.utf8)) else {
            Issue.record("a depth of 3 must be refused with maxDepth 2")
            return
        }
        #expect(failure.reason == "invalid JSON at line 1, column 98: nesting is deeper than 2 levels")
        #expect(BridgeMessageCodec().maxDepth == 100)
    }

    // Security, "Incoming Message Decoding": text that is not valid UTF-8 is refused.
    @Test("Invalid UTF-8 is refused (Security: Incoming Message Decoding)")
    func invalidUTF8() {
        let cases: [[UInt8]] = [
            [0x22, 0xC3, 0x22],  // truncated two-byte sequence
            [0x22, 0xC0, 0x80, 0x22],  // overlong NUL
            [0x22, 0xED, 0xA0, 0x80, 0x22],  // encoded surrogate
            [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22],  // beyond U+10FFFF
            [0x22, 0xFF, 0x22],
        ]
        for bytes in cases {
            let problem = JSONSyntaxCheck.firstProblem(in: bytes)
            #expect(problem != nil, "\(bytes)")
            #expect(problem?.reason.contains("UTF-8") == true, "\(bytes): \(problem?.reason ?? "")")
        }
    }
}
