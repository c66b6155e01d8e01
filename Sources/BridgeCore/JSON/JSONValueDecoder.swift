import Foundation

/// Decodes a `Decodable` straight from a parsed ``JSONValue``, without turning it back into text.
///
/// It reads a value the way `JSONDecoder` reads the same JSON text (with its default strategies:
/// `Data` as base64, `Date` as seconds since 2001), and throws the same `DecodingError`s, with the
/// same coding paths, so ``DecodingProblem`` can say which field is wrong. ``JSONDecoding`` puts
/// it behind ``JSONParser``: one pass over the bytes, then this.
///
/// ```swift
/// let args = try JSONValueDecoder.decode(Respond.self, from: ["correlationId": "c1", "status": "success"])
/// ```
package enum JSONValueDecoder {
    /// The `T` that `value` holds, or the `DecodingError` `JSONDecoder` would throw for it.
    package static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try ValueDecoder(value: value, codingPath: []).decodeValue(T.self)
    }
}

/// The position of an element in an array, as a coding key (`Index 2`, like `JSONDecoder`'s).
private struct IndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct ValueDecoder: Decoder, SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let fields) = value else { throw mismatch([String: Any].self) }
        return KeyedDecodingContainer(KeyedContainer<Key>(fields: fields, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([Any].self) }
        return UnkeyedContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: Reading the value

    private var kind: String {
        switch value {
        case .string: return "a string"
        case .number: return "number"
        case .bool: return "bool"
        case .object: return "a dictionary"
        case .array: return "an array"
        case .null: return "null"
        }
    }

    func mismatch(_ type: Any.Type) -> DecodingError {
        if value == .null {
            return .valueNotFound(type, .init(codingPath: codingPath, debugDescription: "Cannot get value of type \(type) -- found null value instead"))
        }
        return .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "Expected to decode \(type) but found \(kind) instead."))
    }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == JSONValue.self, let value = value as? T { return value }
        if T.self == Data.self {
            guard case .string(let text) = value else { throw mismatch(String.self) }
            guard let data = Data(base64Encoded: text), let decoded = data as? T else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Encountered Data is not valid Base64."))
            }
            return decoded
        }
        if T.self == URL.self {
            guard case .string(let text) = value else { throw mismatch(String.self) }
            guard let url = URL(string: text), let decoded = url as? T else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Invalid URL string."))
            }
            return decoded
        }
        return try T(from: self)
    }

    func decodeNil() -> Bool { value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let flag) = value else { throw mismatch(type) }
        return flag
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let text) = value else { throw mismatch(type) }
        return text
    }

    func decode(_ type: Double.Type) throws -> Double {
        guard case .number(let number) = value else { throw mismatch(type) }
        return number
    }

    func decode(_ type: Float.Type) throws -> Float {
        let number = try decode(Double.self)
        let narrowed = Float(number)
        guard narrowed.isFinite || !number.isFinite else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Parsed JSON number <\(number)> does not fit in Float."))
        }
        return narrowed
    }

    func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        guard case .number(let number) = value else { throw mismatch(type) }
        guard let integer = I(exactly: number) else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Parsed JSON number <\(number)> does not fit in \(type)."))
        }
        return integer
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let fields: [String: JSONValue]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { fields.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { fields[key.stringValue] != nil }

    private func member(_ key: Key) throws -> ValueDecoder {
        guard let value = fields[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
        }
        return ValueDecoder(value: value, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key).decodeNil() }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try member(key).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try member(key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try member(key).decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try member(key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try member(key).integer(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try member(key).integer(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try member(key).integer(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try member(key).integer(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try member(key).integer(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try member(key).integer(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try member(key).integer(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try member(key).integer(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try member(key).integer(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try member(key).integer(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try member(key).decodeValue(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try member(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try member(key).unkeyedContainer() }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(value: fields["super"] ?? .null, codingPath: codingPath + [IndexKey(0)])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: fields[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next(_ type: Any.Type) throws -> ValueDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: codingPath + [IndexKey(currentIndex)], debugDescription: "Unkeyed container is at end."))
        }
        defer { currentIndex += 1 }
        return ValueDecoder(value: elements[currentIndex], codingPath: codingPath + [IndexKey(currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type).decode(type) }
    mutating func decode(_ type: String.Type) throws -> String { try next(type).decode(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type).decode(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type).decode(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type).integer(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type).integer(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type).integer(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type).integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type).integer(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type).integer(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type).integer(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type).integer(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type).integer(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type).integer(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type).decodeValue(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next([String: Any].self).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next([Any].self).unkeyedContainer() }

    mutating func superDecoder() throws -> any Decoder { try next(Any.self) }
}
