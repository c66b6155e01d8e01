#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CSocketShims

extension UnixConnection {
    /// Connects over TCP to `host` (a name or numeric address) on `port`, waiting at most
    /// `timeoutMilliseconds`.
    ///
    /// The result is the same connection type as for a Unix socket: reads, writes and
    /// closing work identically on any connected stream socket. There is no peer check:
    /// anything listening on that port answers, so the caller authenticates (or trusts
    /// nothing it reads). `TCP_NODELAY` is set, as the frames are small and interactive.
    /// Throws `SocketSystemError` (ECONNREFUSED: nobody listens; ETIMEDOUT; EHOSTUNREACH
    /// also when the name does not resolve).
    public static func connectTCP(
        host: String,
        port: Int,
        timeoutMilliseconds: Int32 = 5_000,
        nonBlocking: Bool = true
    ) throws -> UnixConnection {
        let target = "\(host):\(port)"
        var pending: Int32 = 0
        let descriptor = csock_tcp_connect(host, Int32(clamping: port), &pending)
        guard descriptor >= 0 else { throw SocketSystemError.current("connect", path: target) }
        let connection = UnixConnection(adopting: FileDescriptor(adopting: descriptor))
        do {
            if pending != 0 {
                try finishConnecting(descriptor, target: target, timeoutMilliseconds: timeoutMilliseconds)
            }
            if !nonBlocking {
                try connection.setNonBlocking(false)
            }
        } catch {
            connection.close()
            throw error
        }
        return connection
    }
}
