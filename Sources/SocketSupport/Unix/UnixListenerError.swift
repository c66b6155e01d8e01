/// Why `UnixListener` refused to serve at a path.
public enum UnixListenerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A server answers on the path; its socket is left untouched.
    case alreadyServing(path: String)
    /// Something other than a socket exists at the path; `kind` says what.
    case notASocket(path: String, kind: String)
    /// A socket file exists but could not be proven stale, so it was left alone.
    case cannotCheckExisting(path: String, error: SocketSystemError)

    /// What was found at the path and what to do about it.
    public var description: String {
        switch self {
        case .alreadyServing(let path):
            return "a live host is already serving \(path); it was left untouched. "
                + "Stop that host first, or serve on another socket path."
        case .notASocket(let path, let kind):
            return "cannot serve on \(path): it exists and is \(kind), not a socket. "
                + "Remove it or choose another socket path."
        case .cannotCheckExisting(let path, let error):
            return "cannot serve on \(path): a socket file exists there and could not be checked "
                + "(\(error.message)), so it was left alone. Remove it if no host uses it."
        }
    }
}
