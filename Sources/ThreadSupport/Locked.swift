#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a pthread mutex: the one lock type of the package.
///
/// Every piece of state that two threads touch lives in a `Locked`, so a reader sees at once
/// what is shared and that it is only reached under its lock:
///
/// ```swift
/// let queue = Locked<[Item]>([])
/// queue.withLock { $0.append(item) }          // any thread
/// let taken = queue.withLock { items in       // another thread
///     defer { items.removeAll() }
///     return items
/// }
/// ```
///
/// Not `Synchronization.Mutex`, because the package still supports macOS 13 and iOS 16, where
/// `Mutex` is unavailable; not `NSLock`, whose state sits apart from the value it guards.
/// Critical sections must stay tiny: the host's thread takes some of these locks (the agent's
/// inbox), and its cost per message is a benchmark figure (docs/performance.md).
public final class Locked<Value>: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// The value, behind a pointer rather than in a stored property: the mutex already makes
    /// access exclusive, and a stored `var` of a class would add a dynamic exclusivity check
    /// (`swift_beginAccess`, about 60 instructions) to every `withLock`, which the host's thread
    /// pays for each message it hands to the agent (docs/performance.md, issue 30).
    @usableFromInline let storage: UnsafeMutablePointer<Value>

    /// A lock guarding `value`.
    public init(_ value: Value) {
        storage = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        storage.initialize(to: value)
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    /// Runs `body` with the value, holding the lock; `body` may change the value.
    ///
    /// Not re-entrant: calling `withLock` on the same lock from inside `body` deadlocks.
    @inlinable
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&storage.pointee)
    }

    /// A copy of the value, taken under the lock.
    @inlinable
    public var current: Value {
        withLock { $0 }
    }
}
