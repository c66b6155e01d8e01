@testable import BridgeCore
import Foundation

/// The byte-at-a-time `BridgeMessageWriter` as it was before issue 30 made it fast, kept word for
/// word so that `BridgeMessageWriterEquivalenceTests` can check the fast writer writes the same
/// bytes, and refuses the same messages, on any input.
enum BridgeMessageWriterReference {
    /// The message's JSON, or `nil` when it is not one the writer takes.
    static func json(_ message: BridgeMessage) -> Data? {
        guard message.payload.error == nil else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(256)
        // The message's and the payload's keys, in sorted order.
        out.append(contentsOf: #"{"correlationId":"#.utf8)
        writeString(message.correlationId, to: &out)
        out.append(contentsOf: #","payload":{"action":"#.utf8)
        writeString(message.payload.action, to: &out)
        if let data = message.payload.data {
            out.append(contentsOf: #","data":"#.utf8)
            guard writeObject(data, to: &out, depth: 1) else { return nil }
        }
        if let status = message.payload.status {
            out.append(contentsOf: #","status":"#.utf8)
            writeString(status.rawValue, to: &out)
        }
        out.append(contentsOf: #"},"timestamp":"#.utf8)
        guard writeNumber(message.timestamp, to: &out) else { return nil }
        out.append(contentsOf: #","type":"#.utf8)
        writeString(message.type.rawValue, to: &out)
        out.append(contentsOf: #","version":"#.utf8)
        writeString(message.version, to: &out)
        out.append(UInt8(ascii: "}"))
        return Data(out)
    }

    /// Deeper values go to the encoder (which has its own limits).
    private static let maxDepth = 64

    private static func writeValue(_ value: JSONValue, to out: inout [UInt8], depth: Int) -> Bool {
        switch value {
        case .string(let text):
            writeString(text, to: &out)
        case .number(let number):
            return writeNumber(number, to: &out)
        case .bool(let flag):
            out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .null:
            out.append(contentsOf: "null".utf8)
        case .object(let fields):
            return writeObject(fields, to: &out, depth: depth + 1)
        case .array(let elements):
            guard depth < maxDepth else { return false }
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                guard writeValue(element, to: &out, depth: depth + 1) else { return false }
            }
            out.append(UInt8(ascii: "]"))
        }
        return true
    }

    private static func writeObject(_ fields: [String: JSONValue], to out: inout [UInt8], depth: Int) -> Bool {
        guard depth < maxDepth else { return false }
        let keys = fields.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var previous: String?
        for key in keys {
            guard isPlainKey(key) else { return false }
            if let previous, !foldedPrecedes(previous, key, lower: true) || !foldedPrecedes(previous, key, lower: false) {
                return false
            }
            previous = key
        }
        out.append(UInt8(ascii: "{"))
        for (index, key) in keys.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            writeString(key, to: &out)
            out.append(UInt8(ascii: ":"))
            guard let value = fields[key], writeValue(value, to: &out, depth: depth) else { return false }
        }
        out.append(UInt8(ascii: "}"))
        return true
    }

    /// ASCII, no digits: keys whose order is the same under every platform's comparison.
    private static func isPlainKey(_ key: String) -> Bool {
        key.utf8.allSatisfy { $0 < 0x80 && !($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) }
    }

    /// Whether `left` sorts strictly before `right` with ASCII letters folded to lower (or upper)
    /// case: keys that sort the same by bytes and folded both ways sort the same however a
    /// platform ignores case.
    private static func foldedPrecedes(_ left: String, _ right: String, lower: Bool) -> Bool {
        func fold(_ byte: UInt8) -> UInt8 {
            if lower { return byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }
            return byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte
        }
        return left.utf8.lazy.map(fold).lexicographicallyPrecedes(right.utf8.lazy.map(fold))
    }

    /// Whole numbers under 10^15 in size, written as integers (as `JSONEncoder` writes them).
    private static func writeNumber(_ number: Double, to out: inout [UInt8]) -> Bool {
        guard number.isFinite, number.rounded(.towardZero) == number, abs(number) < 1e15,
            !(number == 0 && number.sign == .minus)
        else { return false }
        out.append(contentsOf: String(Int64(number)).utf8)
        return true
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A JSON string as `JSONEncoder` writes it: `"` and `\` escaped, the control characters
    /// as `\b \f \n \r \t` or `\u00xx`, everything else (`/`, DEL, non-ASCII) as it is.
    private static func writeString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case 0x08: out.append(contentsOf: #"\b"#.utf8)
            case 0x0C: out.append(contentsOf: #"\f"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20:
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            default:
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
