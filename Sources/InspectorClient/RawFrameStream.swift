import Foundation
import InspectorProtocol
import SocketSupport

/// A subscribed connection to an agent that hands out every frame together with its exact line,
/// the agent's `hello` first: what `bridge-inspector record` needs to store frames verbatim.
///
/// The handshake and its errors are those of ``InspectorSession``.
public final class RawFrameStream {
    /// The agent's greeting.
    public let hello: AgentHello
    /// The socket this stream is connected to, or `tcp://HOST:PORT` (never the token).
    public let socketPath: String

    private let connection: UnixConnection
    private var framer = LineFramer(maximumLineLength: WireProtocol.maxAgentFrameBytes)
    private var buffered: [(line: [UInt8], frame: AgentFrame)] = []

    /// Connects, reads the agent's hello and subscribes, waiting at most `timeout` seconds.
    public convenience init(socketPath: String, clientName: String = "bridge-inspector record", timeout: Double = 5) throws {
        try self.init(endpoint: .unixSocket(path: socketPath), clientName: clientName, timeout: timeout)
    }

    /// Connects to `endpoint` (over TCP: sends the token first), then as
    /// ``init(socketPath:clientName:timeout:)``.
    public init(endpoint: InspectorEndpoint, clientName: String = "bridge-inspector record", timeout: Double = 5) throws {
        let socketPath = endpoint.description
        self.socketPath = socketPath
        connection = try endpoint.open(timeout: timeout)
        let deadline = Date().addingTimeInterval(timeout)
        var hello: AgentHello?
        while hello == nil {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw InspectorClientError.handshakeTimedOut(socketPath: socketPath) }
            guard let bytes = try connection.read(upTo: 64 * 1024, timeoutMilliseconds: PollTimeout.milliseconds(seconds: remaining)) else {
                throw InspectorClientError.closed(socketPath: socketPath)
            }
            for piece in framer.feed(bytes) {
                guard case .line(let line) = piece, let frame = try? AgentFrame.decode(Data(line)) else {
                    throw InspectorClientError.notAnAgent(socketPath: socketPath)
                }
                if case .hello(let value) = frame, hello == nil {
                    hello = value
                } else if case .reply(_, .failure(let error), _) = frame {
                    throw endpoint.refusal(error)
                }
                buffered.append((line, frame))
            }
        }
        guard let hello else { throw InspectorClientError.notAnAgent(socketPath: socketPath) }
        guard hello.protocol == WireProtocol.version else {
            throw InspectorClientError.refused(
                InspectorError(.protocolMismatch, "the host's agent speaks protocol \(hello.protocol); this bridge-inspector speaks \(WireProtocol.version)"))
        }
        self.hello = hello
        try connection.writeAll(Array(ClientHello(client: clientName, subscribe: true).frame()), timeoutMilliseconds: PollTimeout.milliseconds(seconds: timeout))
    }

    deinit {
        connection.close()
    }

    /// The descriptor to poll for reading.
    public var fileDescriptor: Int32 { connection.rawValue }

    /// Closes the connection.
    public func close() {
        connection.close()
    }

    /// The next frame and its exact line, waiting at most `timeout` seconds; `nil` on timeout.
    /// Throws ``InspectorClientError/closed(socketPath:)`` when the agent has gone, and
    /// ``InspectorClientError/badFrame(detail:)`` for a line that is not a frame.
    public func next(timeout: Double) throws -> (line: [UInt8], frame: AgentFrame)? {
        let deadline = Date().addingTimeInterval(timeout)
        while buffered.isEmpty {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return nil }
            let bytes: [UInt8]?
            do {
                bytes = try connection.read(upTo: 256 * 1024, timeoutMilliseconds: max(1, PollTimeout.milliseconds(seconds: remaining)))
            } catch {
                throw InspectorClientError.closed(socketPath: socketPath)
            }
            guard let bytes else { throw InspectorClientError.closed(socketPath: socketPath) }
            for piece in framer.feed(bytes) {
                switch piece {
                case .line(let line):
                    do {
                        buffered.append((line, try AgentFrame.decode(Data(line))))
                    } catch {
                        throw InspectorClientError.badFrame(detail: "\(error)")
                    }
                case .oversized(let count):
                    throw InspectorClientError.badFrame(detail: "a frame longer than \(count) bytes")
                }
            }
        }
        return buffered.removeFirst()
    }
}
