#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A recording could not be written.
public struct RecordingWriteError: Error, Sendable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// The `errno` value.
    public var code: Int32

    public var description: String {
        "cannot write the recording \(path): \(String(cString: strerror(code)))"
    }
}
