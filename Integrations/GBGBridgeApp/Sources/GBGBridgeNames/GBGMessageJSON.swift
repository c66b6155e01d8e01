import Foundation
import GBGBridge

/// GBG's messages and values as JSON, the form in which they cross to the inspector.
///
/// GBGBridge decodes messages with `JSONDecoder` (Security page, "Incoming Message Decoding"),
/// so its `BridgeMessage` and `JSONValue` are `Decodable`; whether they are `Encodable` too is not
/// documented. A message that is `Encodable` is encoded as GBGBridge encodes it; one that is not
/// is rebuilt from its documented members (`correlationId`, `type.rawValue`, `payload.action`,
/// `payload.data`), with `version` "1.0" and the time it was read as `timestamp`.
enum GBGMessageJSON {
    nonisolated static func encode(_ message: BridgeMessage) -> Data {
        if let encodable = (message as Any) as? any Encodable, let json = try? JSONEncoder().encode(encodable) {
            return json
        }
        var payload: [String: Any] = ["action": message.payload.action]
        if let data = message.payload.data {
            payload["data"] = data.mapValues(value)
        }
        let object: [String: Any] = [
            "version": "1.0", "correlationId": message.correlationId, "type": message.type.rawValue,
            "timestamp": (Date().timeIntervalSince1970 * 1000).rounded(), "payload": payload,
        ]
        return (try? JSONSerialization.data(withJSONObject: object)) ?? Data("{}".utf8)
    }

    /// One value of a message's data as a JSON-serialisable object.
    nonisolated private static func value(_ value: JSONValue) -> Any {
        if let encodable = (value as Any) as? any Encodable, let json = try? JSONEncoder().encode(encodable),
            let object = try? JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed])
        {
            return object
        }
        return String(describing: value)
    }

    /// A JSON object as GBG's `[String: JSONValue]`.
    nonisolated static func values(from json: Data) throws -> [String: JSONValue] {
        try JSONDecoder().decode([String: JSONValue].self, from: json)
    }
}
