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
        packageObservers.removeAll { $0.id == token.id }
    }

    /// Calls `observer` with every change from now on, as ``addObserver(_:)`` does, except that
    /// traffic comes in pieces (``PackageObserver/traffic``) instead of a ``TrafficRecord`` in a
    /// ``BridgeChange``: for the inspector agent, whose hand-off runs on the host's hot path and
    /// keeps only a message's bytes. Stop it with ``removeObserver(_:)``.
    @discardableResult
    package func addPackageObserver(_ observer: PackageObserver) -> BridgeObservationToken {
        nextObserverId += 1
        // No message reported before it was added is one it got.
        receivedTrafficCount += 1
        packageObservers.append((nextObserverId, observer))
        return BridgeObservationToken(id: nextObserverId)
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

    /// Tells every observer of a change other than traffic (``emitTraffic(_:_:json:time:marks:)``).
    /// `isLastLogged`, for a request added to `pendingRequests` or a message held, says that it
    /// is the very message reported last as traffic in its direction (package observers get it).
    func emit(_ change: @autoclosure () -> BridgeChange, isLastLogged: Bool = false) {
        guard !observers.isEmpty || !packageObservers.isEmpty else { return }
        let value = change()
        for observer in observers.values { observer(value) }
        for entry in packageObservers { entry.observer.change(value, isLastLogged) }
    }

    /// Tells every observer that a message crossed the bridge: package observers get its pieces,
    /// borrowed; a ``TrafficRecord`` (and its ``BridgeChange``) is built only for observers added
    /// with ``addObserver(_:)``, and only when there are any. `lent` is `json`'s bytes when the
    /// caller has them at hand (``PackageObserver/traffic``).
    func emitTraffic(
        _ direction: TrafficRecord.Direction, _ message: BridgeMessage, json: Data, lent: UnsafeRawBufferPointer? = nil,
        time: @autoclosure () -> Date, marks: TrafficMarks = TrafficMarks()
    ) {
        if direction == .received { receivedTrafficCount &+= 1 }
        // Each look at a stored property is an exclusivity check: the lists are read once.
        let packageObservers = self.packageObservers
        let hasObservers = !observers.isEmpty
        guard hasObservers || !packageObservers.isEmpty else { return }
        let time = time()
        for entry in packageObservers { entry.observer.traffic(direction, message, json, lent, time, marks) }
        guard hasObservers else { return }
        let change = BridgeChange.traffic(TrafficRecord(
            direction: direction, message: message, json: json, time: time, deliveryError: marks.deliveryError,
            hold: marks.hold, fault: marks.fault))
        for observer in observers.values { observer(change) }
    }

    func slotDidChange(_ slot: CaptureCapability) {
        emit(.slot(slot.state))
    }
}
