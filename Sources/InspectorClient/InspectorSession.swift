import BridgeCore
import DequeModule
import Foundation
import InspectorProtocol
import SocketSupport

/// One connection to an inspector agent: the handshake, then frames in and commands out.
///
/// Confine a session to one thread. It can be used blocking (scripts, tests):
///
/// ```swift
/// let session = try InspectorSession(socketPath: path, subscribe: false)
/// let reply = try session.run(.respond(.init(correlationId: "req-1", status: .success)))
/// ```
///
/// or driven from a `poll` loop (the TUI): poll ``fileDescriptor`` for reading, then call
/// ``readAvailableFrames()``; send with ``send(_:)`` and match replies by id.
public final class InspectorSession {
    /// The agent's greeting.
    public let hello: AgentHello
    /// The socket this session is connected to, or `tcp://HOST:PORT` (never the token).
    public let socketPath: String
    /// Where this session is connected.
    public let endpoint: InspectorEndpoint
    /// Whether this session receives the snapshot and live events.
    public let subscribed: Bool

    private let connection: ClientConnection
    /// Frames read and passed over by ``run(_:timeout:)`` while it looked for its reply, oldest
    /// first; handed out before the connection's own. A deque: ``nextFrame(timeout:)`` takes
    /// them from the front one at a time.
    ///
    /// Not checked for exclusive access at run time (issue 30: a check per frame handed out):
    /// the session is confined to one thread, and no access to it calls anything that could
    /// reach the session again (the one closure, in `run`, only looks at a frame), so no access
    /// can begin while another is under way.
    @exclusivity(unchecked) private var buffered: Deque<AgentFrame> = []
    private var nextCommand = 0

    /// The answer to a command.
    public struct Reply: Sendable {
        /// The command's id.
        public var id: String
        /// The result value, or the agent's error.
        public var result: Result<JSONValue, InspectorError>
        /// The exact messages the host sent because of the command.
        public var sent: [BridgeMessage]
    }

    /// Connects, reads the agent's hello and sends ours, waiting at most `timeout` seconds.
    ///
    /// Throws ``InspectorClientError`` with a sentence that says what to do (no host there, not a
    /// bridge-inspector agent, protocol mismatch) or a socket error.
    public convenience init(socketPath: String, subscribe: Bool, clientName: String = "bridge-inspector", timeout: Double = 5) throws {
        try self.init(endpoint: .unixSocket(path: socketPath), subscribe: subscribe, clientName: clientName, timeout: timeout)
    }

    /// Connects to `endpoint` (over TCP: sends the token first), then as
    /// ``init(socketPath:subscribe:clientName:timeout:)``. A refused token throws
    /// ``InspectorClientError/tokenRefused(endpoint:)``.
    public init(endpoint: InspectorEndpoint, subscribe: Bool, clientName: String = "bridge-inspector", timeout: Double = 5) throws {
        // Its frames come without their lines: a session hands out only the frames.
        connection = try ClientConnection(endpoint: endpoint, clientName: clientName, subscribe: subscribe, timeout: timeout, keepsLines: false)
        hello = connection.hello
        socketPath = connection.socketPath
        self.endpoint = endpoint
        subscribed = subscribe
        // The agent's hello is the connection's first frame; it is `hello` here, not a frame.
        _ = connection.takeFrame()
    }

    /// The descriptor to poll for reading.
    public var fileDescriptor: Int32 { connection.fileDescriptor }

    /// Closes the connection.
    public func close() {
        connection.close()
    }

    /// Sends a command and returns its id; the reply arrives as a `.reply` frame with that id.
    @discardableResult
    public func send(_ command: InspectorCommand) throws -> String {
        nextCommand += 1
        let id = "c\(nextCommand)"
        try connection.write(Array(command.frame(id: id)), timeoutMilliseconds: 10_000)
        return id
    }

