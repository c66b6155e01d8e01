import Foundation

extension BridgeHost {
    /// Sends a fire-and-forget event to the journey, such as `host.ready` or `host.ping`.
    ///
    /// The event gets a correlation id of the form `<environment>-event-<uuid>`, for example
    /// `ios-event-3f2a…`. Messages go out in the order they are sent.
    public func send(event: String, data: [String: JSONValue]? = nil) {
        let message = BridgeMessage(
            correlationId: "\(environment)-event-\(UUID().uuidString.lowercased())",
            type: .event,
            timestamp: (now().timeIntervalSince1970 * 1000).rounded(),
            payload: .init(action: event, data: data))
        deliver(message)
    }

    /// Sends the response to the request `correlationId`, and removes it from `pendingRequests`.
    ///
    /// ```swift
    /// host.respond(to: message.correlationId, status: .unsupported,
    ///              error: BridgeErrorPayload(code: "UNSUPPORTED", message: "Not supported", recoverable: false))
    /// ```
    ///
    /// Answering an id that is not outstanding (already answered, or never received) still sends
    /// the response, and notes it in `lastError` so the mistake is visible. Use
    /// ``respondToPendingRequest(_:status:data:error:)`` to refuse such answers instead.
    public func respond(
        to correlationId: String, status: BridgeResponseStatus, data: [String: JSONValue]? = nil,
        error: BridgeErrorPayload? = nil
    ) {
        let action = outstanding[correlationId]?.payload.action
        if action == nil {
            let known = recentlyAnswered.contains(correlationId) ? "has already been answered" : "is not an outstanding request"
            setLastError("respond(to:) for correlationId '\(correlationId)', which \(known); the response was sent anyway")
        }
        respond(to: correlationId, action: action ?? "unknown", status: status, data: data, error: error)
    }

    /// Answers a request that is waiting in `pendingRequests`, or throws without sending anything.
    ///
    /// This is the checked path inspectors and tools use: when two of them answer the same request,
    /// exactly one succeeds and the other is told it was already answered.
    public func respondToPendingRequest(
        _ correlationId: String, status: BridgeResponseStatus, data: [String: JSONValue]? = nil,
        error: BridgeErrorPayload? = nil
    ) throws(BridgeHostError) {
        guard pendingRequests.contains(where: { $0.correlationId == correlationId }) else {
            if recentlyAnswered.contains(correlationId) { throw .alreadyAnswered(correlationId: correlationId) }
            if let held = heldRequest(correlationId) { throw .heldAtBreakpoint(correlationId: correlationId, holdId: held.id) }
            if outstanding[correlationId] != nil { throw .handledElsewhere(correlationId: correlationId) }
            throw .notPending(correlationId: correlationId)
        }
        respond(to: correlationId, status: status, data: data, error: error)
    }

    /// Sends a journey-bound response; the one place responses are built. `held` is the held
    /// request it answers by hand (``answerHeld(_:status:data:error:)``); a response to a request
    /// still held otherwise (the app answered it itself) takes it out of the hold too.
    func respond(
        to correlationId: String, action: String, status: BridgeResponseStatus, data: [String: JSONValue]?,
        error: BridgeErrorPayload?, answering held: HeldMessage? = nil
    ) {
        let message = BridgeMessage(
            correlationId: correlationId,
            type: .response,
            timestamp: (now().timeIntervalSince1970 * 1000).rounded(),
            payload: .init(action: action, data: data, status: status, error: error))
        // A response that cannot be encoded is not an answer: the request stays outstanding.
        guard let json = encodeForDelivery(message) else { return }
        let answeredHold = held ?? (heldMessages.isEmpty ? nil : heldRequest(correlationId))
        if let answeredHold {
            resolveAnswered(answeredHold, response: message, reason: held == nil ? .answeredByHost : .command)
        }
        if outstanding.removeValue(forKey: correlationId) != nil {
            recentlyAnswered.insert(correlationId)
        }
        if let index = pendingRequests.firstIndex(where: { $0.correlationId == correlationId }) {
            let removed = pendingRequests.remove(at: index)
            pendingSince.removeValue(forKey: correlationId)
            emit(.pendingRemoved(correlationId: correlationId, action: removed.payload.action))
        }
        let hold = answeredHold.map { HoldMark(id: $0.id, outcome: .answered) }
        if let fault = answerFaults[correlationId] {
            answerFaults[correlationId] = nil
            applyAnswerFault(fault, to: message, json: json, hold: hold)
            return
        }
        deliver(message, json: json, hold: hold)
    }

    /// Sends the responses that responders queued, oldest first. One at a time: a response sent
    /// here may make the journey send a request whose handler responds at once, and that
    /// response then waits its turn behind the ones queued before it.
    func sendQueuedResponses() {
        while let response = responseOutbox.next() {
            respond(to: response.correlationId, status: response.status, data: response.data, error: response.error)
        }
    }

