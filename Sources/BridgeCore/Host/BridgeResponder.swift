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

extension BridgeResponder {
    /// Gives the request up unanswered: it joins `pendingRequests`, exactly as a request no handler
    /// takes (the delegate's `unhandledRequest` is told, and an inspector or the app can answer it
    /// with ``BridgeHost/respond(to:status:data:error:)``). For a handler that answers only some
    /// requests of its action, such as one that answers from a recording what the recording holds:
    ///
    /// ```swift
    /// guard let answer = recorded[request.payload.action] else { return responder.passToPending() }
    /// ```
    ///
    /// Call it instead of ``respond(status:data:error:)``, on the main actor; after a response it
    /// does nothing.
    @MainActor
    public func passToPending() {
        host?.passToPending(correlationId)
    }
}
