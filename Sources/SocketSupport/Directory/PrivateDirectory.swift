#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one rule for a directory whose contents we trust (tmux's rule for its socket
/// directory): a real directory, owned by us, that no other user can write to. The socket
/// directory (``SocketDirectory/verify()``) and the inspector's state directory apply it; each
/// says in its own words what to do about a ``Problem``.
///
/// The judgement is a pure function of a ``Status`` and our user id, so the owner check can be
/// tested without another user (only root can make a file someone else's).
///
/// ```swift
/// if let status = PrivateDirectory.status(of: path, followingLinks: false),
///    let problem = PrivateDirectory.problem(with: status, userID: PrivateDirectory.currentUserID, forbiddenModeBits: 0o077) {
///     print(problem)
/// }
/// ```
public enum PrivateDirectory {
    /// What the rule looks at: what the path is, its owner, its permission bits.
    public struct Status: Sendable, Hashable {
        /// `nil` for a directory, else what it is instead (`"a symbolic link"`, `"a regular file"`, ...).
        public var notADirectory: String?
        /// Whether it is a symbolic link (only seen when links are not followed).
        public var isSymbolicLink: Bool
        /// The owner's user id.
        public var owner: UInt32
        /// The permission bits with the sticky, set-user-id and set-group-id bits (`mode & 0o7777`).
        public var mode: UInt32

        /// A status as `lstat` or `stat` would report it.
        public init(notADirectory: String? = nil, isSymbolicLink: Bool = false, owner: UInt32, mode: UInt32) {
            self.notADirectory = notADirectory
            self.isSymbolicLink = isSymbolicLink
            self.owner = owner
            self.mode = mode & 0o7777
        }
    }

    /// What is wrong with a directory we were about to trust.
    public enum Problem: Error, Sendable, Hashable {
        /// It is a symbolic link, which someone could point elsewhere.
        case symbolicLink
        /// It is not a directory; the value says what it is.
        case notADirectory(kind: String)
        /// Another user owns it.
        case wrongOwner(owner: UInt32, expected: UInt32)
        /// Its permission bits let others in (or keep us out); `mode` holds the `0o777` bits.
        case insecureMode(mode: UInt32)
    }

    /// Our effective user id, the owner the rule expects.
    public static var currentUserID: UInt32 { UInt32(SystemCalls.effectiveUserID()) }

    /// The status of `path` (`lstat`, or `stat` when `followingLinks`), or `nil` when it cannot
    /// be read (`errno` says why).
    public static func status(of path: String, followingLinks: Bool) -> Status? {
        guard let info = followingLinks ? SystemCalls.fileStatus(path) : SystemCalls.linkStatus(path) else { return nil }
        return Status(
            notADirectory: SystemCalls.isDirectory(info) ? nil : SystemCalls.fileTypeName(info),
            isSymbolicLink: SystemCalls.isSymbolicLink(info), owner: UInt32(info.st_uid), mode: UInt32(info.st_mode))
    }

    /// What is wrong with a directory of `status` for user `userID`, or `nil` when it can be
    /// trusted: it must be a directory (not a link to one), ours, with every owner bit
    /// (rwx) and none of `forbiddenModeBits` (`0o077`: private, as the socket directory must be;
    /// `0o022`: nobody else can write).
    public static func problem(with status: Status, userID: UInt32, forbiddenModeBits: UInt32) -> Problem? {
        if status.isSymbolicLink { return .symbolicLink }
        if let kind = status.notADirectory { return .notADirectory(kind: kind) }
        guard status.owner == userID else { return .wrongOwner(owner: status.owner, expected: userID) }
        guard status.mode & 0o700 == 0o700, status.mode & forbiddenModeBits == 0 else { return .insecureMode(mode: status.mode & 0o777) }
        return nil
    }

    /// `mode` as four octal digits (`0777`), as `chmod` and `ls` people know it.
    public static func octal(_ mode: UInt32) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
