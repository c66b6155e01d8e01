#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CSocketShims

/// A system call of this module failed with an errno value.
///
/// Catch it to react to particular conditions (compare `code` with `EPIPE`,
/// `ECONNRESET`, `ETIMEDOUT`, ...); print it to tell a person which operation failed
/// on which path and why.
public struct SocketSystemError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The operation that failed, such as "connect" or "bind".
    public let operation: String
    /// The file-system path involved, when there is one.
    public let path: String?
    /// The errno value.
    public let code: Int32

    /// Creates an error for `operation` on `path` that failed with errno `code`.
    public init(operation: String, path: String? = nil, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// Captures the calling thread's current errno. Call it right after the failing call.
    static func current(_ operation: String, path: String? = nil) -> SocketSystemError {
        SocketSystemError(operation: operation, path: path, code: SystemCalls.lastError)
    }

    /// The system's description of `code`, such as "Connection refused".
    public var message: String {
        var buffer = [CChar](repeating: 0, count: 256)
        let count = buffer.count
        buffer.withUnsafeMutableBufferPointer { pointer in
            csock_strerror(code, pointer.baseAddress, count)
        }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// "connect /path failed: Connection refused (errno 111)".
    public var description: String {
        let target = path.map { " \($0)" } ?? ""
        return "\(operation)\(target) failed: \(message) (errno \(code))"
    }
}
