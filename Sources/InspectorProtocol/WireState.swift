import BridgeCore
import Foundation

/// Who the agent is serving: sent in the agent's `hello` and in every snapshot.
public struct WireHostInfo: Codable, Sendable, Hashable {
    /// The name the host gave when it started the inspector.
    public var name: String
    /// The host's process id.
    public var pid: Int
    /// The host's version (`BridgeHost.hostVersion`).
    public var hostVersion: String
    /// The environment reported to the journey, such as `ios`.
    public var environment: String
    /// When the agent started, in milliseconds since 1970.
    public var startedAt: Double
    /// How the agent sees the host: `native` (BridgeCore's own change stream, everything) or
    /// `public-api` (an app embedding GBG's GBGBridge, seen through its public API). Absent from
    /// agents older than issue 12: read it as ``inspectionPath``.
    public var inspection: String?
    /// What this host cannot do, each with the reason to show a person: keys are
    /// ``HostFeature`` raw values. Absent or empty: everything is supported.
    public var unsupported: [String: String]?
    /// The cap on the host's `receivedMessages` when the agent started (BridgeCore's
    /// `maxReceivedMessages`): past it the oldest messages are dropped. Absent when the host has
    /// no cap or does not say (GBG's iOS GBGBridge: "receivedMessages grows without bound",
    /// Troubleshooting, "Memory Warnings or Crashes"), and from agents older than issue 16.
    public var receivedMessagesCap: Int?

    /// Creates host info.
    public init(
        name: String, pid: Int, hostVersion: String, environment: String, startedAt: Double,
        inspection: String? = nil, unsupported: [String: String]? = nil, receivedMessagesCap: Int? = nil
    ) {
        self.name = name
        self.pid = pid
        self.hostVersion = hostVersion
        self.environment = environment
        self.startedAt = startedAt
        self.inspection = inspection
        self.unsupported = unsupported
        self.receivedMessagesCap = receivedMessagesCap
    }

    /// `native` unless the agent said otherwise.
    public var inspectionPath: String { inspection ?? HostFeature.nativePath }

    /// Why this host cannot do `feature`, or `nil` when it can.
    public func unsupportedReason(_ feature: HostFeature) -> String? {
        unsupported?[feature.rawValue]
    }
}

/// Where a message came from, beyond its direction.
public enum MessageOrigin: String, Codable, Sendable, Hashable {
    /// Sent by the web journey.
    case journey
    /// Sent by the host's own code (handlers, slots, the app).
    case host
    /// Made by an inspector's command: shown as hand-made.
    case inspector
}

/// Input that failed to decode: from the journey, or (`direction` `sent`) a report of what the
/// host sent that an adapter could not read as a message.
public struct WireMalformed: Codable, Sendable, Hashable {
    /// The sequence number of the event that reported it.
    public var seq: Int
    /// When it arrived, in milliseconds since 1970.
    public var time: Double
    /// The text as it arrived (invalid UTF-8 replaced by U+FFFD, at most 64 KiB).
    public var raw: String
    /// The size of what arrived, in bytes.
    public var bytes: Int
    /// Why it was refused.
    public var reason: String
    /// `sent` for a report of what the host sent (a page script's report an adapter could not
    /// read); absent (`nil`) for input from the journey, and from older agents.
    public var direction: TrafficRecord.Direction?
    /// `inspector` for text an inspector handed the host with `inject` (`{"raw": …}`): the
    /// inspector's doing, not the journey's, so it is shown marked and not held against the app.
    /// Absent for input from the journey or a page report, and from older agents.
    public var origin: MessageOrigin?
    /// For an inspector's input: the id of the `inject` command that handed it over.
    public var command: String?

    /// Creates a record.
    public init(
        seq: Int, time: Double, raw: String, bytes: Int, reason: String, direction: TrafficRecord.Direction? = nil,
        origin: MessageOrigin? = nil, command: String? = nil
    ) {
        self.direction = direction
        self.origin = origin
        self.command = command
        self.seq = seq
        self.time = time
        self.raw = raw
        self.bytes = bytes
        self.reason = reason
    }
}

/// A request in `pendingRequests`.
public struct WirePending: Codable, Sendable, Hashable {
    /// Its correlation id.
    public var correlationId: String
    /// Its action.
    public var action: String
    /// When it arrived, in milliseconds since 1970.
    public var since: Double
    /// `true` when the request was too large to keep here (or pending requests together were),
    /// and `message` holds it without `payload.data`; the whole message is in the log.
    public var truncated: Bool?
    /// The request, decoded (its numbers are `Double`s: see ``messageJSON`` for its exact text).
    public var message: BridgeMessage
    /// The request's JSON text exactly as the agent's frame held it, as
    /// ``WireTraffic/messageJSON``: not encoded, not part of equality, `nil` when made in code.
    public var messageJSON: Data?

