/// An object key of at most 16 bytes held as two big-endian words (its UTF-8 bytes, then zeros)
/// and its length, so that ``BridgeMessageWriter`` checks, sorts and compares the usual short
/// keys with a few integer operations, reading each key's bytes once.
///
/// Comparing (``high``, ``low``, ``length``) in that order is comparing the bytes: where the
/// padded words differ, they differ at the first differing byte (a missing byte counts as zero,
/// below any byte that differs from it); where they do not, the shorter key is the other's start.
/// The letter and digit tests work on all eight bytes of a word at once and are exact for ASCII
/// bytes, the only ones they are asked about (each sum stays below 0x100, so nothing carries into
/// the next byte).
struct PackedJSONKey {
    /// The longest key packed.
    static let capacity = 16

    /// Bytes 0 to 7, the first the most significant.
    let high: UInt64
    /// Bytes 8 to 15.
    let low: UInt64
    /// The key's length in bytes.
    let length: Int

    /// The key packed, or `nil` when it is longer than ``capacity`` bytes.
    init?(_ key: String) {
        var key = key
        guard
            let packed = key.withUTF8({ bytes -> (UInt64, UInt64, Int)? in
                guard bytes.count <= Self.capacity else { return nil }
                var words: (UInt64, UInt64) = (0, 0)
                withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
                return (UInt64(bigEndian: words.0), UInt64(bigEndian: words.1), bytes.count)
            })
        else { return nil }
        (high, low, length) = packed
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// ASCII without digits: the keys whose order is the same under every platform's comparison.
    var isPlain: Bool {
        guard (high | low) & Self.highBits == 0 else { return false }
        return Self.bytes(of: high, from: 0x30, through: 0x39) | Self.bytes(of: low, from: 0x30, through: 0x39) == 0
    }

    /// Whether a byte of the (ASCII) key is written escaped: `"`, `\` or a control character.
    var needsEscape: Bool {
        // The padding's zeros would count as control characters: only the key's bytes are asked.
        // The masks keep the key's bytes of each word (the first the most significant); the
        // shifts are masking ones (`&>>`), each amount below 64 where it is used.
        let highMask: UInt64 = length >= 8 ? ~0 : ~(~0 &>> UInt64(8 &* length))
        let lowMask: UInt64 = length <= 8 ? 0 : length >= 16 ? ~0 : ~(~0 &>> UInt64(8 &* (length &- 8)))
        return (Self.escapedBytes(high) & highMask) | (Self.escapedBytes(low) & lowMask) != 0
    }

    /// Whether this key's bytes sort before `other`'s.
    @inline(__always)
    func precedes(_ other: PackedJSONKey) -> Bool {
        (high, low, length) < (other.high, other.low, other.length)
    }

    /// Whether this (ASCII) key sorts strictly before `other` with letters folded to lower case
    /// and with them folded to upper case: keys that sort the same by bytes and folded both ways
    /// sort the same however a platform ignores case.
    @inline(__always)
    func foldedPrecedes(_ other: PackedJSONKey) -> Bool {
        (Self.lowercased(high), Self.lowercased(low), length) < (Self.lowercased(other.high), Self.lowercased(other.low), other.length)
            && (Self.uppercased(high), Self.uppercased(low), length)
                < (Self.uppercased(other.high), Self.uppercased(other.low), other.length)
    }

    /// The high bit of each ASCII byte of `word` from `first` through `last` (both below 0x80).
    @inline(__always)
    private static func bytes(of word: UInt64, from first: UInt8, through last: UInt8) -> UInt64 {
        let atLeastFirst = word &+ ones &* UInt64(0x80 - first)
        let aboveLast = word &+ ones &* UInt64(0x7F - last)
        return atLeastFirst & ~aboveLast & highBits
    }

    /// The high bit of each ASCII byte of `word` that is `"`, `\` or below 0x20.
    @inline(__always)
    private static func escapedBytes(_ word: UInt64) -> UInt64 {
        let control = ~(word &+ ones &* 0x60) & highBits
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        return control | (~(quote &+ ones &* 0x7F) & highBits) | (~(backslash &+ ones &* 0x7F) & highBits)
    }

    /// `word` (ASCII) with `A`-`Z` made `a`-`z`.
    @inline(__always)
    private static func lowercased(_ word: UInt64) -> UInt64 {
        word | (bytes(of: word, from: 0x41, through: 0x5A) >> 2)
    }

    /// `word` (ASCII) with `a`-`z` made `A`-`Z`.
    @inline(__always)
    private static func uppercased(_ word: UInt64) -> UInt64 {
        word & ~(bytes(of: word, from: 0x61, through: 0x7A) >> 2)
    }
}
