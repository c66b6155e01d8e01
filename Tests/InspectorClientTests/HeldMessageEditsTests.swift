import BridgeCore
import Foundation
import InspectorClient
import Testing

/// Building the messages `release --data`, `replay` and `inject` send (issue 15).
@Suite("Held message edits, replays and injected ids")
struct HeldMessageEditsTests {
    let request = BridgeMessage(
        correlationId: "web-7", type: .request, timestamp: 1000, payload: .init(action: "device.info", data: ["a": .number(1)]))
    let failure = BridgeMessage(
        correlationId: "web-8", type: .response, timestamp: 1000,
        payload: .init(action: "nfc.read", status: .error, error: BridgeErrorPayload(code: "BUSY", message: "Busy", recoverable: true)))

    @Test("an edit replaces the data and keeps the correlation id, type, action and timestamp")
    func editKeepsIdentity() throws {
        let edited = try request.applying(.init(data: ["b": .string("x")])).get()
        #expect(edited.payload.data == ["b": .string("x")])
        #expect(edited.correlationId == "web-7" && edited.type == .request && edited.payload.action == "device.info" && edited.timestamp == 1000)
        #expect(try request.applying(.init()).get() == request)
    }

    @Test("a response's status and error change together; a success drops the error; disagreements and statuses on requests are refused")
    func responseEdits() throws {
        let success = try failure.applying(.init(status: .success)).get()
        #expect(success.payload.status == .success && success.payload.error == nil)
        let other = BridgeErrorPayload(code: "TIMEOUT", message: "Too slow", recoverable: true)
        #expect(try failure.applying(.init(error: other)).get().payload.error == other)
        #expect(try failure.applying(.init(status: .cancelled)).get().payload.error?.code == "BUSY", "the held error stays")
        let ok = BridgeMessage(correlationId: "r", type: .response, payload: .init(action: "a", status: .success))
        #expect(ok.applying(.init(status: .error)) == .failure(.statusError(.errorWithoutCode)))
        #expect(ok.applying(.init(error: other)) == .failure(.statusError(.successWithError)))
        #expect(request.applying(.init(status: .success)) == .failure(.notAResponse(.request)))
    }

    @Test("a success turned into a failure loses its data unless new data is given")
    func failureDropsSuccessData() throws {
        let answer = BridgeMessage(
            correlationId: "cap-1", type: .response, timestamp: 1000,
            payload: .init(action: "camera.document.capture", data: ["imageBase64": .string("iVBOR")], status: .success))
        let denied = BridgeErrorPayload(code: "CAMERA_DENIED", message: "denied", recoverable: false)
        let failed = try answer.applying(.init(status: .error, error: denied)).get()
        #expect(failed.payload.data == nil)
        #expect(failed.payload.error == denied)
        let withData = try answer.applying(.init(data: ["why": .string("x")], status: .error, error: denied)).get()
        #expect(withData.payload.data == ["why": .string("x")])
        // A failure's own data (rare, but the host sent it) stays when only its error changes.
        let kept = try answer.applying(.init(status: .error, error: denied)).flatMap { $0.applying(.init(status: .cancelled)) }.get()
        #expect(kept.payload.error == denied)
    }

    @Test("a replay gets <id>-replay-<4 hex> and a new timestamp unless it keeps the id; injected ids are inspector-<uuid>")
    func replayAndInjectedIds() {
        let now = Date(timeIntervalSince1970: 2000)
        let replay = request.replayed(now: now)
        #expect(replay.correlationId.hasPrefix("web-7-replay-"))
        #expect(replay.correlationId.count == "web-7-replay-".count + 4)
        #expect(replay.correlationId.dropFirst("web-7-replay-".count).allSatisfy { $0.isHexDigit })
        #expect(replay.timestamp == 2_000_000)
        #expect(replay.payload == request.payload && replay.type == request.type)
        #expect(request.replayed(keepingId: true, now: now).correlationId == "web-7")
        let injected = BridgeMessage.injectedCorrelationId()
        #expect(injected.hasPrefix("inspector-") && injected.count == "inspector-".count + 36)
        #expect(injected != BridgeMessage.injectedCorrelationId())
    }
}
