import BridgeCore
import Foundation
import TestSupport
import Testing

/// Keeps docs/bridge-protocol.md true: every block in it marked `<!-- golden:NAME -->` must be
/// exactly what the library produces for that example today. When the library changes on purpose,
/// the failure message shows the new text to paste into the doc.
@MainActor
@Suite("Protocol document")
struct ProtocolDocTests {
    static let docURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/bridge-protocol.md")

    /// The `<!-- golden:NAME -->` blocks of the document, by name.
    static func goldenBlocks(in text: String) -> [String: String] {
        var blocks: [String: String] = [:]
        let lines = text.components(separatedBy: "\n")
        var index = 0
        while index < lines.count {
            let line = lines[index].trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("<!-- golden:"), line.hasSuffix("-->") {
                let name = line.dropFirst("<!-- golden:".count).dropLast("-->".count).trimmingCharacters(in: .whitespaces)
                var body: [String] = []
                var cursor = index + 1
                if cursor < lines.count, lines[cursor].hasPrefix("```") {
                    cursor += 1
                    while cursor < lines.count, !lines[cursor].hasPrefix("```") {
                        body.append(lines[cursor])
                        cursor += 1
                    }
                }
                blocks[name] = body.joined(separator: "\n")
                index = cursor
            }
            index += 1
        }
        return blocks
    }

    // The examples in the protocol document come from GBG's pages (Troubleshooting: Message
    // Decoding Failures; Two-Way Communication; FAQ: How does the web journey know what
    // capabilities are available?; Security: Bootstrap Script Injection) and this project's choices.
    @Test("docs/bridge-protocol.md shows exactly what the library produces (Two-Way Communication; Troubleshooting: Message Decoding Failures)")
    func documentMatchesLibrary() async throws {
        let text = try String(contentsOf: Self.docURL, encoding: .utf8)
        let documented = Self.goldenBlocks(in: text)
        let produced = try await ProtocolExamples.all()
        #expect(produced.count == 14)
        for (name, expected) in produced {
            guard let block = documented[name] else {
                Issue.record("docs/bridge-protocol.md has no block <!-- golden:\(name) -->; it should be:\n\(expected)")
                continue
            }
            #expect(block == expected, "golden:\(name) is out of date; it should be:\n\(expected)")
        }
        let stale = Set(documented.keys).subtracting(produced.map(\.0))
        #expect(stale.isEmpty, "golden blocks the library no longer produces: \(stale.sorted())")
    }

    // FAQ, "How does the web journey know what capabilities are available?" and Troubleshooting,
    // "Message Decoding Failures": every JSON example in the document is a valid bridge message.
    @Test("Every JSON example in the document decodes as a message (Troubleshooting: Message Decoding Failures)")
    func jsonExamplesDecode() async throws {
        let produced = try await ProtocolExamples.all()
        let json = produced.filter { !["delivery-script", "bootstrap-script", "last-errors"].contains($0.0) }
        #expect(json.count == 11)
        for (name, text) in json {
            let result = BridgeMessageCodec().decode(Data(text.utf8))
            #expect((try? result.get()) != nil, "\(name): \(text)")
        }
    }
}

/// Produces every example shown in docs/bridge-protocol.md by running the library.
@MainActor
enum ProtocolExamples {
    /// The clock of the documentation's host: 250 ms after the requests' timestamp.
    nonisolated static let hostClock = Date(timeIntervalSince1970: 1_732_240_000.25)
    /// Event ids hold a random UUID; the document shows this one.
    static let documentedEventId = "ios-event-3f2a9c1e-8b7d-4e6f-a5c4-2d1b0e9f8a7c"

    static func compact(_ data: Data) -> String {
        let text = String(decoding: data, as: UTF8.self)
        return text.replacing(try! Regex("ios-event-[0-9a-f-]{36}"), with: documentedEventId)
    }

