import Foundation

/// The bytes ``BridgeMessageWriter`` writes a message into: one growing buffer written through a
/// pointer, with runs of plain bytes copied at once, handed over as `Data` without a copy.
///
/// Noncopyable, so the buffer has one owner: it is freed when the output is dropped (a message the
/// writer gives up on half way) or owned by the `Data` that ``data()`` returns.
///
/// ```swift
/// var out = JSONByteOutput(capacity: 256)
/// out.append("{\"key\":")
/// out.appendString("value")
/// out.append(UInt8(ascii: "}"))
/// let json = out.data()
/// ```
struct JSONByteOutput: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int

    /// An empty output with room for `capacity` bytes before it grows.
    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes written, as `Data` owning the buffer (trimmed first when much of it is unused,
    /// so a large message does not hold on to twice its size).
    consuming func data() -> Data {
        var pointer = base
        let count = self.count
        if capacity - count > max(4096, count / 4) {
            let trimmed = UnsafeMutablePointer<UInt8>.allocate(capacity: max(count, 1))
            trimmed.update(from: pointer, count: count)
            pointer.deallocate()
            pointer = trimmed
        }
        discard self
        guard count > 0 else {
            pointer.deallocate()
            return Data()
        }
        return Data(bytesNoCopy: pointer, count: count, deallocator: .custom { bytes, _ in bytes.deallocate() })
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if capacity - count < extra { grow(extra) }
    }

    /// Moves the bytes to a buffer with room for `extra` more: at least twice the size, so that
    /// appending stays linear.
    private mutating func grow(_ extra: Int) {
        let needed = count + extra
        let newCapacity = max(capacity * 2, needed + 256)
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        larger.update(from: base, count: count)
        base.deallocate()
        base = larger
        capacity = newCapacity
    }

    /// Appends one byte.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// Appends the text of a literal as it is (the writer's punctuation and field names).
    @inline(__always)
    mutating func append(_ text: StaticString) {
        let length = text.utf8CodeUnitCount
        reserve(length)
        (base + count).update(from: text.utf8Start, count: length)
        count += length
    }

    /// Appends `value` in decimal, as `String(value)` writes it.
    mutating func appendInteger(_ value: Int64) {
        reserve(DecimalText.maxBytes)
        count += DecimalText.write(value, to: base + count)
    }

    /// Appends `text` as a JSON string, as `JSONEncoder` writes it: `"` and `\` escaped, the
    /// control characters as `\b \f \n \r \t` or `\u00xx`, everything else (`/`, DEL, non-ASCII)
    /// as it is.
    mutating func appendString(_ text: String) {
        // A native string's bytes are read where they lie (no copy of the string to make them
        // contiguous, which cost a retain and a release for each one written).
        if text.utf8.withContiguousStorageIfAvailable({ appendString(utf8: $0) }) != nil { return }
        var text = text
        text.withUTF8 { appendString(utf8: $0) }
    }

    /// ``appendString(_:)`` for the string's UTF-8 bytes: eight at a time while none of them
    /// needs an escape, one at a time in a word where one does. The last few (fewer than eight)
    /// are gathered into one word and written at once too when none needs an escape (most keys
    /// and values are short: byte by byte, they cost more than the rest of the string).
    private mutating func appendString(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        let length = bytes.count
        // The quotes, and room to store the last word whole (its bytes past the string's are
        // written over next).
        reserve(length + 2 + 8)
        base[count] = UInt8(ascii: "\"")
        count += 1
        if let source = bytes.baseAddress {
            var index = 0
            while index + 8 <= length {
                let word = UnsafeRawPointer(source + index).loadUnaligned(as: UInt64.self)
                if Self.escapedBytes(UInt64(littleEndian: word)) == 0 {
                    storeWord(word)
                    count += 8
                    index += 8
                    continue
                }
                for _ in 0..<8 {
                    appendEscaping(source[index], remaining: length - index)
                    index += 1
                }
            }
            let tail = length - index
            if tail > 0 {
                var word: UInt64 = 0
                for offset in 0..<tail { word |= UInt64(source[index + offset]) &<< UInt64(8 &* offset) }
                // Only the string's bytes are asked: the zeros after them would count as control
                // characters (a byte's mark never reaches an earlier byte).
                let mask: UInt64 = (1 &<< UInt64(8 &* tail)) &- 1
                if Self.escapedBytes(word) & mask == 0 {
                    // The room reserved above for the last word whole is gone if the loop above
                    // escaped anything (an escape takes up to 6 bytes where 1 was counted): only
                    // the rest of the string and the quote are sure to fit, so make room again.
                    reserve(8)
                    storeWord(UInt64(littleEndian: word))
                    count += tail
                    index = length
                }
            }
            while index < length {
                appendEscaping(source[index], remaining: length - index)
                index += 1
            }
        }
        base[count] = UInt8(ascii: "\"")
        count += 1
    }

    /// Stores `word`'s eight bytes at the end, without counting them: the caller counts those it
    /// meant, and the rest are written over next. Room for all eight must have been made; a debug
    /// build checks it, so a test that writes every shape of string at every fill catches a
    /// store past the buffer.
    @inline(__always)
    private mutating func storeWord(_ word: UInt64) {
        assert(capacity - count >= 8, "JSONByteOutput: a whole-word store past the buffer")
        UnsafeMutableRawPointer(base + count).storeBytes(of: word, as: UInt64.self)
    }

    /// Appends one byte of a string, escaped if it must be; `remaining` counts it and the bytes
    /// after it, for which (and the closing quote) room was reserved unescaped.
    @inline(__always)
    private mutating func appendEscaping(_ byte: UInt8, remaining: Int) {
        guard Self.needsEscape(byte) else {
            base[count] = byte
            count += 1
            return
        }
        reserve(6 + remaining)
        appendEscape(byte)
    }

    /// Appends a packed key (``PackedJSONKey``) that needs no escape, in quotes.
    @inline(__always)
    mutating func appendQuoted(_ key: PackedJSONKey) {
        // Both words are stored whole; the bytes past the key's are written over next.
        reserve(PackedJSONKey.capacity + 2)
        base[count] = UInt8(ascii: "\"")
        UnsafeMutableRawPointer(base + count + 1).storeBytes(of: key.high.bigEndian, as: UInt64.self)
        UnsafeMutableRawPointer(base + count + 9).storeBytes(of: key.low.bigEndian, as: UInt64.self)
        count += 1 + key.length
        base[count] = UInt8(ascii: "\"")
        count += 1
    }

    /// Whether `byte` is written as an escape: `"`, `\` and the control characters.
    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// The high bit set in every byte of `word` that ``needsEscape(_:)``, and perhaps in later
    /// ones (a borrow): the lowest set bit marks the first such byte exactly. Bytes from 0x80
    /// up (UTF-8 beyond ASCII) are never marked.
    @inline(__always)
    private static func escapedBytes(_ word: UInt64) -> UInt64 {
        JSONParser.escapedBytes(word)
    }

    private static let hexDigits: StaticString = "0123456789abcdef"

    /// Appends the escape of a byte that ``needsEscape(_:)`` (room for six bytes is reserved).
    private mutating func appendEscape(_ byte: UInt8) {
        let short: UInt8
        switch byte {
        case UInt8(ascii: "\""): short = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): short = UInt8(ascii: "\\")
        case 0x08: short = UInt8(ascii: "b")
        case 0x0C: short = UInt8(ascii: "f")
        case 0x0A: short = UInt8(ascii: "n")
        case 0x0D: short = UInt8(ascii: "r")
        case 0x09: short = UInt8(ascii: "t")
        default:
            let hex = Self.hexDigits.utf8Start
            base[count] = UInt8(ascii: "\\")
            base[count + 1] = UInt8(ascii: "u")
            base[count + 2] = UInt8(ascii: "0")
            base[count + 3] = UInt8(ascii: "0")
            base[count + 4] = hex[Int(byte >> 4)]
            base[count + 5] = hex[Int(byte & 0x0F)]
            count += 6
            return
        }
        base[count] = UInt8(ascii: "\\")
        base[count + 1] = short
        count += 2
    }
}
