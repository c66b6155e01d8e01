import BridgeCore
import Foundation
import InspectorProtocol

/// This project's own host is inspected natively: its change stream shows everything, and every
/// command is supported.
extension BridgeHost: InspectableHost {
    public var inspectionProfile: InspectionProfile {
        InspectionProfile(
            hostVersion: hostVersion, environment: environment, path: HostFeature.nativePath,
            receivedMessagesCap: maxReceivedMessages)
    }

    public func inspectionSnapshot() -> BridgeSnapshot { snapshot() }

    public func startReporting(to sink: InspectionSink) -> any InspectionReporting {
        // Observers run synchronously on the main actor, inside whatever caused the change: the
        // command running now (if any) is the cause, and the inbox knows it. Traffic comes in
        // pieces, straight to the inbox: the host builds no record for the agent.
        let token = addPackageObserver(PackageObserver(change: sink.pushCausedByRunning, traffic: sink.pushTrafficCausedByRunning))
        return ObserverReporting(host: self, token: token)
    }

    public func respondToPending(
        _ correlationId: String, status: BridgeResponseStatus, data: [String: JSONValue]?, error: BridgeErrorPayload?
    ) throws(BridgeHostError) {
        try respondToPendingRequest(correlationId, status: status, data: data, error: error)
    }

    public func sendEvent(_ name: String, data: [String: JSONValue]?) {
        send(event: name, data: data)
    }

    public func activeRequest(of slot: CaptureCapability.Kind) -> BridgeMessage? {
        self.slot(slot).activeRequest
    }

    public func completeSlot(_ slot: CaptureCapability.Kind, with result: CaptureResult) {
        self.slot(slot).complete(result)
    }

    public func setSlot(_ slot: CaptureCapability.Kind, enabled: Bool) {
        self.slot(slot).isEnabled = enabled
    }

    public func setSlot(_ slot: CaptureCapability.Kind, permission: PermissionState) {
        self.slot(slot).permissionState = permission
    }

    public func inject(_ bytes: Data) { receive(bytes) }

    public func clearLastError() { clearError() }

    public func clearMessageLog() { clearReceivedMessages() }
}

/// A native host's reporting: one observer, removed on `stop()`.
@MainActor
private final class ObserverReporting: InspectionReporting {
    private weak var host: BridgeHost?
    private let token: BridgeObservationToken

    init(host: BridgeHost, token: BridgeObservationToken) {
        self.host = host
        self.token = token
    }

    func stop() {
        host?.removeObserver(token)
    }
}
