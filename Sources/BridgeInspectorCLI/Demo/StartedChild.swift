import ThreadSupport

/// The child and its attach task, once started, for the signal handler (which may run before).
final class StartedChild: Sendable {
    private struct Started {
        var child: ChildHost?
        var attach: Task<Void, any Error>?
    }

    private let started = Locked(Started())

    /// Records the started child and its attach task.
    func set(child: ChildHost, attach: Task<Void, any Error>) {
        started.withLock { $0 = Started(child: child, attach: attach) }
    }

    /// The child, once started.
    var child: ChildHost? { started.current.child }

    /// The attach task, once started.
    var attach: Task<Void, any Error>? { started.current.attach }
}
