import Foundation

/// Holding messages at breakpoints, for debugging: an interceptor picks messages in flight, the
/// host keeps them in ``BridgeHost/heldMessages``, and someone releases, edits, answers or drops
/// each one. Nothing is held for ever: the host releases a message as it is when its time limit
/// (``HoldRequest/timeLimit``) passes, and removing the interceptor releases everything still
/// held. (The inspector agent also releases what an inspector held when it goes away.)
///
/// What a hold means for the rest of the host (docs/inspector-protocol.md, "Breakpoints"):
/// - a held request is outstanding: a second request with its correlation id is refused as a
///   duplicate, and ``respondToPendingRequest(_:status:data:error:)`` says it is held;
/// - a held capture request occupies its slot: a second capture request for the same slot is
///   answered `BUSY` when it is routed, as if the first had reached the slot (API Reference,
///   "Typed Slots"); an interceptor is still offered that second request first, as every request;
/// - it is not in `pendingRequests` until, once released, no handler takes it;
/// - other messages go on meanwhile: a hold stops one message, not the bridge.
extension BridgeHost {
    /// Sets the interceptor that decides which messages are held, or removes it (`nil`), which
    /// releases every message still held, as it is.
    public func setInterceptor(_ interceptor: (any BridgeInterceptor)?) {
        self.interceptor = interceptor
        guard interceptor == nil else { return }
        for held in heldMessages {
            try? releaseHeld(held.id, reason: .interceptorRemoved)
        }
    }

    /// Lets a held message go on: a request is routed to its handler, slot or `pendingRequests`;
    /// a response or event is delivered. With `edited`, that message goes on instead: it must
    /// keep the held message's correlation id, type and action (to send something else, send it).
    public func releaseHeld(_ id: String, as edited: BridgeMessage? = nil, reason: HeldResolution.Reason = .command) throws(BridgeHostError) {
        let held = try lookUpHeld(id)
        var message = held.message
        var json = held.json
        if let edited {
            guard edited.correlationId == held.message.correlationId, edited.type == held.message.type,
                edited.payload.action == held.message.payload.action
            else {
                throw .invalidEdit(
                    holdId: id,
                    reason: "an edit must keep the correlationId '\(held.message.correlationId)', the type '\(held.message.type.rawValue)' and the action '\(held.message.payload.action)'; change data, status or error only")
            }
            guard let encoded = encodeForDelivery(edited) else {
                throw .invalidEdit(holdId: id, reason: "the edited message cannot be encoded as JSON")
            }
            message = edited
            json = encoded
        }
        let outcome: HeldResolution.Outcome = edited == nil ? .released : .edited
        removeHeld(id, outcome: outcome)
        emit(.heldResolved(HeldResolution(
            id: id, correlationId: held.message.correlationId, direction: held.direction,
            outcome: outcome, reason: reason, message: edited, time: now())))
        switch held.direction {
        case .received:
            outstanding.removeValue(forKey: held.message.correlationId)
            dispatch(message, time: now())
        case .sent:
            deliver(message, json: json, hold: HoldMark(id: id, outcome: outcome))
        }
    }

    /// Answers a held request by hand: the response goes to the journey at once (not held again)
    /// and the request's handler never runs.
    public func answerHeld(
        _ id: String, status: BridgeResponseStatus, data: [String: JSONValue]? = nil, error: BridgeErrorPayload? = nil
    ) throws(BridgeHostError) {
        let held = try lookUpHeld(id)
        // Only requests are held on their way in.
        guard held.direction == .received else {
            throw .invalidEdit(holdId: id, reason: "only a held request can be answered; release or drop a held \(held.message.type.rawValue)")
        }
        respond(
            to: held.message.correlationId, action: held.message.payload.action, status: status, data: data, error: error,
            answering: held)
    }

