import BridgeCore
import Foundation
import InspectorAgent

/// One message the journey posted that the page holds for a breakpoint.
struct PageHold {
    var held: HeldMessage
    /// The page's token and the message's number there (``PageInterceptScript``).
    var page: String
    var item: Int
}

/// Breakpoints on a host seen through GBGBridge's public API: GBGBridge has no point where a
/// message could wait, but the journey's page is one. ``PageInterceptScript`` holds each message
/// the journey posts, and each one GBGBridge delivers, while there are breakpoints, and asks the
/// adapter, which asks the agent's interceptor, as the native host does before routing or
/// delivering.
///
/// What differs from the native host (docs/real-apps.md): what GBGBridge sends is held before the
/// journey's `receive`, after GBGBridge let it go (the log shows it sent); a held request has not reached GBGBridge,
/// so GBGBridge knows nothing of it (a second capture request is not answered `BUSY` because of
/// it, and its id is not outstanding); answering it hands the response to the journey's
/// `receive` in the page, and GBGBridge never sees the request. Time limits, owners and
/// first-action-wins are the agent's, as on the native path.
extension PublicAPIHost {
    public var heldMessages: [HeldMessage] { pageHolds.map(\.held) }

    public func setInterceptor(_ interceptor: (any BridgeInterceptor)?) {
        self.interceptor = interceptor
        journeyPage?.send(.setHolding(interceptor != nil))
        guard interceptor == nil else { return }
        // The page lets everything go when switched off; say so for each hold.
        for hold in pageHolds {
            resolve(hold, outcome: .released, reason: .interceptorRemoved)
        }
        pageHolds.removeAll()
    }

    public func releaseHeld(_ id: String, as edited: BridgeMessage?, reason: HeldResolution.Reason) throws(BridgeHostError) {
        let hold = try lookUpHold(id)
        var json: Data?
        if let edited {
            let original = hold.held.message
            guard edited.correlationId == original.correlationId, edited.type == original.type, edited.payload.action == original.payload.action else {
                throw .invalidEdit(
                    holdId: id,
                    reason: "an edit must keep the correlationId '\(original.correlationId)', the type '\(original.type.rawValue)' and the action '\(original.payload.action)'; change data, status or error only")
            }
            guard let encoded = try? BridgeMessageCodec().encode(edited) else {
                throw .invalidEdit(holdId: id, reason: "the edited message cannot be encoded as JSON")
            }
            json = encoded
        }
        take(hold)
        journeyPage?.send(.decide(page: hold.page, id: hold.item, verdict: .release, json: json))
        resolve(hold, outcome: edited == nil ? .released : .edited, reason: reason, message: edited)
    }

    public func answerHeld(_ id: String, status: BridgeResponseStatus, data: [String: JSONValue]?, error: BridgeErrorPayload?) throws(BridgeHostError) {
        let hold = try lookUpHold(id)
        guard hold.held.direction == .received else {
            throw .invalidEdit(holdId: id, reason: "only a held request can be answered; release or drop a held \(hold.held.message.type.rawValue)")
        }
        let request = hold.held.message
        let response = BridgeMessage(
            correlationId: request.correlationId, type: .response,
            payload: .init(action: request.payload.action, data: data, status: status, error: error))
        guard let json = try? BridgeMessageCodec().encode(response) else {
            throw .invalidEdit(holdId: id, reason: "the answer cannot be encoded as JSON")
        }
        take(hold)
        expectResponse(to: request.correlationId)
        journeyPage?.send(.decide(page: hold.page, id: hold.item, verdict: .answer, json: json))
        resolve(hold, outcome: .answered, reason: .command, message: response)
    }

    public func dropHeld(_ id: String, reason: HeldResolution.Reason) throws(BridgeHostError) {
        let hold = try lookUpHold(id)
        take(hold)
        journeyPage?.send(.decide(page: hold.page, id: hold.item, verdict: .drop))
        resolve(hold, outcome: .dropped, reason: reason)
    }

    // MARK: What the page reports

    /// A message waits in the page (the journey posted it, or GBGBridge delivered it): hold it for
    /// a breakpoint, or let it go.
    func intercepted(page: String, id: Int, direction: TrafficRecord.Direction, json: String) {
        if interceptPage != page { pageChanged(to: page) }
        let bytes = Data(json.utf8)
        let message: BridgeMessage?
        switch direction {
        case .received:
            // Requests only, as on the native path (events and responses are never routed), and
            // never what an inspector injected.
            if case .success(let read) = BridgeMessageCodec().decode(bytes), read.type == .request, awaitedInjections[read.correlationId] == nil {
                message = read
            } else {
                message = nil
            }
        case .sent:
            // GBGBridge's own encoding, read as the page script's reports are; never an answer
            // an inspector's command made (answerHeld, respond), as on the native path.
            let read = try? SentDeliveryDecoder.decode(bytes, maxDepth: BridgeMessageCodec().maxDepth, actionOfRequest: { _ in nil }).get().message
            message = read.flatMap { sentByInspector.contains($0.correlationId) ? nil : $0 }
        }
        guard let interceptor, let message, let request = interceptor.hold(message, direction: direction, json: bytes) else {
            // Unreadable (GBGBridge or the journey will say why), not for holding, or no breakpoint for it.
            journeyPage?.send(.decide(page: page, id: id, verdict: .pass))
            return
        }
        holdCount += 1
        let limit = max(0.01, request.timeLimit.isFinite ? request.timeLimit : 0.01)
        let held = HeldMessage(
            id: "h\(holdCount)", direction: direction, message: message, json: bytes, since: now(), breakpoint: request.breakpoint,
            timeLimit: limit)
        pageHolds.append(PageHold(held: held, page: page, item: id))
        journeyAttached(true)
        report(.held(held))
        journeyPage?.send(.decide(page: page, id: id, verdict: .hold, seconds: limit))
        let holdId = held.id
        let timeline = self.timeline
        let deadline = timeline.elapsed + .seconds(min(limit, 100 * 365 * 86_400))
        Task { @MainActor [weak self] in
            try? await timeline.sleep(untilElapsed: deadline)
            try? self?.releaseHeld(holdId, as: nil, reason: .timeLimit)
        }
    }

    /// A new page (a reload or a navigation): what the old one held went with it, and the new one
    /// starts by asking, so it is told whether there are breakpoints.
    func pageChanged(to page: String? = nil) {
        if let page { interceptPage = page }
        let gone = pageHolds.filter { $0.page != interceptPage || page == nil }
        pageHolds.removeAll { hold in gone.contains { $0.held.id == hold.held.id } }
        for hold in gone { resolve(hold, outcome: .dropped, reason: .journeyGone) }
        if page == nil { journeyPage?.send(.setHolding(interceptor != nil)) }
    }

    // MARK: Inside

    private func lookUpHold(_ id: String) throws(BridgeHostError) -> PageHold {
        if let hold = pageHolds.first(where: { $0.held.id == id }) { return hold }
        if let outcome = resolvedHolds[id] { throw .holdResolved(holdId: id, outcome: outcome) }
        throw .notHeld(holdId: id)
    }

    private func take(_ hold: PageHold) {
        pageHolds.removeAll { $0.held.id == hold.held.id }
    }

    private func resolve(_ hold: PageHold, outcome: HeldResolution.Outcome, reason: HeldResolution.Reason, message: BridgeMessage? = nil) {
        resolvedHolds[hold.held.id] = outcome
        report(.heldResolved(HeldResolution(
            id: hold.held.id, correlationId: hold.held.message.correlationId, direction: hold.held.direction, outcome: outcome, reason: reason,
            message: message, time: now())))
    }
}
