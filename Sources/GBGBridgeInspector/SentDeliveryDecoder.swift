import BridgeCore
import Foundation

/// Reads what the page script reports a GBGBridge host delivered to `window.GBGBridge.receive`
/// into BridgeCore's `BridgeMessage`, accepting every shape a GBGBridge build could plausibly
/// use, since GBG documents neither its response envelope nor the exact `receive(...)` call
/// (docs/real-apps.md, "How the inspector sees what the app sends").
///
/// | reported | read as |
/// | --- | --- |
/// | the message as an object | itself |
/// | the message as a JSON string (`receive('{"version":…}')`: the script reports `JSON.stringify` of a string, a JSON string literal) | the message the string's text holds |
/// | `status` / `error` at the top level of the message | the same in `payload` (a value in `payload` wins) |
/// | a response without `payload.action` (or without `payload`) | the action of the request with its `correlationId` (from `actionOfRequest`); with none known, ``unknownAction`` |
/// | `timestamp` as an ISO 8601 string, with or without fractional seconds | milliseconds since 1970 |
///
/// Anything else a message needs (`version`, `correlationId`, `type`, a number or ISO
/// `timestamp`, the action of a request or an event) is required as BridgeCore requires it, and
/// its absence is reported with BridgeCore's sentence ("missing required field 'correlationId'").
/// Pure: no state, no clock; the caller says which requests it knows.
///
/// ```swift
/// switch SentDeliveryDecoder.decode(Data(reported.utf8), actionOfRequest: { id in actions[id] }) {
/// case .success(let delivery): log(delivery.message, json: delivery.json, reported: delivery.reported)
/// case .failure(let problem): showUnread(raw: reported, reason: problem.reason)
/// }
/// ```
public enum SentDeliveryDecoder {
    /// One delivery, read.
    public struct Delivery: Sendable, Equatable {
        /// The message, in BridgeCore's form.
        public var message: BridgeMessage
        /// The message's JSON: the reported bytes when they already were BridgeCore's message
        /// JSON, otherwise the message as read (BridgeCore's encoding).
        public var json: Data
        /// The exact reported bytes when they differ from ``json`` (another shape was read);
        /// `nil` when the report was BridgeCore's message JSON as it stands.
        public var reported: Data?
        /// What was read differently from BridgeCore's message JSON, in words (empty when
        /// nothing was), for a person wondering why ``json`` is not the reported text.
        public var notes: [String]
    }

    /// Why a report could not be read as a message, as a sentence for the log.
    public struct Unreadable: Error, Sendable, Equatable {
        /// The reason (untrusted: it can quote the page's text; make it safe before a terminal).
        public var reason: String
    }

    /// The action given to a response that names none, when no request with its correlation id
    /// is known: a placeholder that says so, never an action the journey used.
    public static let unknownAction = "(no action: request not seen)"

    /// Reads one report (the `json` of a `sent` report: `JSON.stringify` of what `receive` got).
    ///
    /// A report in BridgeCore's message JSON as it stands (nearly every one) is read in one pass
    /// (`DocumentedDeliveryReader`); any other is parsed whole and its fields moved
    /// (`decodeParsingWhole(_:maxDepth:actionOfRequest:)`), with the same result either way.
    ///
    /// - Parameters:
    ///   - bytes: the reported text, as UTF-8.
    ///   - maxDepth: the deepest nesting read (BridgeCore's codec's bound).
    ///   - actionOfRequest: the action of the request with this correlation id, if one is known
    ///     (asked only for a response that names no action).
    public static func decode(
        _ bytes: Data, maxDepth: Int = BridgeMessageCodec().maxDepth, actionOfRequest: (String) -> String?
    ) -> Result<Delivery, Unreadable> {
        if let message = DocumentedDeliveryReader.message(in: bytes, maxDepth: maxDepth) {
            return .success(Delivery(message: message, json: bytes, reported: nil, notes: []))
        }
        return decodeParsingWhole(bytes, maxDepth: maxDepth, actionOfRequest: actionOfRequest)
    }