    private enum CodingKeys: String, CodingKey {
        case correlationId, action, since, truncated, message
    }

    /// Records are equal when their fields are, whether or not they carry ``messageJSON``.
    public static func == (lhs: WirePending, rhs: WirePending) -> Bool {
        lhs.correlationId == rhs.correlationId && lhs.action == rhs.action && lhs.since == rhs.since
            && lhs.truncated == rhs.truncated && lhs.message == rhs.message
    }

    /// Hashes the fields ``==`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(correlationId)
        hasher.combine(message)
    }

    /// Creates a record.
    public init(correlationId: String, action: String, since: Double, truncated: Bool? = nil, message: BridgeMessage) {
        self.correlationId = correlationId
        self.action = action
        self.since = since
        self.truncated = truncated
        self.message = message
    }
}

/// A capture slot's state.
public struct WireSlot: Codable, Sendable, Hashable {
    /// `document` or `selfie`.
    public var kind: CaptureCapability.Kind
    /// `camera.document` or `camera.selfie`.
    public var capabilityId: String
    /// The action the slot answers.
    public var action: String
    /// The version reported in `capability.query`.
    public var version: String
    /// Whether a handler is set.
    public var hasHandler: Bool
    /// Whether the slot is enabled.
    public var enabled: Bool
    /// Whether the slot is reported supported.
    public var supported: Bool
    /// The permission state.
    public var permissionState: PermissionState
    /// The correlation id of the request holding the slot (BUSY), or `nil` when idle.
    public var activeRequest: String?
    /// The action of that request.
    public var activeAction: String?
    /// Since when, in milliseconds since 1970.
    public var activeSince: Double?

    /// Creates a slot state.
    public init(
        kind: CaptureCapability.Kind, capabilityId: String, action: String, version: String, hasHandler: Bool, enabled: Bool,
        supported: Bool, permissionState: PermissionState, activeRequest: String?, activeAction: String?,
        activeSince: Double?
    ) {
        self.kind = kind
        self.capabilityId = capabilityId
        self.action = action
        self.version = version
        self.hasHandler = hasHandler
        self.enabled = enabled
        self.supported = supported
        self.permissionState = permissionState
        self.activeRequest = activeRequest
        self.activeAction = activeAction
        self.activeSince = activeSince
    }

    /// The wire form of a core slot state.
    public init(_ state: CaptureSlotState) {
        self.init(
            kind: state.kind, capabilityId: state.capabilityId, action: state.action, version: state.version,
            hasHandler: state.hasHandler, enabled: state.isEnabled, supported: state.isSupported,
            permissionState: state.permissionState, activeRequest: state.activeRequest?.correlationId,
            activeAction: state.activeRequest?.payload.action,
            activeSince: state.activeSince.map { $0.timeIntervalSince1970 * 1000 })
    }
}

/// A custom capability.
public struct WireCapability: Codable, Sendable, Hashable {
    /// The capability id (and action).
    public var id: String
    /// Its version.
    public var version: String
    /// Whether a handler answers it (otherwise its requests go to pending).
    public var hasHandler: Bool
    /// Whether a typed slot with the same id takes precedence.
    public var shadowedBySlot: Bool

    /// Creates a description.
    public init(id: String, version: String, hasHandler: Bool, shadowedBySlot: Bool) {
        self.id = id
        self.version = version
        self.hasHandler = hasHandler
        self.shadowedBySlot = shadowedBySlot
    }

    /// The wire form of a core capability.
    public init(_ capability: CustomCapability) {
        self.init(id: capability.id, version: capability.version, hasHandler: capability.hasHandler, shadowedBySlot: capability.isShadowedBySlot)
    }
}

/// One value `lastError` took.
public struct WireError: Codable, Sendable, Hashable {
    /// The sequence number of the event that reported it.
    public var seq: Int
    /// When, in milliseconds since 1970.
    public var time: Double
    /// The text, or `nil` when it was cleared.
    public var text: String?
    /// The sequence number of the message or malformed input that caused it, when known.
    public var cause: Int?

    /// Creates an entry.
    public init(seq: Int, time: Double, text: String?, cause: Int?) {
        self.seq = seq
        self.time = time
        self.text = text
        self.cause = cause
    }
}

