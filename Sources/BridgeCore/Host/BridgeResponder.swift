import Foundation

/// Answers one request: handed to every handler along with the request.
///
/// Call ``respond(status:data:error:)`` once, from any thread or task. The response is sent on
/// the host's main actor, in the order the `respond` calls were made, whichever threads made them
/// (FAQ, "Is the message order preserved?"). Called on the main thread it is sent before
/// `respond` returns.
///
/// ```swift
/// responder.respond(status: .success, data: ["model": .string("iPhone")], error: nil)
/// ```
public struct BridgeResponder: Sendable {
    /// The id of the request this responder answers.
    public let correlationId: String
    /// The action of the request this responder answers.
    public let action: String
    weak var host: BridgeHost?
    let outbox: ResponseOutbox

    init(host: BridgeHost, request: BridgeMessage) {
        self.host = host
        self.outbox = host.responseOutbox
        self.correlationId = request.correlationId
        self.action = request.payload.action
    }

    /// Sends the response. Extra calls for the same request are sent too, and noted in `lastError`.
    public func respond(status: BridgeResponseStatus, data: [String: JSONValue]? = nil, error: BridgeErrorPayload? = nil) {
        let mustSchedule = outbox.append(.init(correlationId: correlationId, status: status, data: data, error: error))
        let host = host
        if Thread.isMainThread {
            // Earlier responses queued from other threads go first.
            MainActor.assumeIsolated { host?.sendQueuedResponses() }
        } else if mustSchedule {
            Task { @MainActor in host?.sendQueuedResponses() }
        }
    }
}
