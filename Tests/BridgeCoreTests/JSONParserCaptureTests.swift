import BridgeCore
import Foundation
import Testing

/// `JSONParser.read(_:capturing:)`: the byte ranges of chosen values, noted in the parser's one
/// pass, so a client keeps a message's bytes exactly as they stand in a frame without scanning the
/// frame again. docs/inspector-protocol.md, "Client note: keep the message's bytes".
@Suite("JSONParser, capturing the bytes of values")
struct JSONParserCaptureTests {
    /// The text of each value at `path` in `json`.
    static func texts(_ json: String, _ path: [JSONParser.PathStep]) throws -> [String] {
        let data = Data(json.utf8)
        let parsed = try JSONParser.read(data, capturing: [path])
        return parsed.ranges[0].map { String(decoding: data[$0], as: UTF8.self) }
    }

    @Test("Finds a nested value through strings holding brackets, quotes and the key's own name")
    func nested() throws {
        let json = #"{"a":"}\"message\":[","b":[1,{"message":2}],"c":{ "message" : {"x":[1.50,"]"]} , "d":-0 }}"#
        #expect(try Self.texts(json, [.key("c"), .key("message")]) == [#"{"x":[1.50,"]"]}"#])
        #expect(try Self.texts(json, [.key("c"), .key("d")]) == ["-0"])
        #expect(try Self.texts(json, [.key("message")]) == [])
        #expect(try Self.texts(json, [.key("a"), .key("message")]) == [])
        #expect(try Self.texts(json, [.key("b"), .element, .key("message")]) == ["2"])
        #expect(try Self.texts(json, []) == [json])
    }

    @Test("Takes the last of duplicate keys at any level, as the parsed value does, and reads escaped keys as the parser does")
    func duplicatesAndEscapes() throws {
        #expect(try Self.texts(#"{"m":1,"m":22}"#, [.key("m")]) == ["22"])
        // A key spelled with an escape is the same key (the light scan before this gave up on it).
        #expect(try Self.texts(#"{"m":1,"\u006d":22}"#, [.key("m")]) == ["22"])
        #expect(try Self.texts(#"{"e":{"m":1},"x":[{"e":3}],"e":{"m":[4, 5] }}"#, [.key("e"), .key("m")]) == ["[4, 5]"])
        #expect(try Self.texts(#"{"e":{"m":1},"e":{"x":2}}"#, [.key("e"), .key("m")]) == [])
        let line = #"{"state":{"messages":[{"message":1},{"message":[2]}]}}"#
        #expect(try Self.texts(line, [.key("state"), .key("messages"), .element]) == [#"{"message":1}"#, #"{"message":[2]}"#])
        #expect(try Self.texts(line, [.key("state"), .key("messages"), .element, .key("message")]) == ["1", "[2]"])
        #expect(try Self.texts(line, [.key("state"), .element]) == [])
    }

    @Test("Several paths in one pass, each in document order, with the same value as a plain parse")
    func severalPaths() throws {
        let line = Data(#"{"sent":[{"a":1},{"b":2}],"event":{"record":{"message":{"id":9007199254740993}}}}"#.utf8)
        let parsed = try JSONParser.read(line, capturing: [[.key("event"), .key("record"), .key("message")], [.key("sent"), .element]])
        #expect(parsed.ranges[0].map { String(decoding: line[$0], as: UTF8.self) } == [#"{"id":9007199254740993}"#])
        #expect(parsed.ranges[1].map { String(decoding: line[$0], as: UTF8.self) } == [#"{"a":1}"#, #"{"b":2}"#])
        #expect(parsed.value == JSONParser.parse(line))
    }

    @Test("Text that is not JSON throws the syntax check's problem, capturing or not")
    func problems() throws {
        let text = #"{"sent":[{"a":1} {"b":2}]}"#
        let expected = try #require(JSONSyntaxCheck.firstProblem(in: text))
        #expect(expected.description == "line 1, column 18: expected ',' or ']' in an array, found '{'")
        #expect(throws: expected) { try JSONParser.read(Data(text.utf8), capturing: [[.key("sent"), .element]]) }
        #expect(throws: expected) { try JSONParser.read(Data(text.utf8)) }
    }
}
