import BridgeCore
@testable import InspectorProtocol

/// Slots and host states for the linter's and the doctor's tests: a host as an agent reports it.
public enum DiagnosisFixture {
    /// 2023-11-14 22:13:20.000 UTC.
    public static let t0: Double = 1_700_000_000_000

    /// A slot: `document` or `selfie`, with a handler or not, enabled or not, busy with `active`.
    public static func slot(
        _ kind: CaptureCapability.Kind, handler: Bool = true, enabled: Bool = true, permission: PermissionState = .granted,
        active: String? = nil, since: Double? = nil
    ) -> WireSlot {
        let capability = kind == .document ? "camera.document" : "camera.selfie"
        return WireSlot(
            kind: kind, capabilityId: capability, action: capability + ".capture", version: "1.0", hasHandler: handler,
            enabled: enabled, supported: handler && enabled, permissionState: permission, activeRequest: active,
            activeAction: active == nil ? nil : capability + ".capture", activeSince: active == nil ? nil : since)
    }

    /// A host snapshot with these parts (a journey attached unless said otherwise).
    public static func state(
        messages: [WireTraffic] = [], malformed: [WireMalformed] = [], pending: [WirePending] = [], slots: [WireSlot] = [],
        capabilities: [WireCapability] = [], lastError: WireError? = nil, journeyAttached: Bool = true,
        counts: WireCounts? = nil, inspection: String? = nil, unsupported: [String: String]? = nil, receivedMessagesCap: Int? = 200
    ) -> WireState {
        let received = messages.filter { $0.direction == .received }.count
        let host = WireHostInfo(
            name: "doctor-test", pid: 4242, hostVersion: "1.0.0", environment: "ios", startedAt: t0 - 60_000, inspection: inspection,
            unsupported: unsupported, receivedMessagesCap: receivedMessagesCap)
        return WireState(
            host: host, journeyAttached: journeyAttached, lastError: lastError, errorHistory: lastError.map { [$0] } ?? [],
            messages: messages, malformed: malformed, pending: pending, slots: slots, customCapabilities: capabilities,
            counts: counts ?? WireCounts(
                received: received, sent: messages.count - received, malformed: malformed.count, receivedMessages: received))
    }

    /// A pending request as the agent reports it.
    public static func pending(_ id: String, _ action: String, since: Double) -> WirePending {
        WirePending(
            correlationId: id, action: action, since: since,
            message: TrafficFixture.message(id, .request, action, at: since))
    }
}
