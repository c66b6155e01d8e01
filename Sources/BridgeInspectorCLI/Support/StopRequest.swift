import ThreadSupport

/// A flag one thread sets and others read: "a stop was asked for" (by a signal, by task
/// cancellation). A lock rather than `Synchronization.Atomic`, which macOS 13 lacks.
final class StopRequest: Sendable {
    private let flag = Locked(false)

    /// Records that a stop was asked for.
    func set() {
        flag.withLock { $0 = true }
    }

    /// Whether a stop was asked for.
    var isSet: Bool { flag.current }
}
