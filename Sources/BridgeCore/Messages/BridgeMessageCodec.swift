import Foundation

/// Turns message text into ``BridgeMessage`` values and back, with reasons a person can act on.
///
/// Decoding parses the text once with the package's one JSON parser (so a mistake is reported with its line and
/// column, and nesting is bounded): it is the only judge of what the JSON text means (`docs/bridge-protocol.md`, section 2, "One
/// JSON rule"). The parsed value is then checked as a message (GBGBridge, Security, "Incoming
/// Message Decoding"); when it is not one, its `Decodable` conformance names the field that is
/// wrong, read from the parsed value, never from the original text, so it
/// cannot judge the text differently. Encoding sorts keys, so the same message always has the same bytes.
public struct BridgeMessageCodec: Sendable {
    /// Why a message could not be decoded; `reason` completes the sentence `Failed to decode message: ...`.
    public struct DecodeFailure: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong and where, such as `missing required field 'correlationId'`.
        public var reason: String
        /// `Failed to decode message: <reason>`, the documented `lastError` text.
        public var description: String { "Failed to decode message: \(reason)" }
    }

    /// The nesting limit a codec has unless given another: deep enough for any message GBGBridge
    /// documents, shallow enough that a hostile one cannot exhaust a stack.
    public static let defaultMaxDepth = 100

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
    public init(maxDepth: Int = BridgeMessageCodec.defaultMaxDepth) {
        depth = Self.clampedDepth(maxDepth)
    }

    private static func clampedDepth(_ maxDepth: Int) -> Int { min(max(maxDepth, 1), maximumDepth) }

    /// Decodes one message, or says why it is not one.
    ///
    /// A well-formed message is read in one pass (`BridgeMessageReader`), with a dictionary
    /// built only for `payload.data`; anything that reader does not take is decoded again the
    /// full way (`decodeParsingWhole(_:)`), which gives the documented reason.
    public func decode(_ bytes: Data) -> Result<BridgeMessage, DecodeFailure> {
        if let message = BridgeMessageReader.message(in: bytes, maxDepth: maxDepth) { return .success(message) }
        return decodeParsingWhole(bytes)
    }

    /// ``decode(_:)`` of `bytes`, read from `lent`, their bytes lent for the call: for a caller
    /// that has them at hand (``BridgeHost/receive(_:)``, which hands the same bytes on).
    package func decode(lent: UnsafeRawBufferPointer, _ bytes: Data) -> Result<BridgeMessage, DecodeFailure> {
        if let message = BridgeMessageReader.message(in: lent, maxDepth: maxDepth) { return .success(message) }
        return decodeParsingWhole(bytes)
    }

    /// Decodes one message the full way: the whole text parsed into a ``JSONValue``, then checked
    /// as a message. ``decode(_:)`` gives the same result, faster; this is its reference.
    package func decodeParsingWhole(_ bytes: Data) -> Result<BridgeMessage, DecodeFailure> {
        do throws(JSONSyntaxCheck.Problem) {
            return Self.message(in: try JSONParser.read(bytes, maxDepth: maxDepth))
        } catch {
            return .failure(DecodeFailure(reason: "invalid JSON at \(error)"))
        }
    }

    /// The message a parsed JSON value holds, or the reason it is not one.
    public static func message(in value: JSONValue) -> Result<BridgeMessage, DecodeFailure> {
        if let message = BridgeMessage(validating: value) { return .success(message) }
        // The Decodable conformance only explains the refusal, reading the parsed value itself
        // (``JSONDecoding``), so the text's numbers and duplicate keys are read once, by the parser.
        do throws(JSONDecoding.Failure) {
            _ = try JSONDecoding.decode(BridgeMessage.self, from: value)
            return .failure(DecodeFailure(reason: "not a valid message"))
        } catch {
            guard case .wrongContent(let problem) = error else { return .failure(DecodeFailure(reason: "\(error)")) }
            return .failure(DecodeFailure(reason: Self.reason(for: problem)))
        }
    }

    /// Encodes a message as compact JSON with sorted keys.
    ///
    /// Throws when the message holds a value JSON cannot carry, such as a NaN or infinite number.
    public func encode(_ message: BridgeMessage) throws -> Data {
        // The direct writer takes the usual messages; the encoder the rest (same bytes).
        if let json = BridgeMessageWriter.json(message) { return json }
        return try JSONEncoding.encode(message)
    }

    /// The bridge's sentence for a decoding problem (Troubleshooting, "Message Decoding
    /// Failures"): which field, and what was expected.
    static func reason(for problem: DecodingProblem) -> String {
        let field = problem.field.isEmpty ? "(message)" : problem.field
        switch problem.kind {
        case .missing:
            return "missing required field '\(field)'"
        case .wrongType:
            if problem.path.isEmpty {
                return "a message must be a JSON object with the fields version, correlationId, type, timestamp and payload"
            }
            return "field '\(field)' must be \(problem.expected)"
        case .null:
            return "field '\(field)' must be \(problem.expected), not null"
        case .invalid(let reason):
            if problem.path.isEmpty, !reason.hasPrefix("field") {
                return "not a JSON object with the fields version, correlationId, type, timestamp, payload (\(reason))"
            }
            return reason
        }
    }
}
