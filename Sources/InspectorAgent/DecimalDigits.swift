import BridgeCore

/// The decimal text of one number, kept from one frame to the next, so that the next frame's
/// number (the next sequence number, a clock a few milliseconds on) is had by adding the step to
/// the few digits it changes instead of writing every digit again: writing a frame's numbers
/// digit by digit was about a tenth of the agent's work per message.
///
/// ``write(_:to:)`` writes exactly what `DecimalText.write(_:to:)` writes for any value; it only
/// takes the shortcut for a value at most ``largestStep`` above the last one, both not negative
/// (checked each, as the step wraps around from `Int64.max` to `Int64.min`),
/// and writes the text afresh otherwise (a first value, a jump, a number that gains a digit).
struct DecimalDigits {
    /// The number the text is of.
    private var value: Int64 = 0
    /// How many bytes of ``digits`` the text takes.
    private var count = 1
    /// The text, most significant digit first, in its first ``count`` bytes (room for
    /// `DecimalText.maxBytes`, 20).
    private var digits: (UInt64, UInt64, UInt64) = (UInt64(UInt8(ascii: "0")), 0, 0)

    /// The largest step added to the text; a larger one (or a step back) writes it afresh.
    static let largestStep: Int64 = 9_999

    /// Writes `newValue` in decimal at `destination`, which must have room for
    /// `DecimalText.maxBytes`, and returns how many bytes it took; keeps the text for the next call.
    mutating func write(_ newValue: Int64, to destination: UnsafeMutablePointer<UInt8>) -> Int {
        let step = newValue &- value
        if _slowPath(value < 0 || newValue < 0 || step < 0 || step > Self.largestStep || !advance(by: step)) {
            count = withUnsafeMutableBytes(of: &digits) { text in
                guard let start = text.baseAddress else { return 0 }
                return DecimalText.write(newValue, to: start.assumingMemoryBound(to: UInt8.self))
            }
        }
        value = newValue
        let count = count
        withUnsafeBytes(of: &digits) { text in
            guard let start = text.baseAddress else { return }
            UnsafeMutableRawPointer(destination).copyMemory(from: start, byteCount: count)
        }
        return count
    }

    /// Adds `step` (0 to ``largestStep``) to the text of a number not negative, digit by digit
    /// from the last. Returns `false`, the text then partly changed, when the sum has more digits
    /// than the text: the caller writes it afresh.
    private mutating func advance(by step: Int64) -> Bool {
        guard step > 0 else { return true }
        let count = count
        return withUnsafeMutableBytes(of: &digits) { text -> Bool in
            var carry = Int(truncatingIfNeeded: step)
            var index = count - 1
            while carry > 0 {
                guard index >= 0 else { return false }
                let sum = Int(text[index] &- UInt8(ascii: "0")) &+ carry % 10
                carry /= 10
                if sum >= 10 {
                    text[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: sum &- 10)
                    carry &+= 1
                } else {
                    text[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: sum)
                }
                index -= 1
            }
            return true
        }
    }
}
