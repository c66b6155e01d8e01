import Foundation

/// Fault injection: a ``BridgeFaultInjector`` makes the host's real handling go wrong on purpose,
/// per message, so a journey's unhappy paths can be tried on demand.
///
/// Where faults sit (docs/inspector-protocol.md, "Fault rules"):
/// - a request from the journey is offered to the injector first, before breakpoints and routing
///   (a request whose correlation id is still outstanding is refused as a duplicate, as always,
///   and is never faulted); its record carries the mark;
/// - `error` answers it at once through the normal send path, the answer marked as the request
///   is; `drop` loses it (logged only);
///   `delay` and `neverAnswer` let it be routed (breakpoints may hold it, its handler runs) and
///   change what is sent in answer: the answer is not pending meanwhile, it has been given;
/// - a response or event is offered to the injector before breakpoints; what a fault lets go on
///   (late, twice, after the next message) then meets breakpoints as any delivery does;
/// - every timer runs on the host's ``clock``.
extension BridgeHost {
    /// Sets the injector that decides which messages are faulted, or removes it (`nil`): messages
    /// a `reorder` fault holds back are delivered at once, and answers not yet given go out as
    /// their handlers give them. Delays already running finish.
    public func setFaultInjector(_ injector: (any BridgeFaultInjector)?) {
        faultInjector = injector
        guard injector == nil else { return }
        answerFaults = BoundedMap(capacity: answerFaults.capacity)
        while !reorderedMessages.isEmpty { deliverReordered() }
    }

    /// The messages a `reorder` fault holds back now, oldest first.
    public var reorderedCount: Int { reorderedMessages.count }

    // MARK: Inside the host

    /// A fault decided for a request: what it does and the mark its records carry.
    struct AnswerFault {
        var mark: FaultMark
        var action: FaultAction
    }

    /// A sent message held back by a `reorder` fault.
    struct ReorderedMessage {
        var number: Int
        var message: BridgeMessage
        var json: Data
        var mark: FaultMark
    }

    /// The fault for a request just received, if the injector names one that applies to a request.
    func requestFault(for request: BridgeMessage, json: Data) -> AnswerFault? {
        guard let faultInjector, outstanding[request.correlationId] == nil,
            let verdict = faultInjector.fault(request, direction: .received, json: json)
        else { return nil }
        let mark: FaultMark
        switch verdict.action {
        case .delay(let seconds):
            mark = FaultMark(rule: verdict.rule, effect: .delayed, detail: Self.millisecondsText(seconds))
        case .error(let payload):
            mark = FaultMark(rule: verdict.rule, effect: .errored, detail: payload.code)
        case .neverAnswer:
            mark = FaultMark(rule: verdict.rule, effect: .neverAnswered)
        case .drop:
            mark = FaultMark(rule: verdict.rule, effect: .dropped)
        case .duplicate, .reorder:
            return nil
        }
        return AnswerFault(mark: mark, action: verdict.action)
    }

    /// Sends (or not) the answer to a request a fault delays or swallows.
    func applyAnswerFault(_ fault: AnswerFault, to response: BridgeMessage, json: Data, hold: HoldMark?) {
        switch fault.action {
        case .delay(let seconds):
            let mark = FaultMark(rule: fault.mark.rule, effect: .delayed, detail: fault.mark.detail)
            later(seconds) { host in host.deliver(response, json: json, hold: hold, fault: mark) }
        case .neverAnswer:
            emitTraffic(.sent, response, json: json, time: now(), marks: TrafficMarks(hold: hold, fault: fault.mark))
        case .error:
            deliver(response, json: json, hold: hold, fault: fault.mark)
        case .drop, .duplicate, .reorder:
            deliver(response, json: json, hold: hold)
        }
    }

    /// Applies the injector's fault to a response or event about to be delivered; `true` when the
    /// fault took it over (it is then delivered later, twice, or never).
    func faultIfAsked(_ message: BridgeMessage, json: Data) -> Bool {
        guard let faultInjector, let verdict = faultInjector.fault(message, direction: .sent, json: json) else { return false }
        switch verdict.action {
        case .drop:
            emitTraffic(.sent, message, json: json, time: now(), marks: TrafficMarks(fault: FaultMark(rule: verdict.rule, effect: .dropped)))
        case .duplicate:
            let mark = FaultMark(rule: verdict.rule, effect: .duplicated)
            deliver(message, json: json, fault: mark)
            deliver(message, json: json, fault: mark)
        case .delay(let seconds):
            let mark = FaultMark(rule: verdict.rule, effect: .delayed, detail: Self.millisecondsText(seconds))
            later(seconds) { host in host.deliver(message, json: json, fault: mark) }
        case .reorder(let bound):
            reorderCount += 1
            let number = reorderCount
            reorderedMessages.append(ReorderedMessage(
                number: number, message: message, json: json, mark: FaultMark(rule: verdict.rule, effect: .reordered)))
            later(bound) { host in host.deliverReordered(number: number) }
        case .error, .neverAnswer:
            return false
        }
        return true
    }

    /// Delivers the messages a `reorder` fault held back (all of them, or only `number` when its
    /// bound has passed), oldest first.
    func deliverReordered(number: Int? = nil) {
        let due = reorderedMessages.filter { number == nil || $0.number == number }
        reorderedMessages.removeAll { item in due.contains { $0.number == item.number } }
        for item in due { deliver(item.message, json: item.json, fault: item.mark) }
    }

    /// Runs `work` on the main actor after `seconds` on the host's clock (at once for 0 or less).
    private func later(_ seconds: Double, _ work: @escaping @MainActor (BridgeHost) -> Void) {
        let clock = self.clock
        let sleep = Duration.seconds(max(0, min(seconds.isFinite ? seconds : 0, Self.longestHoldTimer)))
        Task { @MainActor [weak self] in
            try? await clock.sleep(for: sleep)
            guard let self else { return }
            work(self)
        }
    }

    /// `2000ms`: a delay as a mark shows it.
    static func millisecondsText(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "?ms" }
        return "\(Int((seconds * 1000).rounded()))ms"
    }
}
