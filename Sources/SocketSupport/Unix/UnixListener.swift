#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CSocketShims
import ThreadSupport

/// The server side: a listening Unix socket at a path, for the agent embedded in a host.
///
/// Creating one takes over a stale socket file left by a crashed host (nobody answers:
/// ECONNREFUSED) but never one a live host still serves, and never a file that is not a
/// socket. The socket file is made 0600 before `listen`, the descriptor is non-blocking
/// and close-on-exec, and `accept()` hands out only connections from our own user.
/// `close()` (or deinit) removes the socket file, but only if it is still the file this
/// listener created. Poll `rawValue` for `.readable` to learn of pending connections.
public final class UnixListener: @unchecked Sendable {
    /// The outcome of one `accept()`.
    public enum AcceptResult: Sendable {
        /// A connection from our own user, non-blocking unless asked otherwise.
        case accepted(UnixConnection)
        /// Nothing is pending (or the pending client already gave up).
        case noPendingConnection
        /// A connection was accepted and closed again because its peer failed the check.
        case rejected(PeerCredentialError)
    }

    /// The socket file's path.
    public let path: String
    /// The owned listening descriptor.
    public let fileDescriptor: FileDescriptor
    /// The only user id whose connections are accepted: our effective uid.
    public let allowedUserID: uid_t

    private let device: UInt64
    private let inode: UInt64
    private let closed = Locked(false)

    /// Binds and listens on `path` (see the type's summary for the checks). Throws
    /// `UnixSocketAddressError` (path too long), `UnixListenerError` (a live host
    /// serves it, or it is not a socket) or `SocketSystemError`.
    public init(path: String, backlog: Int32 = 64) throws {
        let address = try UnixSocketAddress(path: path)
        try Self.removeStaleSocket(at: path)

        let descriptor = csock_unix_stream_socket(1)
        guard descriptor >= 0 else { throw SocketSystemError.current("socket") }
        let fileDescriptor = FileDescriptor(adopting: descriptor)

        guard SystemCalls.bindSocket(descriptor, to: address) == 0 else {
            let error = SocketSystemError.current("bind", path: path)
            fileDescriptor.close()
            if error.code == EADDRINUSE { throw UnixListenerError.alreadyServing(path: path) }
            throw error
        }
        // From here on the file is ours: remove it again if anything fails.
        guard let status = SystemCalls.linkStatus(path) else {
            let error = SocketSystemError.current("lstat", path: path)
            fileDescriptor.close()
            throw error
        }
        func fail(_ error: SocketSystemError) -> SocketSystemError {
            _ = SystemCalls.unlinkPath(path)
            fileDescriptor.close()
            return error
        }
        guard SystemCalls.changeMode(path, 0o600) == 0 else {
            throw fail(.current("chmod", path: path))
        }
        guard SystemCalls.listenSocket(descriptor, backlog: backlog) == 0 else {
            throw fail(.current("listen", path: path))
        }
        self.path = path
        self.fileDescriptor = fileDescriptor
        self.allowedUserID = SystemCalls.effectiveUserID()
        self.device = UInt64(truncatingIfNeeded: status.st_dev)
        self.inode = UInt64(truncatingIfNeeded: status.st_ino)
    }

    /// Ensures `directory` (mode 0700, owned by us) and listens on the socket `name`
    /// inside it. Throws `SocketDirectoryError` or anything `init(path:backlog:)` throws.
    public convenience init(directory: SocketDirectory, name: SocketName, backlog: Int32 = 64) throws {
        try directory.ensure()
        try self.init(path: directory.socketPath(for: name), backlog: backlog)
    }

    deinit {
        close()
    }

    /// The listening descriptor number for `poll`, or -1 once closed.
    public var rawValue: Int32 {
        fileDescriptor.rawValue
    }

    /// Accepts one pending connection and checks that its peer runs as our user; a
    /// foreign peer is closed at once and reported as `.rejected`. The connection is
    /// non-blocking and close-on-exec unless `nonBlocking` is false. Throws
    /// `SocketSystemError` for real failures (such as EMFILE: out of descriptors).
    public func accept(nonBlocking: Bool = true) throws -> AcceptResult {
        let descriptor = try fileDescriptor.openDescriptor("accept")
        let accepted = SystemCalls.retryingOnInterrupt { csock_accept(descriptor, nonBlocking ? 1 : 0) }
        guard accepted >= 0 else {
            let error = SocketSystemError.current("accept", path: path)
            switch error.code {
            case EAGAIN, EWOULDBLOCK, ECONNABORTED, EPROTO:
                return .noPendingConnection
            default:
                throw error
            }
        }
        let connection = UnixConnection(adopting: FileDescriptor(adopting: accepted))
        let peer: uid_t
        do {
            peer = try connection.peerUserID()
        } catch let error as SocketSystemError {
            connection.close()
            return .rejected(.credentialsUnavailable(error))
        }
        guard peer == allowedUserID else {
            connection.close()
            return .rejected(.foreignUser(peerUID: UInt32(peer), expectedUID: UInt32(allowedUserID)))
        }
        return .accepted(connection)
    }

    /// Stops listening and removes the socket file if it is still the one this
    /// listener created (same device and inode), so a successor's socket is never
    /// removed. Runs once; later calls do nothing.
    public func close() {
        let first = closed.withLock { isClosed -> Bool in
            defer { isClosed = true }
            return !isClosed
        }
        guard first else { return }
        if let status = SystemCalls.linkStatus(path), SystemCalls.isSocket(status),
           UInt64(truncatingIfNeeded: status.st_dev) == device,
           UInt64(truncatingIfNeeded: status.st_ino) == inode {
            _ = SystemCalls.unlinkPath(path)
        }
        fileDescriptor.close()
    }

    /// Removes the socket file at `path` if nobody serves it. Throws if a live host
    /// answers, if the file is not a socket, or if it cannot be proven stale.
    private static func removeStaleSocket(at path: String) throws {
        guard let status = SystemCalls.linkStatus(path) else {
            let error = SocketSystemError.current("lstat", path: path)
            if error.code == ENOENT { return }
            throw error
        }
        guard SystemCalls.isSocket(status) else {
            throw UnixListenerError.notASocket(path: path, kind: SystemCalls.fileTypeName(status))
        }
        switch SocketProbe.check(path: path) {
        case .live:
            throw UnixListenerError.alreadyServing(path: path)
        case .stale:
            if SystemCalls.unlinkPath(path) != 0 {
                let error = SocketSystemError.current("unlink", path: path)
                if error.code != ENOENT { throw error }
            }
        case .unknown(let error):
            throw UnixListenerError.cannotCheckExisting(path: path, error: error)
        }
    }
}
