import Glibc

/// Takes standard input and output for the protocol alone.
///
/// Why: standard output carries the protocol, but GLib, GTK and WebKit's child processes (which
/// inherit descriptors 0-2) may print to it, which would corrupt the stream. How: the original
/// descriptors are duplicated to private close-on-exec descriptors used only by the reader and the
/// `EventWriter`; then descriptor 1 becomes a copy of standard error (anything printed there now
/// reaches the person reading stderr) and descriptor 0 becomes /dev/null.
struct ProtocolStreams {
    let input: Int32
    let output: Int32

    static func claim() -> ProtocolStreams? {
        let input = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3)
        let output = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)
        guard input >= 0, output >= 0 else { return nil }
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        if null >= 0 {
            _ = dup2(null, STDIN_FILENO)
            close(null)
        }
        _ = dup2(STDERR_FILENO, STDOUT_FILENO)
        return ProtocolStreams(input: input, output: output)
    }
}

/// Free text for people, on standard error (the host keeps its last part to explain a failed start).
func logLine(_ text: String) {
    let bytes = Array(("bridge-inspector-webkit: " + text + "\n").utf8)
    bytes.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count, let base = buffer.baseAddress {
            let written = write(STDERR_FILENO, base + offset, buffer.count - offset)
            if written > 0 { offset += written } else if written < 0 && errno == EINTR { continue } else { break }
        }
    }
}

/// Milliseconds since the runner started (for the timings it logs).
func millisecondsSinceStart() -> Int {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    let nowMs = Int(now.tv_sec) * 1000 + Int(now.tv_nsec) / 1_000_000
    return nowMs - processStartMilliseconds
}

/// Set when main first reads it, before anything else.
let processStartMilliseconds: Int = {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int(now.tv_sec) * 1000 + Int(now.tv_nsec) / 1_000_000
}()
