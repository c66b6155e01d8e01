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
    /// A payload's keys, in the one order both the documented shape and the sorted writers put them.
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
        let fields = try self.fields(from: &parser, depth: depth, deferringData: deferringData, refusingTopLevelStatus: refusingTopLevelStatus)
        var deferred: DeferredJSONObject?
        if let text = fields.payload.deferredText {
            deferred = DeferredJSONObject(text: parser.copy(text), maxDepth: fields.payload.deferredDepth)
        }
        return fields.message(deferred: deferred)
    }

    /// Reads the message object at the parser's current byte, `depth` levels deep, as
    /// ``message(from:depth:deferringData:refusingTopLevelStatus:)`` with `deferringData`, and
    /// gives its bytes as they stand in the text (a copy of its own): how an inspector keeps a
    /// message from the agent's frame exactly as it crossed the bridge. Its deferred
    /// `payload.data` is a slice of those same bytes, so the message and its text share one copy.
    package static func messageKeepingBytes(from parser: inout JSONParser, depth: Int) throws(JSONParser.Refusal) -> (message: BridgeMessage, bytes: Data) {
        let start = parser.offset
        let fields = try self.fields(from: &parser, depth: depth, deferringData: true, refusingTopLevelStatus: false)
        let bytes = parser.copy(start..<parser.offset)
        var deferred: DeferredJSONObject?
        if let text = fields.payload.deferredText {
            let lower = bytes.startIndex + (text.lowerBound - start)
            deferred = DeferredJSONObject(text: bytes[lower..<(lower + text.count)], maxDepth: fields.payload.deferredDepth)
        }
        return (fields.message(deferred: deferred), bytes)
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

    /// A message's fields as read, before its payload is made: its `payload.data` may still be
    /// where its text stands in the parser's bytes.
    private struct Fields {
        var version: String
        var correlationId: String
        var type: MessageType
        var timestamp: Double
        var payload: PayloadFields

        /// The message, with `deferred` as its `payload.data` when the data was kept as text.
        func message(deferred: DeferredJSONObject?) -> BridgeMessage {
            let payload: BridgeMessage.Payload
            if let deferred {
                payload = BridgeMessage.Payload(action: self.payload.action, deferredData: deferred, status: self.payload.status, error: self.payload.error)
            } else {
                payload = BridgeMessage.Payload(action: self.payload.action, data: self.payload.data, status: self.payload.status, error: self.payload.error)
            }
            return BridgeMessage(version: version, correlationId: correlationId, type: type, timestamp: timestamp, payload: payload)
        }
    }

    /// A payload's fields as read; `deferredText` is where its `data` object stands in the
    /// parser's bytes when it was checked and not built (then `data` is `nil`).
    private struct PayloadFields {
        var action: String
        var data: [String: JSONValue]?
        var deferredText: Range<Int>?
        var deferredDepth: Int
        var status: BridgeResponseStatus?
        var error: BridgeErrorPayload?
    }

    private static func fields(
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
        guard let version, !version.isEmpty, let correlationId, !correlationId.isEmpty, let type, let timestamp, let payload = payload.take() else {
            throw JSONParser.Refusal()
        }
        return Fields(version: version, correlationId: correlationId, type: type, timestamp: timestamp, payload: payload)
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
            case 1:
                deferred = nil
                if deferringData, let text = try parser.checkObject(depth: depth) {
                    data = nil
                    deferred = text
                    return
                }
                switch try parser.readValue(depth: depth) {
                case .null: data = nil
                case .object(let object): data = object
                default: throw JSONParser.Refusal()
                }
            case 2:
                if try parser.readNull() { return }
                guard let known = try parser.readString(among: statusNames) else { throw JSONParser.Refusal() }
                status = BridgeResponseStatus.allCases[known]
            default:
                // Rare (failed responses): read as a value and checked as the full way does.
                let value = try parser.readValue(depth: depth)
                if value == .null { return }
                guard let payload = BridgeErrorPayload(validating: value) else { throw JSONParser.Refusal() }
                error = payload
            }
        }
        guard let action, !action.isEmpty else { throw JSONParser.Refusal() }
        return PayloadFields(
            action: action, data: data, deferredText: deferred, deferredDepth: parser.depthLeft(below: depth), status: status, error: error)
    }
}
