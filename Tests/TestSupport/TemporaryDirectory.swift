import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A short, private (0700) directory under /tmp, removed with everything in it when the value
/// goes away. Short, because a Unix socket's path must fit in `sun_path` (108 bytes).
///
/// ```swift
/// let directory = try TemporaryDirectory(prefix: "bi-e2e")
/// let socket = directory.file("host.sock")
/// ```
public final class TemporaryDirectory: Sendable {
    /// The directory, such as `/tmp/bi-Ab12Cd`.
    public let path: String

    /// Makes the directory `/tmp/<prefix>-XXXXXX`.
    public init(prefix: String = "bi") throws {
        path = try makeTemporaryDirectory(prefix: prefix)
    }

    /// The path of `name` inside the directory.
    public func file(_ name: String) -> String { path + "/" + name }

    deinit {
        removeDirectory(path)
    }
}

/// Makes a fresh, private directory `/tmp/<prefix>-XXXXXX` and returns its path; the caller
/// removes it (``removeDirectory(_:)``), or use ``TemporaryDirectory`` or
/// ``withTemporaryDirectory(prefix:_:)``, which do.
public func makeTemporaryDirectory(prefix: String = "bi") throws -> String {
    var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
    let created = template.withUnsafeMutableBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return false }
        return mkdtemp(base) != nil
    }
    guard created else { throw TestSetupError(description: "mkdtemp failed: errno \(errno)") }
    return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Removes `path` and everything in it; nothing happens when it is not there.
public func removeDirectory(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
}

/// Runs `body` with a fresh private directory (see ``makeTemporaryDirectory(prefix:)``) and
/// removes it, with everything in it, afterwards.
public func withTemporaryDirectory<Result>(prefix: String = "bi", _ body: (String) throws -> Result) throws -> Result {
    let path = try makeTemporaryDirectory(prefix: prefix)
    defer { removeDirectory(path) }
    return try body(path)
}
