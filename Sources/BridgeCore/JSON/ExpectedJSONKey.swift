/// One object key as a writer puts it in compact text, `"name":`, held as two little-endian words
/// and masks, so that ``JSONParser/readObject(depth:keys:member:)`` tells whether the key it
/// expects next is the one at hand with two loads and two comparisons: no scan for the closing
/// quote, no search of the key set (issue 30).
///
/// Only a name of printable ASCII without `"` or `\` has one (then `"name":` in the text is that
/// key and nothing else, as the full parser reads it), and only up to 13 bytes, so that the
/// quotes and colon fit two words. A quoted string value (``init(quoting:then:)``) is held the
/// same way.
struct ExpectedJSONKey: Sendable {
    /// Bytes 0 to 7 of `"name":`, the first in the lowest bits; zero past the end.
    let first: UInt64
    /// Which bits of ``first`` are the key's.
    let firstMask: UInt64
    /// Bytes 8 to 15.
    let second: UInt64
    /// Which bits of ``second`` are the key's.
    let secondMask: UInt64
    /// The length of `"name":` in bytes.
    let length: Int

    /// `"name":` for `name`, or `nil` when `name` is longer than 13 bytes or holds a
    /// byte other than printable ASCII, `"` or `\` (read the general way).
    init?(_ name: [UInt8]) {
        self.init(quoting: name, then: [UInt8(ascii: ":")])
    }

    /// `"name"` followed by `suffix` (for a string value, none), or `nil` as ``init(_:)`` says,
    /// or when it all is longer than 16 bytes.
    init?(quoting name: [UInt8], then suffix: [UInt8]) {
        guard name.count + suffix.count <= 14,
            name.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") })
        else { return nil }
        let text = [UInt8(ascii: "\"")] + name + [UInt8(ascii: "\"")] + suffix
        var words: [UInt64] = [0, 0]
        var masks: [UInt64] = [0, 0]
        for (offset, byte) in text.enumerated() {
            words[offset / 8] |= UInt64(byte) << UInt64(8 * (offset % 8))
            masks[offset / 8] |= 0xFF << UInt64(8 * (offset % 8))
        }
        first = words[0]
        firstMask = masks[0]
        second = words[1]
        secondMask = masks[1]
        length = text.count
    }

    /// Whether the 16 bytes at `start` begin with `"name":`; the caller makes sure 16 bytes are there.
    @inline(__always)
    func isAt(_ start: UnsafePointer<UInt8>) -> Bool {
        let raw = UnsafeRawPointer(start)
        let low = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
        let high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        return (low & firstMask) == first && (high & secondMask) == second
    }
}

/// A string value a reader usually meets (a message's version, `"1.0"`), for
/// ``JSONParser/readString(usually:)``: found by comparing its quoted bytes at once, and given as
/// this one `String` rather than a new one made from the text each time (issue 30).
package struct ExpectedJSONString: Sendable {
    /// The value.
    let value: String
    /// The value quoted, as it stands in the text; `nil` when it cannot be held so (then it is
    /// never found, and every string is read the general way).
    let text: ExpectedJSONKey?

    /// `value`; found only when it is at most 14 bytes of printable ASCII without `"` or `\`.
    package init(_ value: String) {
        self.value = value
        text = ExpectedJSONKey(quoting: Array(value.utf8), then: [])
    }
}
