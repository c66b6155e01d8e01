import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import TestSupport
import Testing

/// Every rule of GBG's documented contract with a message that follows it and one that breaks
/// it, in the direction the rule applies to; hostile values make short, printable reasons.
@Suite("GBGBridge contract")
struct GBGBridgeContractTests {
    /// What is checked: a decoded message, or a JSON value that did not decode.
    enum Input: Sendable {
        case message(BridgeMessage, ContractRule.Direction)
        case envelope(JSONValue, ContractRule.Direction)

        var violations: [ContractViolation] {
            switch self {
            case .message(let message, let direction): return GBGBridgeContract.check(message, direction: direction)
            case .envelope(let value, let direction): return GBGBridgeContract.check(envelope: value, direction: direction)
            }
        }
    }

    struct Case: Sendable, CustomStringConvertible {
        var rule: String
        var passing: Input
        var failing: Input
        var description: String { rule }
    }

    static let uuid = "3f2a9c1e-8b7d-4e6f-a5c4-2d1b0e9f8a7c"

    static func message(
        _ type: MessageType, _ action: String, id: String = "req-1", version: String = "1.0", data: [String: JSONValue]? = nil,
        status: BridgeResponseStatus? = nil, error: BridgeErrorPayload? = nil
    ) -> BridgeMessage {
        BridgeMessage(
            version: version, correlationId: id, type: type, timestamp: 1_732_240_000_000,
            payload: .init(action: action, data: data, status: status, error: error))
    }

    static func event(_ action: String, data: [String: JSONValue]? = nil, id: String = "ios-event-\(uuid)") -> BridgeMessage {
        message(.event, action, id: id, data: data)
    }

    /// A valid request envelope as JSON, with `change` applied.
    static func envelope(_ change: (inout [String: JSONValue]) -> Void = { _ in }) -> JSONValue {
        var fields: [String: JSONValue] = [
            "version": .string("1.0"), "correlationId": .string("req-1"), "type": .string("request"),
            "timestamp": .number(1_732_240_000_000), "payload": .object(["action": .string("device.info")]),
        ]
        change(&fields)
        return .object(fields)
    }

    static func response(_ payload: [String: JSONValue]) -> JSONValue {
        envelope {
            $0["type"] = .string("response")
            $0["payload"] = .object(payload)
        }
    }

    static let capability: [String: JSONValue] = [
        "capabilities": .object(["camera.document": .object(["supported": .bool(true), "version": .string("1.0"), "permissionState": .string("granted")])]),
        "environment": .string("ios"), "hostVersion": .string("1.0.0"),
    ]
    static let image: [String: JSONValue] = [
        "imageBase64": .string("iVBORw0KGgo="), "imageWidth": .number(1920), "imageHeight": .number(1080), "mimeType": .string("image/png"),
    ]

