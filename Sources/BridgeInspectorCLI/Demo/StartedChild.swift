import Foundation

/// The child and its attach task, once started, for the signal handler (which may run before).
final class StartedChild: @unchecked Sendable {
    private let lock = NSLock()
    private var storedChild: ChildHost?
    private var storedAttach: Task<Void, any Error>?

    /// Records the started child and its attach task.
    func set(child: ChildHost, attach: Task<Void, any Error>) {
        lock.lock()
        storedChild = child
        storedAttach = attach
        lock.unlock()
    }

    /// The child, once started.
    var child: ChildHost? {
        lock.lock()
        defer { lock.unlock() }
        return storedChild
    }

    /// The attach task, once started.
    var attach: Task<Void, any Error>? {
        lock.lock()
        defer { lock.unlock() }
        return storedAttach
    }
}
