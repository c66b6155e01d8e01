/// Keeps a page's frame readable when the text it carries holds a lone UTF-16 surrogate.
///
/// A JavaScript string can hold a surrogate code unit with no partner (`"x\uD800y"`), which is not
/// Unicode text. The page's shim wraps what the journey posts in a frame with `JSON.stringify`,
/// which writes such a unit as the escape `\ud800`; the host's JSON parser rightly refuses a lone
/// surrogate escape, so the whole frame, and the journey's message with it, would be refused as
/// "not a JSON object with a kind" and never reach the host's log.
///
/// ``escapingLoneSurrogates(_:)`` turns each lone surrogate escape of the frame into an escaped
/// backslash followed by `u` and the four hex digits: the frame then decodes, and the text it
/// carries holds the six characters `\ud800` where the journey's string held the unit. Handed to
/// the host, that message text fails to decode for what it is ("lone UTF-16 surrogate \ud800 in a
/// string"), and becomes a `malformed` row and `lastError` like any other input that does not
/// decode. Paired surrogates (`\ud83d\ude00`) and every other escape are left as they are.
enum LoneSurrogateEscapes {
    /// The frame with its lone surrogate escapes neutralised, or `nil` when it has none.
    static func escapingLoneSurrogates(_ frame: [UInt8]) -> [UInt8]? {
        var output: [UInt8] = []
        var found = false
        var index = 0
        var copied = 0
        while index < frame.count {
            guard frame[index] == UInt8(ascii: "\\"), index + 1 < frame.count else {
                index += 1
                continue
            }
            guard frame[index + 1] == UInt8(ascii: "u"), let unit = hexUnit(frame, at: index + 2) else {
                // Any other escape, `\\` included, is two bytes that stay as they are.
                index += 2
                continue
            }
            if (0xD800...0xDBFF).contains(unit), index + 7 < frame.count, frame[index + 6] == UInt8(ascii: "\\"),
                frame[index + 7] == UInt8(ascii: "u"), let low = hexUnit(frame, at: index + 8), (0xDC00...0xDFFF).contains(low)
            {
                index += 12
                continue
            }
            if (0xD800...0xDFFF).contains(unit) {
                if !found { output.reserveCapacity(frame.count + 16) }
                found = true
                output.append(contentsOf: frame[copied..<index])
                output.append(UInt8(ascii: "\\"))
                copied = index
            }
            index += 6
        }
        guard found else { return nil }
        output.append(contentsOf: frame[copied...])
        return output
    }

    /// The UTF-16 unit spelled by the four hex digits at `start`, if there are four.
    private static func hexUnit(_ bytes: [UInt8], at start: Int) -> UInt16? {
        guard start + 4 <= bytes.count else { return nil }
        var value: UInt16 = 0
        for byte in bytes[start..<start + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }
}
