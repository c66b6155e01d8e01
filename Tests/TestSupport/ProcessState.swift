#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Process-wide state a library must not change in the app that embeds it: read, never set.

/// Whether SIGPIPE has its default disposition (terminate the process).
public func sigpipeHasDefaultDisposition() -> Bool {
    var current = sigaction()
    guard sigaction(SIGPIPE, nil, &current) == 0 else { return false }
    #if canImport(Glibc)
    return current.__sigaction_handler.sa_handler == nil
    #else
    return current.__sigaction_u.__sa_handler == nil
    #endif
}

/// The process umask, read without changing it (Linux: /proc/self/status); nil where unavailable.
public func currentUmask() -> String? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    return status.split(separator: "\n").first { $0.hasPrefix("Umask:") }.map(String.init)
}

/// Whether the descriptor has close-on-exec set.
public func isCloseOnExec(_ descriptor: Int32) -> Bool {
    let flags = fcntl(descriptor, F_GETFD)
    return flags != -1 && flags & FD_CLOEXEC != 0
}
