/// Checking a value without building it or saying why it is wrong: the parser's grammar, nesting
/// limit, number, string and UTF-8 rules in one tight iterative pass, for text a reader keeps as
/// it is (a message's `payload.data`, decoded later when someone looks) and only has to know is
/// JSON (issue 30).
///
/// It accepts exactly the texts `value(depth:)` accepts and ends at the same byte, but it cannot
/// say where or why a text is wrong: ``JSONSyntaxCheck`` and ``JSONParser/read(_:maxDepth:)``
/// keep the general pass for that. Being iterative, it needs no stack per level; the kinds of the
/// open containers are bits (`ContainerKinds`), at most ``JSONSyntaxCheck/maximumDepth`` of them.
extension JSONParser {
    /// The offset just past the value at `start`, inside a container `depth` levels deep (the
    /// whole text is level 1), when it is JSON that `value(depth:)` accepts there; `nil` when
    /// it refuses it. Nothing is read: `index` does not move.
    ///
    /// ```swift
    /// if let end = parser.checkedEnd(ofValueAt: parser.offset, depth: 2) { /* bytes[offset..<end] are JSON */ }
    /// ```
    func checkedEnd(ofValueAt start: Int, depth: Int) -> Int? {
        guard let base = bytes.baseAddress, start >= 0 else { return nil }
        let end = bytes.count
        // Each open container takes a level past `depth`; beyond what the bits hold (only with
        // a negative `depth`), the limit would not stop the nesting first.
        let room = maxDepth - depth
        if room > ContainerKinds.capacity { return checkedEndGenerally(ofValueAt: start, depth: depth) }
        var kinds = ContainerKinds()
        // How many containers are open, and whether the innermost is an object (its kind is
        // also in `kinds`, for when it closes and the one around it is innermost again).
        var open = 0
        var inObject = false
        var at = start
        nextValue: while true {
            guard at < end else { return nil }
            switch base[at] {
            case UInt8(ascii: "\""):
                guard let next = Self.stringEnd(base, at &+ 1, end) else { return nil }
                at = next
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                guard let next = Self.numberEnd(base, at, end) else { return nil }
                at = next
            case UInt8(ascii: "{"):
                guard open < room else { return nil }
                at = Self.skippingSpace(base, at &+ 1, end)
                if at < end, base[at] == UInt8(ascii: "}") {
                    at &+= 1
                } else {
                    kinds.set(open, object: true)
                    open &+= 1
                    inObject = true
                    guard let next = Self.afterKey(base, at, end) else { return nil }
                    at = next
                    continue nextValue
                }
            case UInt8(ascii: "["):
                guard open < room else { return nil }
                at = Self.skippingSpace(base, at &+ 1, end)
                if at < end, base[at] == UInt8(ascii: "]") {
                    at &+= 1
                } else {
                    kinds.set(open, object: false)
                    open &+= 1
                    inObject = false
                    continue nextValue
                }
            case UInt8(ascii: "t"):
                guard end &- at >= 4, Self.word(base + at) == Self.trueWord else { return nil }
                at &+= 4
            case UInt8(ascii: "f"):
                guard end &- at >= 5, Self.word(base + at + 1) == Self.alseWord else { return nil }
                at &+= 5
            case UInt8(ascii: "n"):
                guard end &- at >= 4, Self.word(base + at) == Self.nullWord else { return nil }
                at &+= 4
            default:
                return nil
            }
            // A value has ended: close the containers it ends, up to a `,` or the value's own end.
            while open > 0 {
                var byte: UInt8 = at < end ? base[at] : 0
                if byte <= 0x20 {
                    at = Self.skippingSpace(base, at, end)
                    byte = at < end ? base[at] : 0
                }
                if byte == UInt8(ascii: ",") {
                    at = Self.skippingSpace(base, at &+ 1, end)
                    if inObject {
                        guard let next = Self.afterKey(base, at, end) else { return nil }
                        at = next
                    }
                    continue nextValue
                }
                guard byte == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { return nil }
                at &+= 1
                open &-= 1
                if open > 0 { inObject = kinds.isObject(open &- 1) }
            }
            return at
        }
    }

