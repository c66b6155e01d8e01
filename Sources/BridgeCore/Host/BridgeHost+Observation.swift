import Foundation

extension BridgeHost {
    /// Calls `observer` with every change to the host's state from now on, synchronously on the
    /// main actor, in order, right after each change. Nothing is missed and nothing is polled.
    ///
    /// The observer runs on the host's hot path: it must only hand the change off (append to a
    /// queue, signal a thread) and never block. To start from a consistent state, take
    /// ``snapshot()`` and add the observer in the same main-actor turn:
    ///
    /// ```swift
    /// let initial = host.snapshot()
    /// let token = host.addObserver { change in queue.push(change) }
    /// // ... later
    /// host.removeObserver(token)
    /// ```
    @discardableResult
    public func addObserver(_ observer: @escaping @Sendable (BridgeChange) -> Void) -> BridgeObservationToken {
        nextObserverId += 1
        observers[nextObserverId] = observer
        return BridgeObservationToken(id: nextObserverId)
    }

    /// Stops calling an observer.
    public func removeObserver(_ token: BridgeObservationToken) {
        observers.removeValue(forKey: token.id)
    }

    /// Every change from now on as an async sequence, buffered without limit so none is missed.
    /// Ends when the returned stream is dropped or cancelled.
    public func changes() -> AsyncStream<BridgeChange> {
        let (stream, continuation) = AsyncStream<BridgeChange>.makeStream(bufferingPolicy: .unbounded)
        let token = addObserver { change in continuation.yield(change) }
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.removeObserver(token) }
        }
        return stream
    }

    /// Everything the diagnostic surfaces hold now.
    public func snapshot() -> BridgeSnapshot {
        BridgeSnapshot(
            hostVersion: hostVersion, environment: environment, lastError: lastError,
            receivedMessages: receivedMessages, pendingRequests: pendingRequestRecords,
            slots: captureSlots.map(\.state), customCapabilities: customCapabilities,
            isJourneyAttached: isJourneyAttached, heldMessages: heldMessages, time: now())
    }

    func emit(_ change: @autoclosure () -> BridgeChange) {
        guard !observers.isEmpty else { return }
        let value = change()
        for observer in observers.values { observer(value) }
    }

    func slotDidChange(_ slot: CaptureCapability) {
        emit(.slot(slot.state))
    }
}
