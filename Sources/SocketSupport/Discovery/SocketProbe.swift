#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CSocketShims

/// Tells a live socket from a stale one by trying to connect, the only test that
/// cannot mistake a busy server for a dead one on Linux.
///
/// Used before binding (never unlink a socket a live server still answers on) and by
/// discovery. A live server sees the probe as a connection that closes at once.
public enum SocketProbe {
    /// Connects to `path` without blocking and closes again at once.
    /// Success or a full backlog (EAGAIN/EINPROGRESS) is `.live`; ECONNREFUSED or ENOENT
    /// is `.stale`; anything else is `.unknown`. On macOS a full backlog also reports
    /// ECONNREFUSED, so a server overwhelmed by connections could look stale there.
    public static func check(path: String) -> SocketLiveness {
        let address: UnixSocketAddress
        do {
            address = try UnixSocketAddress(path: path)
        } catch {
            return .unknown(SocketSystemError(operation: "connect", path: path, code: ENAMETOOLONG))
        }
        let descriptor = csock_unix_stream_socket(1)
        guard descriptor >= 0 else {
            return .unknown(.current("socket"))
        }
        defer { SystemCalls.closeDescriptor(descriptor) }
        if SystemCalls.connectSocket(descriptor, to: address) == 0 {
            return .live
        }
        let error = SocketSystemError.current("connect", path: path)
        switch error.code {
        case EAGAIN, EWOULDBLOCK, EINPROGRESS, EALREADY, EINTR:
            return .live
        case ECONNREFUSED, ENOENT:
            return .stale
        default:
            return .unknown(error)
        }
    }
}

/// Whether anybody serves a socket file, as found by `SocketProbe.check(path:)`.
public enum SocketLiveness: Sendable, Hashable {
    /// A server accepted (or queued) a connection.
    case live
    /// Nobody serves it: connect failed with ECONNREFUSED or ENOENT. Safe to remove.
    case stale
    /// The probe failed for another reason (EACCES, path too long, ...): neither
    /// live nor provably stale, so the file must be left alone.
    case unknown(SocketSystemError)
}