    static func all() async throws -> [(String, String)] {
        var examples: [(String, String)] = []
        let host = BridgeHost(hostVersion: "1.0.0")
        host.now = { hostClock }
        let journey = RecordingJourneyTransport()
        host.attach(journey)

        func lastSent() -> String { compact(journey.deliveries.last!.json) }
        func waitForDelivery(_ count: Int) async throws {
            guard await eventually({ journey.deliveries.count >= count }) else {
                throw ExampleFailure(description: "no response #\(count)")
            }
        }

        // A request from the journey.
        let captureRequest = request("camera.document.capture", id: "req-42", data: ["side": "front"])
        examples.append(("request", captureRequest))

        // capability.query and its answer.
        host.documentCapture.permissionState = .granted
        host.documentCapture.handler = { [weak host] _ in
            await host?.documentCapture.awaitCompletion() ?? .cancelled(reason: "Host deallocated")
        }
        host.registerCustomCapability("device.info", version: "1.0") { _, responder in
            responder.respond(status: .success, data: ["model": "iPhone", "systemName": "iOS", "systemVersion": "17.5"])
        }
        host.registerCustomCapability("nfc.read", version: "1.0") { request, responder in
            guard request.payload.data?["tag"]?.stringValue != nil else {
                responder.respond(
                    status: .error,
                    error: BridgeErrorPayload(code: "INVALID_PARAMS", message: "Missing 'tag' parameter.", recoverable: true))
                return
            }
            responder.respond(
                status: .cancelled,
                error: BridgeErrorPayload(code: "CANCELLED", message: "The user closed the NFC sheet", recoverable: true))
        }
        let query = request("capability.query", id: "req-1")
        examples.append(("capability-query-request", query))
        host.receive(text: query)
        try await waitForDelivery(1)
        examples.append(("capability-query-response", lastSent()))

        // success, error, cancelled, unsupported.
        host.receive(text: request("device.info", id: "req-2"))
        try await waitForDelivery(2)
        examples.append(("response-success", lastSent()))
        host.receive(text: request("nfc.read", id: "req-3", data: [:]))
        try await waitForDelivery(3)
        examples.append(("response-error", lastSent()))
        host.receive(text: request("nfc.read", id: "req-4", data: ["tag": "passport"]))
        try await waitForDelivery(4)
        examples.append(("response-cancelled", lastSent()))
        host.receive(text: request("biometric.scan", id: "req-5"))
        host.respond(
            to: "req-5", status: .unsupported,
            error: BridgeErrorPayload(code: "UNSUPPORTED", message: "Action 'biometric.scan' is not supported", recoverable: false))
        examples.append(("response-unsupported", lastSent()))

        // An event from the host.
        host.send(event: "host.ready", data: ["timestamp": .number(1_732_240_000_250), "version": "1.0.0"])
        examples.append(("event", lastSent()))

        // Captures: BUSY, success, cancelled.
        host.receive(text: captureRequest)
        #expect(await eventually { host.documentCapture.activeRequest != nil })
        host.receive(text: request("camera.document.capture", id: "req-43", data: ["side": "back"]))
        examples.append(("busy", lastSent()))
        let image = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0xFF, 0xD9])
        host.documentCapture.complete(.document(DocumentCaptureResult(imageData: image, width: 1920, height: 1080, mimeType: "image/jpeg")))
        examples.append(("capture-success", lastSent()))
        host.receive(text: request("camera.document.capture", id: "req-44", data: ["side": "front"]))
        #expect(await eventually { host.documentCapture.activeRequest != nil })
        host.documentCapture.complete(.cancelled(reason: "Dismissed"))
        examples.append(("capture-cancelled", lastSent()))

        // The delivery script, with characters that need escaping.
        host.send(event: "host.note", data: ["text": "</script><!-- \u{2028} \"quoted\" \\ é"])
        examples.append(("delivery-script", journey.deliveries.last!.javaScript.replacing(try Regex("ios-event-[0-9a-f-]{36}"), with: documentedEventId)))

        // The bootstrap script.
        examples.append(("bootstrap-script", BridgeConfiguration.defaultBootstrapScript))

        // lastError texts.
        examples.append(("last-errors", lastErrors()))
        return examples
    }

    /// One line per lastError the host produces, each made by running the host.
    static func lastErrors() -> String {
        var lines: [String] = []
        func fresh() -> (BridgeHost, RecordingJourneyTransport) {
            let host = BridgeHost(hostVersion: "1.0.0")
            host.now = { hostClock }
            let journey = RecordingJourneyTransport()
            host.attach(journey)
            return (host, journey)
        }
        func record(_ body: (BridgeHost) -> Void) {
            let (host, journey) = fresh()
            body(host)
            withExtendedLifetime(journey) { lines.append(host.lastError ?? "(none)") }
        }
        record { host in
            var object = requestObject()
            object.removeValue(forKey: "correlationId")
            host.receive(text: jsonText(object))
        }
        record { host in
            var object = requestObject()
            object["timestamp"] = "1732240000000"
            host.receive(text: jsonText(object))
        }
        record { host in
            var object = requestObject()
            object["type"] = "Request"
            host.receive(text: jsonText(object))
        }
        record { host in host.receive(text: #"{"version": "1.0", "correlationId": "req-1", "type" "request"}"#) }
        record { host in
            host.receive(text: String(repeating: "[", count: 200) + String(repeating: "]", count: 200))
        }
        record { host in
            host.receive(text: request("nfc.read", id: "req-7"))
            host.receive(text: request("nfc.read", id: "req-7"))
        }
        record { host in host.receive(text: message(type: .response, action: "host.ping", id: "resp-1", status: .success)) }
        record { host in
            host.receive(text: request("nfc.read", id: "req-8"))
            host.respond(to: "req-8", status: .success)
            host.respond(to: "req-8", status: .success)
        }
        record { host in host.respond(to: "req-9", status: .success) }
        record { host in
            for index in 0...50 { host.receive(text: request("nfc.read", id: "req-\(index)")) }
        }
        do {
            let host = BridgeHost(hostVersion: "1.0.0")
            host.send(event: "host.ping")
            lines.append(host.lastError ?? "(none)")
            let transport = RecordingJourneyTransport()
            transport.failure = TransportBroken()
            host.attach(transport)
            host.send(event: "host.ping")
            lines.append(host.lastError ?? "(none)")
        }
        return lines.map { $0.replacing(try! Regex("ios-event-[0-9a-f-]{36}"), with: documentedEventId) }.joined(separator: "\n")
    }

    struct ExampleFailure: Error, CustomStringConvertible {
        var description: String
    }
}
