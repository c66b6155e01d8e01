import BridgeCore
import Foundation

/// A frame from the agent, decoded by a client.
///
/// ```swift
/// switch try AgentFrame.decode(line) {
/// case .snapshot(let seq, let state): ...
/// case .event(let seq, let event): ...
/// default: ...
/// }
/// ```
///
/// A hello, a snapshot and a reply are boxed (`indirect`): an event, nearly every frame, is then
/// moved in a few words wherever a frame goes.
public enum AgentFrame: Sendable {
    /// The agent's greeting.
    indirect case hello(AgentHello)
    /// The full state as of sequence number `seq`.
    indirect case snapshot(seq: Int, state: WireState)
    /// One change.
    case event(seq: Int, event: WireEvent)
    /// Events `from...to` were not delivered to this client; a snapshot follows.
    case gap(from: Int, to: Int)
    /// The answer to a command (`id` is `nil` for errors about frames that had no id).
    indirect case reply(id: String?, result: Result<JSONValue, InspectorError>, sent: [BridgeMessage])

    /// Decodes one frame (a line without its newline); see ``read(_:)``. Text that is not JSON
    /// throws `DecodingError.dataCorrupted` with its line, column and reason.
    public static func decode(_ line: Data) throws -> AgentFrame {
        do throws(JSONDecoding.Failure) {
            return try read(line)
        } catch {
            throw decodingError(error)
        }
    }

    /// Decodes one frame from the line's own bytes, as a client's framer hands them over: the
    /// same frames, values and errors as ``decode(_:)`` of the same bytes, without first
    /// copying the line into a `Data` (for a 10 MiB message, 10 MiB of fresh memory; issue 30).
    public static func decode(bytes line: [UInt8]) throws -> AgentFrame {
        do throws(JSONDecoding.Failure) {
            return try read(bytes: line)
        } catch {
            throw decodingError(error)
        }
    }

    /// Decodes one frame from bytes lent for the call (a line where the framer found it, in the
    /// read's buffer): the same frames, values and errors as ``decode(bytes:)`` of the same
    /// bytes, without an array of the line's own. Nothing decoded points into `line`: a record's
    /// message bytes are copied out (issue 30: a client that keeps only the frame).
    package static func decode(lentBytes line: UnsafeRawBufferPointer) throws -> AgentFrame {
        do throws(JSONDecoding.Failure) {
            return try read(lentBytes: line)
        } catch {
            throw decodingError(error)
        }
    }

    /// Reads one frame from bytes lent for the call, as ``read(bytes:)`` reads the same bytes:
    /// the one place that picks a frame's reader (`readLine(_:)` lends its line's bytes here).
    /// Not generic: a following client called the generic reader unspecialised and looked up
    /// metadata on every frame (issue 30).
    package static func read(lentBytes line: UnsafeRawBufferPointer) throws(JSONDecoding.Failure) -> AgentFrame {
        if startsAsSnapshot(line) {
            if let frame = SnapshotFrameReader.frame(in: line) { return frame }
        } else if let frame = TrafficFrameReader.frame(in: line) {
            return frame
        }
        return try readParsingWhole(line)
    }

