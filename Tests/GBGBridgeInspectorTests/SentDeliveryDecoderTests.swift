import BridgeCore
import Foundation
import GBGBridgeInspector
import Testing

/// Every shape a GBGBridge build could plausibly deliver to `window.GBGBridge.receive`, read into
/// one message (issue 23, point 3). GBG documents neither its response envelope nor the exact
/// `receive(...)` call (gbgbridge-facts.md, "Not documented anywhere we could read"); what it does
/// document is pinned in each test's comment.
@Suite("Reading what the page script reports the host sent")
struct SentDeliveryDecoderTests {
    /// The requests the host has seen: `r1` asked for `device.info`.
    static func action(of id: String) -> String? { id == "r1" ? "device.info" : nil }

    static func decode(_ text: String) -> Result<SentDeliveryDecoder.Delivery, SentDeliveryDecoder.Unreadable> {
        SentDeliveryDecoder.decode(Data(text.utf8), actionOfRequest: action(of:))
    }

    static let canonical =
        #"{"version":"1.0","correlationId":"r1","type":"response","timestamp":1732400000000,"payload":{"action":"device.info","status":"success","data":{"n":1}}}"#

    // Troubleshooting page, "Message Decoding Failures": "Every message must have: version,
    // correlationId, type, timestamp, and payload (with at least action)" — the documented shape.
    @Test("a message as an object is read as it stands, its bytes kept exactly and nothing else recorded")
    func object() throws {
        let delivery = try Self.decode(Self.canonical).get()
        #expect(delivery.message.payload.action == "device.info")
        #expect(delivery.message.payload.status == .success)
        #expect(delivery.json == Data(Self.canonical.utf8))
        #expect(delivery.reported == nil)
        #expect(delivery.notes.isEmpty)
    }

    // gbgbridge-facts.md, "Messages": delivery is `evaluateJavaScript` calling
    // `window.GBGBridge.receive(...)`; whether with an object or a JSON string is not documented.
    @Test("a message passed as a JSON string (receive('{…}')) is read from the string's text; the reported literal is kept")
    func jsonString() throws {
        let literal = String(decoding: try JSONEncoder().encode(Self.canonical), as: UTF8.self)
        #expect(literal.hasPrefix("\"{\\\""))
        let delivery = try Self.decode(literal).get()
        #expect(delivery.message.correlationId == "r1")
        #expect(delivery.message.payload.data?["n"] == .number(1))
        #expect(delivery.json == Data(Self.canonical.utf8), "the inner text, as it stands")
        #expect(delivery.reported == Data(literal.utf8), "the exact text the page reported")
        #expect(delivery.notes == ["passed to receive as a JSON string"])
    }

    // gbgbridge-facts.md, "Not documented anywhere we could read": "The literal JSON of a
    // response envelope (where status and error sit)".
    @Test("status and error at the top level of the message are read as the payload's")
    func topLevelStatusAndError() throws {
        let text = #"{"version":"1.0","correlationId":"r1","type":"response","timestamp":1,"status":"error","error":{"code":"BUSY","message":"Another native operation is in progress","recoverable":true},"payload":{"action":"device.info"}}"#
        let delivery = try Self.decode(text).get()
        #expect(delivery.message.payload.status == .error)
        #expect(delivery.message.payload.error == BridgeErrorPayload(code: "BUSY", message: "Another native operation is in progress", recoverable: true))
        #expect(delivery.reported == Data(text.utf8))
        #expect(delivery.notes == ["status at the top level of the message", "error at the top level of the message"])
        // The message as read is one BridgeCore reads back the same.
        #expect(try BridgeMessageCodec().decode(delivery.json).get() == delivery.message)

        // A value in the payload wins over one at the top level.
        let both = #"{"version":"1.0","correlationId":"r1","type":"response","timestamp":1,"status":"error","payload":{"action":"a","status":"success"}}"#
        #expect(try Self.decode(both).get().message.payload.status == .success)
    }

    @Test("a response without payload.action takes its request's action, found by correlation id; with no request known, a placeholder that says so")
    func responseWithoutAction() throws {
        let threaded = try Self.decode(#"{"version":"1.0","correlationId":"r1","type":"response","timestamp":1,"payload":{"status":"success"}}"#).get()
        #expect(threaded.message.payload.action == "device.info")
        #expect(threaded.notes == ["no action: the action of request r1"])

        let noPayload = try Self.decode(#"{"version":"1.0","correlationId":"r1","type":"response","timestamp":1,"status":"cancelled"}"#).get()
        #expect(noPayload.message.payload.action == "device.info")
        #expect(noPayload.message.payload.status == .cancelled)

        let unknown = try Self.decode(#"{"version":"1.0","correlationId":"zz","type":"response","timestamp":1,"payload":{"action":"","status":"success"}}"#).get()
        #expect(unknown.message.payload.action == SentDeliveryDecoder.unknownAction)
        #expect(unknown.message.payload.action.contains("request not seen"))

        // An event names its action itself: without one it is not read (BridgeCore's sentence).
        #expect(Self.reason(#"{"version":"1.0","correlationId":"e","type":"event","timestamp":1,"payload":{}}"#) == "missing required field 'payload.action'")
    }

    // gbgbridge-facts.md, "Messages": `timestamp` is documented as ms since epoch, a number; a
    // build could send a Date encoded as ISO 8601.
    @Test("an ISO 8601 timestamp, with or without fractional seconds or an offset, is read as milliseconds since 1970")
    func isoTimestamp() throws {
        for (text, expected) in [
            ("2024-11-23T22:13:20Z", 1_732_400_000_000.0), ("2024-11-23T22:13:20.250Z", 1_732_400_000_250),
            ("2024-11-24T00:13:20.5+02:00", 1_732_400_000_500),
        ] {
            let delivery = try Self.decode(#"{"version":"1.0","correlationId":"e1","type":"event","timestamp":"\#(text)","payload":{"action":"host.ping"}}"#).get()
            #expect(delivery.message.timestamp == expected, "\(text)")
            #expect(delivery.notes.count == 1)
        }
        #expect(Self.reason(#"{"version":"1.0","correlationId":"e1","type":"event","timestamp":"yesterday","payload":{"action":"a"}}"#)?.contains("ISO 8601") == true)
    }

    @Test("what no build would send is refused with the reason, never trapped on", arguments: [
        ("", "invalid JSON"), ("{", "invalid JSON"), ("null", "a message must be a JSON object"), ("[]", "a message must be a JSON object"),
        ("\"not json\"", "a JSON string whose text is not JSON"), ("\"[1]\"", "not a JSON object"),
        (#"{"version":"1.0","type":"response","timestamp":1,"payload":{"action":"a"}}"#, "missing required field 'correlationId'"),
        (#"{"version":"1.0","correlationId":"c","type":"answer","timestamp":1,"payload":{"action":"a"}}"#, "field 'type' must be one of"),
    ])
    func unreadable(_ text: String, _ expected: String) {
        #expect(Self.reason(text)?.contains(expected) == true, "\(text): \(Self.reason(text) ?? "read")")
    }

    @Test("deep nesting is refused at BridgeCore's depth bound")
    func deepNesting() {
        let deep = String(repeating: "[", count: 100_000)
        #expect(Self.reason(deep)?.contains("invalid JSON") == true)
        #expect(Self.reason("\"" + deep + "\"")?.contains("invalid JSON") == true)
    }

    static func reason(_ text: String) -> String? {
        if case .failure(let problem) = decode(text) { return problem.reason }
        return nil
    }
}