    /// Reads one report the full way: the whole text parsed into a `JSONValue`, its fields moved
    /// to where BridgeCore reads them, then checked as a message. ``decode(_:maxDepth:actionOfRequest:)``
    /// gives the same result, faster for the documented shape; this is its reference and the
    /// reading of every other shape.
    package static func decodeParsingWhole(
        _ bytes: Data, maxDepth: Int = BridgeMessageCodec().maxDepth, actionOfRequest: (String) -> String?
    ) -> Result<Delivery, Unreadable> {
        var value: JSONValue
        do throws(JSONSyntaxCheck.Problem) {
            value = try JSONParser.read(bytes, maxDepth: maxDepth)
        } catch {
            return .failure(Unreadable(reason: "invalid JSON at \(error)"))
        }
        var notes: [String] = []
        var inner: Data?
        if case .string(let text) = value {
            // receive('<json>'): the message passed as a JSON string. One level only: a string
            // holding a string is not a message any build would send.
            let data = Data(text.utf8)
            do throws(JSONSyntaxCheck.Problem) {
                value = try JSONParser.read(data, maxDepth: maxDepth)
            } catch {
                return .failure(Unreadable(reason: "a JSON string whose text is not JSON: invalid JSON at \(error)"))
            }
            guard case .object = value else {
                return .failure(Unreadable(reason: "a JSON string whose text is not a JSON object"))
            }
            inner = data
            notes.append("passed to receive as a JSON string")
        }
        guard case .object(var fields) = value else {
            return .failure(Unreadable(reason: "a message must be a JSON object with the fields version, correlationId, type, timestamp and payload (got \(kind(of: value)))"))
        }
        let changed = normalise(&fields, notes: &notes, actionOfRequest: actionOfRequest)
        if let problem = changed.problem { return .failure(Unreadable(reason: problem)) }
        switch BridgeMessageCodec.message(in: .object(fields)) {
        case .failure(let failure):
            return .failure(Unreadable(reason: failure.reason))
        case .success(let message):
            if !changed.any, let inner {
                return .success(Delivery(message: message, json: inner, reported: bytes, notes: notes))
            }
            if !changed.any { return .success(Delivery(message: message, json: bytes, reported: nil, notes: notes)) }
            guard let json = try? BridgeMessageCodec().encode(message) else {
                return .failure(Unreadable(reason: "a message with a value JSON cannot carry"))
            }
            return .success(Delivery(message: message, json: json, reported: bytes, notes: notes))
        }
    }

    /// Moves the message's fields to where BridgeCore reads them; says whether anything moved,
    /// or why the message cannot be read.
    private static func normalise(
        _ fields: inout [String: JSONValue], notes: inout [String], actionOfRequest: (String) -> String?
    ) -> (any: Bool, problem: String?) {
        var changed = false
        switch fields["timestamp"] {
        case .string(let text)?:
            guard let milliseconds = milliseconds(iso8601: text) else {
                return (changed, "field 'timestamp' must be a number (milliseconds since 1970) or an ISO 8601 date and time")
            }
            fields["timestamp"] = .number(milliseconds)
            notes.append("timestamp \(text) read as \(Int64(milliseconds)) ms")
            changed = true
        default: break
        }
        let isResponse = fields["type"]?.stringValue == MessageType.response.rawValue
        var payload: [String: JSONValue]
        switch fields["payload"] {
        case .object(let object)?: payload = object
        case nil where isResponse:
            payload = [:]
            notes.append("no payload")
            changed = true
        default: return (changed, nil)  // BridgeCore says what is wrong with it.
        }
        for key in ["status", "error"] {
            guard let top = fields[key] else { continue }
            if payload[key] == nil {
                payload[key] = top
                notes.append("\(key) at the top level of the message")
            }
            fields[key] = nil
            changed = true
        }
        if isResponse, (payload["action"] ?? .null) == .null || payload["action"] == .string("") {
            let id = fields["correlationId"]?.stringValue ?? ""
            if let action = actionOfRequest(id), !action.isEmpty {
                payload["action"] = .string(action)
                notes.append("no action: the action of request \(id)")
            } else {
                payload["action"] = .string(unknownAction)
                notes.append("no action, and no request with this correlationId was seen")
            }
            changed = true
        }
        if changed { fields["payload"] = .object(payload) }
        return (changed, nil)
    }

    /// What a JSON value is, in a word, for a reason.
    private static func kind(of value: JSONValue) -> String {
        switch value {
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "a boolean"
        case .array: return "an array"
        case .object: return "an object"
        case .null: return "null"
        }
    }

    /// An ISO 8601 date and time (`2026-11-26T10:00:00Z`, `2026-11-26T10:00:00.123+01:00`) as
    /// milliseconds since 1970, or `nil` when `text` is not one.
    static func milliseconds(iso8601 text: String) -> Double? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return (date.timeIntervalSince1970 * 1000).rounded() }
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return (date.timeIntervalSince1970 * 1000).rounded() }
        return nil
    }
}

