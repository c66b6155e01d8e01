import Synchronization

/// Whether a stop was asked for by a signal (set from the signal queue, read from the command).
final class StopRequest: Sendable {
    private let flag = Atomic<Bool>(false)

    /// Records that a stop was asked for.
    func set() { flag.store(true, ordering: .releasing) }

    /// Whether a stop was asked for.
    var isSet: Bool { flag.load(ordering: .acquiring) }
}
