#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CSocketShims

/// One connected stream socket: the client's connection to an agent, or one client
/// connection accepted by `UnixListener` or `TCPListener`.
///
/// Despite the name it serves TCP too (`connectTCP(host:port:)`, `TCPListener.accept()`):
/// reads, writes and closing are the same on any connected stream socket. Only
/// `peerUserID()` is Unix-only (it throws on a TCP connection).
///
/// Writes never raise SIGPIPE: Linux sends with `MSG_NOSIGNAL`, Apple platforms set
/// `SO_NOSIGPIPE` on the socket; a gone peer is reported as a thrown
/// `SocketSystemError` with code EPIPE (or ECONNRESET). Nothing process-wide is
/// touched, which matters inside somebody else's process. EINTR is retried; EAGAIN
/// becomes `.wouldBlock`. The descriptor is closed exactly once (`close()` or deinit).
public final class UnixConnection: @unchecked Sendable {
    /// The outcome of one read.
    public enum ReadResult: Sendable, Hashable {
        /// This many bytes were read (zero only when the buffer given was empty).
        case bytes(Int)
        /// Nothing is available yet on a non-blocking socket.
        case wouldBlock
        /// The peer closed its end; no more data will come.
        case endOfFile
    }

    /// The outcome of one write.
    public enum WriteResult: Sendable, Hashable {
        /// This many bytes were written (possibly fewer than offered).
        case written(Int)
        /// The socket buffer is full on a non-blocking socket; wait for `.writable`.
        case wouldBlock
    }

    /// The owned descriptor.
    public let fileDescriptor: FileDescriptor

    /// Adopts a connected socket descriptor. Descriptors made by this module already
    /// carry `SO_NOSIGPIPE` where it exists; it is set again here for foreign ones.
    public init(adopting fileDescriptor: FileDescriptor) {
        self.fileDescriptor = fileDescriptor
        let descriptor = fileDescriptor.rawValue
        if descriptor >= 0 {
            _ = csock_set_nosigpipe(descriptor)
        }
    }

    /// The descriptor number for `poll`, or -1 once closed.
    public var rawValue: Int32 {
        fileDescriptor.rawValue
    }

    /// Connects to the socket at `path`, waiting at most `timeoutMilliseconds`.
    ///
    /// The connect itself never blocks indefinitely (a server with a full backlog
    /// fails with EAGAIN on Linux instead of hanging). With `requireSameUser` (the
    /// default) the server must run as our effective user, or `PeerCredentialError` is
    /// thrown: a socket planted by another user is never trusted. The connection is
    /// non-blocking unless `nonBlocking` is false. Throws `UnixSocketAddressError`,
    /// `SocketSystemError` (ECONNREFUSED/ENOENT: nobody serves it; ETIMEDOUT) or
    /// `PeerCredentialError`.
    public static func connect(
        to path: String,
        timeoutMilliseconds: Int32 = 5_000,
        nonBlocking: Bool = true,
        requireSameUser: Bool = true
    ) throws -> UnixConnection {
        let address = try UnixSocketAddress(path: path)
        let descriptor = csock_unix_stream_socket(1)
        guard descriptor >= 0 else { throw SocketSystemError.current("socket") }
        let connection = UnixConnection(adopting: FileDescriptor(adopting: descriptor))
        do {
            if SystemCalls.connectSocket(descriptor, to: address) != 0 {
                let error = SocketSystemError.current("connect", path: path)
                guard error.code == EINPROGRESS || error.code == EINTR else { throw error }
                try finishConnecting(descriptor, target: path, timeoutMilliseconds: timeoutMilliseconds)
            }
            if requireSameUser {
                let expected = SystemCalls.effectiveUserID()
                let peer: uid_t
                do {
                    peer = try connection.peerUserID()
                } catch let error as SocketSystemError {
                    throw PeerCredentialError.credentialsUnavailable(error)
                }
                guard peer == expected else {
                    throw PeerCredentialError.foreignUser(peerUID: UInt32(peer), expectedUID: UInt32(expected))
                }
            }
            if !nonBlocking {
                try connection.fileDescriptor.setNonBlocking(false)
            }
        } catch {
            connection.close()
            throw error
        }
        return connection
    }

    /// Waits (at most `timeoutMilliseconds`) for a non-blocking connect in progress on
    /// `descriptor` to finish; throws its error (ETIMEDOUT when it did not finish in time).
    static func finishConnecting(_ descriptor: Int32, target: String, timeoutMilliseconds: Int32) throws {
        let events = try Poll.wait(descriptor: descriptor, for: .writable, timeoutMilliseconds: timeoutMilliseconds)
        guard !events.isEmpty else {
            throw SocketSystemError(operation: "connect", path: target, code: ETIMEDOUT)
        }
        let pending = SystemCalls.socketError(descriptor)
        guard pending == 0 else {
            throw SocketSystemError(operation: "connect", path: target, code: pending)
        }
    }

    /// The user id of the process at the other end (`SO_PEERCRED` on Linux,
    /// `getpeereid` on Apple). Throws `SocketSystemError`.
    public func peerUserID() throws -> uid_t {
        let descriptor = try fileDescriptor.openDescriptor("peer credentials")
        var uid: uid_t = 0
        guard csock_peer_uid(descriptor, &uid) == 0 else {
            throw SocketSystemError.current("peer credentials")
        }
        return uid
    }

