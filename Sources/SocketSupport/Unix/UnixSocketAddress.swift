#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CSocketShims

/// A validated file-system Unix-socket address (`sockaddr_un`).
///
/// Create one before binding or connecting: the initializer rejects paths that do
/// not fit in `sun_path` (108 bytes on Linux, 104 on macOS, both including the NUL)
/// with a message that says so, instead of letting the kernel truncate or fail
/// obscurely. Linux abstract sockets are never produced: they have no permissions.
public struct UnixSocketAddress: Sendable, Hashable, CustomStringConvertible {
    /// The socket file's path.
    public let path: String

    /// The longest path, in UTF-8 bytes, that fits in `sun_path` with its NUL.
    public static var maximumPathByteCount: Int {
        Int(csock_sun_path_size()) - 1
    }

    /// Validates `path`; throws `UnixSocketAddressError` when it is empty, contains a
    /// NUL byte, or is longer than `maximumPathByteCount`.
    public init(path: String) throws {
        let byteCount = path.utf8.count
        guard byteCount > 0 else { throw UnixSocketAddressError.emptyPath }
        guard !path.utf8.contains(0) else { throw UnixSocketAddressError.containsNUL(path: path) }
        let limit = Self.maximumPathByteCount
        guard byteCount <= limit else {
            throw UnixSocketAddressError.pathTooLong(path: path, byteCount: byteCount, limit: limit)
        }
        self.path = path
    }

    /// The path, for messages.
    public var description: String { path }

    /// Calls `body` with a filled-in `sockaddr_un`, viewed as `sockaddr`, and its length,
    /// ready for `bind` or `connect`.
    public func withSocketAddress<Result>(
        _ body: (UnsafePointer<sockaddr>, socklen_t) throws -> Result
    ) rethrows -> Result {
        var address = sockaddr_un()
        #if canImport(Darwin)
        address.sun_len = UInt8(truncatingIfNeeded: MemoryLayout<sockaddr_un>.size)
        #endif
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            // `init` guaranteed bytes.count < raw.count, so the NUL that follows stays.
            raw.copyBytes(from: bytes.prefix(raw.count - 1))
        }
        let length = socklen_t(MemoryLayout<sockaddr_un>.size)
        return try withUnsafePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                try body(socketAddress, length)
            }
        }
    }
}
