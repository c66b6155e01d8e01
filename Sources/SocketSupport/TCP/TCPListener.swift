#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CSocketShims

/// A TCP listening socket, for reaching an agent through a forwarded port (a phone's
/// `127.0.0.1` over USB with `iproxy`).
///
/// Unlike ``UnixListener`` there is no peer-user check: TCP carries no credentials, and
/// any process that can reach the port can connect. Whoever accepts must therefore
/// authenticate each connection before trusting it (the agent asks for a token).
///
/// By default only loopback addresses (IPv4 `127.0.0.0/8`, IPv6 `::1`) are accepted:
/// binding anything else throws ``TCPListenerError/notLoopback(address:)`` unless
/// `allowNonLoopback` is set, because then everyone on the network can connect.
/// Accepted connections are ``UnixConnection`` values: reads and writes on a connected
/// stream socket are the same for TCP and Unix sockets.
public final class TCPListener: @unchecked Sendable {
    /// The numeric address bound, as given (for example `127.0.0.1`).
    public let address: String
    /// The port bound: the one asked for, or the one the system chose for port 0.
    public let port: Int
    /// Whether `address` is a loopback address.
    public let isLoopback: Bool
    /// The owned listening descriptor.
    public let fileDescriptor: FileDescriptor

    /// Binds `address` (numeric IPv4 or IPv6) on `port` (0: any free port; see ``port``)
    /// and listens, non-blocking. Throws ``TCPListenerError`` (bad address or port, not
    /// loopback without `allowNonLoopback`, port in use) or `SocketSystemError`.
    public init(address: String = "127.0.0.1", port: Int, allowNonLoopback: Bool = false, backlog: Int32 = 64) throws {
        guard (0...65_535).contains(port) else { throw TCPListenerError.badPort(port) }
        let loopback = csock_is_loopback(address)
        guard loopback >= 0 else { throw TCPListenerError.badAddress(address) }
        guard loopback == 1 || allowNonLoopback else { throw TCPListenerError.notLoopback(address: address) }
        var bound: Int32 = 0
        let descriptor = csock_tcp_listen(address, Int32(port), backlog, &bound)
        guard descriptor >= 0 else {
            let error = SocketSystemError.current("listen on \(address):\(port)")
            if error.code == EADDRINUSE { throw TCPListenerError.portInUse(address: address, port: port) }
            throw error
        }
        self.address = address
        self.port = Int(bound)
        self.isLoopback = loopback == 1
        self.fileDescriptor = FileDescriptor(adopting: descriptor)
    }

    deinit {
        close()
    }

    /// The listening descriptor number for `poll`, or -1 once closed.
    public var rawValue: Int32 {
        fileDescriptor.rawValue
    }

    /// Accepts one pending connection, non-blocking and close-on-exec; `nil` when nothing
    /// is pending (or the peer gave up before we accepted). Throws `SocketSystemError`
    /// for real failures (such as EMFILE: out of descriptors).
    public func accept() throws -> UnixConnection? {
        let descriptor = try fileDescriptor.openDescriptor("accept")
        let accepted = SystemCalls.retryingOnInterrupt { csock_accept(descriptor, 1) }
        guard accepted >= 0 else {
            let error = SocketSystemError.current("accept")
            switch error.code {
            case EAGAIN, EWOULDBLOCK, ECONNABORTED, EPROTO:
                return nil
            default:
                throw error
            }
        }
        return UnixConnection(adopting: FileDescriptor(adopting: accepted))
    }

    /// Stops listening; later calls do nothing.
    public func close() {
        fileDescriptor.close()
    }
}

/// Why a ``TCPListener`` could not listen.
public enum TCPListenerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The port is outside 0...65535.
    case badPort(Int)
    /// The address is not a numeric IPv4 or IPv6 address.
    case badAddress(String)
    /// The address is not loopback and listening on it was not explicitly allowed.
    case notLoopback(address: String)
    /// Another program listens on that port.
    case portInUse(address: String, port: Int)

    /// The problem and what to do about it.
    public var description: String {
        switch self {
        case .badPort(let port):
            return "\(port) is not a TCP port; use 1...65535, or 0 for any free port"
        case .badAddress(let address):
            return "\(address.debugDescription) is not a numeric IP address; use 127.0.0.1 (or ::1)"
        case .notLoopback(let address):
            return "refusing to listen on \(address): it is not a loopback address, so anyone on the network "
                + "could connect. Listen on 127.0.0.1 (and forward the port with iproxy), or allow it explicitly."
        case .portInUse(let address, let port):
            return "port \(port) on \(address) is already in use; choose another port, or 0 for any free port"
        }
    }
}
