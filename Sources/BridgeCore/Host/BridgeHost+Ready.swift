import Foundation

extension BridgeHost {
    /// Sends the documented `host.ready` event, `{timestamp, version}`, as a host does once its
    /// journey is attached (Two-Way Communication example).
    public func sendReadyEvent() {
        send(event: "host.ready", data: [
            "timestamp": .number((now().timeIntervalSince1970 * 1000).rounded()),
            "version": .string(hostVersion),
        ])
    }
}
