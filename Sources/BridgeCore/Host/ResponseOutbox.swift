import ThreadSupport

/// The responses made through ``BridgeResponder`` that the host has not sent yet, in the order
/// `respond(...)` was called.
///
/// A responder may be called from any thread; the host sends on the main actor. Each call is
/// queued here under a lock, so the order of the calls is the order of the queue, and the host
/// sends the queue from the front (FAQ, "Is the message order preserved?": "Responses are sent in
/// the order respond() is called").
final class ResponseOutbox: Sendable {
    /// One response waiting to be sent.
    struct Response: Sendable {
        let correlationId: String
        let status: BridgeResponseStatus
        let data: [String: JSONValue]?
        let error: BridgeErrorPayload?
    }

    private struct Queue {
        var responses: [Response] = []
        var head = 0
        var drainScheduled = false
    }

    private let queue = Locked(Queue())

    /// Queues `response`. Returns `true` when nobody has been asked to send the queue yet, so the
    /// caller must arrange for ``next()`` to be called on the main actor.
    func append(_ response: Response) -> Bool {
        queue.withLock { queue in
            queue.responses.append(response)
            let mustSchedule = !queue.drainScheduled
            queue.drainScheduled = true
            return mustSchedule
        }
    }

    /// The oldest response not yet sent, or `nil` when there is none (and the next ``append(_:)``
    /// will ask for a send again).
    func next() -> Response? {
        queue.withLock { queue in
            guard queue.head < queue.responses.count else {
                queue.responses.removeAll(keepingCapacity: true)
                queue.head = 0
                queue.drainScheduled = false
                return nil
            }
            let response = queue.responses[queue.head]
            queue.head += 1
            return response
        }
    }
}
