import BridgeCore
import DequeModule
import Foundation
import InspectorProtocol

/// The agent's copy of the host's state, kept on the agent thread from the change stream.
///
/// Every record is encoded to JSON once, when it arrives; events and snapshots then splice those
/// bytes. A message's own JSON is spliced as the host received or sent it, never re-encoded.
/// The log is bounded by ``AgentLimits/maxLogMessages`` and ``AgentLimits/maxLogBytes``.
struct AgentState {
    private(set) var host: WireHostInfo
    private(set) var seq = 0
    private(set) var journeyAttached: Bool
    private let limits: AgentLimits

    private var lastError: [UInt8]?
    private var errorHistory: Deque<[UInt8]> = []
    private var messages: Deque<[UInt8]> = []
    private var messageBytes = 0
    private var malformed: Deque<[UInt8]> = []
    private var pending: [(id: String, json: [UInt8])] = []
    private var slots: [CaptureCapability.Kind: [UInt8]] = [:]
    private var capabilities: [UInt8] = Array("[]".utf8)
    private var counts = WireCounts()
    /// The message or malformed input that the next `lastError` is attributed to.
    private var lastCauseSeq: Int?
    /// The last received message's JSON, reused when it turns out to be a pending request.
    private var lastReceived: (id: String, json: Data)?

    static let historyLimit = 100
    static let malformedTextLimit = 64 * 1024

    init(host: WireHostInfo, snapshot: BridgeSnapshot, limits: AgentLimits) {
        self.host = host
        self.journeyAttached = snapshot.isJourneyAttached
        self.limits = limits
        let codec = BridgeMessageCodec()
        for message in snapshot.receivedMessages {
            guard let json = try? codec.encode(message) else { continue }
            seq += 1
            counts.received += 1
            appendMessage(encodeTraffic(
                seq: seq, record: TrafficRecord(direction: .received, message: message, json: json, time: snapshot.time),
                origin: .journey, command: nil))
        }
        for request in snapshot.pendingRequests {
            pending.append((request.message.correlationId, encodePending(request)))
        }
        for slot in snapshot.slots {
            slots[slot.kind] = Self.encode(WireSlot(slot))
        }
        capabilities = Self.encode(snapshot.customCapabilities.map(WireCapability.init))
        if let text = snapshot.lastError {
            seq += 1
            let entry = Self.encode(WireError(seq: seq, time: Self.ms(snapshot.time), text: text, cause: nil))
            lastError = entry
            errorHistory.append(entry)
        }
    }

    // MARK: Applying changes

