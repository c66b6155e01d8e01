import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ThreadSupport

/// A `bridge-inspector host` running as a child process of `demo`.
///
/// The child's standard input is a pipe the parent never writes to; the child is started with
/// `--exit-on-stdin-eof`, so if the parent dies in any way (even SIGKILL) the pipe closes and the
/// child stops by itself, removing its socket. Its standard error is collected (the last 16 KiB)
/// so a failed start can be explained.
final class ChildHost: @unchecked Sendable {
    /// Why the child could not be started.
    struct StartError: Error, CustomStringConvertible {
        var description: String
    }

    private let process: ChildProcess
    /// The parent's ends of the child's standard streams (pipes).
    private let stdinHandle: FileHandle?
    private let stdoutHandle: FileHandle?
    /// The last of what the child wrote to standard error.
    private let collectedError = Locked(Data())
    /// Whether its standard input was closed; held for the whole of ``stop(grace:)``, so two
    /// stops (a signal and the normal end) do not interleave.
    private let stdinClosed = Locked(false)
    private static let maximumCollected = 16 * 1024

    /// The child's process id.
    var processIdentifier: Int32 { process.processIdentifier }
    /// Whether the child is still running.
    var isRunning: Bool { process.isRunning }

    /// Starts `executable` with `arguments`, in a process group of its own (as Foundation's
    /// `Process` started it: a Ctrl-C in the terminal reaches the demo, which stops the host).
    init(executable: String, arguments: [String]) throws {
        do {
            process = try ChildProcess(
                executable: executable, arguments: arguments, standardInput: .pipe, standardOutput: .pipe, standardError: .pipe,
                newProcessGroup: true)
        } catch {
            throw StartError(description: "\(error)")
        }
        stdinHandle = process.standardInput
        stdoutHandle = process.standardOutput
        guard let errorHandle = process.standardError else { return }
        DedicatedThread.start(name: "bridge-inspector.child-stderr") { [weak self] in
            while true {
                let chunk = errorHandle.availableData
                if chunk.isEmpty { break }
                self?.collect(chunk)
            }
        }
    }

    private func collect(_ chunk: Data) {
        collectedError.withLock { collected in
            collected.append(chunk)
            if collected.count > Self.maximumCollected {
                collected.removeFirst(collected.count - Self.maximumCollected)
            }
        }
    }

    /// What the child wrote to standard error so far (its last 16 KiB).
    var standardError: String {
        String(decoding: collectedError.current, as: UTF8.self)
    }

    /// Reads standard output until a line starting with `prefix` arrives, and returns the rest
    /// of that line; `nil` when the child exits, closes its output, or `timeout` passes first.
    func waitForLine(prefix: String, timeout: Duration) -> String? {
        guard let descriptor = stdoutHandle?.fileDescriptor else { return nil }
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var pending = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while clock.now < deadline {
            let remaining = deadline - clock.now
            let millis = Int32(clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, min(millis, 200))
            if ready < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if ready == 0 { continue }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { return nil }
            pending.append(contentsOf: buffer[0..<count])
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                if line.hasPrefix(prefix) { return String(line.dropFirst(prefix.count)) }
            }
        }
        return nil
    }

    /// Stops the child: SIGTERM, then SIGKILL if it has not exited within `grace`. Waits until it
    /// is gone (bounded). Returns how it ended, for messages.
    @discardableResult
    func stop(grace: Duration = .seconds(3)) -> String {
        stdinClosed.withLock { stdinClosed in
            if process.isRunning {
                process.signal(SIGTERM)
                if !waitForExit(timeout: grace) {
                    process.signal(SIGKILL)
                    _ = waitForExit(timeout: .seconds(2))
                }
            }
            if !stdinClosed {
                stdinClosed = true
                try? stdinHandle?.close()
            }
            return exitDescription
        }
    }

    /// Waits up to `timeout` for the child to exit; `true` when it has.
    func waitForExit(timeout: Duration) -> Bool {
        process.waitForExit(timeout: timeout) != nil
    }

    /// `exited with status N`, `killed by signal N`, or `running`.
    var exitDescription: String {
        process.termination?.description ?? "running"
    }
}