    static let cases: [Case] = [
        Case(rule: "envelope.version-string", passing: .envelope(envelope(), .journeyToHost),
             failing: .envelope(envelope { $0["version"] = .number(1) }, .journeyToHost)),
        Case(rule: "envelope.version-value", passing: .message(message(.request, "device.info"), .journeyToHost),
             failing: .message(message(.request, "device.info", version: "2.0"), .journeyToHost)),
        Case(rule: "envelope.correlation-id-string", passing: .envelope(envelope(), .journeyToHost),
             failing: .envelope(envelope { $0["correlationId"] = .string("") }, .journeyToHost)),
        Case(rule: "envelope.type-documented", passing: .envelope(envelope(), .journeyToHost),
             failing: .envelope(envelope { $0["type"] = .string("Request") }, .journeyToHost)),
        Case(rule: "envelope.timestamp-number", passing: .envelope(envelope(), .journeyToHost),
             failing: .envelope(envelope { $0["timestamp"] = .string("1732240000000") }, .journeyToHost)),
        Case(rule: "envelope.payload-action", passing: .envelope(envelope(), .journeyToHost),
             failing: .envelope(envelope { $0["payload"] = .object(["data": .object([:])]) }, .journeyToHost)),
        Case(rule: "envelope.data-object",
             passing: .envelope(envelope { $0["payload"] = .object(["action": .string("a"), "data": .object([:])]) }, .journeyToHost),
             failing: .envelope(envelope { $0["payload"] = .object(["action": .string("a"), "data": .array([.number(1)])]) }, .journeyToHost)),
        Case(rule: "response.status-documented",
             passing: .envelope(response(["action": .string("a"), "status": .string("cancelled")]), .hostToJourney),
             failing: .envelope(response(["action": .string("a"), "status": .string("ok")]), .hostToJourney)),
        Case(rule: "response.status-present", passing: .message(message(.response, "a", status: .success), .hostToJourney),
             failing: .message(message(.response, "a"), .hostToJourney)),
        Case(rule: "response.error-object",
             passing: .envelope(response([
                "action": .string("a"), "status": .string("error"),
                "error": .object(["code": .string("X"), "message": .string("m"), "recoverable": .bool(true)]),
             ]), .hostToJourney),
             failing: .envelope(response([
                "action": .string("a"), "status": .string("error"), "error": .object(["code": .string("X"), "message": .string("m")]),
             ]), .hostToJourney)),
        Case(rule: "error.recoverable-matches-code",
             passing: .message(message(.response, "camera.document.capture", status: .error, error: BridgeErrorCode.busy.payload()), .hostToJourney),
             failing: .message(message(.response, "camera.document.capture", status: .error,
                                       error: BridgeErrorPayload(code: "BUSY", message: "busy", recoverable: false)), .hostToJourney)),
        Case(rule: "event.host-id-form", passing: .message(event("host.foreground"), .hostToJourney),
             failing: .message(event("host.foreground", id: "evt-1"), .hostToJourney)),
        Case(rule: "event.documented-sender", passing: .message(event("host.background"), .hostToJourney),
             failing: .message(event("host.background", id: "web-1"), .journeyToHost)),
        Case(rule: "event.host-ready-data",
             passing: .message(event("host.ready", data: ["timestamp": .number(1), "version": .string("1.0.0")]), .hostToJourney),
             failing: .message(event("host.ready", data: ["timestamp": .number(1)]), .hostToJourney)),
        Case(rule: "event.host-ping-data", passing: .message(event("host.ping", data: ["timestamp": .number(1)]), .hostToJourney),
             failing: .message(event("host.ping"), .hostToJourney)),
        Case(rule: "event.host-orientation-data",
             passing: .message(event("host.orientation", data: ["orientation": .string("portrait")]), .hostToJourney),
             failing: .message(event("host.orientation", data: [:]), .hostToJourney)),
        Case(rule: "event.journey-cancel-data",
             passing: .message(event("journey.cancel", data: ["reason": .string("user")], id: "web-2"), .journeyToHost),
             failing: .message(event("journey.cancel", id: "web-2"), .journeyToHost)),
        Case(rule: "capability-query.answer-shape",
             passing: .message(message(.response, "capability.query", data: capability, status: .success), .hostToJourney),
             failing: .message(message(.response, "capability.query", data: capability.filter { $0.key != "hostVersion" }, status: .success), .hostToJourney)),
        Case(rule: "capability-query.permission-state",
             passing: .message(message(.response, "capability.query", data: capability, status: .success), .hostToJourney),
             failing: .message(message(.response, "capability.query", data: capability.merging([
                "capabilities": .object(["camera.selfie": .object(["supported": .bool(false), "version": .string("1.0"), "permissionState": .string("maybe")])]),
             ]) { $1 }, status: .success), .hostToJourney)),
        Case(rule: "capture.result-shape",
             passing: .message(message(.response, "camera.selfie.capture", data: image, status: .success), .hostToJourney),
             failing: .message(message(.response, "camera.selfie.capture", data: ["mimeType": .string("image/png")], status: .success), .hostToJourney)),
        Case(rule: "capture.result-types",
             passing: .message(message(.response, "camera.document.capture", data: image, status: .success), .hostToJourney),
             failing: .message(message(.response, "camera.document.capture", data: image.merging(["imageWidth": .string("1920")]) { $1 }, status: .success), .hostToJourney)),
    ]

    @Test("the table has a case for every rule of the contract, and no other")
    func everyRuleHasACase() {
        #expect(Self.cases.map(\.rule) == GBGBridgeContract.rules.map(\.id))
        #expect(Set(GBGBridgeContract.rules.map(\.id)).count == GBGBridgeContract.rules.count, "rule ids are unique")
    }

    @Test("each rule: the passing message breaks none, the failing one breaks the rule", arguments: cases)
    func rule(_ testCase: Case) throws {
        #expect(testCase.passing.violations.isEmpty, "\(testCase.passing.violations.map(\.line))")
        let found = testCase.failing.violations
        let violation = try #require(found.first { $0.rule.id == testCase.rule }, "\(found.map(\.line))")
        #expect(violation.page == GBGBridgeContract.rule(id: testCase.rule)?.source)
        #expect(!violation.reason.isEmpty)
    }