    /// `value(depth:)` itself, building nothing: for a nesting room the bits cannot hold.
    private func checkedEndGenerally(ofValueAt start: Int, depth: Int) -> Int? {
        var parser = self
        parser.index = start
        parser.builds = false
        do throws(Failure) { _ = try parser.value(depth: depth) } catch { return nil }
        return parser.index
    }

    /// The kinds of the open containers, innermost last, one bit each: object or array.
    private struct ContainerKinds {
        static let capacity = 256
        private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

        /// Marks the container at `position` (from the outermost, 0) as an object or an array.
        @inline(__always)
        mutating func set(_ position: Int, object: Bool) {
            let bit: UInt64 = 1 << UInt64(position & 63)
            switch position >> 6 {
            case 0: words.0 = object ? words.0 | bit : words.0 & ~bit
            case 1: words.1 = object ? words.1 | bit : words.1 & ~bit
            case 2: words.2 = object ? words.2 | bit : words.2 & ~bit
            default: words.3 = object ? words.3 | bit : words.3 & ~bit
            }
        }

        /// Whether the container at `position` is an object.
        ///
        /// Not inlined: asked only when a container closes, but inlined its words were loaded
        /// before every member's end.
        @inline(never)
        func isObject(_ position: Int) -> Bool {
            let word: UInt64
            switch position >> 6 {
            case 0: word = words.0
            case 1: word = words.1
            case 2: word = words.2
            default: word = words.3
            }
            return word >> UInt64(position & 63) & 1 == 1
        }
    }

    // MARK: Pieces

    /// `true`, `alse` and `null` as the four bytes they are in memory, read as ``word(_:)`` reads them.
    private static let trueWord = UInt32(littleEndian: 0x6575_7274)
    private static let alseWord = UInt32(littleEndian: 0x6573_6C61)
    private static let nullWord = UInt32(littleEndian: 0x6C6C_756E)

    /// The four bytes at `pointer`.
    @inline(__always)
    private static func word(_ pointer: UnsafePointer<UInt8>) -> UInt32 {
        UnsafeRawPointer(pointer).loadUnaligned(as: UInt32.self)
    }

    /// The first offset from `at` on that is not JSON whitespace.
    @inline(__always)
    private static func skippingSpace(_ base: UnsafePointer<UInt8>, _ at: Int, _ end: Int) -> Int {
        var at = at
        while at < end {
            switch base[at] {
            case 0x20, 0x0A, 0x0D, 0x09: at += 1
            default: return at
            }
        }
        return at
    }

    /// After an object key at `at` (its opening quote), its `:` and the whitespace around it:
    /// the offset of the member's value, or `nil` when that is not what is there.
    @inline(__always)
    private static func afterKey(_ base: UnsafePointer<UInt8>, _ at: Int, _ end: Int) -> Int? {
        guard at < end, base[at] == UInt8(ascii: "\""), var at = stringEnd(base, at &+ 1, end) else { return nil }
        if at >= end || base[at] != UInt8(ascii: ":") {
            at = skippingSpace(base, at, end)
            guard at < end, base[at] == UInt8(ascii: ":") else { return nil }
        }
        return skippingSpace(base, at &+ 1, end)
    }

