import BridgeCore
import Foundation
import TestSupport
import Testing

/// Hostile or broken input from the journey: nothing crashes, nothing reaches a handler or the
/// delegate, and nothing the host already holds is lost.
/// Pages: Security, "Incoming Message Decoding"; Troubleshooting, "Message Decoding Failures";
/// FAQ, "What is the maximum message size?".
@MainActor
@Suite("Bad input")
struct BadInputTests {
    // Security, "Incoming Message Decoding" (the web content is a less-trusted zone): a message
    // nested 10,000 levels deep is refused with a clear reason, before any recursive decoder runs.
    @Test("10,000 levels of nesting are refused without a crash (Security: Incoming Message Decoding)")
    func deeplyNested() {
        let (host, journey) = makeHost()
        let depth = 10_000
        let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let text =
            #"{"version":"1.0","correlationId":"deep","type":"request","timestamp":1,"payload":{"action":"a","data":{"x":"#
            + nested + "}}}"
        host.receive(text: text)
        let error = host.lastError ?? ""
        #expect(error.hasPrefix("Failed to decode message: invalid JSON at line 1, column "))
        #expect(error.hasSuffix("nesting is deeper than 100 levels"))
        #expect(host.receivedMessages.isEmpty)
        #expect(host.pendingRequests.isEmpty)
        #expect(journey.deliveries.isEmpty)

        // Objects nest the same way.
        let objects = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        host.receive(text: objects)
        #expect(host.lastError?.hasSuffix("nesting is deeper than 100 levels") == true)
    }

    // Security, "Incoming Message Decoding": nesting up to the limit (100 levels in all, the
    // envelope counting as one) still decodes; one more level is refused.
    @Test("Nesting up to the limit decodes, one more is refused (Security: Incoming Message Decoding)")
    func nestingAtTheLimit() {
        // envelope (1) + payload (2) + data (3) + arrays
        func text(arrays: Int) -> String {
            #"{"version":"1.0","correlationId":"n\#(arrays)","type":"event","timestamp":1,"payload":{"action":"a","data":{"x":"#
                + String(repeating: "[", count: arrays) + String(repeating: "]", count: arrays) + "}}}"
        }
        let (host, _) = makeHost()
        host.receive(text: text(arrays: 97))
        #expect(host.lastError == nil)
        #expect(host.receivedMessages.count == 1)
        host.receive(text: text(arrays: 98))
        #expect(host.lastError?.hasSuffix("nesting is deeper than 100 levels") == true)
        #expect(host.receivedMessages.count == 1)
    }

    // FAQ, "What is the maximum message size?": there is no hard limit imposed by GBGBridge.
    // A 10 MB payload decodes, is logged and routed.
    @Test("A 10 MB payload decodes and is routed (FAQ: What is the maximum message size?)")
    func tenMegabytePayload() async {
        let (host, journey) = makeHost()
        let big = String(repeating: "A", count: 10 * 1024 * 1024)
        let counter = Counter()
        host.registerCustomCapability("upload.image") { request, responder in
            let size = request.payload.data?["imageBase64"]?.stringValue?.utf8.count ?? -1
            counter.hit(request.correlationId)
            responder.respond(status: .success, data: ["received": .number(Double(size))])
        }
        host.receive(text: request("upload.image", id: "big-1", data: ["imageBase64": .string(big)]))
        #expect(host.lastError == nil)
        #expect(host.receivedMessages.count == 1)
        #expect(host.receivedMessages.first?.payload.data?["imageBase64"]?.stringValue?.utf8.count == big.utf8.count)
        #expect(await eventually { journey.deliveries.count == 1 })
        #expect(counter.ids == ["big-1"])
        #expect(journey.messages.first?.payload.data?["received"] == .number(Double(big.utf8.count)))
    }

