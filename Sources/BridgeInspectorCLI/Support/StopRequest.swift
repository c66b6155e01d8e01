import Foundation

/// A flag one thread sets and others read: "a stop was asked for" (by a signal, by task
/// cancellation). A lock rather than `Synchronization.Atomic`, which macOS 13 lacks.
final class StopRequest: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false

    /// Records that a stop was asked for.
    func set() {
        lock.lock()
        flag = true
        lock.unlock()
    }

    /// Whether a stop was asked for.
    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return flag
    }
}
