import Foundation

extension BridgeHost {
    /// Hands the host one message from the journey, as its text.
    ///
    /// This is what `window.webkit.messageHandlers.gbgBridge.postMessage(message)` reaches on iOS.
    /// A message that does not decode sets `lastError` to `Failed to decode message: <reason>` and
    /// goes no further (Security, "Incoming Message Decoding"); a decoded one is logged in
    /// `receivedMessages`, reported to the delegate and, if it is a request, routed.
    public func receive(_ bytes: Data) {
        // The bytes are looked into once, for decoding and for the package observers that copy
        // them (an inspector agent): each look into a `Data`'s storage is a run-time exclusivity
        // check (issue 30).
        bytes.withUnsafeBytes { lent in
            switch codec.decode(lent: lent, bytes) {
            case .failure(let failure):
                emit(.malformed(MalformedInput(raw: bytes, reason: failure.reason, time: now())))
                setLastError(failure.description)
            case .success(let message):
                accept(message, json: bytes, lent: lent)
            }
        }
    }

    /// Hands the host one message from the journey, as a string.
    public func receive(text: String) {
        receive(Data(text.utf8))
    }

    /// Takes a decoded message in; `lent` is `json`'s bytes, lent for the call.
    private func accept(_ message: BridgeMessage, json: Data, lent: UnsafeRawBufferPointer) {
        let time = now()
        // A fault is decided before anything else sees the request, so that its mark is on the
        // request's own record (docs/inspector-protocol.md, "Fault rules").
        let fault = message.type == .request ? requestFault(for: message, json: json) : nil
        if let fault, case .drop = fault.action {
            // Lost on its way: the host never sees it, only the log does.
            emitTraffic(.received, message, json: json, lent: lent, time: time, marks: TrafficMarks(fault: fault.mark))
            return
        }
        logReceived(message)
        emitTraffic(.received, message, json: json, lent: lent, time: time, marks: TrafficMarks(fault: fault?.mark))
        // While no other message is received, the request routed is the one reported last.
        let loggedAs = receivedTrafficCount
        delegate?.bridgeHost(self, didReceive: message)

        switch message.type {
        case .request:
            if let fault, case .error(let payload) = fault.action {
                // The error goes out through the normal send path, marked as the fault's own
                // answer, so no inspector holds it against the app.
                answerFaults[message.correlationId] = fault
                respond(to: message.correlationId, action: message.payload.action, status: .error, data: nil, error: payload)
                return
            }
            if let fault { answerFaults[message.correlationId] = fault }
            route(message, json: json, time: time, loggedAs: loggedAs)
        case .response:
            // The documented protocol has no host-to-journey requests, so no response from the
            // journey can match one; say so rather than drop it silently.
            setLastError(
                "Received a response for unknown correlationId '\(message.correlationId)' (action '\(message.payload.action)'): the host has sent no request with this id"
            )
        case .event:
            break
        }
    }

    /// `loggedAs` is ``receivedTrafficCount`` right after `request` was reported.
    private func route(_ request: BridgeMessage, json: Data, time: Date, loggedAs: Int) {
        let id = request.correlationId
        if outstanding[id] != nil {
            setLastError(
                "Duplicate correlationId '\(id)' (action '\(request.payload.action)'): a request with this id is still outstanding, so the duplicate was not routed; give every request a unique correlationId"
            )
            return
        }
        // A breakpoint sees every request that is routed, a capture request for a busy slot
        // too (docs/inspector-protocol.md 13.1); whether its slot is free is decided when it is
        // routed, now or when it is released, so a hold never lets two requests into one slot.
        if interceptor != nil, holdIfIntercepted(request, direction: .received, json: json, loggedAs: loggedAs) { return }
        dispatch(request, to: slot(taking: request), time: time, loggedAs: loggedAs)
    }

    /// The capture slot that takes `request`, if one does. A slot nobody gave a handler does not
    /// hide a handler registered for its action (Troubleshooting, "Handler Not Called for
    /// Requests": protocol-based handlers may use `camera.document.capture`); a slot with a
    /// handler takes precedence (FAQ).
    ///
    /// Every routed request asks, so it compares the action with the slots' actions made once,
    /// instead of building the slots' list and their action names each time.
    private func slot(taking request: BridgeMessage) -> CaptureCapability? {
        let action = request.payload.action
        let slot: CaptureCapability
        if action == Self.documentCaptureAction {
            slot = documentCapture
        } else if action == Self.selfieCaptureAction {
            slot = selfieCapture
        } else {
            return nil
        }
        guard slot.handler != nil || handlers[action] == nil else { return nil }
        return slot
    }

