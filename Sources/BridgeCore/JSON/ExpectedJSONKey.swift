/// One object key as a writer puts it in compact text, `"name":`, held as two little-endian words
/// and masks, so that ``JSONParser/readObject(depth:keys:member:)`` tells whether the key it
/// expects next is the one at hand with two loads and two comparisons: no scan for the closing
/// quote, no search of the key set (issue 30).
///
/// Only a name of printable ASCII without `"` or `\` has one (then `"name":` in the text is that
/// key and nothing else, as the full parser reads it), and only up to ``maximumNameLength`` bytes,
/// so that the quotes and colon fit two words.
struct ExpectedJSONKey: Sendable {
    /// The longest name held: 16 bytes less the two quotes and the colon.
    static let maximumNameLength = 13

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

    /// `"name":` for `name`, or `nil` when `name` is longer than ``maximumNameLength`` or holds a
    /// byte other than printable ASCII, `"` or `\` (read the general way).
    init?(_ name: [UInt8]) {
        guard name.count <= Self.maximumNameLength,
            name.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") })
        else { return nil }
        let text = [UInt8(ascii: "\"")] + name + [UInt8(ascii: "\""), UInt8(ascii: ":")]
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
