import Foundation

/// Writes a ``BridgeMessage`` as JSON directly, byte for byte what ``BridgeMessageCodec``'s
/// `JSONEncoder` (sorted keys, slashes unescaped) writes, without the generic `Encodable`
/// machinery, which on Linux costs several microseconds per message: the host encodes every
/// response and event it sends.
///
/// It is a fast path only: it takes the messages it is sure to write as the encoder would and
/// returns `nil` for the rest, which the codec then encodes with `JSONEncoder`:
/// - numbers must be whole and smaller than 10^15 in size (a timestamp in milliseconds is),
///   written as integers, as the encoder writes them; `-0`, fractions, huge, NaN and infinite
///   numbers go to the encoder (which refuses the last two);
/// - an object's keys must be ASCII without digits and sort the same by bytes and ignoring case,
///   so the order is the encoder's on every platform (Foundation on Apple systems compares keys
///   ignoring case and reading digits as numbers; on Linux it compares bytes);
/// - a payload with an `error` goes to the encoder (error responses are rare).
///
/// It writes into one ``JSONByteOutput`` (a buffer written through a pointer, handed over as
/// `Data` without a copy), eight string bytes at a time where none needs an escape, integers
/// digit by digit. An object of at most 32 members whose keys are at most 16 bytes (nearly every
/// one) has each key read once into a ``PackedJSONKey``: sorting, the checks above and writing
/// the key are then a few integer operations; other objects' keys are sorted as strings and
/// checked byte by byte.
///
/// `Tests/BridgeCoreTests/BridgeMessageWriterTests.swift` checks it against `JSONEncoder`, and
/// `BridgeMessageWriterEquivalenceTests.swift` against the byte-at-a-time writer it replaced.
enum BridgeMessageWriter {
    /// The message's JSON, or `nil` when it is not one the writer takes.
    static func json(_ message: BridgeMessage) -> Data? {
        guard message.payload.error == nil else { return nil }
        let data = message.payload.data
        // The usual message fits; a larger one grows the buffer a few times.
        var out = JSONByteOutput(
            capacity: 160 + message.correlationId.utf8.count + message.payload.action.utf8.count + (data?.count ?? 0) * 40)
        // The message's and the payload's keys, in sorted order.
        out.append(#"{"correlationId":"#)
        out.appendString(message.correlationId)
        out.append(#","payload":{"action":"#)
        out.appendString(message.payload.action)
        if let data {
            out.append(#","data":"#)
            guard writeObject(data, to: &out, depth: 1) else { return nil }
        }
        if let status = message.payload.status {
            out.append(#","status":"#)
            switch status {
            case .success: out.append(#""success""#)
            case .error: out.append(#""error""#)
            case .cancelled: out.append(#""cancelled""#)
            case .unsupported: out.append(#""unsupported""#)
            }
        }
        out.append(#"},"timestamp":"#)
        guard writeNumber(message.timestamp, to: &out) else { return nil }
        switch message.type {
        case .request: out.append(#","type":"request","version":"#)
        case .response: out.append(#","type":"response","version":"#)
        case .event: out.append(#","type":"event","version":"#)
        }
        out.appendString(message.version)
        out.append(UInt8(ascii: "}"))
        return out.data()
    }

    /// Deeper values go to the encoder (which has its own limits).
    private static let maxDepth = 64

    private static func writeValue(_ value: JSONValue, to out: inout JSONByteOutput, depth: Int) -> Bool {
        switch value {
        case .string(let text):
            out.appendString(text)
        case .number(let number):
            return writeNumber(number, to: &out)
        case .bool(let flag):
            if flag { out.append("true") } else { out.append("false") }
        case .null:
            out.append("null")
        case .object(let fields):
            return writeObject(fields, to: &out, depth: depth + 1)
        case .array(let elements):
            guard depth < maxDepth else { return false }
            out.append(UInt8(ascii: "["))
            var first = true
            for element in elements {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                guard writeValue(element, to: &out, depth: depth + 1) else { return false }
            }
            out.append(UInt8(ascii: "]"))
        }
        return true
    }

    private static func writeObject(_ fields: [String: JSONValue], to out: inout JSONByteOutput, depth: Int) -> Bool {
        guard depth < maxDepth else { return false }
        if fields.isEmpty {
            out.append("{}")
            return true
        }
        if fields.count <= maxPackedMembers, let written = writeObjectOfShortKeys(fields, to: &out, depth: depth) {
            return written
        }
        // `<` orders ASCII strings by their bytes, and a key that is not ASCII is refused below.
        let entries = fields.sorted { $0.key < $1.key }
        for entry in entries {
            guard isPlainKey(entry.key) else { return false }
        }
        for index in entries.indices.dropFirst() {
            guard foldedPrecedes(entries[index - 1].key, entries[index].key) else { return false }
        }
        out.append(UInt8(ascii: "{"))
        var first = true
        for entry in entries {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out.appendString(entry.key)
            out.append(UInt8(ascii: ":"))
            guard writeValue(entry.value, to: &out, depth: depth) else { return false }
        }
        out.append(UInt8(ascii: "}"))
        return true
    }

    /// The most members an object may have to be written by ``writeObjectOfShortKeys(_:to:depth:)``
    /// (its members are sorted by insertion, on the stack).
    private static let maxPackedMembers = 32

    /// A member of an object whose key is packed: where it is in the dictionary.
    private struct PackedMember {
        var key: PackedJSONKey
        var index: Dictionary<String, JSONValue>.Index
    }

    /// ``writeObject(_:to:depth:)`` for an object whose keys are all at most 16 bytes (nearly
    /// every one): each key is read once, packed (``PackedJSONKey``), and sorted, checked and
    /// written as two words. `nil` when a key is longer: the object is then written the general
    /// way, with the same result.
    private static func writeObjectOfShortKeys(_ fields: [String: JSONValue], to out: inout JSONByteOutput, depth: Int) -> Bool? {
        withUnsafeTemporaryAllocation(of: PackedMember.self, capacity: fields.count) { members -> Bool? in
            guard let first = members.baseAddress else { return nil }
            var sorted = 0
            defer { first.deinitialize(count: sorted) }
            var index = fields.startIndex
            while index != fields.endIndex {
                guard let key = PackedJSONKey(fields.keys[index]) else { return nil }
                guard key.isPlain else { return false }
                // Inserted in byte order.
                var position = sorted
                while position > 0, key.precedes(first[position - 1].key) { position -= 1 }
                (first + position + 1).moveInitialize(from: first + position, count: sorted - position)
                (first + position).initialize(to: PackedMember(key: key, index: index))
                sorted += 1
                fields.formIndex(after: &index)
            }
            for position in 1..<sorted where !first[position - 1].key.foldedPrecedes(first[position].key) {
                return false
            }
            out.append(UInt8(ascii: "{"))
            for position in 0..<sorted {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                let member = first[position]
                if member.key.needsEscape {
                    out.appendString(fields.keys[member.index])
                } else {
                    out.appendQuoted(member.key)
                }
                out.append(UInt8(ascii: ":"))
                guard writeValue(fields.values[member.index], to: &out, depth: depth) else { return false }
            }
            out.append(UInt8(ascii: "}"))
            return true
        }
    }

    /// ASCII, no digits: keys whose order is the same under every platform's comparison.
    private static func isPlainKey(_ key: String) -> Bool {
        var key = key
        return key.withUTF8 { bytes in
            for byte in bytes where byte >= 0x80 || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) {
                return false
            }
            return true
        }
    }

    /// Whether the ASCII key `left` sorts strictly before `right` with letters folded to lower
    /// case and with them folded to upper case: keys that sort the same by bytes and folded both
    /// ways sort the same however a platform ignores case.
    ///
    /// Two ASCII bytes fold to the same byte in one case exactly when they do in the other, so one
    /// pass finds where both foldings first differ, and that pair of bytes (or the lengths, when
    /// one key folds to the start of the other) decides both.
    private static func foldedPrecedes(_ left: String, _ right: String) -> Bool {
        var left = left
        var right = right
        return left.withUTF8 { left in
            right.withUTF8 { right in
                let common = min(left.count, right.count)
                var index = 0
                while index < common {
                    let lower = (Self.lowercased(left[index]), Self.lowercased(right[index]))
                    if lower.0 != lower.1 {
                        return lower.0 < lower.1 && Self.uppercased(left[index]) < Self.uppercased(right[index])
                    }
                    index += 1
                }
                return left.count < right.count
            }
        }
    }

    @inline(__always)
    private static func lowercased(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }

    @inline(__always)
    private static func uppercased(_ byte: UInt8) -> UInt8 { byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte }

    /// Whole numbers under 10^15 in size, written as integers (as `JSONEncoder` writes them).
    private static func writeNumber(_ number: Double, to out: inout JSONByteOutput) -> Bool {
        guard number.isFinite, number.rounded(.towardZero) == number, abs(number) < 1e15,
            !(number == 0 && number.sign == .minus)
        else { return false }
        out.appendInteger(Int64(number))
        return true
    }
}
