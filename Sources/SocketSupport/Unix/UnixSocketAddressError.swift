/// Why a path cannot be used as a Unix-socket address.
public enum UnixSocketAddressError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path is empty; an empty name would mean an unnamed (or, on Linux, abstract)
    /// socket, which this module never uses.
    case emptyPath
    /// The path contains a NUL byte, which cannot be part of a file name.
    case containsNUL(path: String)
    /// The path does not fit in `sun_path`: `byteCount` UTF-8 bytes, at most `limit` allowed.
    case pathTooLong(path: String, byteCount: Int, limit: Int)

    /// The problem, with the length and limit for a long path and how to get a shorter one.
    public var description: String {
        switch self {
        case .emptyPath:
            return "the socket path is empty; give the path of a socket file"
        case .containsNUL(let path):
            return "the socket path contains a NUL byte and cannot name a file: \(path.debugDescription)"
        case .pathTooLong(let path, let byteCount, let limit):
            return "the socket path is \(byteCount) bytes long, but this platform allows at most \(limit) bytes "
                + "(sun_path holds \(limit + 1) bytes including the terminating NUL): \(path). "
                + "Use a shorter path: set \(SocketEnvironment.directoryVariable) (or, on Linux, \(SocketEnvironment.runtimeDirectoryVariable)) to a short directory, "
                + "or name a short socket path explicitly with \(SocketEnvironment.socketVariable) "
                + "or --socket PATH."
        }
    }
}
