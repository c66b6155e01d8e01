import BridgeCore
import Foundation
import InspectorClient
import Testing

/// Issue 27, trap 4 (c): what a scripting command sent, in one line a person reads on a terminal
/// instead of the message's JSON (whose Base64 image alone was 1.2 MB).
@Suite("SentMessageSummary")
struct SentMessageSummaryTests {
    static func response(_ status: BridgeResponseStatus, data: [String: JSONValue]? = nil, error: BridgeErrorPayload? = nil) -> BridgeMessage {
        BridgeMessage(
            correlationId: "doc-1", type: .response, timestamp: 0,
            payload: .init(action: "camera.document.capture", data: data, status: status, error: error))
    }

    @Test("a slot completed with an image: status, type, size and weight, never the bytes")
    func image() {
        let bytes = Data(repeating: 7, count: 18_637)
        let capture = CaptureResult.document(DocumentCaptureResult(imageData: bytes, width: 640, height: 480, mimeType: "image/png"))
        let message = Self.response(.success, data: capture.response.data)
        let line = SentMessageSummary.line(message, lead: "completed document slot doc-1")
        #expect(line == "completed document slot doc-1: success, image/png 640×480 18.2 KB → journey")
        #expect(line.count < 80)
    }

    @Test("an error names its code and message; a cancellation its reason; other data its keys")
    func otherOutcomes() {
        let error = Self.response(.error, error: BridgeErrorPayload(code: "PERMISSION_DENIED", message: "Camera access denied", recoverable: true))
        #expect(SentMessageSummary.outcome(of: error) == "error PERMISSION_DENIED: Camera access denied")
        let cancelled = CaptureResult.cancelled(reason: "User closed the camera").response
        #expect(SentMessageSummary.outcome(of: Self.response(cancelled.status, error: cancelled.error)) == "cancelled: User closed the camera")
        let data = Self.response(.success, data: ["uid": "04A2", "b": 1, "c": 2, "d": 3, "e": 4])
        #expect(SentMessageSummary.outcome(of: data) == "success, data {b, c, d, e, …}")
        let event = BridgeMessage(correlationId: "ios-event-1", type: .event, timestamp: 0, payload: .init(action: "host.ping"))
        #expect(SentMessageSummary.line(event, lead: "sent " + SentMessageSummary.lead(event)) == "sent event host.ping: no data → journey")
        let injected = BridgeMessage(correlationId: "inspector-1", type: .request, timestamp: 0, payload: .init(action: "device.info"))
        #expect(SentMessageSummary.line(injected, lead: "injected " + SentMessageSummary.lead(injected), direction: .received)
            == "injected request device.info (id inspector-1): no data → host")
    }

    @Test("long values are cut, so the line stays one line")
    func longValues() {
        let long = String(repeating: "x", count: 500)
        let error = Self.response(.error, error: BridgeErrorPayload(code: long, message: long, recoverable: false))
        #expect(SentMessageSummary.outcome(of: error).count < 2 * SentMessageSummary.maxValueLength + 20)
    }
}
