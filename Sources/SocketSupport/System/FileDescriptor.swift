#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ThreadSupport

/// Owns one open file descriptor and closes it exactly once.
///
/// `close()` may be called any number of times from any thread; only the first call
/// closes, and `deinit` closes if nobody did. After closing, `rawValue` is -1, so a
/// stale number is never handed to the kernel again by this wrapper.
///
/// Close a descriptor only from the thread that does its I/O (or after that thread
/// has stopped): a close racing a `read` on another thread could let the kernel reuse
/// the number for an unrelated file.
public final class FileDescriptor: @unchecked Sendable {
    private let state: Locked<Int32>

    /// Takes ownership of `rawValue`, an open descriptor nobody else will close.
    public init(adopting rawValue: Int32) {
        state = Locked(rawValue)
    }

    deinit {
        close()
    }

    /// The descriptor number to pass to system calls or `poll`, or -1 once closed.
    public var rawValue: Int32 {
        state.withLock { $0 }
    }

    /// Whether `close()` has run.
    public var isClosed: Bool {
        rawValue < 0
    }

    /// Closes the descriptor the first time it is called; later calls do nothing.
    public func close() {
        let descriptor = state.withLock { value -> Int32 in
            let old = value
            value = -1
            return old
        }
        if descriptor >= 0 {
            SystemCalls.closeDescriptor(descriptor)
        }
    }

    /// The open descriptor number, or EBADF as a `SocketSystemError` once closed.
    func openDescriptor(_ operation: String) throws -> Int32 {
        let descriptor = rawValue
        guard descriptor >= 0 else {
            throw SocketSystemError(operation: operation, code: EBADF)
        }
        return descriptor
    }

    /// Whether `O_NONBLOCK` is set, that is whether reads and writes return
    /// "would block" instead of waiting.
    public func isNonBlocking() throws -> Bool {
        let descriptor = try openDescriptor("fcntl(F_GETFL)")
        let flags = SystemCalls.fileStatusFlags(descriptor)
        guard flags != -1 else { throw SocketSystemError.current("fcntl(F_GETFL)") }
        return flags & O_NONBLOCK != 0
    }

    /// Sets or clears `O_NONBLOCK`. A poll loop wants non-blocking descriptors; a
    /// simple command-line exchange may prefer blocking ones.
    public func setNonBlocking(_ nonBlocking: Bool) throws {
        let descriptor = try openDescriptor("fcntl(F_SETFL)")
        let flags = SystemCalls.fileStatusFlags(descriptor)
        guard flags != -1 else { throw SocketSystemError.current("fcntl(F_GETFL)") }
        let wanted = nonBlocking ? (flags | O_NONBLOCK) : (flags & ~O_NONBLOCK)
        guard wanted != flags else { return }
        guard SystemCalls.setFileStatusFlags(descriptor, wanted) != -1 else {
            throw SocketSystemError.current("fcntl(F_SETFL)")
        }
    }
}
