/// Why the per-user socket directory cannot be trusted or created. Each description
/// says exactly what is wrong and what to do about it.
public enum SocketDirectoryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The directory could not be created.
    case cannotCreate(path: String, error: SocketSystemError)
    /// The directory could not be examined with `lstat`.
    case cannotInspect(path: String, error: SocketSystemError)
    /// The path is a symbolic link, which someone could point elsewhere.
    case symbolicLink(path: String)
    /// The path exists but is not a directory; `kind` names what it is.
    case notADirectory(path: String, kind: String)
    /// The directory belongs to another user.
    case wrongOwner(path: String, owner: UInt32, expected: UInt32)
    /// The permission bits are not 0700 (`mode` holds the actual `0o777` bits).
    case insecureMode(path: String, mode: UInt32)

    /// What is wrong with the directory and the command or setting that fixes it.
    public var description: String {
        switch self {
        case .cannotCreate(let path, let error):
            return "cannot create the socket directory \(path): \(error.message). "
                + "Check that its parent directory exists and is writable by you, or set "
                + "\(SocketEnvironment.runtimeDirectoryVariable) to a directory you own, or name a socket "
                + "explicitly with \(SocketEnvironment.socketVariable)."
        case .cannotInspect(let path, let error):
            return "cannot examine the socket directory \(path): \(error.message). "
                + "Check the permissions of its parent directory."
        case .symbolicLink(let path):
            return "the socket directory \(path) is a symbolic link; it must be a real directory so nobody can "
                + "redirect it. Remove the link (rm \(path)) and run again: it will be recreated with mode 0700."
        case .notADirectory(let path, let kind):
            return "the socket directory \(path) exists but is \(kind), not a directory. "
                + "Remove it (rm \(path)) and run again: it will be recreated with mode 0700."
        case .wrongOwner(let path, let owner, let expected):
            return "the socket directory \(path) is owned by uid \(owner), not by you (uid \(expected)), so "
                + "another user could control it. Have its owner or root remove it (rm -r \(path)), or set "
                + "\(SocketEnvironment.runtimeDirectoryVariable) to a directory you own."
        case .insecureMode(let path, let mode):
            return "the socket directory \(path) has mode \(PrivateDirectory.octal(mode)), but it must be private to you (0700: "
                + "no access for group or others). Run: chmod 700 \(path)"
        }
    }
}
