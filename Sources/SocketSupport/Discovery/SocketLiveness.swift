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
