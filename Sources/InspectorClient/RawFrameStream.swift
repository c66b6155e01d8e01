import Foundation
import InspectorProtocol

/// A subscribed connection to an agent that hands out every frame together with its exact line,
/// the agent's `hello` first: what `bridge-inspector record` needs to store frames verbatim.
///
/// It runs on the same ``ClientConnectionStateMachine`` as ``InspectorSession``, so the
/// handshake, its errors and the end of the connection are the same for both:
///
/// ```swift
/// let stream = try RawFrameStream(socketPath: path)
/// let writer = try RecordingWriter(path: "session.jsonl", header: Recording.Header(socket: path, startedAt: now))
/// while let next = try stream.next(timeout: 1) { try writer.write(line: next.line) }
/// ```
public final class RawFrameStream {
    /// The agent's greeting.
    public let hello: AgentHello
    /// The socket this stream is connected to, or `tcp://HOST:PORT` (never the token).
    public let socketPath: String

    private let connection: ClientConnection

    /// Connects, reads the agent's hello and subscribes, waiting at most `timeout` seconds.
    /// Throws what ``InspectorSession/init(socketPath:subscribe:clientName:timeout:)`` throws.
    public convenience init(socketPath: String, clientName: String = "bridge-inspector record", timeout: Double = 5) throws {
        try self.init(endpoint: .unixSocket(path: socketPath), clientName: clientName, timeout: timeout)
    }

    /// Connects to `endpoint` (over TCP: sends the token first), then as
    /// ``init(socketPath:clientName:timeout:)``.
    public init(endpoint: InspectorEndpoint, clientName: String = "bridge-inspector record", timeout: Double = 5) throws {
        connection = try ClientConnection(endpoint: endpoint, clientName: clientName, subscribe: true, timeout: timeout, keepsLines: true)
        hello = connection.hello
        socketPath = connection.socketPath
    }

    /// The descriptor to poll for reading.
    public var fileDescriptor: Int32 { connection.fileDescriptor }

    /// Closes the connection.
    public func close() {
        connection.close()
    }

    /// The next frame and its exact line, waiting at most `timeout` seconds; `nil` on timeout.
    /// Throws ``InspectorClientError/closed(socketPath:)`` when the agent has gone (after the
    /// frames that arrived before it went), and ``InspectorClientError/badFrame(detail:)`` for
    /// a line that is not a frame.
    public func next(timeout: Double) throws -> (line: [UInt8], frame: AgentFrame)? {
        try connection.nextFrame(timeout: timeout).map { ($0.line, $0.frame) }
    }
}
