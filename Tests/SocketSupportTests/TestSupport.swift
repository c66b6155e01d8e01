#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SocketSupport

/// A failure inside a test helper.
struct TestSetupError: Error, CustomStringConvertible {
    let description: String
}

/// Runs `body` with a fresh, short directory under /tmp (short so socket paths inside
/// fit in sun_path) and removes it, with everything in it, afterwards.
func withTemporaryDirectory<Result>(_ body: (String) throws -> Result) throws -> Result {
    var template = Array("/tmp/ss-XXXXXX".utf8CString)
    let created = template.withUnsafeMutableBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return false }
        return mkdtemp(base) != nil
    }
    guard created else { throw TestSetupError(description: "mkdtemp failed: errno \(errno)") }
    let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
}

/// lstat of `path`, or nil.
func linkStatus(_ path: String) -> stat? {
    var status = stat()
    return lstat(path, &status) == 0 ? status : nil
}

/// The permission bits of `path` (without following a symbolic link).
func permissionBits(_ path: String) -> mode_t? {
    linkStatus(path).map { $0.st_mode & 0o7777 }
}

func isSocketFile(_ path: String) -> Bool {
    guard let status = linkStatus(path) else { return false }
    return status.st_mode & mode_t(S_IFMT) == mode_t(S_IFSOCK)
}

/// Leaves a socket file at `path` that nobody serves, as a crashed host would.
func makeStaleSocket(at path: String) throws {
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

/// Accepts the next connection, polling a bounded number of times.
func acceptConnection(_ listener: UnixListener) throws -> UnixConnection? {
    for _ in 0..<400 {
        _ = try Poll.wait(descriptor: listener.rawValue, for: .readable, timeoutMilliseconds: 50)
        switch try listener.accept() {
        case .accepted(let connection):
            return connection
        case .noPendingConnection:
            continue
        case .rejected(let rejection):
            throw TestSetupError(description: "unexpected rejection: \(rejection)")
        }
    }
    return nil
}

/// Reads until one complete line arrives (bounded): the line, or nil at end of file
/// or when nothing arrives.
func readLine(from connection: UnixConnection, framer: inout LineFramer) throws -> [UInt8]? {
    for _ in 0..<400 {
        guard let bytes = try connection.read(upTo: 4096, timeoutMilliseconds: 50) else { return nil }
        for frame in framer.feed(bytes) {
            if case .line(let line) = frame { return line }
        }
    }
    return nil
}

/// Whether the descriptor has close-on-exec set.
func isCloseOnExec(_ descriptor: Int32) -> Bool {
    let flags = fcntl(descriptor, F_GETFD)
    return flags != -1 && flags & FD_CLOEXEC != 0
}

/// Whether SIGPIPE currently has its default disposition (terminate the process).
func sigpipeHasDefaultDisposition() -> Bool {
    var current = sigaction()
    guard sigaction(SIGPIPE, nil, &current) == 0 else { return false }
    #if canImport(Glibc)
    return current.__sigaction_handler.sa_handler == nil
    #else
    return current.__sigaction_u.__sa_handler == nil
    #endif
}

extension Array where Element == UInt8 {
    init(_ text: String) {
        self = Array(text.utf8)
    }
}
