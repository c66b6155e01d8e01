#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SocketSupport

/// `lstat` of `path` (a symbolic link is not followed), or nil when there is nothing there.
public func linkStatus(_ path: String) -> stat? {
    var status = stat()
    return lstat(path, &status) == 0 ? status : nil
}

/// The permission bits of `path` (without following a symbolic link).
public func permissionBits(_ path: String) -> mode_t? {
    linkStatus(path).map { $0.st_mode & 0o7777 }
}

/// Whether `path` is a socket file (not a link to one).
public func isSocketFile(_ path: String) -> Bool {
    guard let status = linkStatus(path) else { return false }
    return status.st_mode & mode_t(S_IFMT) == mode_t(S_IFSOCK)
}

/// Leaves a socket file at `path` that nobody serves, as a crashed host would.
public func makeStaleSocket(at path: String) throws {
    #if canImport(Glibc)
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw TestSetupError(description: "socket failed: errno \(errno)") }
    defer { close(descriptor) }
    let address = try UnixSocketAddress(path: path)
    let result = address.withSocketAddress { bind(descriptor, $0, $1) }
    guard result == 0 else { throw TestSetupError(description: "bind \(path) failed: errno \(errno)") }
}