    /// Sends a command and waits (at most `timeout` seconds) for its reply. Other frames that
    /// arrive meanwhile are kept for ``nextFrame(timeout:)``.
    public func run(_ command: InspectorCommand, timeout: Double = 10) throws -> Reply {
        let id = try send(command)
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let index = buffered.firstIndex(where: { Self.isReply($0, to: id) }),
                case .reply(_, let result, let sent) = buffered.remove(at: index)
            {
                return Reply(id: id, result: result, sent: sent)
            }
            while let received = connection.takeFrame() {
                if Self.isReply(received.frame, to: id), case .reply(_, let result, let sent) = received.frame {
                    return Reply(id: id, result: result, sent: sent)
                }
                buffered.append(received.frame)
            }
            if let failure = connection.failure { throw failure }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw InspectorClientError.commandTimedOut(command: command.name) }
            try connection.receive(timeout: remaining)
        }
    }

    private static func isReply(_ frame: AgentFrame, to id: String) -> Bool {
        if case .reply(id, _, _) = frame { return true }
        return false
    }

    /// The next frame, waiting at most `timeout` seconds; `nil` on timeout. Throws
    /// ``InspectorClientError/closed(socketPath:)`` when the agent has gone (after the frames
    /// that arrived before it went), ``InspectorClientError/badFrame(detail:)`` for a line that
    /// is not a frame.
    public func nextFrame(timeout: Double) throws -> AgentFrame? {
        if let frame = buffered.popFirst() { return frame }
        return try connection.nextFrame(timeout: timeout)?.frame
    }

    /// Every frame that can be read now without waiting; for a `poll` loop. Throws
    /// ``InspectorClientError/closed(socketPath:)`` when the agent has gone (after the frames
    /// that arrived before it went have been returned; ``isClosed`` says so meanwhile).
    public func readAvailableFrames() throws -> [AgentFrame] {
        connection.receiveAvailable()
        var frames = Array(buffered)
        buffered.removeAll()
        while let received = connection.takeFrame() { frames.append(received.frame) }
        if let failure = connection.failure, frames.isEmpty { throw failure }
        return frames
    }

    /// Whether the connection has ended (the agent closed it, or sent what this client cannot
    /// read), or was closed here.
    public var isClosed: Bool { connection.failure != nil || connection.fileDescriptor < 0 }
}

/// Seconds given by a caller, as the milliseconds `poll` takes: converted without trapping.
///
/// `Int32(seconds * 1000)` traps for NaN, an infinity or more than about 24 days, and a negative
/// result would mean "no limit" to the socket layer; every timeout in this module goes through
/// here instead.
enum PollTimeout {
    /// `seconds` in milliseconds, clamped to `0...Int32.max` (NaN is 0: do not wait).
    static func milliseconds(seconds: Double) -> Int32 {
        let ms = seconds * 1000
        guard ms > 0 else { return 0 }  // also NaN
        guard ms < Double(Int32.max) else { return Int32.max }
        return Int32(ms)
    }
}

/// Why a session could not be opened or went on.
public enum InspectorClientError: Error, Sendable, CustomStringConvertible {
    /// Nobody serves the socket.
    case noHost(socketPath: String, detail: String)
    /// Something answers that is not a bridge-inspector agent.
    case notAnAgent(socketPath: String)
    /// The agent did not greet in time.
    case handshakeTimedOut(socketPath: String)
    /// The agent refused us (too many clients, protocol mismatch).
    case refused(InspectorError)
    /// The agent closed the connection (the host stopped).
    case closed(socketPath: String)
    /// A command got no reply in time.
    case commandTimedOut(command: String)
    /// Over TCP, the agent refused the token (or got none in time).
    case tokenRefused(endpoint: String)
    /// The agent sent a frame this client cannot read.
    case badFrame(detail: String)

    public var description: String {
        switch self {
        case .noHost(let path, let detail):
            return "no host is serving \(path) (\(detail)); start one with `bridge-inspector demo` or `bridge-inspector host`, or list hosts with `bridge-inspector hosts`"
        case .notAnAgent(let path):
            return "\(path) did not answer like a bridge-inspector agent; check the socket path"
        case .handshakeTimedOut(let path):
            return "the host at \(path) did not greet within the time limit; is it stuck?"
        case .refused(let error):
            return "the host refused the connection: \(error.message)"
        case .closed(let path):
            return "the host at \(path) closed the connection (it stopped or restarted)"
        case .tokenRefused(let endpoint):
            return "the token was refused by \(endpoint): copy it from the app's console line `bridge-inspector: attach over USB ...` and give it in BRIDGE_INSPECTOR_TOKEN (or --token-file)"
        case .commandTimedOut(let command):
            return "no reply to '\(command)' in time; the host's main thread may be blocked"
        case .badFrame(let detail):
            return "the host sent a frame this bridge-inspector cannot read (\(detail)); are both the same version?"
        }
    }
}
