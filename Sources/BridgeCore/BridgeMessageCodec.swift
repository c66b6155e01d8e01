import Foundation

/// Turns message text into ``BridgeMessage`` values and back, with reasons a person can act on.
///
/// Decoding first checks the JSON syntax (so a mistake is reported with its line and column,
/// and nesting is bounded), then decodes with ``JSONParser`` and, for anything that parser does
/// not take, with `JSONDecoder`, as GBGBridge does (Security, "Incoming Message Decoding"): the
/// same messages are accepted and refused either way, with `JSONDecoder`'s reasons. Encoding sorts keys, so the same message always has the same bytes.
public struct BridgeMessageCodec: Sendable {
    /// Why a message could not be decoded; `reason` completes the sentence `Failed to decode message: ...`.
    public struct DecodeFailure: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong and where, such as `missing required field 'correlationId'`.
        public var reason: String
        /// `Failed to decode message: <reason>`, the documented `lastError` text.
        public var description: String { "Failed to decode message: \(reason)" }
    }

    /// Messages nested deeper than this are refused before decoding.
    public var maxDepth: Int

    /// Creates a codec with the given nesting limit.
    public init(maxDepth: Int = JSONSyntaxCheck.defaultMaxDepth) {
        self.maxDepth = maxDepth
    }

    /// Decodes one message, or says why it is not one.
    public func decode(_ bytes: Data) -> Result<BridgeMessage, DecodeFailure> {
        if let problem = JSONSyntaxCheck.firstProblem(in: bytes, maxDepth: maxDepth) {
            return .failure(DecodeFailure(reason: "invalid JSON at \(problem)"))
        }
        // The common case, several times faster than JSONDecoder; anything it does not take is
        // decoded again below, so every refusal still gets JSONDecoder's reason.
        if let value = JSONParser.parse(bytes, maxDepth: maxDepth), let message = BridgeMessage(validating: value) {
            return .success(message)
        }
        do {
            return .success(try JSONDecoder().decode(BridgeMessage.self, from: bytes))
        } catch let error as DecodingError {
            return .failure(DecodeFailure(reason: Self.reason(for: error)))
        } catch {
            return .failure(DecodeFailure(reason: String(describing: error)))
        }
    }

    /// Encodes a message as compact JSON with sorted keys.
    ///
    /// Throws when the message holds a value JSON cannot carry, such as a NaN or infinite number.
    public func encode(_ message: BridgeMessage) throws -> Data {
        try Self.encoder.encode(message)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// A sentence for a decoding error: which field, and what was expected.
    static func reason(for error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            let path = fieldPath(context.codingPath + [key])
            if path == "payload.action" { return "missing required field 'payload.action'" }
            return "missing required field '\(path)'"
        case .typeMismatch(let type, let context):
            if context.codingPath.isEmpty {
                return "a message must be a JSON object with the fields version, correlationId, type, timestamp and payload"
            }
            return "field '\(fieldPath(context.codingPath))' must be \(typeName(type))"
        case .valueNotFound(let type, let context):
            return "field '\(fieldPath(context.codingPath))' must be \(typeName(type)), not null"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty, !context.debugDescription.hasPrefix("field") {
                return "not a JSON object with the fields version, correlationId, type, timestamp, payload (\(context.debugDescription))"
            }
            return context.debugDescription
        @unknown default:
            return String(describing: error)
        }
    }

    static func fieldPath(_ path: [any CodingKey]) -> String {
        if path.isEmpty { return "(message)" }
        return path.map { key in key.intValue.map { "[\($0)]" } ?? key.stringValue }
            .joined(separator: ".")
            .replacingOccurrences(of: ".[", with: "[")
    }

    static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Double.Type, is Int.Type: return "a number"
        case is Bool.Type: return "true or false"
        case is [String: JSONValue].Type: return "an object"
        case is [JSONValue].Type: return "an array"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Dictionary") || name.hasPrefix("KeyedDecodingContainer") { return "an object" }
            if name.hasPrefix("Array") || name.hasPrefix("UnkeyedDecodingContainer") { return "an array" }
            return "of type \(name)"
        }
    }
}