    /// The offset past the closing quote of the string whose bytes start at `at` (after its
    /// opening quote), validated as `string()` validates it; `nil` when it is not a valid string.
    ///
    /// Inlined for the usual string, plain bytes taken eight at a time up to its closing quote;
    /// anything else (an escape, UTF-8, a control byte, the last bytes of the text) is
    /// ``stringEndSlowly(_:_:_:)``'s.
    @inline(__always)
    private static func stringEnd(_ base: UnsafePointer<UInt8>, _ at: Int, _ end: Int) -> Int? {
        var at = at
        while end &- at >= 8 {
            let special = specialBytes(UInt64(littleEndian: UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self)))
            if special == 0 {
                at &+= 8
                continue
            }
            at &+= special.trailingZeroBitCount &>> 3
            if base[at] == UInt8(ascii: "\"") { return at &+ 1 }
            break
        }
        return stringEndSlowly(base, at, end)
    }

    /// ``stringEnd(_:_:_:)`` from a byte that needs a look, or from the last seven bytes of the text.
    @inline(never)
    private static func stringEndSlowly(_ base: UnsafePointer<UInt8>, _ at: Int, _ end: Int) -> Int? {
        var at = at
        while true {
            // Eight bytes at a time, up to the first that ends the string or needs a look.
            if end - at >= 8 {
                let special = specialBytes(UInt64(littleEndian: UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self)))
                if special == 0 {
                    at += 8
                    continue
                }
                at += special.trailingZeroBitCount / 8
            } else if at >= end {
                return nil
            }
            let byte = base[at]
            if byte == UInt8(ascii: "\"") { return at + 1 }
            if byte == UInt8(ascii: "\\") {
                guard let next = escapeEnd(base, at + 1, end) else { return nil }
                at = next
            } else if byte < 0x20 {
                return nil
            } else if byte < 0x80 {
                // Only in the last seven bytes of the text, which are taken one at a time.
                at += 1
            } else {
                guard let next = utf8SequenceEnd(base, at, end) else { return nil }
                at = next
            }
        }
    }

    /// The offset past an escape whose letter is at `at` (after its `\\`): one of `"\\/bfnrt`,
    /// or `u` and four hex digits that are not a lone UTF-16 surrogate.
    private static func escapeEnd(_ base: UnsafePointer<UInt8>, _ at: Int, _ end: Int) -> Int? {
        guard at < end else { return nil }
        switch base[at] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
            UInt8(ascii: "r"), UInt8(ascii: "t"):
            return at + 1
        case UInt8(ascii: "u"):
            guard let code = hex4(base, at + 1, end), !(0xDC00...0xDFFF).contains(code) else { return nil }
            guard (0xD800...0xDBFF).contains(code) else { return at + 5 }
            // A high surrogate: the low half must follow, as `\uDC00` to `\uDFFF`.
            let low = at + 5
            guard end - low >= 6, base[low] == UInt8(ascii: "\\"), base[low + 1] == UInt8(ascii: "u"),
                let second = hex4(base, low + 2, end), (0xDC00...0xDFFF).contains(second)
            else { return nil }
            return low + 6
        default:
            return nil
        }
    }

    /// The four hex digits at `at`, as a number; `nil` when they are not four hex digits.
    @inline(__always)
    private static func hex4(_ base: UnsafePointer<UInt8>, _ at: Int, _ end: Int) -> UInt32? {
        guard end - at >= 4 else { return nil }
        var code: UInt32 = 0
        for offset in 0..<4 {
            let byte = base[at + offset]
            let digit: UInt8
            if byte &- UInt8(ascii: "0") < 10 {
                digit = byte &- UInt8(ascii: "0")
            } else if (byte | 0x20) &- UInt8(ascii: "a") < 6 {
                digit = (byte | 0x20) &- UInt8(ascii: "a") &+ 10
            } else {
                return nil
            }
            code = code << 4 | UInt32(digit)
        }
        return code
    }

    /// The offset past the multi-byte UTF-8 sequence whose lead byte is at `at`, validated as
    /// `utf8Sequence()` validates it: no overlong form, no surrogate, nothing past U+10FFFF.
    private static func utf8SequenceEnd(_ base: UnsafePointer<UInt8>, _ at: Int, _ end: Int) -> Int? {
        let lead = base[at]
        let length: Int
        var minimum: UInt32
        var scalar: UInt32
        switch lead {
        case 0xC2...0xDF: length = 2; scalar = UInt32(lead & 0x1F); minimum = 0x80
        case 0xE0...0xEF: length = 3; scalar = UInt32(lead & 0x0F); minimum = 0x800
        case 0xF0...0xF4: length = 4; scalar = UInt32(lead & 0x07); minimum = 0x10000
        default: return nil
        }
        guard end - at >= length else { return nil }
        for offset in 1..<length {
            let next = base[at + offset]
            guard next & 0xC0 == 0x80 else { return nil }
            scalar = scalar << 6 | UInt32(next & 0x3F)
        }
        if scalar < minimum || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) { return nil }
        return at + length
    }

    /// The offset past the number at `at` (its `-` or first digit), checked as `number()`
    /// checks it: its grammar, and a value a `Double` can hold; `nil` when it is refused.
    ///
    /// Inlined for the usual number, a whole one of up to 308 digits without leading zero
    /// (always finite); anything else is ``numberEndSlowly(_:_:_:)``'s.
    @inline(__always)
    private static func numberEnd(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
        var at = start
        if base[at] == UInt8(ascii: "-") { at &+= 1 }
        if at < end, base[at] &- UInt8(ascii: "1") < 9 {
            let digitsStart = at
            repeat { at &+= 1 } while at < end && base[at] &- UInt8(ascii: "0") < 10
            if at &- digitsStart <= 308, at == end || (base[at] != UInt8(ascii: ".") && base[at] | 0x20 != UInt8(ascii: "e")) {
                return at
            }
        }
        return numberEndSlowly(base, start, end)
    }

    /// ``numberEnd(_:_:_:)`` for any number: its whole grammar, and the exact test of a number
    /// that could be too large.
    @inline(never)
    private static func numberEndSlowly(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
        var at = start
        if base[at] == UInt8(ascii: "-") { at += 1 }
        guard at < end, base[at] &- UInt8(ascii: "0") < 10 else { return nil }
        let integerStart = at
        if base[at] == UInt8(ascii: "0") {
            at += 1
            if at < end, base[at] &- UInt8(ascii: "0") < 10 { return nil }
        } else {
            repeat { at += 1 } while at < end && base[at] &- UInt8(ascii: "0") < 10
        }
        let integerDigits = at - integerStart
        if at < end, base[at] == UInt8(ascii: ".") {
            at += 1
            guard at < end, base[at] &- UInt8(ascii: "0") < 10 else { return nil }
            repeat { at += 1 } while at < end && base[at] &- UInt8(ascii: "0") < 10
        }
        // Below 10^308 (at most 308 digits before the point, and no exponent to raise it) a
        // number is finite; a larger one may be too large for a Double (1e400), which only
        // the exact reading can tell.
        var largest = integerDigits
        if at < end, base[at] | 0x20 == UInt8(ascii: "e") {
            at += 1
            var lowers = false
            if at < end, base[at] == UInt8(ascii: "+") || base[at] == UInt8(ascii: "-") {
                lowers = base[at] == UInt8(ascii: "-")
                at += 1
            }
            guard at < end, base[at] &- UInt8(ascii: "0") < 10 else { return nil }
            var exponent = 0
            repeat {
                // Capped: past a few thousand the bound below is decided either way.
                if exponent < 100_000 { exponent = exponent &* 10 &+ Int(base[at] &- UInt8(ascii: "0")) }
                at += 1
            } while at < end && base[at] &- UInt8(ascii: "0") < 10
            largest = lowers ? integerDigits - exponent : integerDigits + exponent
        }
        if largest > 308 {
            let text = String(decoding: UnsafeBufferPointer(start: base + start, count: at - start), as: UTF8.self)
            guard let value = Double(text), value.isFinite else { return nil }
        }
        return at
    }
}
