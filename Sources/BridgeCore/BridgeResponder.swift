import Foundation

/// Answers one request: handed to every handler along with the request.
///
/// Call ``respond(status:data:error:)`` once, from any thread or task. The response is sent on
/// the host's main actor; responses go out in the order they were made (FAQ, "Is the message
/// order preserved?").
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

    init(host: BridgeHost, request: BridgeMessage) {
        self.host = host
        self.correlationId = request.correlationId
        self.action = request.payload.action
    }

    /// Sends the response. Extra calls for the same request are sent too, and noted in `lastError`.
    public func respond(status: BridgeResponseStatus, data: [String: JSONValue]? = nil, error: BridgeErrorPayload? = nil) {
        let correlationId = correlationId
        let host = host
        if Thread.isMainThread {
            MainActor.assumeIsolated {
                host?.respond(to: correlationId, status: status, data: data, error: error)
            }
        } else {
            Task { @MainActor in
                host?.respond(to: correlationId, status: status, data: data, error: error)
            }
        }
    }
}
