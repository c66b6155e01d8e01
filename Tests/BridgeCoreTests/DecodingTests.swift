import BridgeCore
import Foundation
import Testing

/// Decoding and validation of what the journey sends.
/// Pages: Troubleshooting, "Message Decoding Failures"; Security, "Incoming Message Decoding".
@MainActor
@Suite("Decoding and validation")
struct DecodingTests {
    // Troubleshooting, "Message Decoding Failures": the documented valid message decodes.
    @Test("The documented example message decodes (Troubleshooting: Message Decoding Failures)")
    func documentedExampleDecodes() throws {
        let text = """
            {
              "version": "1.0",
              "correlationId": "unique-id",
              "type": "request",
              "timestamp": 1732240000000,
              "payload": {
                "action": "camera.capture",
                "data": {}
              }
            }
            """
        let message = try BridgeMessageCodec().decode(Data(text.utf8)).get()
        #expect(message.version == "1.0")
        #expect(message.correlationId == "unique-id")
        #expect(message.type == .request)
        #expect(message.timestamp == 1_732_240_000_000)
        #expect(message.payload.action == "camera.capture")
        #expect(message.payload.data == [:])
        #expect(message.payload.status == nil)
        #expect(message.payload.error == nil)
    }

    // Troubleshooting, "Message Decoding Failures", cause 2: every message must have version,
    // correlationId, type, timestamp and payload.
    @Test(
        "Each missing required field is named in lastError (Troubleshooting: Message Decoding Failures)",
        arguments: ["version", "correlationId", "type", "timestamp", "payload"])
    func missingRequiredField(_ field: String) {
        let (host, journey) = makeHost()
        var object = requestObject()
        object.removeValue(forKey: field)
        host.receive(text: jsonText(object))
        #expect(host.lastError == "Failed to decode message: missing required field '\(field)'")
        #expect(host.receivedMessages.isEmpty)
        #expect(host.pendingRequests.isEmpty)
        #expect(journey.deliveries.isEmpty)
    }

    // Troubleshooting, "Message Decoding Failures", cause 2: payload must have at least action.
    @Test("A payload without action is refused (Troubleshooting: Message Decoding Failures)")
    func missingAction() {
        let (host, _) = makeHost()
        var object = requestObject()
        object["payload"] = ["data": [String: Any]()]
        host.receive(text: jsonText(object))
        #expect(host.lastError == "Failed to decode message: missing required field 'payload.action'")
        #expect(host.receivedMessages.isEmpty)
    }

    // Troubleshooting, "Message Decoding Failures"; this project refuses an empty action, which
    // no handler could ever match.
    @Test("An empty action is refused (Troubleshooting: Message Decoding Failures)")
    func emptyAction() {
        let (host, _) = makeHost()
        host.receive(text: jsonText(requestObject("")))
        #expect(host.lastError == "Failed to decode message: field 'payload.action' must not be empty")
        #expect(host.receivedMessages.isEmpty)
    }

    // Troubleshooting, "Message Decoding Failures", cause 3: wrong type for the type field.
    @Test("A type field that is not a string is refused (Troubleshooting: Message Decoding Failures)")
    func typeNotAString() {
        let (host, _) = makeHost()
        var object = requestObject()
        object["type"] = 1
        host.receive(text: jsonText(object))
        #expect(host.lastError == "Failed to decode message: field 'type' must be a string")
    }

