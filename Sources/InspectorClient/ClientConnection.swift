import Foundation
import InspectorProtocol
import SocketSupport

/// The blocking driver of a ``ClientConnectionStateMachine``: a socket to an agent, read with
/// time limits, every byte handed to the machine. ``InspectorSession`` and ``RawFrameStream``
/// are built on it, so they attach, read and fail alike.
///
/// Confine it to one thread. What the socket says is translated here, once: end of file is
/// ``ClientConnectionStateMachine/endOfFile()``, `ECONNRESET` (and, after the handshake, any
/// failed read) ``ClientConnectionStateMachine/connectionReset()``; the clock is the caller's.
final class ClientConnection {
    /// The agent's greeting.
    let hello: AgentHello
    /// The socket path, or `tcp://HOST:PORT` (never the token).
    let socketPath: String

    private let connection: UnixConnection
    // Not checked for exclusive access at run time (issue 30: two checks per frame read): the
    // connection is confined to one thread, and each access to these two is a call on the
    // machine or one read into the buffer, which calls nothing that could reach this connection
    // again; no access to either can begin while another is under way.
    @exclusivity(unchecked) private var machine: ClientConnectionStateMachine
    @exclusivity(unchecked) private var readBuffer = [UInt8](repeating: 0, count: 256 * 1024)

    /// Connects to `endpoint` (over TCP: sends the token first), reads the agent's `hello` and
    /// sends ours, waiting at most `timeout` seconds. Throws ``InspectorClientError`` (or a
    /// socket error) with the connection closed. With `keepsLines` false its frames come without
    /// their lines (``ClientConnectionStateMachine/ReceivedFrame/line`` empty), for a reader of
    /// the frames alone.
    init(endpoint: InspectorEndpoint, clientName: String, subscribe: Bool, timeout: Double, keepsLines: Bool) throws {
        socketPath = endpoint.description
        connection = try endpoint.open(timeout: timeout)
        var machine = ClientConnectionStateMachine(endpoint: endpoint, keepsLines: keepsLines)
        let deadline = Date().addingTimeInterval(timeout)
        do {
            handshake: while true {
                let remaining = deadline.timeIntervalSinceNow
                let action =
                    remaining > 0
                    ? try Self.receive(from: connection, into: &readBuffer, machine: &machine, timeout: remaining)
                    : machine.handshakeTimeLimitPassed()
                switch action {
                case .read, .deliverFrames:
                    continue
                case .sendHello:
                    break handshake
                case .close(let error):
                    throw error
                }
            }
            guard let hello = machine.hello else { throw InspectorClientError.notAnAgent(socketPath: socketPath) }
            try connection.writeAll(
                Array(ClientHello(client: clientName, subscribe: subscribe).frame()), timeoutMilliseconds: PollTimeout.milliseconds(seconds: timeout))
            self.hello = hello
            self.machine = machine
        } catch {
            connection.close()
            throw error
        }
    }

    deinit {
        connection.close()
    }

    /// The descriptor to poll for reading.
    var fileDescriptor: Int32 { connection.rawValue }

    /// Closes the connection.
    func close() {
        connection.close()
    }

    /// Writes `bytes`, waiting at most `timeoutMilliseconds` for room.
    func write(_ bytes: [UInt8], timeoutMilliseconds: Int32) throws {
        try connection.writeAll(bytes, timeoutMilliseconds: timeoutMilliseconds)
    }

    /// The oldest frame read and not taken yet (the agent's `hello` first), or `nil`.
    func takeFrame() -> ClientConnectionStateMachine.ReceivedFrame? {
        machine.nextFrame()
    }

    /// The oldest frame not taken yet, waiting at most `timeout` seconds for one; `nil` on
    /// timeout. Throws ``failure`` once the frames read before it have been taken.
    func nextFrame(timeout: Double) throws -> ClientConnectionStateMachine.ReceivedFrame? {
        // A frame already read is handed out without reading the clock (issue 30: most calls).
        if let received = machine.nextFrame() { return received }
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let failure = machine.failure { throw failure }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return nil }
            try receive(timeout: remaining)
            if let received = machine.nextFrame() { return received }
        }
    }

    /// Why the connection cannot go on (the agent closed it, a bad frame), or `nil`.
    var failure: InspectorClientError? { machine.failure }

    /// Waits at most `timeout` seconds for bytes and reads once; returns what the machine says
    /// (``ClientConnectionStateMachine/Action/read`` when nothing came in time).
    @discardableResult
    func receive(timeout: Double) throws -> ClientConnectionStateMachine.Action {
        try Self.receive(from: connection, into: &readBuffer, machine: &machine, timeout: timeout)
    }

    /// Reads what the socket holds now, without waiting (at most `maxReads` reads, so a fast
    /// agent cannot keep the caller here); for a `poll` loop.
    func receiveAvailable(maxReads: Int = 64) {
        for _ in 0..<maxReads {
            // After the handshake a read does not throw: a failed one ends the connection.
            switch try? Self.readOnce(from: connection, into: &readBuffer, machine: &machine) {
            case .read?, .deliverFrames?, .sendHello?: continue
            case .close?, nil: return
            }
        }
    }

    /// ``receive(timeout:)`` on the parts of a connection (the handshake runs it before the
    /// connection is whole).
    private static func receive(
        from connection: UnixConnection, into buffer: inout [UInt8], machine: inout ClientConnectionStateMachine, timeout: Double
    ) throws -> ClientConnectionStateMachine.Action {
        if let failure = machine.failure { return .close(failure) }
        let ready = try Poll.wait(descriptor: connection.rawValue, for: .readable, timeoutMilliseconds: max(1, PollTimeout.milliseconds(seconds: timeout)))
        if ready.isEmpty { return .read }
        return try readOnce(from: connection, into: &buffer, machine: &machine) ?? .read
    }

    /// One read, handed to the machine; `nil` when the socket holds nothing now. Throws only
    /// before the agent's `hello`: a read that fails then for another reason than a reset is
    /// the socket's own error.
    private static func readOnce(
        from connection: UnixConnection, into buffer: inout [UInt8], machine: inout ClientConnectionStateMachine
    ) throws -> ClientConnectionStateMachine.Action? {
        if let failure = machine.failure { return .close(failure) }
        let result: UnixConnection.ReadResult
        do {
            result = try buffer.withUnsafeMutableBytes { try connection.read(into: $0) }
        } catch let error as SocketSystemError where error.code == ECONNRESET {
            return machine.connectionReset()
        } catch {
            // After the hello the agent is gone as far as a reader can tell.
            guard machine.hello != nil else { throw error }
            return machine.connectionReset()
        }
        switch result {
        case .bytes(let count):
            return buffer.withUnsafeBytes { machine.bytesReceived(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        case .wouldBlock:
            return nil
        case .endOfFile:
            return machine.endOfFile()
        }
    }
}
