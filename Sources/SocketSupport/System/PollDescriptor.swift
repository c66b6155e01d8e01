/// One entry of a `Poll.wait` call: a descriptor, the events wanted, and (after the
/// call) the events that occurred.
public struct PollDescriptor: Sendable, Hashable {
    /// The descriptor to watch; a negative value is ignored by `poll`.
    public var descriptor: Int32
    /// The events to wait for.
    public var events: PollEvents
    /// The events reported by the last `Poll.wait`; empty before it.
    public var returnedEvents: PollEvents

    /// Watches `descriptor` for `events`.
    public init(descriptor: Int32, events: PollEvents) {
        self.descriptor = descriptor
        self.events = events
        self.returnedEvents = []
    }
}