    /// Sets or clears non-blocking mode (see `FileDescriptor.setNonBlocking`).
    public func setNonBlocking(_ nonBlocking: Bool) throws {
        try fileDescriptor.setNonBlocking(nonBlocking)
    }

    /// Reads what is available into `buffer` (blocks only on a blocking socket).
    /// Throws `SocketSystemError` (for example ECONNRESET).
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> ReadResult {
        let descriptor = try fileDescriptor.openDescriptor("read")
        guard buffer.count > 0 else { return .bytes(0) }
        let count = SystemCalls.receiveBytes(descriptor, buffer)
        if count > 0 { return .bytes(count) }
        if count == 0 { return .endOfFile }
        let error = SocketSystemError.current("read")
        if error.code == EAGAIN || error.code == EWOULDBLOCK { return .wouldBlock }
        throw error
    }

    /// Reads up to `maxBytes`: the bytes read, an empty array when nothing is available
    /// yet (non-blocking), or nil at end of file.
    public func read(upTo maxBytes: Int) throws -> [UInt8]? {
        guard maxBytes > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: maxBytes)
        let result = try bytes.withUnsafeMutableBytes { try read(into: $0) }
        switch result {
        case .bytes(let count):
            bytes.removeSubrange(count...)
            return bytes
        case .wouldBlock:
            return []
        case .endOfFile:
            return nil
        }
    }

    /// Waits up to `timeoutMilliseconds` (negative: no limit) for data, then reads up to `maxBytes`:
    /// the bytes read, an empty array on timeout, or nil at end of file.
    public func read(upTo maxBytes: Int, timeoutMilliseconds: Int32) throws -> [UInt8]? {
        let deadline = Deadline(milliseconds: timeoutMilliseconds)
        while true {
            guard let bytes = try read(upTo: maxBytes) else { return nil }
            if !bytes.isEmpty { return bytes }
            guard let remaining = deadline.pollTimeout else { return [] }
            _ = try Poll.wait(descriptor: try fileDescriptor.openDescriptor("poll"),
                              for: .readable, timeoutMilliseconds: remaining)
        }
    }

    /// Writes what fits from `buffer` without blocking on a non-blocking socket.
    /// Throws `SocketSystemError` with EPIPE or ECONNRESET when the peer is gone.
    public func write(_ buffer: UnsafeRawBufferPointer) throws -> WriteResult {
        let descriptor = try fileDescriptor.openDescriptor("write")
        guard buffer.count > 0 else { return .written(0) }
        let count = SystemCalls.sendBytes(descriptor, buffer)
        if count >= 0 { return .written(count) }
        let error = SocketSystemError.current("write")
        if error.code == EAGAIN || error.code == EWOULDBLOCK { return .wouldBlock }
        throw error
    }

    /// Writes what fits from `buffers`, one after another as if they were one buffer, in one
    /// system call (a gathering write: `sendmsg` of their vector), without waiting: what the
    /// socket takes now, a prefix of their concatenation, as `write(_:)` takes from one raw
    /// buffer. Beyond 1,024 buffers (`IOV_MAX`) the rest is left, as a short write leaves it.
    /// Empty buffers are allowed. Throws as `write(_:)` does: EPIPE or ECONNRESET when the peer
    /// is gone.
    public func write(gathering buffers: UnsafeBufferPointer<UnsafeRawBufferPointer>) throws -> WriteResult {
        let descriptor = try fileDescriptor.openDescriptor("write")
        guard buffers.contains(where: { $0.count > 0 }) else { return .written(0) }
        let count = SystemCalls.sendGathered(descriptor, buffers)
        if count >= 0 { return .written(count) }
        let error = SocketSystemError.current("write")
        if error.code == EAGAIN || error.code == EWOULDBLOCK { return .wouldBlock }
        throw error
    }

    /// Writes what fits from `bytes` (see `write(_:)` for a raw buffer).
    public func write(_ bytes: [UInt8]) throws -> WriteResult {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Writes what fits from `bytes` (see `write(_:)` for a raw buffer).
    public func write(_ bytes: ArraySlice<UInt8>) throws -> WriteResult {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Writes all of `bytes`, waiting for the socket to drain when it is full, for at
    /// most `timeoutMilliseconds` in total (negative: no limit); throws `SocketSystemError` with ETIMEDOUT
    /// then (some bytes may have been written), or EPIPE/ECONNRESET if the peer goes.
    /// For the client and for tests: an agent's loop should queue and poll instead.
    public func writeAll(_ bytes: [UInt8], timeoutMilliseconds: Int32 = 5_000) throws {
        let deadline = Deadline(milliseconds: timeoutMilliseconds)
        var offset = 0
        while offset < bytes.count {
            switch try write(bytes[offset...]) {
            case .written(let count):
                offset += count
            case .wouldBlock:
                guard let remaining = deadline.pollTimeout else {
                    throw SocketSystemError(operation: "write", code: ETIMEDOUT)
                }
                _ = try Poll.wait(descriptor: try fileDescriptor.openDescriptor("poll"),
                                  for: .writable, timeoutMilliseconds: remaining)
            }
        }
    }

    /// Half-closes the connection: the peer reads end of file, and can still send to us.
    public func shutdownWriting() throws {
        let descriptor = try fileDescriptor.openDescriptor("shutdown")
        guard SystemCalls.shutdownWriting(descriptor) == 0 else {
            throw SocketSystemError.current("shutdown")
        }
    }

    /// Closes the connection exactly once; later calls do nothing.
    public func close() {
        fileDescriptor.close()
    }
}
