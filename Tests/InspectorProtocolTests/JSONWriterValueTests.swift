import BridgeCore
import Foundation
import InspectorProtocol
import Testing

/// `JSONWriter.value(_:)`: a parsed value written straight back as compact JSON (the respond
/// dialog's "sent before" templates), without `JSONEncoder`.
@Suite("JSONWriter writes a parsed value")
struct JSONWriterValueTests {
    @Test("Keys sorted at every level, numbers as JSONEncoder spells them, and the parser reads it back")
    func sortedAndReadBack() throws {
        let value = try JSONParser.read(Data(#"{"z":[1,2.5,-3,1e20,"é\n\"q\""],"a":{"y":null,"b":true},"m":0.1}"#.utf8))
        var writer = JSONWriter()
        writer.value(value)
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(text == #"{"a":{"b":true,"y":null},"m":0.1,"z":[1,2.5,-3,1e+20,"é\n\"q\""]}"#)
        #expect(try JSONParser.read(writer.bytes) == value)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(String(decoding: try encoder.encode(value), as: UTF8.self) == text)
    }
}
