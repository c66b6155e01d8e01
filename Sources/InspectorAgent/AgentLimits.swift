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
    /// The most messages the host holds at breakpoints at once. A message a breakpoint matches
    /// beyond it goes on, not held, and clients are told (a `holdSkipped` event).
    public var maxHeldMessages = 100
    /// The most bytes (of the messages' JSON) the host holds at breakpoints at once; a message
    /// that would pass it goes on as for ``maxHeldMessages``. The host keeps each held message
    /// decoded too, which takes about as much again.
    public var maxHeldMessageBytes = 16 * 1024 * 1024
    /// The most breakpoints one inspector may set; one more is refused (`too_many_breakpoints`).
    public var maxBreakpointsPerClient = 32
    /// The most fault rules one inspector may set; one more is refused (`too_many_faults`).
    public var maxFaultsPerClient = 16
    /// The most JSON one fault rule may take, as the agent encodes it; a larger one is refused
    /// (`invalid_arguments`).
    public static let maxFaultRuleBytes = 8 * 1024
    /// The most JSON one fault rule takes in the agent's list (the rule, its owner's name with
    /// each byte escaped as at most 6, and 256 bytes for the rest).
    static let faultRecordBytes = maxFaultRuleBytes + 6 * maxClientNameBytes + 256
    /// The least time between two `faults` events that only bring new hit counts: a rule that
    /// fires on every message of a busy journey sends its counts to each inspector a few times a
    /// second, not once a message (the snapshot always has them as they are). Adding or removing
    /// a rule is sent at once (docs/inspector-protocol.md, section 14.2).
    public static let faultHitsIntervalSeconds = 0.25

    /// The longest breakpoint filter, in bytes; a longer one is refused (`invalid_arguments`).
    public static let maxBreakpointFilterBytes = 1024
    /// The longest client name (its hello's `client`) kept, in bytes: the name is shown as the
    /// owner of that client's breakpoints and held messages, so it is cut beyond this.
    public static let maxClientNameBytes = 256
    /// The most JSON one breakpoint takes in the agent's list (its filter and its owner's name,
    /// each byte escaped as at most 6, and 256 bytes for the rest).
    static let breakpointRecordBytes = 6 * (maxBreakpointFilterBytes + maxClientNameBytes) + 256

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
            + WireCounts.maxPendingOmittedActions * (WireCounts.maxPendingOmittedActionBytes + overhead)
            + AgentState.heldTotalLimit + AgentState.pendingMessageLimit + AgentState.maxHeldRecords * overhead
            + history * (AgentState.malformedRecordLimit + overhead)
            + history * (AgentState.errorRecordLimit + overhead)
            + max(0, maxClients) * max(0, maxBreakpointsPerClient) * (Self.breakpointRecordBytes + overhead)
            + max(0, maxClients) * max(0, maxFaultsPerClient) * (Self.faultRecordBytes + overhead)
        let perClient = 2 * max(0, maxQueuedBytesPerClient) + 2 * WireProtocol.maxAgentFrameBytes
            + max(1, maxClientFrameBytes) + AgentLoop.readChunkBytes
        return state + max(0, maxClients) * perClient
    }
}

import InspectorProtocol