    @Test("a rule applies in its directions only: a response from the journey is not judged as the host's")
    func directions() {
        let response = Self.message(.response, "a")
        #expect(GBGBridgeContract.check(response, direction: .journeyToHost).isEmpty)
        #expect(GBGBridgeContract.check(Self.event("host.ping", data: ["timestamp": .number(1)], id: "web-3"), direction: .journeyToHost).map(\.rule.id)
            == ["event.documented-sender"], "a journey event needs no <environment>-event-<uuid> id")
        #expect(GBGBridgeContract.check(Self.event("journey.step", id: "android-event-\(Self.uuid.uppercased())"), direction: .hostToJourney).isEmpty,
            "an event of the host's own, with Android's prefix and an upper-case uuid")
    }

    @Test("the recoverable flag is read from BridgeErrorCode for every code it knows; other codes are open")
    func recoverableFromBridgeCore() {
        for code in BridgeErrorCode.allCases {
            let wrong = BridgeErrorPayload(code: code.rawValue, message: "m", recoverable: !code.isRecoverable)
            let found = GBGBridgeContract.check(Self.message(.response, "a", status: .error, error: wrong), direction: .hostToJourney)
            #expect(found.map(\.rule.id) == ["error.recoverable-matches-code"], "\(code)")
            #expect(found.first?.reason.contains(code.rawValue) == true)
        }
        let own = BridgeErrorPayload(code: "CAMERA_DENIED", message: "m", recoverable: false)
        #expect(GBGBridgeContract.check(Self.message(.response, "a", status: .error, error: own), direction: .hostToJourney).isEmpty)
    }

    /// Whether `text` could reach a terminal as is: one line, no control characters.
    static func isPrintable(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            !(scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) || (0x202A...0x202E).contains(scalar.value))
        }
    }

    @Test("hostile text (control characters, 1 MB strings, deep nesting) makes a short reason that prints safely")
    func hostileText() {
        let escape = "\u{1b}[2J\u{1b}]52;c;aGk=\u{07}\n\r\u{202e}\u{85}"
        let huge = String(repeating: "A", count: 1 << 20)
        var deep = JSONValue.string(escape)
        for _ in 0..<1_000 { deep = .array([deep]) }
        let inputs: [Input] = [
            .message(Self.message(.request, "a", version: escape + huge), .journeyToHost),
            .message(Self.event("host.ping", data: ["timestamp": .number(1)], id: escape + huge), .hostToJourney),
            .message(Self.message(.response, "camera.document.capture", data: Self.image.merging(["imageBase64": deep, "imageWidth": .string(huge)]) { $1 },
                                  status: .success), .hostToJourney),
            .message(Self.message(.response, "capability.query", data: [
                "capabilities": .object([escape + huge: .object(["supported": deep, "permissionState": .string(escape)])]),
                "environment": deep, "hostVersion": .string(huge),
            ], status: .success), .hostToJourney),
            .envelope(Self.envelope { $0["timestamp"] = .string(escape + huge); $0["type"] = deep }, .journeyToHost),
            .envelope(Self.response(["action": .string("a"), "status": .string(huge + escape), "error": deep]), .hostToJourney),
        ]
        for input in inputs {
            let found = input.violations
            #expect(!found.isEmpty)
            for violation in found {
                #expect(violation.reason.count < 400, "\(violation.reason.prefix(200))")
                #expect(Self.isPrintable(violation.line), "\(violation.line.debugDescription.prefix(300))")
            }
        }
    }

    @Test("the contract prints itself: every rule with its source and mark, as text and JSON")
    func printsItself() throws {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(GBGBridgeContract.json().utf8)) as? [String: Any])
        #expect(json["version"] as? String == GBGBridgeContract.version)
        let rules = try #require(json["rules"] as? [[String: Any]])
        #expect(rules.compactMap { $0["id"] as? String } == GBGBridgeContract.rules.map(\.id))
        #expect(rules.allSatisfy { ($0["source"] as? String)?.isEmpty == false && ["documented", "choice"].contains($0["basis"] as? String) })
        #expect(rules.first { $0["id"] as? String == "error.recoverable-matches-code" }?["directions"] as? [String] == ["host-to-journey"])
        let text = GBGBridgeContract.text()
        for rule in GBGBridgeContract.rules {
            #expect(text.contains("\(rule.id)  [\(rule.basis.rawValue)]"))
            #expect(text.contains("source: \(rule.source)"))
        }
    }

    @Test("the marks follow docs/bridge-protocol.md: project choices cite it, documented rules cite a GBG page")
    func basisFollowsTheProtocolDoc() {
        for rule in GBGBridgeContract.rules {
            #expect((rule.basis == .choice) == rule.source.hasPrefix("docs/bridge-protocol.md"), "\(rule.id): \(rule.source)")
        }
    }
}