    // Troubleshooting, "Message Decoding Failures", cause 3: type must be one of "request",
    // "response", "event"; the error names them.
    @Test(
        "An unknown type value names the allowed values (Troubleshooting: Message Decoding Failures)",
        arguments: ["req", "Request", "REQUEST", "notification", ""])
    func unknownTypeValue(_ value: String) {
        let (host, _) = makeHost()
        var object = requestObject()
        object["type"] = value
        host.receive(text: jsonText(object))
        #expect(
            host.lastError
                == "Failed to decode message: field 'type' must be one of \"request\", \"response\", \"event\" (got \"\(value)\")"
        )
        #expect(host.receivedMessages.isEmpty)
    }

    // Troubleshooting, "Message Decoding Failures": timestamp is a number (Date.now()).
    @Test("A timestamp sent as a string is refused (Troubleshooting: Message Decoding Failures)")
    func timestampAsString() {
        let (host, _) = makeHost()
        var object = requestObject()
        object["timestamp"] = "1732240000000"
        host.receive(text: jsonText(object))
        #expect(host.lastError == "Failed to decode message: field 'timestamp' must be a number")
    }

    // Troubleshooting, "Message Decoding Failures", cause 1: malformed JSON.
    @Test("Other wrong field types are named (Troubleshooting: Message Decoding Failures)")
    func otherWrongTypes() {
        let cases: [(String, Any, String)] = [
            ("version", 1, "field 'version' must be a string"),
            ("correlationId", 42, "field 'correlationId' must be a string"),
            ("payload", "camera.capture", "field 'payload' must be an object"),
            ("version", NSNull(), "field 'version' must be a string, not null"),
        ]
        for (field, value, reason) in cases {
            let (host, _) = makeHost()
            var object = requestObject()
            object[field] = value
            host.receive(text: jsonText(object))
            #expect(host.lastError == "Failed to decode message: \(reason)", "field \(field)")
        }
        let (host, _) = makeHost()
        var object = requestObject()
        object["payload"] = ["action": "x", "data": [1, 2]] as [String: Any]
        host.receive(text: jsonText(object))
        #expect(host.lastError == "Failed to decode message: field 'payload.data' must be an object")
    }

    // Troubleshooting, "Message Decoding Failures", cause 1: not JSON at all.
    @Test(
        "Text that is not JSON is refused with where it goes wrong (Troubleshooting: Message Decoding Failures)",
        arguments: [
            ("hello", "Failed to decode message: invalid JSON at line 1, column 1: expected a value, found 'h'"),
            ("", "Failed to decode message: invalid JSON at line 1, column 1: the text is empty; expected a JSON value"),
            ("{'version': '1.0'}", "Failed to decode message: invalid JSON at line 1, column 2: expected '\"' to start an object key, found '''"),
        ])
    func notJSON(_ input: String, _ expected: String) {
        let (host, _) = makeHost()
        host.receive(text: input)
        #expect(host.lastError == expected)
    }

    // Troubleshooting, "Message Decoding Failures", cause 1: truncated JSON says line and column.
    @Test("Truncated JSON says line and column (Troubleshooting: Message Decoding Failures)")
    func truncatedJSON() {
        let (host, _) = makeHost()
        let full = """
            {
              "version": "1.0",
              "correlationId": "req-1",
              "type": "request",
              "timestamp": 1732240000000,
              "payload": {"action": "device.info"
            """
        host.receive(text: full)
        #expect(
            host.lastError
                == "Failed to decode message: invalid JSON at line 6, column 38: unexpected end of text inside an object; expected ',' or '}'"
        )
        let (other, _) = makeHost()
        other.receive(text: #"{"version": "1.0", "correlationId": "req-"#)
        #expect(other.lastError == "Failed to decode message: invalid JSON at line 1, column 37: unterminated string (no closing '\"')")
    }

    // Troubleshooting, "Message Decoding Failures": a top-level value that is not an object.
    @Test("A JSON value that is not an object is refused (Troubleshooting: Message Decoding Failures)")
    func notAnObject() {
        for text in ["[]", "null", "42", "\"request\""] {
            let (host, _) = makeHost()
            host.receive(text: text)
            let error = host.lastError ?? ""
            #expect(error.hasPrefix("Failed to decode message: "), "\(text)")
            #expect(error.contains("object") || error.contains("(message)"), "\(text): \(error)")
            #expect(host.receivedMessages.isEmpty)
        }
    }

    // Troubleshooting, "Message Decoding Failures": the status of a response must be a known one.
    @Test("An unknown response status is refused (Troubleshooting: Message Decoding Failures)")
    func unknownStatus() {
        let (host, _) = makeHost()
        var object = requestObject()
        object["type"] = "response"
        object["payload"] = ["action": "x", "status": "ok"]
        host.receive(text: jsonText(object))
        #expect(
            host.lastError
                == "Failed to decode message: field 'payload.status' must be one of \"success\", \"error\", \"cancelled\", \"unsupported\" (got \"ok\")"
        )
    }

    // Troubleshooting, "Message Decoding Failures": data may hold any JSON, and its values keep
    // their kinds (true stays a boolean, 1 stays a number).
    @Test("Data values keep their JSON kinds (Troubleshooting: Message Decoding Failures)")
    func dataKinds() throws {
        let text = """
            {"version":"1.0","correlationId":"k","type":"event","timestamp":1,
             "payload":{"action":"a","data":{"t":true,"f":false,"one":1,"zero":0,"half":0.5,"s":"x","n":null,"a":[1,"b",[]],"o":{"p":{}}}}}
            """
        let message = try BridgeMessageCodec().decode(Data(text.utf8)).get()
        let data = try #require(message.payload.data)
        #expect(data["t"] == .bool(true))
        #expect(data["f"] == .bool(false))
        #expect(data["one"] == .number(1))
        #expect(data["zero"] == .number(0))
        #expect(data["half"] == .number(0.5))
        #expect(data["s"] == .string("x"))
        #expect(data["n"] == .null)
        #expect(data["a"] == .array([.number(1), .string("b"), .array([])]))
        #expect(data["o"] == .object(["p": .object([:])]))
        // And they survive an encode/decode round trip unchanged.
        let again = try BridgeMessageCodec().decode(try BridgeMessageCodec().encode(message)).get()
        #expect(again == message)
    }

    // Security, "Incoming Message Decoding": messages that do not conform are rejected and
    // lastError is set; an empty correlationId could never be answered, so it is refused too.
    @Test("Empty version or correlationId is refused (Security: Incoming Message Decoding)")
    func emptyIdentifiers() {
        let (host, _) = makeHost()
        host.receive(text: jsonText(requestObject(id: "")))
        #expect(host.lastError == "Failed to decode message: field 'correlationId' must not be empty")
        var object = requestObject()
        object["version"] = ""
        host.receive(text: jsonText(object))
        #expect(host.lastError == "Failed to decode message: field 'version' must not be empty")
        #expect(host.receivedMessages.isEmpty)
    }

    // Security, "Incoming Message Decoding": unknown extra fields are not an error (forward
    // compatibility); the message decodes and is routed.
    @Test("Unknown extra fields are ignored (Security: Incoming Message Decoding)")
    func extraFieldsIgnored() {
        let (host, _) = makeHost()
        var object = requestObject("some.action", id: "extra-1")
        object["traceId"] = "abc"
        object["payload"] = ["action": "some.action", "hint": 3] as [String: Any]
        host.receive(text: jsonText(object))
        #expect(host.lastError == nil)
        #expect(host.receivedMessages.map(\.correlationId) == ["extra-1"])
        #expect(host.pendingRequests.map(\.correlationId) == ["extra-1"])
    }
}
