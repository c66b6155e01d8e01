#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CSocketShims
import ThreadSupport

/// Wakes a thread blocked in `poll` from any other thread, cheaply.
///
/// The poll thread watches `readDescriptor` for `.readable`. Any thread (a host thread
/// that just enqueued something) calls `wake()`, which writes one byte only when the pipe
/// is not already signalled, so a burst of wakes costs one system call and the pipe never
/// fills. When `poll` reports the pipe readable, call `drain()` first and then look at
/// the shared state: anything enqueued before a `wake()` is then seen, either now or on
/// the next (spurious but harmless) wake. Both ends are non-blocking and close-on-exec.
public final class WakePipe: @unchecked Sendable {
    private struct State {
        var readEnd: Int32
        var writeEnd: Int32
        var signalled = false
    }

    private let state: Locked<State>

    /// Creates the pipe. Throws `SocketSystemError` (EMFILE, ...).
    public init() throws {
        var descriptors: [Int32] = [-1, -1]
        let result = descriptors.withUnsafeMutableBufferPointer { csock_pipe($0.baseAddress) }
        guard result == 0 else { throw SocketSystemError.current("pipe") }
        state = Locked(State(readEnd: descriptors[0], writeEnd: descriptors[1]))
    }

    deinit {
        close()
    }

    /// The descriptor to poll for `.readable`; -1 once closed.
    public var readDescriptor: Int32 {
        state.withLock { $0.readEnd }
    }

    /// Whether a wake is pending (written and not yet drained).
    public var isSignalled: Bool {
        state.withLock { $0.signalled }
    }

    /// Makes the poll thread wake up. Never blocks, never raises SIGPIPE (the write end
    /// is closed before the read end, under the same lock), and does nothing once closed.
    public func wake() {
        state.withLock { state in
            guard !state.signalled, state.writeEnd >= 0 else { return }
            state.signalled = true
            var byte: UInt8 = 1
            let written = withUnsafeBytes(of: &byte) { SystemCalls.writeBytes(state.writeEnd, $0) }
            if written != 1 && SystemCalls.lastError != EAGAIN {
                state.signalled = false
            }
        }
    }

    /// Empties the pipe and clears the signalled flag; call it on the poll thread
    /// when `readDescriptor` is readable, before handling the work it announced.
    public func drain() {
        state.withLock { state in
            state.signalled = false
            guard state.readEnd >= 0 else { return }
            var buffer = [UInt8](repeating: 0, count: 64)
            while true {
                let count = buffer.withUnsafeMutableBytes { SystemCalls.readBytes(state.readEnd, $0) }
                if count <= 0 { break }
            }
        }
    }

    /// Closes both ends once; later `wake()` calls do nothing.
    public func close() {
        state.withLock { state in
            if state.writeEnd >= 0 {
                SystemCalls.closeDescriptor(state.writeEnd)
                state.writeEnd = -1
            }
            if state.readEnd >= 0 {
                SystemCalls.closeDescriptor(state.readEnd)
                state.readEnd = -1
            }
        }
    }
}
