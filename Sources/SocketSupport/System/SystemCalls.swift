#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CSocketShims

/// Internal wrappers around the system calls this module uses.
///
/// They retry on EINTR, and their names never collide with the `close()`, `read` and
/// `write` methods of the public types (Swift would otherwise resolve to the method).
enum SystemCalls {
    /// The current thread's errno.
    static var lastError: Int32 { errno }

    /// Runs `body` until it does not fail with EINTR.
    static func retryingOnInterrupt<Result: BinaryInteger>(_ body: () -> Result) -> Result {
        while true {
            let result = body()
            if result == -1 && errno == EINTR { continue }
            return result
        }
    }

    /// Closes `descriptor`. Never retried: on Linux the descriptor is gone even when
    /// close reports EINTR, and retrying could close a descriptor another thread just opened.
    static func closeDescriptor(_ descriptor: Int32) {
        _ = close(descriptor)
    }

    static func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        return retryingOnInterrupt { read(descriptor, base, buffer.count) }
    }

    static func writeBytes(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        return retryingOnInterrupt { write(descriptor, base, buffer.count) }
    }

    /// `send` with `MSG_NOSIGNAL` where it exists, so a gone peer yields EPIPE, never SIGPIPE.
    static func sendBytes(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        let flags = csock_msg_nosignal()
        return retryingOnInterrupt { send(descriptor, base, buffer.count, flags) }
    }

    /// `sendmsg` of `buffers` in order (a gathering write, as `writev`), with `MSG_NOSIGNAL`
    /// where it exists as ``sendBytes(_:_:)``; at most ``maxGatheredBuffers`` of them (the rest
    /// is left for the next call, as a short write leaves it).
    static func sendGathered(_ descriptor: Int32, _ buffers: UnsafeBufferPointer<UnsafeRawBufferPointer>) -> Int {
        let count = min(buffers.count, maxGatheredBuffers)
        guard count > 0 else { return 0 }
        return withUnsafeTemporaryAllocation(of: iovec.self, capacity: count) { vectors in
            guard let start = vectors.baseAddress else { return 0 }
            for index in 0..<count {
                let buffer = buffers[index]
                (start + index).initialize(to: iovec(iov_base: UnsafeMutableRawPointer(mutating: buffer.baseAddress), iov_len: buffer.count))
            }
            var message = msghdr()
            message.msg_iov = start
            message.msg_iovlen = .init(count)
            let flags = csock_msg_nosignal()
            let written = retryingOnInterrupt { sendmsg(descriptor, &message, flags) }
            (start).deinitialize(count: count)
            return written
        }
    }

    /// The most buffers one gathering write takes (`IOV_MAX` is 1024 on Linux and Darwin).
    static let maxGatheredBuffers = 1024

    static func receiveBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        return retryingOnInterrupt { recv(descriptor, base, buffer.count, 0) }
    }

    static func connectSocket(_ descriptor: Int32, to address: UnixSocketAddress) -> Int32 {
        address.withSocketAddress { pointer, length in
            // A connect interrupted by a signal continues asynchronously; retrying would
            // report EALREADY/EISCONN, so EINTR is handled by the callers instead.
            connect(descriptor, pointer, length)
        }
    }

    static func bindSocket(_ descriptor: Int32, to address: UnixSocketAddress) -> Int32 {
        address.withSocketAddress { pointer, length in
            bind(descriptor, pointer, length)
        }
    }

    static func listenSocket(_ descriptor: Int32, backlog: Int32) -> Int32 {
        listen(descriptor, backlog)
    }

    static func linkStatus(_ path: String) -> stat? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return status
    }

    static func fileStatus(_ path: String) -> stat? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return status
    }

    static func fileType(_ status: stat) -> mode_t {
        status.st_mode & mode_t(S_IFMT)
    }

    static func isSocket(_ status: stat) -> Bool {
        fileType(status) == mode_t(S_IFSOCK)
    }

    static func isDirectory(_ status: stat) -> Bool {
        fileType(status) == mode_t(S_IFDIR)
    }

    static func isSymbolicLink(_ status: stat) -> Bool {
        fileType(status) == mode_t(S_IFLNK)
    }

    /// A human name for the type of file in `status`, for error messages.
    static func fileTypeName(_ status: stat) -> String {
        switch fileType(status) {
        case mode_t(S_IFREG): return "a regular file"
        case mode_t(S_IFDIR): return "a directory"
        case mode_t(S_IFLNK): return "a symbolic link"
        case mode_t(S_IFSOCK): return "a socket"
        case mode_t(S_IFIFO): return "a named pipe"
        case mode_t(S_IFCHR): return "a character device"
        case mode_t(S_IFBLK): return "a block device"
        default: return "an unknown kind of file"
        }
    }

    static func unlinkPath(_ path: String) -> Int32 {
        unlink(path)
    }

    static func changeMode(_ path: String, _ mode: mode_t) -> Int32 {
        retryingOnInterrupt { chmod(path, mode) }
    }

    static func makeDirectory(_ path: String, _ mode: mode_t) -> Int32 {
        mkdir(path, mode)
    }

    static func effectiveUserID() -> uid_t {
        geteuid()
    }

    static func environmentValue(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }

    static func isAccessible(_ path: String, writable: Bool) -> Bool {
        access(path, writable ? (W_OK | X_OK) : X_OK) == 0
    }

    static func pollDescriptors(_ descriptors: UnsafeMutablePointer<pollfd>?, _ count: Int, _ timeout: Int32) -> Int32 {
        poll(descriptors, nfds_t(count), timeout)
    }

    static func fileStatusFlags(_ descriptor: Int32) -> Int32 {
        fcntl(descriptor, F_GETFL)
    }

    static func setFileStatusFlags(_ descriptor: Int32, _ flags: Int32) -> Int32 {
        fcntl(descriptor, F_SETFL, flags)
    }

    static func shutdownWriting(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
        shutdown(descriptor, SHUT_WR)
        #else
        shutdown(descriptor, Int32(SHUT_WR))
        #endif
    }

    static func socketError(_ descriptor: Int32) -> Int32 {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &value, &length) == 0 else { return errno }
        return value
    }
}
