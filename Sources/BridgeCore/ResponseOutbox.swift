import Foundation

/// The responses made through ``BridgeResponder`` that the host has not sent yet, in the order
/// `respond(...)` was called.
///
/// A responder may be called from any thread; the host sends on the main actor. Each call is
/// queued here under a lock, so the order of the calls is the order of the queue, and the host
/// sends the queue from the front (FAQ, "Is the message order preserved?": "Responses are sent in
/// the order respond() is called").
final class ResponseOutbox: @unchecked Sendable {
    /// One response waiting to be sent.
    struct Response: Sendable {
        let correlationId: String
        let status: BridgeResponseStatus
        let data: [String: JSONValue]?
        let error: BridgeErrorPayload?
    }

    private let lock = NSLock()
    private var queue: [Response] = []
    private var head = 0
    private var drainScheduled = false

    /// Queues `response`. Returns `true` when nobody has been asked to send the queue yet, so the
    /// caller must arrange for ``next()`` to be called on the main actor.
    func append(_ response: Response) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        queue.append(response)
        let mustSchedule = !drainScheduled
        drainScheduled = true
        return mustSchedule
    }

    /// The oldest response not yet sent, or `nil` when there is none (and the next ``append(_:)``
    /// will ask for a send again).
    func next() -> Response? {
        lock.lock()
        defer { lock.unlock() }
        guard head < queue.count else {
            queue.removeAll(keepingCapacity: true)
            head = 0
            drainScheduled = false
            return nil
        }
        let response = queue[head]
        head += 1
        return response
    }
}
