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

    private let process = Process()
    private let stdinPipe = Pipe()
    private let stdoutPipe = Pipe()
    private let stderrPipe = Pipe()
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

    /// Starts `executable` with `arguments`.
    init(executable: String, arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        do {
            try process.run()
        } catch {
            throw StartError(description: "cannot start \(executable): \(error.localizedDescription)")
        }
        let errorHandle = stderrPipe.fileHandleForReading
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
        let descriptor = stdoutPipe.fileHandleForReading.fileDescriptor
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
                kill(process.processIdentifier, SIGTERM)
                if !waitForExit(timeout: grace) {
                    kill(process.processIdentifier, SIGKILL)
                    _ = waitForExit(timeout: .seconds(2))
                }
            }
            if !stdinClosed {
                stdinClosed = true
                try? stdinPipe.fileHandleForWriting.close()
            }
            return exitDescription
        }
    }

    /// Waits up to `timeout` for the child to exit; `true` when it has.
    func waitForExit(timeout: Duration) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while process.isRunning {
            if clock.now >= deadline { return false }
            usleep(10_000)
        }
        return true
    }

    /// `exited with status N`, `killed by signal N`, or `running`.
    var exitDescription: String {
        if process.isRunning { return "running" }
        switch process.terminationReason {
        case .exit: return "exited with status \(process.terminationStatus)"
        case .uncaughtSignal: return "killed by signal \(process.terminationStatus)"
        @unknown default: return "ended (status \(process.terminationStatus))"
        }
    }
}
