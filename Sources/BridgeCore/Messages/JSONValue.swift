import Foundation

/// A JSON value as it travels in a bridge message's `payload.data`.
///
/// GBGBridge's `data` is a `[String: JSONValue]` dictionary, so host code builds payloads
/// the same way the documentation does:
///
/// ```swift
/// host.send(event: "host.ready", data: [
///     "timestamp": .number(Date().timeIntervalSince1970 * 1000),
///     "version": .string("1.0.0"),
/// ])
/// ```
///
/// Decoding tries `Bool` before numbers, so `true` never becomes `1`. Numbers are `Double`:
/// integers above 2^53 lose precision, so send large identifiers as strings.
public enum JSONValue: Sendable, Hashable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case object([String: JSONValue])
    case array([JSONValue])
    case null
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else {
            self = .array(try container.decode([JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue {
    /// The string inside `.string`, or `nil` for any other case. Handy when validating `data` in a handler.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number inside `.number`, or `nil` for any other case.
    public var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The flag inside `.bool`, or `nil` for any other case.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The dictionary inside `.object`, or `nil` for any other case.
    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The elements inside `.array`, or `nil` for any other case.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// Looks up `key` when this value is an object: `value["side"]`.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }
}

extension JSONValue {
    /// This value with every object and array more than `levels` levels down replaced by an
    /// empty one of the same kind: a shallow copy that keeps each field's JSON kind, for code that
    /// only checks the kinds near the top (without recursing through deep data).
    ///
    /// ```swift
    /// JSONValue.object(["a": [1, [2]]]).emptyingContainers(below: 1)   // {"a": []}
    /// ```
    public func emptyingContainers(below levels: Int) -> JSONValue {
        switch self {
        case .object(let fields):
            return .object(levels > 0 ? fields.mapValues { $0.emptyingContainers(below: levels - 1) } : [:])
        case .array(let elements):
            return .array(levels > 0 ? elements.map { $0.emptyingContainers(below: levels - 1) } : [])
        case .string, .number, .bool, .null:
            return self
        }
    }
}
