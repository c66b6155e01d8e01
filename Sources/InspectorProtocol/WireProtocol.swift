import BridgeCore

/// Names and limits of the inspector protocol, shared by the agent and every client.
///
/// The protocol is newline-delimited JSON over a Unix socket (or, after an `auth` line, a loopback
/// TCP port): one compact JSON object per line.
/// `docs/inspector-protocol.md` describes it completely; this type holds the numbers both ends
/// must agree on.
public enum WireProtocol {
    /// The protocol version both sides state in their `hello`. A mismatch ends the connection
    /// with a `protocol_mismatch` error.
    public static let version = 1

    /// The largest frame a client may send, in bytes (without the newline). Larger frames are
    /// answered with a `frame_too_large` error and skipped.
    public static let maxClientFrameBytes = 16 * 1024 * 1024

    /// The most bytes of JSON data a client puts in one command (`respond --data`, a reply rule's
    /// data): three quarters of ``maxClientFrameBytes``, leaving room for the rest of the frame
    /// and for escaping.
    public static let maxCommandDataBytes = 12 * 1024 * 1024

    /// The environment variable a client reads a TCP agent's token from (docs/cli.md): the agent's
    /// connect line gives the token this way, so that it never sits in a client's arguments.
    public static let tokenVariable = "BRIDGE_INSPECTOR_TOKEN"

    /// The deepest nesting of objects and arrays a client frame may have. A message's data may
    /// nest up to the bridge's own limit (`JSONSyntaxCheck.defaultMaxDepth`, 100); a command
    /// wraps it a few levels deeper. Deeper frames are answered with `malformed_frame`.
    public static let maxClientFrameDepth = 128

    /// The deepest nesting a client accepts in a frame from the agent: the deepest message a host
    /// can accept (``BridgeCore/BridgeMessageCodec/maximumDepth``) plus the levels a frame wraps
    /// it in (a snapshot holds it at `state.messages[i].message`, four levels down), with room to
    /// spare. So every message a host accepted can be shown, recorded and opened again.
    public static let maxAgentFrameDepth = BridgeMessageCodec.maximumDepth + 8

    /// The largest frame the agent sends. A message whose frame would be larger is sent with its
    /// payload left out and `"truncated": true`.
    public static let maxAgentFrameBytes = 64 * 1024 * 1024

    /// Seconds a client has, after connecting, to send its `hello`.
    public static let handshakeDeadlineSeconds = 5.0

    /// What this agent can do, listed in its `hello` as `features`.
    public static let features = ["snapshot", "events", "gap", "commands", "origin", "breakpoints", "inject", "faults"]

    /// The version of bridge-inspector (the agent, the command and the libraries ship together):
    /// `bridge-inspector --version` prints it beside ``version``, and the agent names it in its
    /// `hello`.
    public static let toolVersion = "0.1.0"

    /// The agent's name and version, sent in its `hello`.
    public static let agentName = "bridge-inspector-agent/\(toolVersion)"
}

/// The value of a frame's `kind` field.
public enum FrameKind: String, Codable, Sendable {
    /// First frame each way.
    case hello
    /// The agent's full state at a sequence number.
    case snapshot
    /// One change, with the next sequence number.
    case event
    /// The client missed events `from...to`; a snapshot follows.
    case gap
    /// A client's command.
    case command
    /// The agent's answer to a command (or to a bad frame).
    case reply
}
