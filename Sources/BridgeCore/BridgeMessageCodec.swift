import Foundation

/// Turns message text into ``BridgeMessage`` values and back, with reasons a person can act on.
///
/// Decoding first checks the JSON syntax with ``JSONSyntaxCheck`` (so a mistake is reported with
/// its line and column, and nesting is bounded), then parses it with ``JSONParser``: those two
/// are the only judges of what the JSON text means (`docs/bridge-protocol.md`, section 2, "One
/// JSON rule"). The parsed value is then checked as a message (GBGBridge, Security, "Incoming
/// Message Decoding"); when it is not one, `JSONDecoder` names the field that is wrong, from the
/// parsed value re-encoded, never from the original text, so it cannot judge the text
/// differently. Encoding sorts keys, so the same message always has the same bytes.
public struct BridgeMessageCodec: Sendable {
    /// Why a message could not be decoded; `reason` completes the sentence `Failed to decode message: ...`.
    public struct DecodeFailure: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong and where, such as `missing required field 'correlationId'`.
        public var reason: String
        /// `Failed to decode message: <reason>`, the documented `lastError` text.
        public var description: String { "Failed to decode message: \(reason)" }
    }

    /// The largest ``maxDepth`` a codec takes; a larger one is taken as this.
    ///
    /// A decoded message is later encoded and decoded with `Codable` (responses, the inspector's
    /// frames, which wrap a message a few levels deeper), which uses about 3 KB of stack per level:
    /// 128 levels keep that inside a 512 KiB thread stack.
    public static let maximumDepth = 128

    /// Messages nested deeper than this are refused before decoding. Between 1 and
    /// ``maximumDepth``: a value outside is taken as the nearest bound.
    public var maxDepth: Int {
        get { depth }
        set { depth = Self.clampedDepth(newValue) }
    }

    private var depth: Int

    /// Creates a codec with the given nesting limit (see ``maxDepth``).
    public init(maxDepth: Int = JSONSyntaxCheck.defaultMaxDepth) {
        depth = Self.clampedDepth(maxDepth)
    }

    private static func clampedDepth(_ maxDepth: Int) -> Int { min(max(maxDepth, 1), maximumDepth) }

    /// Decodes one message, or says why it is not one.
    public func decode(_ bytes: Data) -> Result<BridgeMessage, DecodeFailure> {
        if let problem = JSONSyntaxCheck.firstProblem(in: bytes, maxDepth: maxDepth) {
            return .failure(DecodeFailure(reason: "invalid JSON at \(problem)"))
        }
        // The syntax check refuses exactly what the parser refuses, so this always parses.
        guard let value = JSONParser.parse(bytes, maxDepth: maxDepth) else {
            return .failure(DecodeFailure(reason: "invalid JSON"))
        }
        return Self.message(in: value)
    }

    /// The message a parsed JSON value holds, or the reason it is not one.
    public static func message(in value: JSONValue) -> Result<BridgeMessage, DecodeFailure> {
        if let message = BridgeMessage(validating: value) { return .success(message) }
        // JSONDecoder only explains the refusal. It sees the value re-encoded, so the text's
        // numbers and duplicate keys are read once, by JSONParser; and with containers below the
        // fields a message defines left empty (their contents cannot make a message invalid), so
        // deep data never reaches its recursion.
        do {
            let shape = try JSONEncoder().encode(value.emptyingContainers(below: 3))
            _ = try JSONDecoder().decode(BridgeMessage.self, from: shape)
            return .failure(DecodeFailure(reason: "not a valid message"))
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
