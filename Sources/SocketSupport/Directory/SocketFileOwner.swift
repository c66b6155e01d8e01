#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Who owns a socket file, to explain a probe that was refused.
///
/// A socket of another user refuses our `connect` with EACCES, so ``SocketProbe`` reports it
/// `.unknown`: it may well be live. Saying whose it is tells a person to leave it alone.
public enum SocketFileOwner {
    /// The user id that owns the file at `path` (the link itself, for a symbolic link), or `nil`
    /// when it cannot be read.
    public static func uid(ofFileAt path: String) -> UInt32? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return UInt32(info.st_uid)
    }

    /// The user id of this process.
    public static var currentUid: UInt32 { UInt32(getuid()) }

    /// Why nobody can say whether a host serves `path`, for a person: the probe failed with
    /// `error` (not ECONNREFUSED or ENOENT, which mean stale). It always ends by telling them to
    /// leave the file alone, since it may be live.
    public static func unknownLivenessReason(path: String, error: SocketSystemError) -> String {
        let me = currentUid
        if let owner = uid(ofFileAt: path), owner != me {
            return "it is owned by uid \(owner), not you (uid \(me)), and refused your connection (\(error.message)); it may be live: leave it alone"
        }
        return "connecting failed (\(error.message)), so whether a host serves it is unknown; it may be live: leave it alone"
    }
}
