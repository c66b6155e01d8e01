import Foundation
import InspectorProtocol
import SocketSupport

/// The client's side of a connection to an agent, without the connection: bytes in, the agent's
/// `hello`, its frames (each with its exact line) or the reason the connection cannot go on out.
///
/// It does no I/O and reads no clock, so every client that talks to an agent runs the same
/// handshake and the same framing and gives the same errors: ``InspectorSession`` and
/// ``RawFrameStream`` both drive it. A driver reads from its socket, hands what it read (or
/// the end of the connection) to the machine and does what the returned ``Action`` says;
/// frames wait in the machine until the driver takes them with ``nextFrame()``, the `hello`
/// first, in the order they arrived:
///
/// ```swift
/// var machine = ClientConnectionStateMachine(endpoint: endpoint)
/// while machine.hello == nil {
///     switch machine.bytesReceived(try read()) {          // or endOfFile(), connectionReset()
///     case .read: continue                                // nothing to act on yet
///     case .sendHello: try write(ClientHello(client: "me", subscribe: true).frame())
///     case .deliverFrames: break                          // take them with nextFrame()
///     case .close(let error): throw error
///     }
/// }
/// ```
///
/// What the agent can say before its `hello` (docs/inspector-protocol.md): nothing at all over
/// TCP until the token is accepted, then the `hello`; or a refusal instead, a `reply` frame
/// with an error and no id (too many clients, too many waiting for a token, a token missing or
/// wrong). A refusal of the token is ``InspectorClientError/tokenRefused(endpoint:)``, any other
/// ``InspectorClientError/refused(_:)``; a `hello` of another protocol version is refused here as
/// `protocol_mismatch`. Anything else before the `hello` (a line that is not a frame, another
/// frame, a line over the cap) means the peer is not an agent. After the `hello`, a line that is
/// not a frame, or is longer than the cap, is ``InspectorClientError/badFrame(detail:)``. The
/// end of the connection, by end of file or by a reset, is
/// ``InspectorClientError/closed(socketPath:)`` at any point: a host that stops while a client
/// attaches resets the connection, and it is gone, not broken.
///
/// Once it has failed the machine stays failed: later input changes nothing and is answered with
/// the same error. Frames read before the failure can still be taken.
public struct ClientConnectionStateMachine: Sendable {
    /// A frame and its line exactly as the agent sent it (without the newline).
    public struct ReceivedFrame: Sendable {
        /// The line, byte for byte (what a recording stores); empty from a machine made not to
        /// keep lines (an ``InspectorSession``'s, which hands out only the frames).
        public var line: [UInt8]
        /// The line, decoded.
        public var frame: AgentFrame
    }

    /// What the driver does next.
    public enum Action: Sendable {
        /// Nothing to act on yet: read again (while the driver's time limit allows).
        case read
        /// The agent greeted with a `hello` of this client's protocol: write the client's own
        /// `hello` (``ClientHello``) now. The agent's `hello` is the first frame waiting.
        case sendHello(AgentHello)
        /// Frames are waiting: take them with ``ClientConnectionStateMachine/nextFrame()``.
        case deliverFrames
        /// The connection cannot go on: close it and report the error (after the frames still
        /// waiting, if the driver hands them out).
        case close(InspectorClientError)
    }

    private enum State: Sendable {
        /// Connected; nothing but a refusal or the `hello` has been read.
        case awaitingHello
        /// Greeted (``hello``): frames follow.
        case open
        /// Failed or closed, for this reason; nothing more is read.
        case failed(InspectorClientError)
    }

    private var state = State.awaitingHello
    private var framer: LineFramer
    private var frames = ReceivedFrameQueue()
    /// The endpoint as it is printed (never the token).
    private let peer: String
    /// Whether each frame keeps its line (``ReceivedFrame/line``). When not, lines are decoded
    /// where the framer lends them, without an array of their own (issue 30).
    private let keepsLines: Bool

    /// The longest line accepted from the agent, in bytes.
    public let maximumFrameBytes: Int

    /// A machine for a connection just opened to `endpoint` (over TCP, after the token was sent).
    /// Only the endpoint's printable ``InspectorEndpoint/description`` is kept, for errors.
    public init(endpoint: InspectorEndpoint, maximumFrameBytes: Int = WireProtocol.maxAgentFrameBytes) {
        self.init(endpoint: endpoint, maximumFrameBytes: maximumFrameBytes, keepsLines: true)
    }

    /// A machine as ``init(endpoint:maximumFrameBytes:)``'s; with `keepsLines` false, one whose
    /// frames come without their lines (``ReceivedFrame/line`` empty), for a driver that reads
    /// only the frames: the same actions, frames and errors for the same bytes, each line decoded
    /// where the framer lends it instead of first copied into an array (issue 30).
    package init(endpoint: InspectorEndpoint, maximumFrameBytes: Int = WireProtocol.maxAgentFrameBytes, keepsLines: Bool) {
        peer = endpoint.description
        self.keepsLines = keepsLines
        self.maximumFrameBytes = max(1, maximumFrameBytes)
        // Frames can be long (a snapshot, a large message): the next long one reserves at once
        // about what the last needed, instead of growing step by step and copying at each step
        // (issue 30).
        framer = LineFramer(maximumLineLength: self.maximumFrameBytes, expectsLongLines: true)
    }