    /// What ``decode(_:)`` throws for a frame ``read(_:)`` refuses.
    private static func decodingError(_ error: JSONDecoding.Failure) -> DecodingError {
        switch error {
        case .invalidJSON(let problem):
            return DecodingError.dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: "invalid JSON at \(problem)"))
        case .wrongContent(let problem):
            return DecodingError.dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: problem.description))
        }
    }

    /// Decodes one frame (a line without its newline), or says where the JSON is broken or which
    /// field is wrong.
    ///
    /// The line is parsed once with ``JSONParser``, the rule the host used for the messages the
    /// frame carries verbatim (`docs/bridge-protocol.md`, section 2, "One JSON rule"), nested at
    /// most ``WireProtocol/maxAgentFrameDepth`` deep. A `traffic` event, nearly every frame of a
    /// busy stream, is read straight from that value; every other frame is decoded from the value
    /// (``JSONDecoding``), nothing re-encoded.
    ///
    /// The traffic records of a `traffic` event and of a snapshot's log also keep their message's
    /// bytes exactly as they stand in `line` (``WireTraffic/messageJSON``), noted by the parser in
    /// the same pass: decoding turns numbers into `Double`s, and the inspector shows a message as
    /// it crossed the bridge.
    ///
    /// A `traffic` event is first read straight from the bytes, with no dictionary but its
    /// messages' `payload.data` (`TrafficFrameReader`), and so is a snapshot's log
    /// (`SnapshotFrameReader`); a frame those readers do not take is decoded the full way
    /// (`readParsingWhole(_:)`), which gives the same values or says what is wrong.
    public static func read(_ line: Data) throws(JSONDecoding.Failure) -> AgentFrame {
        try readLine(line)
    }

    /// Reads one frame from the line's own bytes, as ``read(_:)`` reads the same bytes in a
    /// `Data`: how a client decodes the line its framer hands over without copying it first.
    public static func read(bytes line: [UInt8]) throws(JSONDecoding.Failure) -> AgentFrame {
        try readLine(line)
    }

    /// ``read(_:)`` for a line in either form: its bytes, looked into once, read by
    /// ``read(lentBytes:)``, so both forms give the same.
    private static func readLine(_ line: some ContiguousBytes) throws(JSONDecoding.Failure) -> AgentFrame {
        try line.withUnsafeBytes { bytes in Result { () throws(JSONDecoding.Failure) in try read(lentBytes: bytes) } }.get()
    }

    /// The bytes the agent starts a snapshot frame with (its first member is the kind).
    private static let snapshotStart = Array(#"{"kind":"snapshot""#.utf8)

    /// Whether `bytes` start as the agent writes a snapshot: which fast reader to try. Only a
    /// guess (a snapshot written otherwise is still read, the full way).
    /// Compared in the line's own bytes: through `Data`'s indices (a slice and a switch per
    /// byte) it cost a tenth of reading a whole traffic frame.
    private static func startsAsSnapshot(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= snapshotStart.count, let line = bytes.baseAddress else { return false }
        return snapshotStart.withUnsafeBytes { start in
            guard let expected = start.baseAddress else { return false }
            return memcmp(line, expected, start.count) == 0
        }
    }

    /// Decodes one frame the full way: the whole line parsed into a `JSONValue`, then read from
    /// it. ``read(_:)`` gives the same result, faster for traffic events; this is its
    /// reference. The line is a `Data` or the framer's `[UInt8]`; a message's bytes are copied
    /// out of it either way.
    package static func readParsingWhole<Line: ContiguousBytes & RandomAccessCollection>(
        _ line: Line
    ) throws(JSONDecoding.Failure) -> AgentFrame where Line.Element == UInt8, Line.Index == Int {
        let parsed: JSONParser.Captured
        do throws(JSONSyntaxCheck.Problem) {
            parsed = try JSONParser.read(line, maxDepth: WireProtocol.maxAgentFrameDepth, capturing: messagePaths)
        } catch {
            throw .invalidJSON(error)
        }
        let value = parsed.value
        func bytes(_ range: Range<Int>) -> Data { Data(line[(line.startIndex + range.lowerBound)..<(line.startIndex + range.upperBound)]) }
        // A record's message is where its path says; more than one (a duplicate key one level
        // up) cannot happen in a frame that decoded, but then the record goes without.
        let eventMessage = parsed.ranges[0].count == 1 ? parsed.ranges[0].first.map(bytes) : nil
        if case .event(let seq, .traffic(var traffic))? = trafficEvent(value) {
            traffic.messageJSON = eventMessage
            return .event(seq: seq, event: .traffic(traffic))
        }
        if case .snapshot(let seq, var state)? = try snapshot(value) {
            keepMessageBytes(of: &state.messages, parsed.ranges[1].map(bytes), \.messageJSON)
            keepMessageBytes(of: &state.pending, parsed.ranges[2].map(bytes), \.messageJSON)
            return .snapshot(seq: seq, state: state)
        }
        let frame = try JSONDecoding.decode(Envelope.self, from: value).frame
        if case .event(let seq, .pendingAdded(var request)) = frame {
            request.messageJSON = eventMessage
            return .event(seq: seq, event: .pendingAdded(request))
        }
        return frame
    }

    /// Where the messages of a frame lie, for ``JSONParser/read(_:maxDepth:capturing:)``: an
    /// event's record, a snapshot's log and its pending requests.
    private static let messagePaths: [[JSONParser.PathStep]] = [
        [.key("event"), .key("record"), .key("message")],
        [.key("state"), .key("messages"), .element, .key("message")],
        [.key("state"), .key("pending"), .element, .key("message")],
    ]

    /// Gives each record its message's bytes; when they do not line up with the records (a
    /// record without a message, which would not have decoded), the records are left without.
    private static func keepMessageBytes<Record>(of records: inout [Record], _ messages: [Data], _ bytes: WritableKeyPath<Record, Data?>) {
        guard messages.count == records.count else { return }
        for index in records.indices { records[index][keyPath: bytes] = messages[index] }
    }

    /// A snapshot, with its two large lists (the message log and the pending requests) read
    /// straight from the parsed value like traffic events, and only the small rest through
    /// `Decodable`; `nil` when it is not a snapshot or a record is not one the fast path takes
    /// (the whole frame is then decoded through `Decodable`, which says what is wrong). Decoding
    /// a 30 MiB log through `Decodable` took about a second.
    private static func snapshot(_ value: JSONValue) throws(JSONDecoding.Failure) -> AgentFrame? {
        guard case .object(var fields) = value, case .string("snapshot")? = fields["kind"],
            case .object(var state)? = fields["state"],
            case .array(let messageValues)? = state["messages"], case .array(let pendingValues)? = state["pending"]
        else { return nil }
        var messages: [WireTraffic] = []
        messages.reserveCapacity(messageValues.count)
        for item in messageValues {
            guard let record = WireTraffic(validating: item) else { return nil }
            messages.append(record)
        }
        var pending: [WirePending] = []
        pending.reserveCapacity(pendingValues.count)
        for item in pendingValues {
            guard let record = WirePending(validating: item) else { return nil }
            pending.append(record)
        }
        state["messages"] = .array([])
        state["pending"] = .array([])
        fields["state"] = .object(state)
        guard case .snapshot(let seq, var decoded) = try JSONDecoding.decode(Envelope.self, from: JSONValue.object(fields)).frame else {
            return nil
        }
        decoded.messages = messages
        decoded.pending = pending
        return .snapshot(seq: seq, state: decoded)
    }

    /// The frame `value` holds, decoded through `Decodable` as the full way decodes every frame
    /// it does not read straight from the value: for `SnapshotFrameReader`, which reads the rest
    /// of a snapshot this way.
    static func decodedThroughDecodable(_ value: JSONValue) throws(JSONDecoding.Failure) -> AgentFrame {
        try JSONDecoding.decode(Envelope.self, from: value).frame
    }

    /// `{"kind":"event","seq":N,"event":{"type":"traffic","record":{...}}}`, or `nil`.
    private static func trafficEvent(_ value: JSONValue) -> AgentFrame? {
        guard case .object(let fields) = value,
            case .string("event")? = fields["kind"],
            let seq = fields["seq"].flatMap(WireTraffic.integer),
            case .object(let event)? = fields["event"],
            case .string("traffic")? = event["type"],
            let traffic = event["record"].flatMap(WireTraffic.init(validating:))
        else { return nil }
        return .event(seq: seq, event: .traffic(traffic))
    }

    private struct Envelope: Decodable {
        var frame: AgentFrame

        enum CodingKeys: String, CodingKey { case kind, seq, state, event, from, to, id, ok, result, error, sent }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let kind = try container.decode(String.self, forKey: .kind)
            switch kind {
            case "hello":
                frame = .hello(try AgentHello(from: decoder))
            case "snapshot":
                frame = .snapshot(seq: try container.decode(Int.self, forKey: .seq), state: try container.decode(WireState.self, forKey: .state))
            case "event":
                frame = .event(seq: try container.decode(Int.self, forKey: .seq), event: try container.decode(WireEvent.self, forKey: .event))
            case "gap":
                let from = try container.decode(Int.self, forKey: .from)
                let to = try container.decode(Int.self, forKey: .to)
                // A gap names the events missed, first to last: an inverted one is not a gap.
                guard from <= to else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .to, in: container, debugDescription: "a gap's 'to' (\(to)) must not be before its 'from' (\(from))")
                }
                frame = .gap(from: from, to: to)
            case "reply":
                let id = try container.decodeIfPresent(String.self, forKey: .id)
                let sent = try container.decodeIfPresent([BridgeMessage].self, forKey: .sent) ?? []
                if try container.decode(Bool.self, forKey: .ok) {
                    frame = .reply(id: id, result: .success(try container.decodeIfPresent(JSONValue.self, forKey: .result) ?? .object([:])), sent: sent)
                } else {
                    frame = .reply(id: id, result: .failure(try container.decode(InspectorError.self, forKey: .error)), sent: sent)
                }
            default:
                throw DecodingError.dataCorruptedError(forKey: .kind, in: container, debugDescription: "unknown frame kind '\(kind)'")
            }
        }
    }
}

