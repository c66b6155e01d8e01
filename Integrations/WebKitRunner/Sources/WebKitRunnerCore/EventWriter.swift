#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes events to the host, one line each, straight to a file descriptor.
///
/// Why write(2) and not `print`/`FileHandle`: each event must reach the host as soon as it
/// happens (no stdio buffering), whole, and a closed pipe must not kill the runner. How: one
/// `write` loop per line that resumes after partial writes and `EINTR`, waits with `poll` on
/// `EAGAIN`, and reports any other failure (`EPIPE`: the host is gone; SIGPIPE must be ignored by
/// the process) by returning `false` and remembering it, so later sends are skipped.
public final class EventWriter {
    public let fileDescriptor: Int32
    /// Set after a write failed; nothing more is written.
    public private(set) var failed = false

    public init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    /// Writes one event line; `false` when the host can no longer be written to.
    @discardableResult
    public func send(_ event: RunnerEvent) -> Bool {
        writeAll(event.encodedLine)
    }

    /// Writes all of `bytes`; `false` (and `failed` set) on a failure other than EINTR/EAGAIN.
    @discardableResult
    public func writeAll(_ bytes: [UInt8]) -> Bool {
        guard !failed else { return false }
        let ok = bytes.withUnsafeBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return true }
            var offset = 0
            while offset < buffer.count {
                let written = write(fileDescriptor, base + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                    continue
                }
                if written < 0 && errno == EINTR { continue }
                if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                    var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&descriptor, 1, 1000)
                    continue
                }
                return false
            }
            return true
        }
        if !ok { failed = true }
        return ok
    }
}
