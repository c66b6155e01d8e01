@testable import BridgeCore
import Foundation
import Testing

/// The direct writer in front of `JSONEncoder` (`BridgeMessageWriter`) writes exactly the
/// encoder's bytes, and leaves to the encoder what it cannot be sure of.
@Suite("BridgeMessageWriter")
struct BridgeMessageWriterTests {
    private static func reference(_ message: BridgeMessage) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(message)
    }

    private static func message(
        _ data: [String: JSONValue]?, id: String = "req-1", action: String = "device.info", type: MessageType = .response,
        status: BridgeResponseStatus? = .success, timestamp: Double = 1_732_240_000_123
    ) -> BridgeMessage {
        BridgeMessage(
            correlationId: id, type: type, timestamp: timestamp, payload: .init(action: action, data: data, status: status))
    }

    @Test("A usual response and event are written directly, byte for byte as JSONEncoder writes them")
    func usualMessages() throws {
        let response = Self.message(["model": "Bench", "os": "Linux", "locale": "en-GB", "screen": "1170x2532"])
        let event = Self.message(
            ["version": "1.0.0", "timestamp": .number(1_732_240_000_000), "ok": true, "nothing": .null], id: "ios-event-1",
            action: "host.ready", type: .event, status: nil)
        for message in [response, event, Self.message(nil), Self.message([:])] {
            let direct = try #require(BridgeMessageWriter.json(message))
            #expect(direct == (try Self.reference(message)), "\(String(decoding: direct, as: UTF8.self))")
            #expect(try BridgeMessageCodec().encode(message) == direct)
        }
    }

    @Test("Strings, numbers, keys and nesting: the codec's bytes are always JSONEncoder's")
    func sameBytesAsTheEncoder() throws {
        let values: [JSONValue] = [
            "quote \" backslash \\ slash / newline \n tab \t cr \r bs \u{8} ff \u{C} nul \u{0} us \u{1F} del \u{7F}",
            "é ü 日本 😀 \u{2028} \u{2029} <script>",
            .number(0), .number(-0.0), .number(1), .number(-42), .number(999_999_999_999_999), .number(1e15), .number(1e16),
            .number(0.5), .number(-1.25), .number(1e-7), .number(123_456_789.5),
            .bool(true), .bool(false), .null,
            .array([]), .array([1, "two", [3], ["k": "v"]]),
            .object(["b": 1, "a": ["z": [1, 2], "y": .null]]),
        ]
        let keySets: [[String]] = [
            ["sessionId", "elapsedMs", "ok", "locale"], ["B", "a"], ["a", "A"], ["a10", "a9"], ["a_b", "aB"],
            ["-y", "_x", "z"], ["é", "e"], ["key with space", "key.dot"], [""],
        ]
        var messages: [BridgeMessage] = []
        for value in values {
            messages.append(Self.message(["value": value]))
        }
        for keys in keySets {
            messages.append(Self.message(Dictionary(uniqueKeysWithValues: keys.map { ($0, JSONValue.string($0)) })))
        }
        messages.append(Self.message(["deep": (0..<80).reduce(JSONValue.null) { inner, _ in .array([inner]) }]))
        messages.append(Self.message(nil, id: "id \"quoted\" \u{1}", action: "a/b\\c"))
        messages.append(Self.message(nil, timestamp: 1_732_240_000_123.5))
        for status in [BridgeResponseStatus.success, .error, .cancelled, .unsupported] {
            messages.append(
                BridgeMessage(
                    correlationId: "r", type: .response, timestamp: 1,
                    payload: .init(
                        action: "x", status: status,
                        error: status == .error ? BridgeErrorPayload(code: "BUSY", message: "busy", recoverable: true) : nil)))
        }
        for type in [MessageType.request, .response, .event] {
            messages.append(Self.message(["x": 1], type: type, status: nil))
        }
        for message in messages {
            let expected = try Self.reference(message)
            let encoded = try BridgeMessageCodec().encode(message)
            #expect(encoded == expected, "\(String(decoding: encoded, as: UTF8.self)) != \(String(decoding: expected, as: UTF8.self))")
        }
    }

    @Test("What JSON cannot carry is still refused, by the encoder")
    func refusals() {
        for number in [Double.nan, .infinity, -.infinity] {
            #expect(BridgeMessageWriter.json(Self.message(["n": .number(number)])) == nil)
            #expect(throws: (any Error).self) { try BridgeMessageCodec().encode(Self.message(["n": .number(number)])) }
        }
    }
}
