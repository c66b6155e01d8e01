/// The bounds the agent keeps so that no client, and no long session, can hurt the host.
///
/// The defaults are documented in `docs/inspector-protocol.md`; tests and benchmarks lower them.
public struct AgentLimits: Sendable {
    /// The most clients served at once; one more is told `too_many_clients` and closed.
    public var maxClients = 16
    /// Bytes queued for one client before events are dropped for it (a gap follows).
    public var maxQueuedBytesPerClient = 8 * 1024 * 1024
    /// Seconds a client may leave its queue without reading anything before it is disconnected.
    public var stalledClientSeconds = 10.0
    /// Messages kept in the agent's log for snapshots.
    public var maxLogMessages = 10_000
    /// Bytes of message JSON kept in the agent's log for snapshots.
    public var maxLogBytes = 32 * 1024 * 1024
    /// Bad frames a client may send before it is disconnected.
    public var maxProtocolErrors = 10
    /// Seconds a client has to send its `hello`.
    public var handshakeSeconds = WireProtocol.handshakeDeadlineSeconds
    /// The largest frame a client may send.
    public var maxClientFrameBytes = WireProtocol.maxClientFrameBytes

    /// The defaults.
    public init() {}
}

import InspectorProtocol
