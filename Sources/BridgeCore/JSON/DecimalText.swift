/// Integers written as decimal text straight into memory, as `String(value)` writes them: the
/// one digit writer of the package's byte-level JSON writers (BridgeCore's `BridgeMessageWriter`
/// and the inspector agent's traffic frame), which write into buffers of their own and would
/// otherwise each make a `String` per number.
///
/// ```swift
/// var digits = [UInt8](repeating: 0, count: DecimalText.maxBytes)
/// let count = digits.withUnsafeMutableBufferPointer { buffer in
///     buffer.baseAddress.map { DecimalText.write(-42, to: $0) } ?? 0
/// }
/// // digits[..<count] is "-42"
/// ```
package enum DecimalText {
    /// The most bytes an `Int64` takes in decimal (a sign and 19 digits): the room to make before
    /// ``write(_:to:)``.
    package static let maxBytes = 20

    /// Writes `value` in decimal at `destination`, which must have room for ``maxBytes``, and
    /// returns how many bytes it took. The digits are counted first and then written from the
    /// last, two at a time.
    @inlinable
    package static func write(_ value: Int64, to destination: UnsafeMutablePointer<UInt8>) -> Int {
        var magnitude = value.magnitude
        var digits = 1
        var bound: UInt64 = 10
        while magnitude >= bound {
            digits += 1
            // 10^19 is the largest power of ten a UInt64 holds; past it every magnitude has 20 digits.
            guard digits < 20 else { break }
            bound &*= 10
        }
        var start = destination
        if value < 0 {
            destination[0] = UInt8(ascii: "-")
            start += 1
        }
        let pairs = digitPairs.utf8Start
        var index = digits
        while magnitude >= 100 {
            let pair = Int(truncatingIfNeeded: magnitude % 100) &* 2
            magnitude /= 100
            index -= 2
            start[index] = pairs[pair]
            start[index + 1] = pairs[pair + 1]
        }
        if magnitude >= 10 {
            let pair = Int(truncatingIfNeeded: magnitude) &* 2
            start[0] = pairs[pair]
            start[1] = pairs[pair + 1]
        } else {
            start[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude)
        }
        return digits + (value < 0 ? 1 : 0)
    }

    /// "00", "01", … "99", one after the other.
    @usableFromInline
    static var digitPairs: StaticString {
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
    }
}
