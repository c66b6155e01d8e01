#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing to stdout and stderr without buffering surprises: each call writes whole lines at once.
enum StandardStreams {
    /// Writes `line` and a newline to standard output, at once (nothing is left in a buffer).
    static func printOut(_ line: String) {
        write(line + "\n", to: STDOUT_FILENO)
    }

    /// Writes `line` and a newline to standard error.
    static func printError(_ line: String) {
        write(line + "\n", to: STDERR_FILENO)
    }

    private static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { buffer in
                #if canImport(Glibc) || canImport(Musl)
                Glibc.write(descriptor, buffer.baseAddress, buffer.count)
                #else
                Darwin.write(descriptor, buffer.baseAddress, buffer.count)
                #endif
            }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