    // Security, "Incoming Message Decoding": malformed messages never reach handlers or the
    // delegate, and are not added to receivedMessages.
    @Test("Malformed input reaches no handler and no delegate (Security: Incoming Message Decoding)")
    func malformedReachesNobody() async {
        let (host, journey) = makeHost()
        let delegate = RecordingDelegate()
        host.delegate = delegate
        let counter = Counter()
        host.registerCustomCapability("device.info") { request, _ in
            counter.hit(request.correlationId)
        }
        host.documentCapture.handler = { request in
            counter.hit(request.correlationId)
            return .cancelled(reason: "test")
        }
        var wrongType = requestObject("device.info", id: "bad-2")
        wrongType["type"] = "Request"
        var noTimestamp = requestObject("camera.document.capture", id: "bad-3")
        noTimestamp.removeValue(forKey: "timestamp")
        let inputs = [
            String(request("device.info", id: "bad-1").dropLast()),
            jsonText(wrongType),
            jsonText(noTimestamp),
            "\u{FEFF}" + request("device.info", id: "bad-4"),
            request("device.info", id: "bad-5") + " trailing",
        ]
        for input in inputs { host.receive(text: input) }
        host.receive(Data([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]))  // {"<0xFF>":1}: invalid UTF-8
        await settle()
        #expect(counter.value == 0)
        #expect(delegate.calls.isEmpty)
        #expect(host.receivedMessages.isEmpty)
        #expect(host.pendingRequests.isEmpty)
        #expect(host.documentCapture.activeRequest == nil)
        #expect(journey.deliveries.isEmpty)
        #expect(host.lastError?.hasPrefix("Failed to decode message: invalid JSON at line 1, column 3: invalid UTF-8") == true)
    }

    // Security, "Incoming Message Decoding": a rejected message changes only lastError. What
    // the host already holds (the message log, pending requests, an active capture) is kept.
    @Test("Malformed input loses nothing already held (Security: Incoming Message Decoding)")
    func malformedLosesNothing() async {
        let (host, journey) = makeHost()
        host.documentCapture.handler = { [weak host] _ in
            await host?.documentCapture.awaitCompletion() ?? .cancelled(reason: "gone")
        }
        host.receive(text: request("unknown.action", id: "p-1"))
        host.receive(text: request("camera.document.capture", id: "cap-1"))
        host.receive(text: message(type: .event, action: "journey.started", id: "e-1"))
        let received = host.receivedMessages
        let pending = host.pendingRequests
        let active = host.documentCapture.activeRequest
        #expect(received.count == 3)
        #expect(pending.map(\.correlationId) == ["p-1"])
        #expect(active?.correlationId == "cap-1")

        for junk in ["{", "[]", "not json", jsonText(requestObject("", id: "x")), String(repeating: "[", count: 50_000)] {
            host.receive(text: junk)
            #expect(host.lastError?.hasPrefix("Failed to decode message: ") == true)
        }
        await settle()
        #expect(host.receivedMessages == received)
        #expect(host.pendingRequests == pending)
        #expect(host.documentCapture.activeRequest == active)
        #expect(journey.deliveries.isEmpty)

        // And the held requests can still be answered.
        host.respond(to: "p-1", status: .unsupported)
        #expect(host.documentCapture.complete(.cancelled(reason: "Dismissed")))
        #expect(journey.messages.map(\.correlationId) == ["p-1", "cap-1"])
    }

    // Troubleshooting, "Message Decoding Failures": after a failure, the next valid message is
    // handled normally (lastError keeps the failure until something replaces or clears it).
    @Test("A valid message after a malformed one is handled (Troubleshooting: Message Decoding Failures)")
    func recoversAfterMalformed() async {
        let (host, journey) = makeHost()
        host.receive(text: "{")
        let failure = host.lastError
        #expect(failure?.hasPrefix("Failed to decode message:") == true)
        host.receive(text: request("capability.query", id: "q-1"))
        #expect(await eventually { journey.deliveries.count == 1 })
        #expect(journey.messages.first?.payload.status == .success)
        #expect(host.lastError == failure)
        host.clearError()
        #expect(host.lastError == nil)
    }
}
