import BridgeCore
import Foundation
import Testing

/// The front door from JSON bytes to a `Decodable`: one parse (`JSONParser`), then
/// `JSONValueDecoder` reads the value, and `DecodingProblem` is the one sentence for what is wrong.
/// docs/bridge-protocol.md, section 2, "One JSON rule".
@Suite("JSONDecoding, JSONValueDecoder and DecodingProblem")
struct JSONDecodingTests {
    struct Sample: Codable, Equatable {
        var name: String
        var count: Int
        var ratio: Double
        var flag: Bool
        var tags: [String]
        var nested: [String: [Int]]
        var optional: String?
        var blob: Data
        var value: JSONValue
        var small: UInt8
    }

    static let text = #"{"name":"n","count":3,"ratio":0.5,"flag":true,"tags":["a","b"],"nested":{"k":[1,2]},"optional":null,"blob":"AAEC","value":{"x":[1,"y",null]},"small":255}"#

    @Test("Reads what JSONDecoder reads from the same text")
    func agreesWithJSONDecoder() throws {
        let data = Data(Self.text.utf8)
        let expected = try JSONDecoder().decode(Sample.self, from: data)
        #expect(try JSONDecoding.decode(Sample.self, from: data) == expected)
        #expect(expected.blob == Data([0, 1, 2]))
    }

    @Test(
        "Refuses what JSONDecoder refuses, naming the field and what was expected",
        arguments: [
            (#""count":3"#, #""count":"3""#, "count: expected a whole number"),
            (#""count":3"#, #""count":3.5"#, "count: Parsed JSON number <3.5> does not fit in Int."),
            (#""small":255"#, #""small":256"#, "small: Parsed JSON number <256.0> does not fit in UInt8."),
            (#""name":"n""#, #""name":null"#, "name: expected a string, found null"),
            (#""name":"n","#, "", #"missing field "name""#),
            (#""tags":["a","b"]"#, #""tags":["a",2]"#, "tags[1]: expected a string"),
            (#""nested":{"k":[1,2]}"#, #""nested":{"k":[1,true]}"#, "nested.k[1]: expected a whole number"),
            (#""flag":true"#, #""flag":1"#, "flag: expected true or false"),
            (#""tags":["a","b"]"#, #""tags":{}"#, "tags: expected an array"),
        ] as [(String, String, String)])
    func refusals(_ original: String, _ replacement: String, _ sentence: String) throws {
        let data = Data(Self.text.replacingOccurrences(of: original, with: replacement).utf8)
        #expect(throws: (any Error).self) { try JSONDecoder().decode(Sample.self, from: data) }
        #expect(throws: JSONDecoding.Failure.self) { try JSONDecoding.decode(Sample.self, from: data) }
        do {
            _ = try JSONDecoding.decode(Sample.self, from: data)
        } catch {
            #expect(error.description == sentence)
        }
    }

    @Test("Text that is not JSON is refused with the parser's line, column and reason")
    func invalidJSON() throws {
        let problem = try #require(JSONSyntaxCheck.firstProblem(in: #"{"name":}"#))
        #expect(problem.description == "line 1, column 9: expected a value, found '}'")
        #expect(throws: JSONDecoding.Failure.invalidJSON(problem)) {
            try JSONDecoding.decode(Sample.self, from: Data(#"{"name":}"#.utf8))
        }
    }

    @Test("A missing key names its object's path and the key; the field is both")
    func missingKey() {
        let problem = DecodingProblem(path: "rules[0]", kind: .missing(key: "action"))
        #expect(problem.description == #"rules[0]: missing field "action""#)
        #expect(problem.field == "rules[0].action")
        #expect(DecodingProblem(path: "", kind: .missing(key: "correlationId")).field == "correlationId")
    }
}
