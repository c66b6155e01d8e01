import BridgeCore
import InspectorProtocol

/// Checks each message as it enters an inspector's log against the rules of GBGBridge's
/// troubleshooting page (``LintRule``), from what the inspector has seen so far: the slots, the
/// custom capabilities, the host's last `capability.query` answer and the actions it answered.
///
/// ``LiveState`` owns one and marks its rows with what it finds; use it directly to lint
/// messages from elsewhere:
///
/// ```swift
/// var linter = ProtocolLinter()
/// if let mark = linter.mark(traffic, slots: state.slots, reusesOpenId: false) { print(mark.reason) }
/// ```
///
/// Rules that need to know whether anyone handled a request (a near-miss action) are decided
/// when the request turns out to be pending: ``nearMiss(for:slots:capabilities:)``.
public struct ProtocolLinter: Sendable {
    /// Messages larger than this are marked ``LintRule/largePayload``: 1 MiB, where a Base64
    /// camera image starts (FAQ, "What is the maximum message size?": "very large messages (e.g.,
    /// multi-megabyte Base64 images) can cause memory pressure").
    public static let largePayloadBytes = 1 << 20
    /// At most this many distinct actions answered by the host are remembered for suggestions.
    static let answeredActionLimit = 1_000

    /// What the host's last `capability.query` answer reported: capability id to `supported`;
    /// `nil` until the inspector has seen an answer.
    public private(set) var reportedCapabilities: [String: Bool]?
    /// Actions the host answered with its own handlers: known actions, for suggestions.
    public private(set) var answeredActions: Set<String> = []

    /// A linter that has seen nothing.
    public init() {}

    /// The rule `traffic` breaks, if any. `reusesOpenId` says whether a request from the journey
    /// reuses the correlationId of one still waiting for its answer (the caller threads requests).
    /// Learns from what it sees: call it once per message, in order.
    public mutating func mark(_ traffic: WireTraffic, slots: [WireSlot], reusesOpenId: Bool) -> LintMark? {
        // The fields it needs, read through the record: not a copy of the whole message.
        let type = traffic.messageType
        let action = traffic.messageAction
        // What an inspector answered by hand is not what the host reports or handles.
        if traffic.direction == .sent, type == .response, traffic.origin != .inspector {
            learn(fromAnswer: traffic)
        }
        if let deliveryError = traffic.deliveryError {
            return LintMark(.notDelivered, Self.deliveryReason(deliveryError))
        }
        if let lost = traffic.lost {
            return LintMark(.lost, lost)
        }
        switch (traffic.direction, type) {
        case (.received, .request):
            if reusesOpenId {
                return LintMark(.duplicateId, "\(traffic.messageCorrelationId) is still waiting for its answer: this request was not routed")
            }
            if let mark = slotMark(for: action, slots: slots) { return mark }
            if let mark = reportMark(for: action, slots: slots) { return mark }
        case (.received, .response):
            return LintMark(.unknownResponse, "the host sent no request with id \(traffic.messageCorrelationId): nothing waits for this response")
        case (.sent, .response):
            if traffic.messageErrorCode == BridgeErrorCode.busy.rawValue {
                let holder = slots.first { $0.action == action }?.activeRequest
                return LintMark(.busy, holder.map { "slot busy with \($0): complete it when the capture UI is dismissed" }
                    ?? "slot busy with an earlier request: complete it when the capture UI is dismissed")
            }
        default:
            break
        }
        if traffic.bytes > Self.largePayloadBytes {
            return LintMark(.largePayload, "\(TimeFormat.bytes(traffic.bytes)): pass a file path instead of Base64 data")
        }
        return nil
    }

    /// The mark for a request nobody handles (it went to `pendingRequests`) whose action is a
    /// near miss of a known one: a slot's action, a custom capability, `capability.query`, or an
    /// action the host answered.
    public func nearMiss(for action: String, slots: [WireSlot], capabilities: [WireCapability]) -> LintMark? {
        var known = answeredActions
        known.insert(CapabilityQueryHandler.action)
        for slot in slots { known.insert(slot.action) }
        for capability in capabilities { known.insert(capability.id) }
        guard !known.contains(action), let suggestion = ActionSuggestion.closest(to: action, among: known) else { return nil }
        return LintMark(.unhandledNearMiss, "nobody handles \(action): did you mean \(suggestion)?")
    }

    /// The mark for malformed input: its reason. Input from the journey breaks
    /// ``LintRule/malformed``; a report of what the host sent that could not be read (`direction`
    /// `sent`) is ``LintRule/unreadSentReport``.
    public static func mark(_ malformed: WireMalformed) -> LintMark {
        LintMark(malformed.direction == .sent ? .unreadSentReport : .malformed, malformed.reason)
    }

    private func slotMark(for action: String, slots: [WireSlot]) -> LintMark? {
        guard let slot = slots.first(where: { $0.action == action }) else { return nil }
        if !slot.hasHandler {
            return LintMark(.slotNoHandler, "\(slot.capabilityId) has no handler: the request waits in pendingRequests")
        }
        if !slot.enabled {
            return LintMark(.slotDisabled, "\(slot.capabilityId) is disabled (isEnabled false): the request waits in pendingRequests")
        }
        if slot.permissionState == .notDetermined {
            return LintMark(.permissionNotDetermined, "\(slot.capabilityId) permissionState is notDetermined: assign CameraDetector.check()'s")
        }
        return nil
    }

    private func reportMark(for action: String, slots: [WireSlot]) -> LintMark? {
        guard action != CapabilityQueryHandler.action, let reported = reportedCapabilities else { return nil }
        let capability = slots.first { $0.action == action }?.capabilityId ?? action
        switch reported[capability] {
        case nil: return LintMark(.notReported, "capability.query did not report \(capability)")
        case false?: return LintMark(.notReported, "capability.query reported \(capability) as unsupported")
        case true?: return nil
        }
    }

    private mutating func learn(fromAnswer traffic: WireTraffic) {
        let payload = traffic.message.payload
        if payload.action == CapabilityQueryHandler.action, payload.status == .success,
            case .object(let capabilities)? = payload.data?["capabilities"]
        {
            var reported: [String: Bool] = [:]
            for (id, entry) in capabilities {
                if case .object(let fields) = entry, case .bool(let supported)? = fields["supported"] {
                    reported[id] = supported
                } else {
                    reported[id] = true
                }
            }
            reportedCapabilities = reported
        }
        if traffic.origin == .host, payload.status != .unsupported, answeredActions.count < Self.answeredActionLimit,
            payload.error?.code != BridgeErrorCode.busy.rawValue
        {
            answeredActions.insert(payload.action)
        }
    }

    private static func deliveryReason(_ error: String) -> String {
        if error.hasPrefix("WebView not attached") { return "sent while no journey was attached: lost" }
        let firstLine = error.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? error
        return firstLine.count > 160 ? String(firstLine.prefix(160)) + "…" : firstLine
    }
}
