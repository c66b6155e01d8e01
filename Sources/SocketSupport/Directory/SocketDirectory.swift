#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The per-user directory that holds every inspector socket of one user.
///
/// The directory, not the socket file's mode, is the real protection (some systems
/// ignore socket permissions), so it must be a real directory, owned by us, mode 0700
/// (tmux's rule). It is `$BRIDGE_INSPECTOR_SOCKET_DIR` when set; else on Apple platforms
/// `/tmp/bridge-inspector-<uid>`; elsewhere `$XDG_RUNTIME_DIR/bridge-inspector` when
/// `XDG_RUNTIME_DIR` is usable, else `/tmp/bridge-inspector-<uid>` (`SocketDirectoryChoice`). Agents call `ensure()` before binding;
/// clients call `verify()` before trusting what they find in it.
public struct SocketDirectory: Sendable, Hashable, CustomStringConvertible {
    /// The application name used in the directory name.
    public static let appName = "bridge-inspector"

    /// The directory's path, without a trailing slash.
    public let path: String

    /// Uses `path` as the socket directory (tests, or an explicit override).
    public init(path: String) {
        var trimmed = path
        while trimmed.count > 1, trimmed.hasSuffix("/") {
            trimmed.removeLast()
        }
        self.path = trimmed
    }

    /// The default directory for `userID`: `<runtimeDirectory>/bridge-inspector` when
    /// `runtimeDirectory` (the value of `XDG_RUNTIME_DIR`) is usable, otherwise
    /// `/tmp/bridge-inspector-<userID>`.
    public init(runtimeDirectory: String?, userID: uid_t = geteuid()) {
        if let runtimeDirectory, Self.isUsableRuntimeDirectory(runtimeDirectory, userID: userID) {
            let base = SocketDirectory(path: runtimeDirectory).path
            self.init(path: base == "/" ? "/\(Self.appName)" : "\(base)/\(Self.appName)")
        } else {
            self.init(path: "/tmp/\(Self.appName)-\(userID)")
        }
    }

    /// The default directory from the process's platform, environment and effective user id
    /// (see `SocketDirectoryChoice`: `BRIDGE_INSPECTOR_SOCKET_DIR`, then `/tmp` on Apple
    /// platforms, `XDG_RUNTIME_DIR` elsewhere).
    public static func resolve() -> SocketDirectory {
        SocketDirectoryChoice.current().directory
    }

    /// Whether `XDG_RUNTIME_DIR` value `path` can hold the socket directory: an absolute
    /// path to an existing directory owned by `userID` that we may write to, short
    /// enough that every socket path inside still fits in `sun_path`.
    public static func isUsableRuntimeDirectory(_ path: String, userID: uid_t = geteuid()) -> Bool {
        guard path.hasPrefix("/"), !path.utf8.contains(0) else { return false }
        let longest = path.utf8.count + 1 + appName.utf8.count + 1 + SocketName.maximumFileNameLength
        guard longest <= UnixSocketAddress.maximumPathByteCount else { return false }
        guard let status = SystemCalls.fileStatus(path), SystemCalls.isDirectory(status),
              status.st_uid == userID
        else { return false }
        return SystemCalls.isAccessible(path, writable: true)
    }

    /// "/run/user/1000/bridge-inspector".
    public var description: String { path }

    /// The path of the socket named `name` in this directory.
    public func socketPath(for name: SocketName) -> String {
        path == "/" ? "/\(name.fileName)" : "\(path)/\(name.fileName)"
    }

    /// Creates the directory with mode 0700 if it does not exist, then `verify()`s it.
    ///
    /// The process umask is never changed (it is shared with the host's other threads):
    /// the directory is created with `mkdir(path, 0700)`; should a umask have removed
    /// owner bits from the directory just created, they are restored with `chmod`.
    /// Only the last path component is created; its parent must exist.
    /// Throws `SocketDirectoryError`.
    public func ensure() throws {
        if SystemCalls.makeDirectory(path, 0o700) == 0 {
            if let status = SystemCalls.linkStatus(path), SystemCalls.isDirectory(status),
               status.st_uid == SystemCalls.effectiveUserID(),
               status.st_mode & 0o777 != 0o700 {
                _ = SystemCalls.changeMode(path, 0o700)
            }
        } else {
            let error = SocketSystemError.current("mkdir", path: path)
            guard error.code == EEXIST else {
                throw SocketDirectoryError.cannotCreate(path: path, error: error)
            }
        }
        try verify()
    }

    /// Checks, with `lstat`, that the directory is a real directory (not a symbolic
    /// link), owned by the effective user, with mode 0700 (``PrivateDirectory``'s rule, private
    /// to us). Creates nothing.
    /// Throws `SocketDirectoryError` explaining what is wrong and how to fix it.
    public func verify() throws {
        guard let status = PrivateDirectory.status(of: path, followingLinks: false) else {
            throw SocketDirectoryError.cannotInspect(path: path, error: .current("lstat", path: path))
        }
        switch PrivateDirectory.problem(with: status, userID: PrivateDirectory.currentUserID, forbiddenModeBits: 0o077) {
        case nil: return
        case .symbolicLink: throw SocketDirectoryError.symbolicLink(path: path)
        case .notADirectory(let kind): throw SocketDirectoryError.notADirectory(path: path, kind: kind)
        case .wrongOwner(let owner, let expected): throw SocketDirectoryError.wrongOwner(path: path, owner: owner, expected: expected)
        case .insecureMode(let mode): throw SocketDirectoryError.insecureMode(path: path, mode: mode)
        }
    }

    /// Whether something exists at `path` (without following a final symbolic link).
    public var exists: Bool {
        SystemCalls.linkStatus(path) != nil
    }
}
