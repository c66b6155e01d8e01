import Foundation

/// Runs blocking work on a thread of its own: the one way the package starts a thread.
///
/// Blocking work (curses, which wants one thread; `poll`; reading a pipe to its end; waiting for
/// a child process) must never run on the main actor, which the host needs, nor on Swift's
/// cooperative pool, which has one thread per core (two on a small machine): one blocked call
/// there can stall every task. So such work gets a named thread of its own:
///
/// ```swift
/// // Wait for it from async code:
/// let line = try await DedicatedThread.run(name: "bridge-inspector.wait") { try child.readLine() }
/// // Or leave it running (a loop that ends by itself):
/// DedicatedThread.start(name: "bridge-inspector.stdin") { watchStandardInput() }
/// ```
///
/// docs/concurrency.md lists every thread the package starts, and why.
public enum DedicatedThread {
    /// Starts `body` on a new thread named `name` and returns at once. `stackSize` in bytes,
    /// or `nil` for the system's default.
    public static func start(name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread {
            // Named from inside: swift-corelibs-foundation (Linux) does not apply a name set
            // before `start()`, and the thread kept its creator's name in `ps`, `top -H` and gdb.
            Thread.current.name = name
            #if os(Linux)
            // Nor, reliably, one set from inside: it names the OS thread only once the creating
            // thread has stored the new thread's handle, a race the new thread wins on a busy
            // machine (it then kept its creator's name). So the OS thread is named directly
            // (Linux keeps 15 bytes; `pthread_setname_np` is a GNU extension Swift's Glibc
            // module leaves out, and this file is the same call).
            let descriptor = open("/proc/thread-self/comm", O_WRONLY)
            if descriptor >= 0 {
                _ = Array(name.utf8.prefix(15)).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                close(descriptor)
            }
            #endif
            body()
        }
        if let stackSize { thread.stackSize = stackSize }
        thread.start()
    }

    /// Runs `body` on a new thread named `name` and returns (or throws) what it does, without
    /// blocking the caller's thread while it runs.
    public static func run<Value: Sendable>(
        name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () throws -> Value
    ) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            start(name: name, stackSize: stackSize) { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Runs `body` on a new thread named `name` and returns what it does, without blocking the
    /// caller's thread while it runs.
    public static func run<Value: Sendable>(
        name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Value
    ) async -> Value {
        await withCheckedContinuation { continuation in
            start(name: name, stackSize: stackSize) { continuation.resume(returning: body()) }
        }
    }
}