/// Running totals since the agent started.
public struct WireCounts: Codable, Sendable, Hashable {
    /// Messages received from the journey.
    public var received: Int
    /// Messages sent to the journey.
    public var sent: Int
    /// Malformed inputs.
    public var malformed: Int
    /// Messages dropped from the agent's log to keep it within its bounds.
    public var evicted: Int
    /// Pending requests the snapshot's `pending` list leaves out because the agent keeps records
    /// of at most `maxPendingRecords` of them; absent (nil) when none are left out.
    public var pendingOmitted: Int?
    /// How many messages the host's `receivedMessages` holds: every message received since it was
    /// last cleared, up to ``WireHostInfo/receivedMessagesCap``. Absent from agents older than
    /// issue 16.
    public var receivedMessages: Int?
    /// Reports of what the host sent that could not be read as a message (`malformed` records
    /// with `direction` `sent`, also counted in ``malformed``): only from a host seen through a
    /// page script. Absent when there are none, and from older agents.
    public var unreadSentReports: Int?
    /// The actions of the pending requests that ``pendingOmitted`` counts, with how many of each:
    /// what the doctor needs to name a near-miss action however many requests wait. At most
    /// ``maxPendingOmittedActions`` actions of at most ``maxPendingOmittedActionBytes`` bytes are
    /// listed; requests for others are counted only in ``pendingOmitted``. Absent when none are
    /// left out, and from older agents.
    public var pendingOmittedActions: [String: Int]?

    /// See ``pendingOmittedActions``.
    public static let maxPendingOmittedActions = 1000
    /// See ``pendingOmittedActions``.
    public static let maxPendingOmittedActionBytes = 256

    /// Creates totals.
    public init(
        received: Int = 0, sent: Int = 0, malformed: Int = 0, evicted: Int = 0, pendingOmitted: Int? = nil,
        receivedMessages: Int? = nil, unreadSentReports: Int? = nil, pendingOmittedActions: [String: Int]? = nil
    ) {
        self.unreadSentReports = unreadSentReports
        self.pendingOmittedActions = pendingOmittedActions
        self.received = received
        self.sent = sent
        self.malformed = malformed
        self.evicted = evicted
        self.pendingOmitted = pendingOmitted
        self.receivedMessages = receivedMessages
    }

    /// Counts one more pending request left out of the snapshot's `pending` list, for `action`.
    public mutating func countOmittedPending(action: String) {
        pendingOmitted = (pendingOmitted ?? 0) + 1
        // Changed in place: a copy of up to 1,000 entries for every request left out would make a
        // flood of leaked requests quadratic.
        if let count = pendingOmittedActions?[action] {
            pendingOmittedActions?[action] = count + 1
        } else if (pendingOmittedActions?.count ?? 0) < Self.maxPendingOmittedActions,
            action.utf8.count <= Self.maxPendingOmittedActionBytes
        {
            if pendingOmittedActions == nil { pendingOmittedActions = [action: 1] } else { pendingOmittedActions?[action] = 1 }
        }
    }

    /// Counts one pending request left out of the snapshot's `pending` list, for `action`, as
    /// answered.
    public mutating func uncountOmittedPending(action: String) {
        guard let omitted = pendingOmitted else { return }
        pendingOmitted = omitted > 1 ? omitted - 1 : nil
        if let count = pendingOmittedActions?[action] { pendingOmittedActions?[action] = count > 1 ? count - 1 : nil }
        if pendingOmitted == nil || pendingOmittedActions?.isEmpty == true { pendingOmittedActions = nil }
    }

    /// Counts one more message in the host's `receivedMessages`, which holds at most `cap`.
    public mutating func countReceivedMessage(cap: Int?) {
        let count = (receivedMessages ?? 0) + 1
        receivedMessages = cap.map { min(count, $0) } ?? count
    }
}

/// The complete state in a snapshot.
public struct WireState: Codable, Sendable {
    /// Who the host is.
    public var host: WireHostInfo
    /// Whether a journey is attached.
    public var journeyAttached: Bool
    /// The current `lastError`.
    public var lastError: WireError?
    /// The recent values of `lastError`, oldest first (at most 100).
    public var errorHistory: [WireError]
    /// The message log, oldest first (bounded; see `counts.evicted`).
    public var messages: [WireTraffic]
    /// Recent malformed inputs, oldest first (at most 100).
    public var malformed: [WireMalformed]
    /// `pendingRequests`, oldest first.
    public var pending: [WirePending]
    /// The document and selfie slots.
    public var slots: [WireSlot]
    /// Custom capabilities.
    public var customCapabilities: [WireCapability]
    /// Totals.
    public var counts: WireCounts
    /// Messages held at breakpoints, oldest first (`nil` from an agent without breakpoints).
    public var held: [WireHeld]?
    /// Every inspector's breakpoints, oldest first (`nil` from an agent without breakpoints).
    public var breakpoints: [WireBreakpoint]?
    /// Every inspector's fault rules with their hit counts, oldest first (`nil` from an agent
    /// without fault rules).
    public var faults: [WireFault]?
    /// The last report of what the host sent that could not be read as a message, with why
    /// (``WireCounts/unreadSentReports`` counts them); absent when there was none, and from
    /// older agents. Kept when the log is cleared.
    public var lastUnreadSentReport: WireMalformed?

