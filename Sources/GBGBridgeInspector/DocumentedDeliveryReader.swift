import BridgeCore
import Foundation

/// Reads a page report that is BridgeCore's message JSON as it stands (the documented shape: an
/// object with `version`, `correlationId`, `type`, a number `timestamp` and `payload` with its
/// `action`) in one pass straight from the text, building a dictionary only for `payload.data`:
/// the fast path of ``SentDeliveryDecoder/decode(_:maxDepth:actionOfRequest:)`` for what a host
/// sends nearly always, instead of parsing the whole report into a `JSONValue` first.
///
/// It takes exactly the reports the full reading takes with nothing to normalise (the delivery's
/// `reported` is then `nil`), reading the same values under the same JSON rules (BridgeCore's
/// field readers), and refuses (`nil`) everything else: a message passed as a JSON string,
/// `status` or `error` at the top level (even `null`), an ISO timestamp, a response without a
/// non-empty action, and anything that is not a message at all. The full reading then reads or
/// explains those, so this reader never has to say why.
///
/// ```swift
/// if let message = DocumentedDeliveryReader.message(in: bytes, maxDepth: 100) { … }   // nil: read the full way
/// ```
enum DocumentedDeliveryReader {
    /// The message `bytes` hold in the documented shape, nested at most `maxDepth` deep, or
    /// `nil` when the report needs the full reading.
    static func message(in bytes: Data, maxDepth: Int) -> BridgeMessage? {
        JSONParser.reading(bytes, maxDepth: maxDepth) { parser throws(JSONParser.Refusal) in
            try message(from: &parser)
        }
    }

    /// The message's fields, and the two that the full reading moves into `payload` (their
    /// presence alone sends a report the full way).
    private static let messageKeys = JSONKeySet(["version", "correlationId", "type", "timestamp", "payload", "status", "error"])
    private static let payloadKeys = JSONKeySet(["action", "data", "status", "error"])
    private static let typeNames = JSONKeySet(strings: MessageType.allCases.map(\.rawValue))
    private static let statusNames = JSONKeySet(strings: BridgeResponseStatus.allCases.map(\.rawValue))

    /// Reads the message object at the parser's current byte (the whole text, level 1).
    private static func message(from parser: inout JSONParser) throws(JSONParser.Refusal) -> BridgeMessage {
        var version: String?
        var correlationId: String?
        var type: MessageType?
        var timestamp: Double?
        var payload: BridgeMessage.Payload?
        try parser.readObject(depth: 1, keys: messageKeys) { parser, key throws(JSONParser.Refusal) in
            switch key {
            case 0: version = try parser.readString()
            case 1: correlationId = try parser.readString()
            case 2:
                guard let known = try parser.readString(among: typeNames) else { throw JSONParser.Refusal() }
                type = MessageType.allCases[known]
            case 3: timestamp = try parser.readNumber()
            case 4: payload = try self.payload(from: &parser, depth: 2)
            // `status` or `error` beside `payload`: the full reading moves it there.
            default: throw JSONParser.Refusal()
            }
        }
        guard let version, !version.isEmpty, let correlationId, !correlationId.isEmpty, let type, let timestamp, let payload else {
            throw JSONParser.Refusal()
        }
        return BridgeMessage(version: version, correlationId: correlationId, type: type, timestamp: timestamp, payload: payload)
    }

    /// Reads the payload object at the parser's current byte, `depth` levels deep, as
    /// `BridgeMessage.Payload(validating:)` takes it; an action that is missing or empty is
    /// refused (for a response the full reading gives it its request's).
    private static func payload(from parser: inout JSONParser, depth: Int) throws(JSONParser.Refusal) -> BridgeMessage.Payload {
        var action: String?
        var data: [String: JSONValue]?
        var status: BridgeResponseStatus?
        var error: BridgeErrorPayload?
        try parser.readObject(depth: depth, keys: payloadKeys) { parser, key throws(JSONParser.Refusal) in
            switch key {
            case 0: action = try parser.readString()
            case 1:
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
                let value = try parser.readValue(depth: depth)
                if value == .null { return }
                guard let payload = BridgeErrorPayload(validating: value) else { throw JSONParser.Refusal() }
                error = payload
            }
        }
        guard let action, !action.isEmpty else { throw JSONParser.Refusal() }
        return BridgeMessage.Payload(action: action, data: data, status: status, error: error)
    }
}
