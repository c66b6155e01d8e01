#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a recording, one line at a time, straight to the file (nothing is held in a buffer,
/// so a recording stopped in any way loses at most the line being written).
public final class RecordingWriter {
    private var descriptor: Int32
    private let ownsDescriptor: Bool
    /// Lines written so far, header included.
    public private(set) var linesWritten = 0

    /// Creates (or truncates) the file at `path` and writes `header`; `-` writes to standard output.
    public init(path: String, header: Recording.Header) throws {
        if path == "-" {
            descriptor = STDOUT_FILENO
            ownsDescriptor = false
        } else {
            descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw RecordingWriteError(path: path, code: errno) }
            ownsDescriptor = true
        }
        self.path = path
        try write(line: header.line)
    }

    private let path: String

    deinit {
        close()
    }

    /// Appends one line (a newline is added).
    public func write(line: [UInt8]) throws {
        var bytes = line
        bytes.append(0x0A)
        if let code = Self.writeAll(bytes, to: descriptor) { throw RecordingWriteError(path: path, code: code) }
        linesWritten += 1
    }

    /// Writes all of `bytes` to `descriptor`, again after an interruption; the `errno` of a
    /// failure, or `nil` when everything was written.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                #if canImport(Darwin)
                return Darwin.write(descriptor, base + offset, buffer.count - offset)
                #else
                return Glibc.write(descriptor, base + offset, buffer.count - offset)
                #endif
            }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return nil
    }

    /// Closes the file (idempotent).
    public func close() {
        if ownsDescriptor, descriptor >= 0 {
            _ = {
                #if canImport(Darwin)
                Darwin.close(descriptor)
                #else
                Glibc.close(descriptor)
                #endif
            }()
        }
        descriptor = -1
    }
}