    private enum CodingKeys: String, CodingKey {
        case host, journeyAttached, lastError, errorHistory, messages, malformed, pending, slots
        case customCapabilities, counts, held, breakpoints, faults, lastUnreadSentReport
    }

    /// Encodes every field; `lastError` is `null` when there is none, as in the agent's frame.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(host, forKey: .host)
        try container.encode(journeyAttached, forKey: .journeyAttached)
        if let lastError {
            try container.encode(lastError, forKey: .lastError)
        } else {
            try container.encodeNil(forKey: .lastError)
        }
        try container.encode(errorHistory, forKey: .errorHistory)
        try container.encode(messages, forKey: .messages)
        try container.encode(malformed, forKey: .malformed)
        try container.encode(pending, forKey: .pending)
        try container.encode(slots, forKey: .slots)
        try container.encode(customCapabilities, forKey: .customCapabilities)
        try container.encode(counts, forKey: .counts)
        try container.encodeIfPresent(held, forKey: .held)
        try container.encodeIfPresent(breakpoints, forKey: .breakpoints)
        try container.encodeIfPresent(faults, forKey: .faults)
        try container.encodeIfPresent(lastUnreadSentReport, forKey: .lastUnreadSentReport)
    }
}

/// A change, carried by an `event` frame.
///
/// Its larger records are boxed (`indirect`), and a ``WireTraffic`` is one reference wide, so an
/// event, and the frame that carries it, is moved in a few words, not copied field by field.
public enum WireEvent: Sendable {
    /// A message was received or sent.
    case traffic(WireTraffic)
    /// Input failed to decode.
    indirect case malformed(WireMalformed)
    /// `lastError` changed.
    indirect case lastError(WireError)
    /// A request joined `pendingRequests`.
    indirect case pendingAdded(WirePending)
    /// A request left `pendingRequests`.
    case pendingRemoved(correlationId: String)
    /// A slot changed.
    indirect case slot(WireSlot)
    /// Custom capabilities changed.
    case customCapabilities([WireCapability])
    /// The message log was cleared.
    case logCleared
    /// A journey attached to the host (`true`) or went away (`false`).
    case journey(attached: Bool)
    /// A message was held at a breakpoint.
    indirect case held(WireHeld)
    /// A held message was released, edited, answered or dropped.
    indirect case heldResolved(WireHeldResolution)
    /// The breakpoints changed (one was added or removed): every inspector's, as they are now.
    /// A hit is not announced this way: a `held` event names its breakpoint, whose `hits` a
    /// client adds one to.
    case breakpoints([WireBreakpoint])
    /// A breakpoint matched a message that was let through, not held, because of a cap on what
    /// the host holds.
    indirect case holdSkipped(WireHoldSkipped)
    /// The fault rules changed (one was added or removed, or one faulted a message): every
    /// inspector's, as they are now, with their hit counts.
    case faults([WireFault])
    /// An event type this client does not know (from a newer agent); safe to ignore.
    case unknown(type: String)
}

extension WireEvent: Decodable {
    enum CodingKeys: String, CodingKey { case type, record, correlationId, slot, capabilities, attached, breakpoints, faults }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "traffic": self = .traffic(try container.decode(WireTraffic.self, forKey: .record))
        case "malformed": self = .malformed(try container.decode(WireMalformed.self, forKey: .record))
        case "lastError": self = .lastError(try container.decode(WireError.self, forKey: .record))
        case "pendingAdded": self = .pendingAdded(try container.decode(WirePending.self, forKey: .record))
        case "pendingRemoved": self = .pendingRemoved(correlationId: try container.decode(String.self, forKey: .correlationId))
        case "slot": self = .slot(try container.decode(WireSlot.self, forKey: .slot))
        case "customCapabilities": self = .customCapabilities(try container.decode([WireCapability].self, forKey: .capabilities))
        case "logCleared": self = .logCleared
        case "journey": self = .journey(attached: try container.decode(Bool.self, forKey: .attached))
        case "held": self = .held(try container.decode(WireHeld.self, forKey: .record))
        case "heldResolved": self = .heldResolved(try container.decode(WireHeldResolution.self, forKey: .record))
        case "breakpoints": self = .breakpoints(try container.decode([WireBreakpoint].self, forKey: .breakpoints))
        case "holdSkipped": self = .holdSkipped(try container.decode(WireHoldSkipped.self, forKey: .record))
        case "faults": self = .faults(try container.decode([WireFault].self, forKey: .faults))
        default: self = .unknown(type: type)
        }
    }
}
