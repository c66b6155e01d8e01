#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TerminalUI

/// Writing to stdout and stderr without buffering surprises: each call writes whole lines at once.
///
/// This is the last gate before the terminal: text lines go through ``Sanitizer`` (their line
/// breaks kept), JSON through ``Sanitizer/sanitize(json:)``, so no caller can print a control
/// character, a bidi override or an invisible character from a journey or a socket raw, even
/// one that forgot to sanitize. Only ``printExact(_:)`` prints as it is.
enum StandardStreams {
    /// Writes `text` and a newline to standard output, at once (nothing is left in a buffer).
    /// Several lines may be given at once; each is made safe.
    static func printOut(_ text: String) {
        write(safeLines(text) + "\n", to: STDOUT_FILENO)
    }

    /// Writes `text` and a newline to standard error, made safe like ``printOut(_:)``: progress,
    /// notes and warnings. An error goes through ``printFailure(_:)``, which adds the prefix.
    static func printError(_ text: String) {
        write(safeLines(text) + "\n", to: STDERR_FILENO)
    }

    /// What every error of ours starts with: the prefix swift-argument-parser prints for its own
    /// (an unknown option, a missing argument), so a script or a person sees one form.
    static let errorPrefix = "Error: "

    /// Writes an error to standard error: `Error: ` and `message`, made safe like ``printOut(_:)``.
    /// The one place the prefix is added; callers give only what happened.
    static func printFailure(_ message: String) {
        printError(errorPrefix + message)
    }

    /// Writes JSON text (one line, or pretty-printed lines) and a newline to standard output,
    /// with unsafe code points in strings written as `\u` escapes: still valid, same values.
    static func printJSON(_ json: String) {
        write(Sanitizer.sanitize(json: json) + "\n", to: STDOUT_FILENO)
    }

    /// Writes `text` over the last line of standard error, without a newline: a carriage return,
    /// the text made safe, and "erase to the end of the line" (`ESC [ K`). For a progress line on
    /// a terminal only (a file or a pipe would keep every version); `text` empty clears it.
    static func printErrorInPlace(_ text: String) {
        write("\r" + Sanitizer.sanitize(text) + "\u{1B}[K", to: STDERR_FILENO)
    }

    /// Writes `text` exactly as it is: only for values a script reads from a pipe (see
    /// `ScriptOutput.value`), never for standard output that is a terminal.
    static func printExact(_ text: String) {
        write(text + "\n", to: STDOUT_FILENO)
    }

    /// Each line sanitized, the line breaks between them kept.
    static func safeLines(_ text: String) -> String {
        if Sanitizer.isSafe(text) { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { Sanitizer.sanitize(String($0)) }
            .joined(separator: "\n")
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
