import Foundation

/// Reads a ``BridgeMessage`` straight from its JSON text in one pass, building a dictionary only
/// for `payload.data` (which the message holds as one): the fast path of
/// ``BridgeMessageCodec/decode(_:)`` (the host's receive path) and of an inspector reading the
/// messages in the agent's frames (issue 30).
///
/// It takes exactly what ``BridgeMessage/init(validating:)`` takes from the value
/// ``JSONParser`` builds, read the same way, or refuses; it never says why (the codec then
/// decodes the text the full way, which gives the documented reason):
///
/// ```swift
/// let message = BridgeMessageReader.message(in: bytes, maxDepth: 100)   // nil: decode the full way
/// ```
package enum BridgeMessageReader {
    /// The message `bytes` hold (with optional whitespace around it), nested at most `maxDepth`
    /// deep, or `nil` when it is not one this reader takes.
    ///
    /// `refusingTopLevelStatus` also refuses a message with `status` or `error` beside its
    /// `payload` (even `null`), which a lenient reader moves into the payload: for the GBGBridge
    /// adapter, whose full reading of a page's report does that.
    package static func message(in bytes: some ContiguousBytes, maxDepth: Int, refusingTopLevelStatus: Bool = false) -> BridgeMessage? {
        JSONParser.reading(bytes, maxDepth: maxDepth) { parser throws(JSONParser.Refusal) in
            try message(from: &parser, depth: 1, refusingTopLevelStatus: refusingTopLevelStatus)
        }
    }

    /// The orders a message's keys come in: as the documented shape lists them (a journey's
    /// `JSON.stringify` of such an object literal), and sorted, as `BridgeMessageWriter` and
    /// `JSONEncoder` write them (the host's messages to the journey, and so the adapter's reports).
    private static let messageOrders: [[StaticString]] = [
        ["version", "correlationId", "type", "timestamp", "payload"],
        ["correlationId", "payload", "timestamp", "type", "version"],
    ]
    private static let messageKeys = JSONKeySet(["version", "correlationId", "type", "timestamp", "payload"], writerOrders: messageOrders)
    /// The same, and the two keys ``message(in:maxDepth:refusingTopLevelStatus:)`` refuses.
    private static let messageKeysAndStatus = JSONKeySet(
        ["version", "correlationId", "type", "timestamp", "payload", "status", "error"], writerOrders: messageOrders)
    /// A payload's keys, in the documented shape's order (the sorted writers put `error` before
    /// `status`; a failed response is rare, and the order changes only the speed).
    private static let payloadKeys = JSONKeySet(["action", "data", "status", "error"], writerOrders: [["action", "data", "status", "error"]])
    /// The version nearly every message carries: given as this one string, not made anew.
    private static let usualVersion = ExpectedJSONString(BridgeMessage.protocolVersion)
    private static let typeNames = JSONKeySet(strings: MessageType.allCases.map(\.rawValue))
    private static let statusNames = JSONKeySet(strings: BridgeResponseStatus.allCases.map(\.rawValue))

    /// Reads the message object at the parser's current byte, `depth` levels deep (the whole
    /// text is level 1); `refusingTopLevelStatus` as in ``message(in:maxDepth:refusingTopLevelStatus:)``.
    ///
    /// With `deferringData`, `payload.data`, when it is an object, is checked as it would be read
    /// and kept as its text, built only when read (an inspector's rows keep the message's bytes,
    /// and seldom look into it): the message is equal to the one read without.
    package static func message(
        from parser: inout JSONParser, depth: Int, deferringData: Bool = false, refusingTopLevelStatus: Bool = false
    ) throws(JSONParser.Refusal) -> BridgeMessage {
        let (version, correlationId, type, timestamp, (action, data, status, error, deferredText, deferredDepth)) = try fields(
            from: &parser, depth: depth, deferringData: deferringData, refusingTopLevelStatus: refusingTopLevelStatus)
        let payload: BridgeMessage.Payload
        if let deferredText {
            let deferred = DeferredJSONObject(text: parser.copy(deferredText), maxDepth: deferredDepth)
            payload = BridgeMessage.Payload(action: action, deferredData: deferred, status: status, error: error)
        } else {
            payload = BridgeMessage.Payload(action: action, data: data, status: status, error: error)
        }
        return BridgeMessage(version: version, correlationId: correlationId, type: type, timestamp: timestamp, payload: payload)
    }

    /// Reads the message object at the parser's current byte, `depth` levels deep, as
    /// ``message(from:depth:deferringData:refusingTopLevelStatus:)`` with `deferringData`, and
    /// gives its bytes as they stand in the text (a copy of its own): how an inspector keeps a
    /// message from the agent's frame exactly as it crossed the bridge. Its deferred
    /// `payload.data` is a slice of those same bytes, so the message and its text share one copy.
    package static func messageKeepingBytes(from parser: inout JSONParser, depth: Int) throws(JSONParser.Refusal) -> (message: BridgeMessage, bytes: Data) {
        let start = parser.offset
        let (version, correlationId, type, timestamp, (action, data, status, error, deferredText, deferredDepth)) = try fields(
            from: &parser, depth: depth, deferringData: true, refusingTopLevelStatus: false)
        let bytes = parser.copy(start..<parser.offset)
        let payload: BridgeMessage.Payload
        if let deferredText {
            let lower = bytes.startIndex + (deferredText.lowerBound - start)
            let deferred = DeferredJSONObject(text: bytes[lower..<(lower + deferredText.count)], maxDepth: deferredDepth)
            payload = BridgeMessage.Payload(action: action, deferredData: deferred, status: status, error: error)
        } else {
            payload = BridgeMessage.Payload(action: action, data: data, status: status, error: error)
        }
        return (BridgeMessage(version: version, correlationId: correlationId, type: type, timestamp: timestamp, payload: payload), bytes)
    }

    /// What the GBGBridge adapter needs of a message the app sent as soon as it is reported: who
    /// it answers or what it announces. The rest of the message is read later, on the agent's
    /// thread, from the same bytes.
    package struct Head: Sendable, Equatable {
        package var correlationId: String
        package var type: MessageType
        package var action: String

        /// Creates a head.
        package init(correlationId: String, type: MessageType, action: String) {
            self.correlationId = correlationId
            self.type = type
            self.action = action
        }
    }

    /// The head of the message `bytes` hold, or `nil` exactly when
    /// ``message(from:depth:deferringData:refusingTopLevelStatus:)`` (with `deferringData`, at
    /// depth 1, followed by the end of the text) refuses them: the same one validating pass, which
    /// checks every field and `payload.data` as it would be read but builds no dictionary and
    /// copies none of the text. For a caller that must know at once whether a report is a message
    /// and whose it is, and can leave the message itself to be read later.
    package static func head(in bytes: UnsafeRawBufferPointer, maxDepth: Int, refusingTopLevelStatus: Bool = false) -> Head? {
        JSONParser.reading(bytes, maxDepth: maxDepth) { parser throws(JSONParser.Refusal) in
            let fields = try self.fields(from: &parser, depth: 1, deferringData: true, refusingTopLevelStatus: refusingTopLevelStatus)
            return Head(correlationId: fields.correlationId, type: fields.type, action: fields.payload.action)
        }
    }

    /// A message's fields as read, before the message is made: its payload's `data` may still be
    /// where its text stands in the parser's bytes (`deferredText`, then `data` is `nil`).
    /// Tuples, taken apart where the message is made, so that each field is moved into it: a
    /// struct's method that made the message from its stored fields copied each of them, and
    /// a message made first and given its deferred data after was copied whole (issue 30).
    typealias Fields = (version: String, correlationId: String, type: MessageType, timestamp: Double, payload: PayloadFields)

    /// A payload's fields as read, as in ``Fields``.
    typealias PayloadFields = (
        action: String, data: [String: JSONValue]?, status: BridgeResponseStatus?, error: BridgeErrorPayload?, deferredText: Range<Int>?,
        deferredDepth: Int
    )

    private static func fields(
        from parser: inout JSONParser, depth: Int, deferringData: Bool, refusingTopLevelStatus: Bool
    ) throws(JSONParser.Refusal) -> Fields {
        if parser.followsWriterOrder {
            let start = parser.offset
            do throws(JSONParser.Refusal) {
                return try plainFields(from: &parser, depth: depth, deferringData: deferringData)
            } catch {
                // Laid out otherwise (sorted, spaced, other keys): read key by key.
                parser.rewind(to: start)
            }
        }
        return try fieldsReadingEveryKey(from: &parser, depth: depth, deferringData: deferringData, refusingTopLevelStatus: refusingTopLevelStatus)
    }

    /// The two layouts a message is nearly always written in, compact, in the orders of
    /// ``messageOrders``: as a journey's `JSON.stringify` writes the documented shape,
    /// `{"version":"1.0","correlationId":…,"type":…,"timestamp":…,"payload":{…}}`, and sorted, as
    /// `BridgeMessageWriter` writes the host's, `{"correlationId":…,"payload":{…},"timestamp":…,"type":…,"version":…}`;
    /// the payload in both `{"action":…}` with `,"data":…` and `,"status":…` when present.
    /// Built from ``BridgeMessage/protocolVersion``, the version the reader gives for it (which
    /// needs no escape in JSON).
    private static let documentedStart = Array(#"{"version":""#.utf8) + Array(BridgeMessage.protocolVersion.utf8) + Array(#"","correlationId":"#.utf8)
    private static let documentedType = Array(#","type":"#.utf8)
    private static let documentedTimestamp = Array(#","timestamp":"#.utf8)
    private static let documentedPayload = Array(#","payload":{"action":"#.utf8)
    private static let documentedEnd = Array("}}".utf8)
    private static let sortedStart = Array(#"{"correlationId":"#.utf8)
    private static let sortedPayload = Array(#","payload":{"action":"#.utf8)
    private static let sortedTimestamp = Array(#"},"timestamp":"#.utf8)
    private static let sortedType = Array(#","type":"#.utf8)
    private static let sortedVersion = Array(#","version":"#.utf8)
    private static let sortedEnd = Array("}".utf8)
    private static let payloadData = Array(#","data":"#.utf8)
    private static let payloadStatus = Array(#","status":"#.utf8)

    /// A message laid out exactly in one of the two layouts of ``documentedStart``, its keys
    /// compared as bytes rather than read and matched one by one (the message's object and its
    /// payload's were some 1,800 instructions of a traffic frame, issue 30); refused otherwise
    /// (then read by ``fieldsReadingEveryKey(from:depth:deferringData:refusingTopLevelStatus:)``
    /// from the same byte). Where the bytes are those, reading them key by key gives the same:
    /// the keys are known, each once, with no `status` or `error` beside the payload, and each
    /// value is read by the same reader under the same nesting limit.
    static func plainFields(from parser: inout JSONParser, depth: Int, deferringData: Bool) throws(JSONParser.Refusal) -> Fields {
        // The object at `depth` opens here, counted as `readObject` counts it.
        guard parser.depthLeft(below: depth) >= 0 else { throw JSONParser.Refusal() }
        let version: String
        let correlationId: String
        let type: Int?
        let timestamp: Double
        let payload: PayloadFields
        if parser.readLiteralIfPresent(documentedStart) {
            version = usualVersion.value
            correlationId = try parser.readString()
            try parser.readLiteral(documentedType)
            type = try parser.readString(among: typeNames)
            try parser.readLiteral(documentedTimestamp)
            timestamp = try parser.readNumber()
            try parser.readLiteral(documentedPayload, openingObjectAt: depth + 1)
            payload = try plainPayload(from: &parser, depth: depth + 1, deferringData: deferringData)
            try parser.readLiteral(documentedEnd)
        } else {
            try parser.readLiteral(sortedStart)
            correlationId = try parser.readString()
            try parser.readLiteral(sortedPayload, openingObjectAt: depth + 1)
            payload = try plainPayload(from: &parser, depth: depth + 1, deferringData: deferringData)
            try parser.readLiteral(sortedTimestamp)
            timestamp = try parser.readNumber()
            try parser.readLiteral(sortedType)
            type = try parser.readString(among: typeNames)
            try parser.readLiteral(sortedVersion)
            version = try parser.readString(usually: usualVersion)
            try parser.readLiteral(sortedEnd)
        }
        guard let type, !version.isEmpty, !correlationId.isEmpty else { throw JSONParser.Refusal() }
        return (version, correlationId, MessageType.allCases[type], timestamp, payload)
    }

    /// A payload `depth` levels deep laid out as ``plainFields(from:depth:deferringData:)``
    /// reads one, after its `{"action":`, to its closing `}` (not read).
    private static func plainPayload(from parser: inout JSONParser, depth: Int, deferringData: Bool) throws(JSONParser.Refusal) -> PayloadFields {
        let action = try parser.readString()
        guard !action.isEmpty else { throw JSONParser.Refusal() }
        var data: [String: JSONValue]?
        var deferred: Range<Int>?
        if parser.readLiteralIfPresent(payloadData) {
            (data, deferred) = try self.data(from: &parser, depth: depth, deferringData: deferringData)
        }
        var status: BridgeResponseStatus?
        if parser.readLiteralIfPresent(payloadStatus) {
            status = try self.status(from: &parser)
        }
        return (action, data, status, nil, deferred, parser.depthLeft(below: depth))
    }

    /// A message's fields read key by key, in any order, with any spacing.
    private static func fieldsReadingEveryKey(
        from parser: inout JSONParser, depth: Int, deferringData: Bool, refusingTopLevelStatus: Bool
    ) throws(JSONParser.Refusal) -> Fields {
        var version: String?
        var correlationId: String?
        var type: MessageType?
        var timestamp: Double?
        var payload: PayloadFields?
        try parser.readObject(depth: depth, keys: refusingTopLevelStatus ? messageKeysAndStatus : messageKeys) { parser, key throws(JSONParser.Refusal) in
            switch key {
            case 0: version = try parser.readString(usually: usualVersion)
            case 1: correlationId = try parser.readString()
            case 2:
                guard let known = try parser.readString(among: typeNames) else { throw JSONParser.Refusal() }
                type = MessageType.allCases[known]
            case 3: timestamp = try parser.readNumber()
            case 4: payload = try self.payload(from: &parser, depth: depth + 1, deferringData: deferringData)
            // `status` or `error` beside `payload`, when refused.
            default: throw JSONParser.Refusal()
            }
        }
        guard let version, !version.isEmpty, let correlationId, !correlationId.isEmpty, let type, let timestamp,
            let payload = payload.take()
        else {
            throw JSONParser.Refusal()
        }
        return (version, correlationId, type, timestamp, payload)
    }

    /// Reads a message or `null` at the parser's current byte (`.some(nil)` for `null`).
    package static func optionalMessage(from parser: inout JSONParser, depth: Int) throws(JSONParser.Refusal) -> BridgeMessage? {
        if try parser.readNull() { return nil }
        return try message(from: &parser, depth: depth)
    }

    private static func payload(from parser: inout JSONParser, depth: Int, deferringData: Bool) throws(JSONParser.Refusal) -> PayloadFields {
        var action: String?
        var data: [String: JSONValue]?
        var deferred: Range<Int>?
        var status: BridgeResponseStatus?
        var error: BridgeErrorPayload?
        try parser.readObject(depth: depth, keys: payloadKeys) { parser, key throws(JSONParser.Refusal) in
            switch key {
            case 0: action = try parser.readString()
            case 1: (data, deferred) = try self.data(from: &parser, depth: depth, deferringData: deferringData)
            case 2: status = try self.status(from: &parser)
            default:
                // Rare (failed responses): read as a value and checked as the full way does.
                let value = try parser.readValue(depth: depth)
                if value == .null { return }
                guard let payload = BridgeErrorPayload(validating: value) else { throw JSONParser.Refusal() }
                error = payload
            }
        }
        guard let action, !action.isEmpty else { throw JSONParser.Refusal() }
        return (action, data, status, error, deferred, parser.depthLeft(below: depth))
    }

    /// A payload's `data`, in a payload `depth` levels deep: an object or `null`. With
    /// `deferringData` an object is checked and not built: where its text stands (`data` `nil`).
    private static func data(
        from parser: inout JSONParser, depth: Int, deferringData: Bool
    ) throws(JSONParser.Refusal) -> (data: [String: JSONValue]?, deferred: Range<Int>?) {
        if deferringData, let text = try parser.checkObject(depth: depth) { return (nil, text) }
        switch try parser.readValue(depth: depth) {
        case .null: return (nil, nil)
        case .object(let object): return (object, nil)
        default: throw JSONParser.Refusal()
        }
    }

    /// A payload's `status`: one of the statuses, or `null` (`nil`).
    private static func status(from parser: inout JSONParser) throws(JSONParser.Refusal) -> BridgeResponseStatus? {
        if try parser.readNull() { return nil }
        guard let known = try parser.readString(among: statusNames) else { throw JSONParser.Refusal() }
        return BridgeResponseStatus.allCases[known]
    }
}