    /// The agent's greeting, once it has arrived (and still after a failure).
    public private(set) var hello: AgentHello?

    /// Why the connection ended, or `nil` while it goes on.
    public var failure: InspectorClientError? {
        if case .failed(let error) = state { return error }
        return nil
    }

    /// Whether frames are waiting to be taken.
    public var hasFrames: Bool { !frames.isEmpty }

    /// The oldest frame not taken yet, or `nil`.
    public mutating func nextFrame() -> ReceivedFrame? {
        frames.popFirst()
    }

    /// Bytes read from the connection, split anywhere (one byte, many lines, part of a line).
    public mutating func bytesReceived(_ bytes: UnsafeRawBufferPointer) -> Action {
        if case .failed(let error) = state { return .close(error) }
        let wasGreeted = hello != nil
        // The framer is taken out while it frames, so that each line is handled as it comes (no
        // list of them; issue 30) by `handle`, which changes the rest of the machine. The whole
        // chunk is framed, as when its lines were listed first; none after a failure is handled.
        var framer = LineFramer(maximumLineLength: 1)
        swap(&framer, &self.framer)
        var failure: InspectorClientError?
        if keepsLines {
            framer.feed(bytes) { piece in
                guard failure == nil else { return }
                switch piece {
                case .line(let line): if let error = line.withUnsafeBytes({ handle(line: $0, keeping: line) }) { failure = error }
                case .oversized: failure = handleOversizedLine()
                }
            }
        } else {
            framer.feed(lending: bytes) { piece in
                guard failure == nil else { return }
                switch piece {
                case .line(let line): if let error = handle(line: line, keeping: []) { failure = error }
                case .oversized: failure = handleOversizedLine()
                }
            }
        }
        swap(&framer, &self.framer)
        if let failure {
            state = .failed(failure)
            return .close(failure)
        }
        if !wasGreeted, let hello { return .sendHello(hello) }
        return frames.isEmpty ? .read : .deliverFrames
    }

    /// Bytes read from the connection (as the buffer-pointer variant).
    public mutating func bytesReceived(_ bytes: [UInt8]) -> Action {
        bytes.withUnsafeBytes { bytesReceived($0) }
    }

    /// The agent closed the connection (end of file), mid-line or not.
    public mutating func endOfFile() -> Action {
        end()
    }

    /// The connection was reset (`ECONNRESET`): the same as an end of file.
    public mutating func connectionReset() -> Action {
        end()
    }

    /// The driver's time limit for the handshake passed: a connection still waiting for the
    /// `hello` fails with ``InspectorClientError/handshakeTimedOut(socketPath:)``; once greeted,
    /// nothing changes (``Action/read``).
    public mutating func handshakeTimeLimitPassed() -> Action {
        switch state {
        case .awaitingHello:
            let error = InspectorClientError.handshakeTimedOut(socketPath: peer)
            state = .failed(error)
            return .close(error)
        case .open:
            return frames.isEmpty ? .read : .deliverFrames
        case .failed(let error):
            return .close(error)
        }
    }

    private mutating func end() -> Action {
        if case .failed(let error) = state { return .close(error) }
        framer.reset()
        let error = InspectorClientError.closed(socketPath: peer)
        state = .failed(error)
        return .close(error)
    }

    /// Handles a line over the cap; returns the error that ends the connection.
    private func handleOversizedLine() -> InspectorClientError {
        switch state {
        case .failed(let error): return error
        case .awaitingHello: return .notAnAgent(socketPath: peer)
        case .open: return .badFrame(detail: "a frame of more than \(maximumFrameBytes) bytes")
        }
    }

    /// Handles one line, `bytes` (lent for the call), kept as `line` in its frame (the same bytes
    /// in an array, or empty when lines are not kept); returns the error that ends the
    /// connection, if it does.
    private mutating func handle(line bytes: UnsafeRawBufferPointer, keeping line: [UInt8]) -> InspectorClientError? {
        switch state {
        case .failed(let error):
            return error
        case .awaitingHello:
            guard let frame = try? AgentFrame.read(lentBytes: bytes) else { return .notAnAgent(socketPath: peer) }
            switch frame {
            case .hello(let hello):
                guard hello.protocol == WireProtocol.version else {
                    return .refused(
                        InspectorError(
                            .protocolMismatch,
                            "the host's agent speaks protocol \(hello.protocol); this bridge-inspector speaks \(WireProtocol.version)"))
                }
                self.hello = hello
                state = .open
                frames.append(ReceivedFrame(line: line, frame: frame))
                return nil
            case .reply(_, .failure(let error), _):
                return refusal(error)
            default:
                return .notAnAgent(socketPath: peer)
            }
        case .open:
            do {
                // Decoded from the bytes where the framer has them: no copy of the line (issue 30).
                frames.append(ReceivedFrame(line: line, frame: try AgentFrame.decode(lentBytes: bytes)))
                return nil
            } catch {
                return .badFrame(detail: "\(error)")
            }
        }
    }

    /// The error for the agent's refusal: a refused token gets its own words.
    private func refusal(_ error: InspectorError) -> InspectorClientError {
        switch error.knownCode {
        case .authFailed, .authRequired:
            return .tokenRefused(endpoint: peer)
        default:
            return .refused(error)
        }
    }
}