    /// Applies one change and returns its event frame (ending in a newline) and, for traffic,
    /// the message JSON (for the reply of the command that caused it).
    mutating func apply(_ change: BridgeChange, tag: AgentInbox.CommandTag?) -> (frame: [UInt8], sent: Data?) {
        seq += 1
        var sent: Data?
        var writer = JSONWriter(capacity: 256)
        writer.objectStart()
        writer.key("kind"); writer.string("event")
        writer.key("seq"); writer.number(seq)
        writer.key("event"); writer.objectStart()
        switch change {
        case .traffic(let record):
            let origin: MessageOrigin = record.direction == .received ? .journey : (tag == nil ? .host : .inspector)
            if record.direction == .received { counts.received += 1 } else { counts.sent += 1 }
            if record.direction == .received { lastReceived = (record.message.correlationId, record.json) }
            let json = encodeTraffic(seq: seq, record: record, origin: origin, command: tag?.command, rule: tag?.rule)
            appendMessage(json)
            lastCauseSeq = seq
            if tag != nil, record.direction == .sent { sent = record.json }
            writer.key("type"); writer.string("traffic")
            writer.key("record"); writer.splice(json)
        case .malformed(let input):
            counts.malformed += 1
            let json = Self.encode(
                WireMalformed(
                    seq: seq, time: Self.ms(input.time),
                    raw: String(decoding: input.raw.prefix(Self.malformedTextLimit), as: UTF8.self),
                    bytes: input.raw.count, reason: input.reason))
            malformed.append(json)
            if malformed.count > Self.historyLimit { malformed.removeFirst() }
            lastCauseSeq = seq
            writer.key("type"); writer.string("malformed")
            writer.key("record"); writer.splice(json)
        case .lastError(let text, let time):
            let json = Self.encode(WireError(seq: seq, time: Self.ms(time), text: text, cause: text == nil ? nil : lastCauseSeq))
            lastCauseSeq = nil
            lastError = text == nil ? nil : json
            errorHistory.append(json)
            if errorHistory.count > Self.historyLimit { errorHistory.removeFirst() }
            writer.key("type"); writer.string("lastError")
            writer.key("record"); writer.splice(json)
        case .pendingAdded(let request):
            let json = encodePending(request)
            pending.append((request.message.correlationId, json))
            writer.key("type"); writer.string("pendingAdded")
            writer.key("record"); writer.splice(json)
        case .pendingRemoved(let correlationId):
            if let index = pending.firstIndex(where: { $0.id == correlationId }) { pending.remove(at: index) }
            writer.key("type"); writer.string("pendingRemoved")
            writer.key("correlationId"); writer.string(correlationId)
        case .slot(let state):
            let json = Self.encode(WireSlot(state))
            slots[state.kind] = json
            writer.key("type"); writer.string("slot")
            writer.key("slot"); writer.splice(json)
        case .customCapabilities(let list):
            capabilities = Self.encode(list.map(WireCapability.init))
            writer.key("type"); writer.string("customCapabilities")
            writer.key("capabilities"); writer.splice(capabilities)
        case .receivedMessagesCleared:
            messages.removeAll()
            messageBytes = 0
            malformed.removeAll()
            writer.key("type"); writer.string("logCleared")
        case .journeyAttachment(let attached):
            journeyAttached = attached
            writer.key("type"); writer.string("journey")
            writer.key("attached"); writer.bool(attached)
        }
        writer.objectEnd()
        writer.objectEnd()
        writer.newline()
        return (writer.bytes, sent)
    }

    // MARK: Snapshots

    /// The `slots` and `customCapabilities` members, as in a snapshot's state and the hello's
    /// `capabilities`: what the host offers the journey.
    func writeCapabilities(into writer: inout JSONWriter) {
        writer.key("slots"); writer.arrayStart()
        for kind in CaptureCapability.Kind.allCases { if let slot = slots[kind] { writer.splice(slot) } }
        writer.arrayEnd()
        writer.key("customCapabilities"); writer.splice(capabilities)
    }

    /// The complete snapshot frame as of ``seq``, ending in a newline.
    func snapshotFrame() -> [UInt8] {
        var writer = JSONWriter(capacity: messageBytes + 4096)
        writer.objectStart()
        writer.key("kind"); writer.string("snapshot")
        writer.key("seq"); writer.number(seq)
        writer.key("state"); writer.objectStart()
        writer.key("host"); writer.splice(Self.encode(host))
        writer.key("journeyAttached"); writer.bool(journeyAttached)
        writer.key("lastError")
        if let lastError { writer.splice(lastError) } else { writer.null() }
        writer.key("errorHistory"); writer.arrayStart()
        for entry in errorHistory { writer.splice(entry) }
        writer.arrayEnd()
        writer.key("messages"); writer.arrayStart()
        for message in messages { writer.splice(message) }
        writer.arrayEnd()
        writer.key("malformed"); writer.arrayStart()
        for entry in malformed { writer.splice(entry) }
        writer.arrayEnd()
        writer.key("pending"); writer.arrayStart()
        for entry in pending { writer.splice(entry.json) }
        writer.arrayEnd()
        writeCapabilities(into: &writer)
        writer.key("counts"); writer.splice(Self.encode(counts))
        writer.objectEnd()
        writer.objectEnd()
        writer.newline()
        return writer.bytes
    }

    /// The bytes the log holds, for memory accounting.
    var heldBytes: Int { messageBytes + pending.reduce(0) { $0 + $1.json.count } }

    // MARK: Encoding

    private mutating func appendMessage(_ json: [UInt8]) {
        messages.append(json)
        messageBytes += json.count
        while messages.count > limits.maxLogMessages || (messageBytes > limits.maxLogBytes && messages.count > 1) {
            let dropped = messages.removeFirst()
            messageBytes -= dropped.count
            counts.evicted += 1
        }
    }