    /// Drops a held message: a request is forgotten (no handler runs and nothing answers it, so
    /// the journey waits until its own timeout); a response or event is never delivered, and the
    /// log shows it as dropped.
    public func dropHeld(_ id: String, reason: HeldResolution.Reason = .command) throws(BridgeHostError) {
        let held = try lookUpHeld(id)
        removeHeld(id, outcome: .dropped)
        emit(.heldResolved(HeldResolution(
            id: id, correlationId: held.message.correlationId, direction: held.direction, outcome: .dropped, reason: reason,
            time: now())))
        switch held.direction {
        case .received:
            outstanding.removeValue(forKey: held.message.correlationId)
        case .sent:
            emitTraffic(.sent, held.message, json: held.json, time: now(), marks: TrafficMarks(hold: HoldMark(id: id, outcome: .dropped)))
        }
    }

    // MARK: Inside the host

    /// Holds `message` when the interceptor names a breakpoint for it; `true` when held.
    /// `loggedAs`: ``receivedTrafficCount`` right after a request was reported, when it is held
    /// as it arrives.
    func holdIfIntercepted(_ message: BridgeMessage, direction: TrafficRecord.Direction, json: Data, loggedAs: Int? = nil) -> Bool {
        guard let interceptor, let request = interceptor.hold(message, direction: direction, json: json) else {
            return false
        }
        holdCount += 1
        let limit = max(0.01, request.timeLimit.isFinite ? request.timeLimit : 0.01)
        let held = HeldMessage(
            id: "h\(holdCount)", direction: direction, message: message, json: json, since: now(),
            breakpoint: request.breakpoint, timeLimit: limit)
        heldMessages.append(held)
        if direction == .received { outstanding[message.correlationId] = message }
        emit(.held(held), isLastLogged: direction == .received && loggedAs == receivedTrafficCount)
        let id = held.id
        let clock = self.clock
        // Clamped to a century, which no hold reaches: a Duration of any Double would overflow.
        let sleep = Duration.seconds(min(limit, Self.longestHoldTimer))
        Task { @MainActor [weak self] in
            try? await clock.sleep(for: sleep)
            try? self?.releaseHeld(id, reason: .timeLimit)
        }
        return true
    }

    /// The longest a hold's timer sleeps, in seconds (a century).
    static let longestHoldTimer: Double = 100 * 365 * 86_400

    /// Whether a held request occupies `slot` (a second capture request is then `BUSY`).
    func slotIsHeld(_ slot: CaptureCapability) -> Bool {
        heldMessages.contains { $0.direction == .received && $0.message.payload.action == slot.action }
    }

    /// The held request with `correlationId`, if one is held.
    func heldRequest(_ correlationId: String) -> HeldMessage? {
        heldMessages.first { $0.direction == .received && $0.message.correlationId == correlationId }
    }

    /// Takes a held request out of the hold because it is being answered now (by hand, or by the
    /// app's own `respond(to:)`), and says so.
    func resolveAnswered(_ held: HeldMessage, response: BridgeMessage, reason: HeldResolution.Reason) {
        removeHeld(held.id, outcome: .answered)
        emit(.heldResolved(HeldResolution(
            id: held.id, correlationId: held.message.correlationId, direction: .received, outcome: .answered, reason: reason,
            message: response, time: now())))
    }

    private func lookUpHeld(_ id: String) throws(BridgeHostError) -> HeldMessage {
        if let held = heldMessages.first(where: { $0.id == id }) { return held }
        if let outcome = resolvedHolds[id] { throw .holdResolved(holdId: id, outcome: outcome) }
        throw .notHeld(holdId: id)
    }

    private func removeHeld(_ id: String, outcome: HeldResolution.Outcome) {
        guard let index = heldMessages.firstIndex(where: { $0.id == id }) else { return }
        heldMessages.remove(at: index)
        resolvedHolds[id] = outcome
    }
}

/// On a sent message that was held: which hold, and what became of it.
public struct HoldMark: Sendable, Hashable, Codable {
    /// The hold's id (`h3`).
    public var id: String
    /// Released as it was, edited, answered by hand (the response to a held request) or dropped
    /// (never delivered).
    public var outcome: HeldResolution.Outcome

    /// Creates a mark.
    public init(id: String, outcome: HeldResolution.Outcome) {
        self.id = id
        self.outcome = outcome
    }
}
