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
    /// Pending requests the agent keeps records of for snapshots (the oldest ones). The host's
    /// own `pendingRequests` is not limited by this, every `pendingAdded` event still reaches the
    /// clients connected at the time, and any pending request can still be answered; a snapshot
    /// taken while more are pending lists these and says how many it leaves out
    /// (`counts.pendingOmitted`).
    public var maxPendingRecords = 10_000
    /// Bad frames a client may send before it is disconnected.
    public var maxProtocolErrors = 10
    /// Seconds a client has to send its `hello`.
    public var handshakeSeconds = WireProtocol.handshakeDeadlineSeconds
    /// The largest frame a client may send.
    public var maxClientFrameBytes = WireProtocol.maxClientFrameBytes

    /// The most TCP connections that may wait to authenticate at once (half of ``maxClients``,
    /// at least one); one more is closed at once without a byte, so strangers on a forwarded port
    /// can never take all the slots from inspectors on the Unix socket.
    public var maxClientsAwaitingAuth: Int { max(1, maxClients / 2) }

    /// The defaults.
    public init() {}

    /// The log bytes actually kept: ``maxLogBytes``, but at most
    /// ``AgentLimits/largestLogBytes``, so that a snapshot always fits in one agent frame.
    public var effectiveMaxLogBytes: Int { max(0, min(maxLogBytes, Self.largestLogBytes)) }

    /// The largest log the agent keeps, whatever ``maxLogBytes`` says: with the pending records,
    /// malformed inputs and error history at their caps, a snapshot then still fits in
    /// `WireProtocol.maxAgentFrameBytes` (64 MiB), so any inspector can attach.
    public static let largestLogBytes = 36 * 1024 * 1024

    /// The most bytes the agent can hold with these limits, whatever the journey and the clients
    /// send: the bound `InspectorAgent.heldBytes` stays under. docs/inspector-protocol.md
    /// (section 9) explains each term.
    public var heldBytesBound: Int {
        let overhead = AgentState.recordOverhead
        let history = AgentState.historyLimit
        let state = effectiveMaxLogBytes + max(0, maxLogMessages) * overhead
            + AgentState.pendingTotalLimit + max(0, maxPendingRecords) * overhead
            + AgentState.heldTotalLimit + AgentState.pendingMessageLimit + AgentState.maxHeldRecords * overhead
            + history * (AgentState.malformedRecordLimit + overhead)
            + history * (AgentState.errorRecordLimit + overhead)
        let perClient = 2 * max(0, maxQueuedBytesPerClient) + 2 * WireProtocol.maxAgentFrameBytes
            + max(1, maxClientFrameBytes) + AgentLoop.readChunkBytes
        return state + max(0, maxClients) * perClient
    }
}

import InspectorProtocol