    private func encodeTraffic(seq: Int, record: TrafficRecord, origin: MessageOrigin, command: String?, rule: String? = nil) -> [UInt8] {
        var writer = JSONWriter(capacity: record.json.count + 160)
        writer.objectStart()
        writer.key("seq"); writer.number(seq)
        writer.key("direction"); writer.string(record.direction.rawValue)
        writer.key("time"); writer.number(Self.ms(record.time))
        writer.key("origin"); writer.string(origin.rawValue)
        if let command { writer.key("command"); writer.string(command) }
        if let rule { writer.key("rule"); writer.string(rule) }
        if let error = record.deliveryError { writer.key("deliveryError"); writer.string(error) }
        writer.key("bytes"); writer.number(record.json.count)
        if record.json.count > WireProtocol.maxAgentFrameBytes - 64 * 1024 {
            // Too large to forward: send the envelope with its data left out.
            var envelope = record.message
            envelope.payload.data = nil
            writer.key("truncated"); writer.bool(true)
            writer.key("message")
            if let json = try? BridgeMessageCodec().encode(envelope) { writer.rawJSON(json) } else { writer.null() }
        } else {
            writer.key("message"); Self.appendMessageJSON(record.json, to: &writer)
        }
        writer.objectEnd()
        return writer.bytes
    }

    /// A pending request's message is kept whole up to this size, while all pending records
    /// together stay under ``pendingTotalLimit``; beyond either, its record keeps the envelope
    /// without `payload.data` and says `"truncated": true` (the whole message is in the log).
    /// Pending requests are not bounded in number, and a snapshot must stay within the agent's
    /// frame cap for any inspector to attach.
    static let pendingMessageLimit = 256 * 1024
    /// See ``pendingMessageLimit``.
    static let pendingTotalLimit = 16 * 1024 * 1024

    private func encodePending(_ request: PendingRequest) -> [UInt8] {
        var message: Data
        if let lastReceived, lastReceived.id == request.message.correlationId {
            message = lastReceived.json
        } else {
            message = (try? BridgeMessageCodec().encode(request.message)) ?? Data("null".utf8)
        }
        let pendingBytes = pending.reduce(0) { $0 + $1.json.count }
        let truncated = message.count > Self.pendingMessageLimit || pendingBytes + message.count > Self.pendingTotalLimit
        if truncated {
            var envelope = request.message
            envelope.payload.data = nil
            message = (try? BridgeMessageCodec().encode(envelope)) ?? Data("null".utf8)
        }
        var writer = JSONWriter(capacity: message.count + 128)
        writer.objectStart()
        writer.key("correlationId"); writer.string(request.message.correlationId)
        writer.key("action"); writer.string(request.message.payload.action)
        writer.key("since"); writer.number(Self.ms(request.since))
        if truncated { writer.key("truncated"); writer.bool(true) }
        writer.key("message"); Self.appendMessageJSON(message, to: &writer)
        writer.objectEnd()
        return writer.bytes
    }

    /// Splices a message's JSON into a frame. `JSONWriter.rawJSON` scans the bytes twice through
    /// `Data`'s byte iterator to replace raw line breaks, which costs more than the rest of the
    /// frame (about 60 ms for a 10 MB message); here `memchr` finds out first whether there is
    /// any line break at all, which there almost never is (compact JSON has none).
    static func appendMessageJSON(_ json: Data, to writer: inout JSONWriter) {
        let hasLineBreak = json.withUnsafeBytes { raw -> Bool in
            guard let base = raw.baseAddress else { return false }
            return memchr(base, 0x0A, raw.count) != nil || memchr(base, 0x0D, raw.count) != nil
        }
        if hasLineBreak { writer.rawJSON(json) } else { writer.splice([UInt8](json)) }
    }

    static func ms(_ date: Date) -> Double {
        (date.timeIntervalSince1970 * 1000).rounded()
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Encodes a small wire value (slots, errors, host info) with Foundation.
    static func encode(_ value: some Encodable) -> [UInt8] {
        (try? Array(encoder.encode(value))) ?? Array("null".utf8)
    }
}