    /// The action the document capture slot answers, `camera.document.capture`.
    private static let documentCaptureAction = CaptureCapability.Kind.document.action
    /// The action the selfie capture slot answers, `camera.selfie.capture`.
    private static let selfieCaptureAction = CaptureCapability.Kind.selfie.action

    /// Routes a request that is not a duplicate and not held: to its slot, its handler or
    /// `pendingRequests`.
    func dispatch(_ request: BridgeMessage, time: Date) {
        dispatch(request, to: slot(taking: request), time: time)
    }

    private func dispatch(_ request: BridgeMessage, to slot: CaptureCapability?, time: Date, loggedAs: Int? = nil) {
        let id = request.correlationId
        if let slot {
            routeToSlot(slot, request: request, time: time, loggedAs: loggedAs)
        } else if let handler = handlers[request.payload.action] {
            outstanding[id] = request
            let responder = BridgeResponder(host: self, request: request)
            startInArrivalOrder { await handler.handle(request: request, responder: responder) }
        } else {
            addPending(request, time: time, loggedAs: loggedAs)
        }
    }

    /// A capture request for a slot that is busy, or occupied by a held request, is answered
    /// `BUSY` (Troubleshooting, "Typed Slot Returns BUSY Error").
    private func routeToSlot(_ slot: CaptureCapability, request: BridgeMessage, time: Date, loggedAs: Int?) {
        if slot.activeRequest != nil || slotIsHeld(slot) {
            answerBusy(request)
            return
        }
        guard let handler = slot.handler, slot.isEnabled else {
            addPending(request, time: time, loggedAs: loggedAs)
            return
        }
        outstanding[request.correlationId] = request
        slot.activeRequest = request
        startInArrivalOrder { [weak slot] in
            let result = await handler(request)
            guard let slot, slot.activeRequest?.correlationId == request.correlationId else { return }
            slot.complete(result)
        }
    }

    /// Answers a capture request `BUSY`: its slot is taken (Troubleshooting, "Typed Slot Returns
    /// BUSY Error").
    private func answerBusy(_ request: BridgeMessage) {
        respond(
            to: request.correlationId, action: request.payload.action, status: .error, data: nil,
            error: BridgeErrorCode.busy.payload())
    }

    /// Starts a handler now, on the main actor, before the next message is routed (FAQ, "Is the
    /// message order preserved?": "Messages are processed in the order they arrive").
    ///
    /// The handler runs synchronously up to its first suspension, so one that responds without
    /// awaiting has answered when this returns. Where `Task.immediate` is unavailable (Apple
    /// systems before 26) it is a main-actor task, which the main actor starts in the order
    /// they were made.
    private func startInArrivalOrder(_ work: @escaping @MainActor @Sendable () async -> Void) {
        #if compiler(>=6.2)
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            Task.immediate { @MainActor in await work() }
            return
        }
        #endif
        Task { @MainActor in await work() }
    }

    /// Puts a request a handler took back among the unanswered: it joins `pendingRequests`, as
    /// if no handler had taken it (``BridgeResponder/passToPending()``). Does nothing for a
    /// request that is not outstanding (answered already, or never received) or already pending.
    func passToPending(_ correlationId: String) {
        guard let request = outstanding[correlationId], !pendingRequests.contains(where: { $0.correlationId == correlationId }) else {
            return
        }
        addPending(request, time: now())
    }

    /// `loggedAs`: ``receivedTrafficCount`` right after `request` was reported, when it was
    /// routed as it arrived.
    private func addPending(_ request: BridgeMessage, time: Date, loggedAs: Int? = nil) {
        // A fault delays or swallows what a handler or slot answers; whoever answers a pending
        // request (an inspector, a reply rule, the app) is answered as usual.
        answerFaults[request.correlationId] = nil
        outstanding[request.correlationId] = request
        pendingRequests.append(request)
        pendingSince[request.correlationId] = time
        emit(.pendingAdded(PendingRequest(message: request, since: time)), isLastLogged: loggedAs == receivedTrafficCount)
        if pendingRequests.count == pendingRequestWarningThreshold + 1 {
            setLastError(
                "Pending request leak: \(pendingRequests.count) requests are waiting for a response (warning threshold \(pendingRequestWarningThreshold)); register handlers for their actions or respond to them"
            )
        }
        delegate?.bridgeHost(self, unhandledRequest: request)
    }

    /// The pending requests with their arrival times, oldest first.
    public var pendingRequestRecords: [PendingRequest] {
        pendingRequests.map { PendingRequest(message: $0, since: pendingSince[$0.correlationId] ?? now()) }
    }
}
