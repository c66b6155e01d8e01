import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ThreadSupport

/// The running `bridge-inspector-webkit` process: commands go to its standard input on a thread
/// of their own (a large delivery never blocks the main actor), events come from its standard
/// output, in order, through ``events``.
///
/// The runner exits when its standard input closes, so a host that dies in any way (even
/// SIGKILL) takes the runner, and the Xvfb it started, with it.
final class WebKitRunnerProcess: @unchecked Sendable {
    /// What the runner wrote, line by line: an event, or a line that is not one.
    let events: AsyncStream<Result<WebKitRunnerEvent, WebKitRunnerEvent.LineError>>

    private let process: ChildProcess
    private let collectedError = Locked(Data())
    private let outbox = Locked(Outbox())
    private let outboxReady = DispatchSemaphore(value: 0)
    private static let maximumCollected = 16 * 1024
    /// The longest line the host reads from the runner (a message the page posted, as JSON text).
    static let maximumLineBytes = 256 * 1024 * 1024

    private struct Outbox {
        var lines: [Data] = []
        var pendingBytes = 0
        var closed = false
    }

    /// Starts `executable` with `arguments` and `environment` added to this process's, in a
    /// process group of its own (as Foundation's `Process` started it).
    init(executable: String, arguments: [String], environment: [String: String] = [:]) throws {
        let (events, continuation) = AsyncStream<Result<WebKitRunnerEvent, WebKitRunnerEvent.LineError>>.makeStream()
        self.events = events
        do {
            process = try ChildProcess(
                executable: executable, arguments: arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
                standardInput: .pipe, standardOutput: .pipe, standardError: .pipe, newProcessGroup: true)
        } catch {
            continuation.finish()
            let reason = (error as? ChildProcess.StartError)?.reason ?? "\(error)"
            throw WebKitJourneyError.runnerDidNotStart(path: executable, reason: reason, standardError: "")
        }
        guard let input = process.standardInput, let output = process.standardOutput, let errorHandle = process.standardError else {
            continuation.finish()
            throw WebKitJourneyError.runnerDidNotStart(path: executable, reason: "no pipes to it", standardError: "")
        }
        DedicatedThread.start(name: "bridge-inspector.webkit-out") {
            Self.readLines(from: output.fileDescriptor) { line in
                continuation.yield(Result { try WebKitRunnerEvent(line: line) }.mapError { $0 as? WebKitRunnerEvent.LineError ?? .init(text: "\($0)") })
            }
            continuation.finish()
        }
        DedicatedThread.start(name: "bridge-inspector.webkit-err") { [weak self] in
            while true {
                let chunk = errorHandle.availableData
                if chunk.isEmpty { break }
                self?.collect(chunk)
            }
        }
        DedicatedThread.start(name: "bridge-inspector.webkit-in") { [outbox, outboxReady] in
            Self.writeLines(to: input, from: outbox, ready: outboxReady)
        }
    }

    /// Queues one command; `false` when the runner's input is closed.
    @discardableResult
    func send(_ command: WebKitRunnerCommand) -> Bool {
        guard let line = try? command.line() else { return false }
        let queued = outbox.withLock { outbox -> Bool in
            guard !outbox.closed else { return false }
            outbox.lines.append(line)
            outbox.pendingBytes += line.count
            return true
        }
        if queued { outboxReady.signal() }
        return queued
    }

    /// Bytes queued for the runner and not yet written.
    var pendingBytes: Int { outbox.withLock { $0.pendingBytes } }

    /// The process id.
    var processIdentifier: Int32 { process.processIdentifier }

    /// Whether the runner is still running.
    var isRunning: Bool { process.isRunning }

    /// What the runner wrote to standard error (its last 16 KiB).
    var standardError: String { String(decoding: collectedError.current, as: UTF8.self) }

    /// `exited with status N`, `killed by signal N`, or `running`.
    var exitDescription: String {
        process.termination?.description ?? "running"
    }

    /// Stops the runner: `quit` and its input closed, then SIGTERM and SIGKILL if it has not
    /// gone within `grace`. Returns once it has gone (bounded).
    func stop(grace: Duration = .seconds(5)) async {
        send(.quit)
        closeInput()
        if await waitForExit(timeout: grace) { return }
        process.signal(SIGTERM)
        if await waitForExit(timeout: grace) { return }
        process.signal(SIGKILL)
        _ = await waitForExit(timeout: .seconds(5))
    }

    /// Closes the runner's standard input once what is queued is written: it then exits by itself.
    func closeInput() {
        outbox.withLock { $0.closed = true }
        outboxReady.signal()
    }

    /// Waits up to `timeout` for the runner to exit; `true` when it has.
    func waitForExit(timeout: Duration) async -> Bool {
        let process = process
        return await DedicatedThread.run(name: "bridge-inspector.webkit-wait") {
            process.waitForExit(timeout: timeout) != nil
        }
    }

    private func collect(_ chunk: Data) {
        collectedError.withLock { collected in
            collected.append(chunk)
            if collected.count > Self.maximumCollected { collected.removeFirst(collected.count - Self.maximumCollected) }
        }
    }

    /// The writer thread: writes queued lines in order until the outbox is closed and empty,
    /// then closes the runner's input.
    private static func writeLines(to input: FileHandle, from outbox: Locked<Outbox>, ready: DispatchSemaphore) {
        let descriptor = input.fileDescriptor
        var broken = false
        while true {
            ready.wait()
            let (lines, closed) = outbox.withLock { outbox -> ([Data], Bool) in
                let lines = outbox.lines
                outbox.lines.removeAll(keepingCapacity: true)
                return (lines, outbox.closed)
            }
            for line in lines {
                if !broken { broken = !writeAll(line, to: descriptor) }
                outbox.withLock { $0.pendingBytes -= line.count }
            }
            if broken { outbox.withLock { $0.closed = true } }
            if closed || broken {
                try? input.close()
                return
            }
        }
    }

    private static func writeAll(_ data: Data, to descriptor: Int32) -> Bool {
        data.withUnsafeBytes { raw -> Bool in
            guard var pointer = raw.baseAddress else { return true }
            var remaining = raw.count
            while remaining > 0 {
                let written = write(descriptor, pointer, remaining)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                pointer += written
                remaining -= written
            }
            return true
        }
    }

    /// The reader thread: splits standard output into lines (a line longer than
    /// ``maximumLineBytes`` is skipped to its end and reported) until end of file.
    static func readLines(from descriptor: Int32, _ handle: (Data) -> Void) {
        var splitter = LineSplitter(maximumLineBytes: maximumLineBytes)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            splitter.append(buffer[0..<count], handle)
        }
    }
}
