import BridgeCore
import Foundation

/// Builds compact JSON text byte by byte, fast, and splices in JSON the caller already has.
///
/// The agent uses it to forward a message's bytes as they are, instead of decoding and
/// re-encoding payloads it already holds as JSON:
///
/// ```swift
/// var writer = JSONWriter()
/// writer.objectStart()
/// writer.key("seq"); writer.number(42)
/// writer.key("message"); writer.rawJSON(messageBytes)   // spliced verbatim
/// writer.objectEnd()
/// writer.newline()
/// ```
///
/// The writer inserts commas itself; keys and values must alternate inside objects.
public struct JSONWriter: Sendable {
    /// The text written so far.
    public private(set) var bytes: [UInt8] = []
    private var needsComma: [Bool] = [false]

    /// Creates an empty writer with room for `capacity` bytes.
    public init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// The text as `Data`.
    public var data: Data { Data(bytes) }

    private mutating func separate() {
        if needsComma[needsComma.count - 1] { bytes.append(UInt8(ascii: ",")) }
        needsComma[needsComma.count - 1] = true
    }

    /// Starts an object (as a value).
    public mutating func objectStart() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma.append(false)
    }

    /// Ends the innermost object.
    public mutating func objectEnd() {
        if needsComma.count > 1 { needsComma.removeLast() }
        bytes.append(UInt8(ascii: "}"))
    }

    /// Starts an array (as a value).
    public mutating func arrayStart() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma.append(false)
    }

    /// Ends the innermost array.
    public mutating func arrayEnd() {
        if needsComma.count > 1 { needsComma.removeLast() }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Writes an object key; the next call writes its value.
    public mutating func key(_ name: String) {
        separate()
        appendEscaped(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma[needsComma.count - 1] = false
    }

    /// Writes a string value.
    public mutating func string(_ value: String) {
        separate()
        appendEscaped(value)
    }

    /// Writes a string value, or `null`.
    public mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    /// Writes an integer value.
    public mutating func number(_ value: Int) {
        separate()
        appendDecimal(Int64(value))
    }

    /// Writes a number value; non-finite numbers become `null`, integral ones have no fraction.
    public mutating func number(_ value: Double) {
        separate()
        if !value.isFinite {
            bytes.append(contentsOf: "null".utf8)
        } else if value == value.rounded(), abs(value) < 1e15 {
            appendDecimal(Int64(value))
        } else {
            bytes.append(contentsOf: String(value).utf8)
        }
    }

    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// Writes `null`.
    public mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
    }

    /// Writes a ``JSONValue``-shaped value given as valid JSON text, verbatim.
    ///
    /// Raw line breaks (which valid JSON only has as whitespace) become spaces, so the result
    /// stays on one line.
    public mutating func rawJSON(_ json: Data) {
        separate()
        let start = bytes.count
        bytes.append(contentsOf: json)
        if json.contains(0x0A) || json.contains(0x0D) {
            for index in start..<bytes.count where bytes[index] == 0x0A || bytes[index] == 0x0D {
                bytes[index] = 0x20
            }
        }
    }

    /// Writes a parsed value, each object's keys in sorted order, so the same value always
    /// reads the same (a ``BridgeCore/JSONValue`` object keeps no order of its own).
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .string(let text): string(text)
        case .number(let number): self.number(number)
        case .bool(let flag): bool(flag)
        case .null: null()
        case .array(let elements):
            arrayStart()
            for element in elements { self.value(element) }
            arrayEnd()
        case .object(let members):
            objectStart()
            for name in members.keys.sorted() {
                key(name)
                self.value(members[name] ?? .null)
            }
            objectEnd()
        }
    }

    /// Writes JSON this program encoded itself (one line, valid), without scanning it.
    public mutating func splice(_ json: [UInt8]) {
        separate()
        bytes.append(contentsOf: json)
    }

    /// Writes JSON this program encoded itself (one line, valid), without scanning it: part of
    /// a longer text, such as a record inside the event frame it was written in.
    public mutating func splice(_ json: ArraySlice<UInt8>) {
        separate()
        bytes.append(contentsOf: json)
    }

    /// Writes valid one-line JSON the caller holds as bytes, without scanning it (a message's
    /// text, once the caller made sure it has no raw line break).
    public mutating func splice(_ json: UnsafeRawBufferPointer) {
        separate()
        json.withMemoryRebound(to: UInt8.self) { bytes.append(contentsOf: $0) }
    }

    /// Ends a frame.
    public mutating func newline() {
        bytes.append(0x0A)
    }

    /// Appends `value` in decimal, as `String(value)` writes it, without making a string.
    private mutating func appendDecimal(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        if magnitude < 10 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude))
            return
        }
        // Twenty digits hold any UInt64; they are written from the end.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var index = 20
            while magnitude > 0 {
                index -= 1
                digits[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[index..<20]))
        }
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// Whether a byte of UTF-8 text is written escaped: quote, backslash, control characters
    /// and DEL. Every other byte, non-ASCII included, is copied as it is.
    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F
    }

    /// Appends `text` as a JSON string: runs of bytes that need no escape are copied at once.
    private mutating func appendEscaped(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            var index = 0
            let count = utf8.count
            while index < count {
                let byte = utf8[index]
                guard Self.needsEscape(byte) else {
                    index += 1
                    continue
                }
                if runStart < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
                appendEscape(byte)
                index += 1
                runStart = index
            }
            if runStart < count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<count])) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends the escape of one byte that ``needsEscape(_:)``.
    private mutating func appendEscape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
        case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
        case 0x0A: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "t"))
        default:
            bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            bytes.append(Self.hex[Int(byte >> 4)])
            bytes.append(Self.hex[Int(byte & 0x0F)])
        }
    }
}