    /// Encodes and sends the response for a capture result.
    func sendCaptureResponse(to request: BridgeMessage, result: CaptureResult) {
        let response = result.response
        respond(
            to: request.correlationId, action: request.payload.action, status: response.status, data: response.data,
            error: response.error)
    }

    /// Encodes one message and hands it to the transport; records the outcome.
    func deliver(_ message: BridgeMessage) {
        guard let json = encodeForDelivery(message) else { return }
        deliver(message, json: json)
    }

    /// Encodes a message, or records in `lastError` why it cannot be sent.
    func encodeForDelivery(_ message: BridgeMessage) -> Data? {
        do {
            return try codec.encode(message)
        } catch {
            setLastError(
                "Failed to encode message '\(message.payload.action)' (\(message.correlationId)): \(error); it was not sent. JSON cannot carry NaN or infinite numbers"
            )
            return nil
        }
    }

    /// Hands an encoded message to the transport, unless the interceptor holds it; records the
    /// outcome. `hold` marks a message that leaves a hold (or answers a held request): it is
    /// not held again.
    func deliver(_ message: BridgeMessage, json: Data, hold: HoldMark? = nil, fault: FaultMark? = nil) {
        if hold == nil, fault == nil, faultInjector != nil, faultIfAsked(message, json: json) { return }
        if hold == nil, interceptor != nil, holdIfIntercepted(message, direction: .sent, json: json) { return }
        var deliveryError: String?
        if let transport {
            do {
                try transport.deliver(JourneyDelivery(message: message, json: json))
            } catch {
                deliveryError = "evaluateJavaScript failed: \(error)"
            }
        } else {
            if reportedJourneyAttached {
                // The transport went away without detach() (deallocated, as a WebView can be).
                reportedJourneyAttached = false
                emit(.journeyAttachment(false))
            }
            deliveryError =
                "WebView not attached: \(message.type.rawValue) '\(message.payload.action)' (\(message.correlationId)) was not delivered; attach a journey with attach(_:)"
        }
        emitTraffic(.sent, message, json: json, time: now(), marks: TrafficMarks(deliveryError: deliveryError, hold: hold, fault: fault))
        if let deliveryError { setLastError(deliveryError) }
        if fault?.effect != .reordered, !reorderedMessages.isEmpty { deliverReordered() }
    }

    /// Reports that a delivery the transport accepted failed later (an `evaluateJavaScript` completion error).
    public func journeyDeliveryFailed(_ delivery: JourneyDelivery, error: any Error) {
        setLastError("evaluateJavaScript failed: \(error) (\(delivery.message.type.rawValue) '\(delivery.message.payload.action)', \(delivery.message.correlationId))")
    }
}

/// Why the host refused a checked command, such as ``BridgeHost/respondToPendingRequest(_:status:data:error:)``.
public enum BridgeHostError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The id was answered already.
    case alreadyAnswered(correlationId: String)
    /// The id is outstanding but a handler or slot owns it, not `pendingRequests`.
    case handledElsewhere(correlationId: String)
    /// No request with the id is known.
    case notPending(correlationId: String)
    /// The slot has no active request to complete or cancel (`attempted` says which was asked).
    case slotIdle(CaptureCapability.Kind, attempted: SlotOperation = .complete)
    /// The request is held at a breakpoint (``BridgeHost/heldMessages``), not waiting in
    /// `pendingRequests`.
    case heldAtBreakpoint(correlationId: String, holdId: String)
    /// No message is held with this id.
    case notHeld(holdId: String)
    /// The held message was already released, answered or dropped.
    case holdResolved(holdId: String, outcome: HeldResolution.Outcome)
    /// The edit or answer does not fit the held message.
    case invalidEdit(holdId: String, reason: String)

    /// What was asked of a capture slot.
    public enum SlotOperation: String, Sendable, Equatable {
        /// Complete the active request with a result.
        case complete
        /// Cancel the active request.
        case cancel
    }

    public var description: String {
        switch self {
        case .alreadyAnswered(let id):
            return "request '\(id)' was already answered; it is no longer pending"
        case .handledElsewhere(let id):
            return "request '\(id)' is being handled by a handler or capture slot, not waiting in pendingRequests"
        case .notPending(let id):
            return "no pending request has correlationId '\(id)'; list pendingRequests to see the ids waiting"
        case .slotIdle(let kind, let operation):
            return "the \(kind.rawValue) capture slot is idle: there is no active request to \(operation.rawValue)"
        case .heldAtBreakpoint(let id, let hold):
            return "request '\(id)' is held at a breakpoint as \(hold), not waiting in pendingRequests; answer it with `answer \(hold)` or release it"
        case .notHeld(let hold):
            return "nothing is held as '\(hold)'; list held messages to see their ids (h1, h2, …)"
        case .holdResolved(let hold, let outcome):
            return "\(hold) was already \(outcome.rawValue); it is no longer held"
        case .invalidEdit(let hold, let reason):
            return "\(hold): \(reason)"
        }
    }
}
