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
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                #if canImport(Darwin)
                Darwin.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                #else
                Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                #endif
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw RecordingWriteError(path: path, code: errno)
            }
            offset += written
        }
        linesWritten += 1
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
