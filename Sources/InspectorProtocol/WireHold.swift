import BridgeCore

/// A message held at a breakpoint, as carried in `held` events and snapshots.
public struct WireHeld: Codable, Sendable, Hashable {
    /// The hold's id (`h1`), what `release`, `answer` and `drop` take.
    public var id: String
    /// `received`: a request from the journey not yet routed; `sent`: a response or event not
    /// yet delivered.
    public var direction: TrafficRecord.Direction
    /// When it was held, in milliseconds since 1970.
    public var since: Double
    /// When it is released as it is if nobody acts, in milliseconds since 1970.
    public var deadline: Double?
    /// The breakpoint that holds it.
    public var breakpoint: String
    /// The name of the inspector that set that breakpoint.
    public var owner: String?
    /// `true` when the message was too large to keep here (over 256 KiB, or held messages
    /// together over 2 MiB), and `message` holds it without `payload.data`: it can still be
    /// released, answered or dropped, not edited.
    public var truncated: Bool?
    /// The held message (untrusted: sanitize its text before showing it).
    public var message: BridgeMessage

    /// Creates a record.
    public init(
        id: String, direction: TrafficRecord.Direction, since: Double, deadline: Double? = nil, breakpoint: String,
        owner: String? = nil, truncated: Bool? = nil, message: BridgeMessage
    ) {
        self.truncated = truncated
        self.id = id
        self.direction = direction
        self.since = since
        self.deadline = deadline
        self.breakpoint = breakpoint
        self.owner = owner
        self.message = message
    }
}

/// How a held message left the hold, as carried in `heldResolved` events.
public struct WireHeldResolution: Codable, Sendable, Hashable {
    /// The hold's id.
    public var id: String
    /// The held message's correlation id.
    public var correlationId: String
    /// Which way the held message was going.
    public var direction: TrafficRecord.Direction
    /// `released`, `edited`, `answered` or `dropped`.
    public var outcome: HeldResolution.Outcome
    /// `command` (someone acted), `timeLimit`, `ownerGone` (the inspector that set the
    /// breakpoint went away, or removed it), `interceptorRemoved` (the agent stopped),
    /// `answeredByHost` (the app answered the request itself) or `journeyGone` (the page that
    /// held it went: GBGBridge public-API path only).
    public var reason: HeldResolution.Reason
    /// The name of the inspector whose command resolved it, when one did.
    public var by: String?
    /// For `edited`, the message that went on; for `answered`, the response sent.
    public var message: BridgeMessage?
    /// For a message logged before it was held (a request the journey posted to a native host;
    /// what GBGBridge sent, seen through its public API): the `seq` of its `traffic` record, the
    /// row a client marks (with `edited`, it shows ``message`` there as what went on). Absent
    /// when the message is logged after its release, and from older agents.
    public var record: Int?
    /// When, in milliseconds since 1970.
    public var time: Double

    /// Creates a record.
    public init(
        id: String, correlationId: String, direction: TrafficRecord.Direction, outcome: HeldResolution.Outcome,
        reason: HeldResolution.Reason, by: String? = nil, message: BridgeMessage? = nil, record: Int? = nil, time: Double
    ) {
        self.record = record
        self.id = id
        self.correlationId = correlationId
        self.direction = direction
        self.outcome = outcome
        self.reason = reason
        self.by = by
        self.message = message
        self.time = time
    }
}

/// A breakpoint, as carried in `breakpoints` events and snapshots. Every inspector sees every
/// breakpoint; only the one that set it can remove it, and it goes (releasing what it holds)
/// when that inspector disconnects.
public struct WireBreakpoint: Codable, Sendable, Hashable {
    /// The breakpoint's id (`b1`).
    public var id: String
    /// Its filter, in the log filter's language.
    public var filter: String
    /// The name of the inspector that set it (from its hello).
    public var owner: String
    /// The agent's number for that inspector's connection (``AgentHello/clientId``).
    public var ownerClient: Int
    /// How long it holds a message before releasing it as it is, in seconds.
    public var holdSeconds: Double
    /// How many messages it has held.
    public var hits: Int

    /// Creates a record.
    public init(id: String, filter: String, owner: String, ownerClient: Int, holdSeconds: Double, hits: Int) {
        self.id = id
        self.filter = filter
        self.owner = owner
        self.ownerClient = ownerClient
        self.holdSeconds = holdSeconds
        self.hits = hits
    }
}

/// A message a breakpoint matched but that was let through, not held, because the host already
/// holds as many messages (or bytes of them) as the agent allows: carried in `holdSkipped`
/// events (docs/inspector-protocol.md, section 13.4). The message itself goes on as if no
/// breakpoint had matched, and its `traffic` record follows as usual.
public struct WireHoldSkipped: Codable, Sendable, Hashable {
    /// Which cap let the message through.
    public enum Reason: String, Codable, Sendable, Hashable {
        /// The host already held the most messages at once (`AgentLimits.maxHeldMessages`).
        case heldCount
        /// Holding it would have passed the most bytes held at once
        /// (`AgentLimits.maxHeldMessageBytes`), or the message alone is larger.
        case heldBytes
    }

    /// The breakpoint that matched.
    public var breakpoint: String
    /// The message's correlation id.
    public var correlationId: String
    /// The message's action.
    public var action: String
    /// Which way the message was going.
    public var direction: TrafficRecord.Direction
    /// Which cap let it through.
    public var reason: Reason
    /// The cap: a number of messages for `heldCount`, of bytes for `heldBytes`.
    public var limit: Int
    /// The size of the message's JSON, in bytes.
    public var bytes: Int
    /// When, in milliseconds since 1970.
    public var time: Double

    /// Creates a record.
    public init(
        breakpoint: String, correlationId: String, action: String, direction: TrafficRecord.Direction, reason: Reason,
        limit: Int, bytes: Int, time: Double
    ) {
        self.breakpoint = breakpoint
        self.correlationId = correlationId
        self.action = action
        self.direction = direction
        self.reason = reason
        self.limit = limit
        self.bytes = bytes
        self.time = time
    }

    /// Why it was not held, for a person: `not held: the host already holds 100 messages, the
    /// most at once; release, answer or drop some`. Unsanitised only in the numbers it adds.
    public var why: String {
        switch reason {
        case .heldCount:
            return "not held: the host already holds \(limit) messages, the most at once; release, answer or drop some"
        case .heldBytes:
            return "not held: holding its \(bytes) bytes would pass the \(limit) bytes the host may hold at once; release, answer or drop some"
        }
    }
}