/// The agent's `hello`.
public struct AgentHello: Decodable, Sendable {
    /// The protocol version the agent speaks.
    public var `protocol`: Int
    /// The agent's name and version.
    public var agent: String
    /// The host it serves.
    public var host: WireHostInfo
    /// What the agent can do.
    public var features: [String]
    /// What the host offers the journey when the client attached: its capture slots and custom
    /// capabilities (the same records a snapshot holds). `nil` from an agent older than this
    /// field.
    public var capabilities: Capabilities?

    /// The host's capabilities in a hello.
    public struct Capabilities: Codable, Sendable {
        /// The document and selfie slots.
        public var slots: [WireSlot]
        /// Custom capabilities.
        public var customCapabilities: [WireCapability]
    }
    /// The agent's limits.
    public var limits: Limits
    /// The agent's number for this connection: breakpoints name their owner by it
    /// (``WireBreakpoint/ownerClient``). `nil` from an agent older than breakpoints.
    public var clientId: Int?

    /// Limits the agent enforces.
    public struct Limits: Codable, Sendable {
        /// The largest frame a client may send.
        public var maxFrameBytes: Int
        /// The most clients served at once.
        public var maxClients: Int
    }
}

/// The client's `hello`.
public struct ClientHello: Codable, Sendable {
    /// Always `hello`.
    public var kind: FrameKind = .hello
    /// The protocol version the client speaks.
    public var `protocol`: Int
    /// The client's name and version, for the agent's log.
    public var client: String
    /// `true` to receive the snapshot and live events; `false` for a command-only connection.
    public var subscribe: Bool

    /// Creates a hello.
    public init(protocol: Int = WireProtocol.version, client: String, subscribe: Bool) {
        self.protocol = `protocol`
        self.client = client
        self.subscribe = subscribe
    }

    /// The frame, ending in a newline.
    public func frame() throws -> Data {
        var data = try JSONEncoding.encode(self)
        data.append(0x0A)
        return data
    }
}
