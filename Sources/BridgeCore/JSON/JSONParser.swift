import Foundation

/// The one JSON parser: a single pass over the bytes that validates them (RFC 8259), bounds the
/// nesting, builds the ``JSONValue`` and, when the text is not JSON, says where and why.
///
/// It is the one place that decides what JSON text means (`docs/bridge-protocol.md`, section 2,
/// "One JSON rule"): the host decoding what the journey sends, an inspector decoding what the
/// agent streams, recordings, and every file and field a person types. ``JSONSyntaxCheck`` runs
/// the same pass without building anything, so the two can never disagree:
///
/// ```swift
/// let value = try JSONParser.read(bytes)   // or throws a JSONSyntaxCheck.Problem: line, column, reason
/// let quiet = JSONParser.parse(bytes)      // nil when `read` would throw
/// ```
///
/// It refuses: invalid syntax, nesting deeper than `maxDepth` (at most
/// ``JSONSyntaxCheck/maximumDepth``), a number too large for a `Double` (JSON cannot carry the
/// infinity it would become), an unpaired UTF-16 surrogate escape (`"\ud800"`), and invalid
/// UTF-8. A number too small for a `Double` becomes `0` (or the nearest subnormal), and an object
/// with the same key twice keeps the last value, both as the journey's `JSON.parse` does.
///
/// Parsing straight into `JSONValue` is several times faster than Foundation's `JSONDecoder`,
/// which spends most of its time in generic `Codable` machinery; ``JSONValueDecoder`` then reads
/// a `Decodable` from the value without turning it back into text.
package struct JSONParser {
    /// Where a value lies inside the parsed text: a path of object keys and array elements
    /// from the top-level value (``JSONParser/read(_:maxDepth:capturing:)``).
    package enum PathStep: Sendable, Hashable {
        /// The member of an object with this key.
        case key(String)
        /// Every element of an array.
        case element
    }

    /// A parsed value and the byte ranges of the values a caller asked for.
    package struct Captured: Sendable {
        /// The value of the whole text.
        package var value: JSONValue
        /// For each path asked for, in the same order, the byte ranges (offsets from the start
        /// of the text) of the values found there, in the order they appear. A key that occurs
        /// twice in one object counts once, by its last value, as in ``value``.
        package var ranges: [[Range<Int>]]
    }

    @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    /// `false` to check only (``JSONSyntaxCheck``): nothing is built, and every value is `.null`.
    /// The field readers (`JSONParser+Fields.swift`) turn it off to skip a value they ignore.
    var builds: Bool
    private let paths: [[PathStep]]
    private var ranges: [[Range<Int>]]
    @usableFromInline var index = 0
    /// Whether the field readers (`JSONParser+Fields.swift`) compare what a writer usually puts
    /// next as bytes first (a key in its writers' order, a known name, a usual string) before
    /// reading it the general way; off only to compare the two ways in tests.
    @usableFromInline var followsWriterOrder = true
    /// The members of the objects being parsed, innermost last: an object's dictionary is made
    /// once at its end, at its final size, rather than grown member by member.
    private var members: [(key: String, value: JSONValue)] = []

    /// Parses `data` as exactly one JSON value, with optional whitespace around it; `nil` when
    /// it is not (``read(_:maxDepth:)`` says why).
    package static func parse(_ data: some ContiguousBytes, maxDepth: Int = JSONSyntaxCheck.defaultMaxDepth) -> JSONValue? {
        try? read(data, maxDepth: maxDepth)
    }

    /// Parses `data` as exactly one JSON value, with optional whitespace around it, or throws
    /// where and why it is not one.
    package static func read(
        _ data: some ContiguousBytes, maxDepth: Int = JSONSyntaxCheck.defaultMaxDepth
    ) throws(JSONSyntaxCheck.Problem) -> JSONValue {
        try read(data, maxDepth: maxDepth, capturing: []).value
    }

    /// Parses `data` like ``read(_:maxDepth:)`` and, in the same pass, notes the byte ranges of
    /// the values at `paths`: how a client keeps a message's exact bytes from a frame without
    /// scanning the frame again.
    ///
    /// ```swift
    /// let parsed = try JSONParser.read(line, capturing: [[.key("sent"), .element]])
    /// let first = parsed.ranges[0].first.map { line[$0] }   // the first sent message, verbatim
    /// ```
    package static func read(
        _ data: some ContiguousBytes, maxDepth: Int = JSONSyntaxCheck.defaultMaxDepth, capturing paths: [[PathStep]]
    ) throws(JSONSyntaxCheck.Problem) -> Captured {
        let result = data.withUnsafeBytes { raw in
            raw.withMemoryRebound(to: UInt8.self) { buffer -> Result<Captured, JSONSyntaxCheck.Problem> in
                var parser = JSONParser(bytes: buffer, maxDepth: maxDepth, builds: true, paths: paths)
                do throws(Failure) {
                    return .success(Captured(value: try parser.run(), ranges: parser.ranges))
                } catch {
                    return .failure(parser.problem(error))
                }
            }
        }
        return try result.get()
    }

    /// The first problem in `buffer`, or `nil` when it holds exactly one JSON value: the same
    /// pass as ``read(_:maxDepth:)``, building nothing.
    static func firstProblem(in buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int) -> JSONSyntaxCheck.Problem? {
        var parser = JSONParser(bytes: buffer, maxDepth: maxDepth, builds: false, paths: [])
        do throws(Failure) {
            _ = try parser.run()
            return nil
        } catch {
            return parser.problem(error)
        }
    }

    @usableFromInline init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, builds: Bool, paths: [[PathStep]]) {
        self.bytes = bytes
        self.maxDepth = JSONSyntaxCheck.clampedDepth(maxDepth)
        self.builds = builds
        // At most 32 paths: one bit each in the mask handed down while parsing.
        self.paths = Array(paths.prefix(32))
        self.ranges = Array(repeating: [], count: self.paths.count)
    }

    struct Failure: Error {
        var offset: Int
        var reason: String
    }

    private mutating func run() throws(Failure) -> JSONValue {
        skipWhitespace()
        if index == bytes.count { throw Failure(offset: index, reason: "the text is empty; expected a JSON value") }
        let mask: UInt32 = paths.isEmpty ? 0 : (paths.count == 32 ? .max : (1 << UInt32(paths.count)) - 1)
        // A path with no steps is the whole value.
        let whole = matched(mask, step: 0)
        let start = index
        let value = try value(depth: 0, mask: mask & ~whole, step: 0)
        record(whole, start..<index)
        skipWhitespace()
        if index < bytes.count {
            throw Failure(offset: index, reason: "unexpected \(describe(index)) after the end of the JSON value")
        }
        return value
    }

    private func problem(_ failure: Failure) -> JSONSyntaxCheck.Problem {
        var line = 1
        var lineStart = 0
        var position = 0
        let end = min(failure.offset, bytes.count)
        while position < end {
            if bytes[position] == UInt8(ascii: "\n") {
                line += 1
                lineStart = position + 1
            }
            position += 1
        }
        return JSONSyntaxCheck.Problem(offset: failure.offset, line: line, column: failure.offset - lineStart + 1, reason: failure.reason)
    }

    private func describe(_ position: Int) -> String {
        guard position < bytes.count else { return "end of text" }
        let byte = bytes[position]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte == 0x20 { return "a space" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    @inline(__always) @usableFromInline mutating func skipWhitespace() {
        // Compact text, nearly all of it, has none: one look and back.
        guard index < bytes.count, bytes[index] <= 0x20 else { return }
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    // MARK: Paths to capture

    /// The paths of `mask` that end at `step`.
    private func matched(_ mask: UInt32, step: Int) -> UInt32 {
        var result: UInt32 = 0
        var rest = mask
        while rest != 0 {
            let path = rest.trailingZeroBitCount
            rest &= rest - 1
            if paths[path].count == step { result |= 1 << UInt32(path) }
        }
        return result
    }

    /// The paths of `mask` whose step `step` is `wanted` (a key, or `.element`).
    private func following(_ mask: UInt32, step: Int, key: String?) -> UInt32 {
        var result: UInt32 = 0
        var rest = mask
        while rest != 0 {
            let path = rest.trailingZeroBitCount
            rest &= rest - 1
            switch paths[path][step] {
            case .key(let name): if name == key { result |= 1 << UInt32(path) }
            case .element: if key == nil { result |= 1 << UInt32(path) }
            }
        }
        return result
    }

    private mutating func record(_ mask: UInt32, _ range: Range<Int>) {
        var rest = mask
        while rest != 0 {
            ranges[rest.trailingZeroBitCount].append(range)
            rest &= rest - 1
        }
    }

    // MARK: Values

    // Each level of nesting costs a `value` and an `object` or `array` frame on the stack, so
    // these stay lean (``JSONSyntaxCheck/maximumDepth`` levels must fit a 512 KiB stack in a
    // debug build); capturing byte ranges has its own functions below.

    /// One value at `index`.
    mutating func value(depth: Int) throws(Failure) -> JSONValue {
        guard index < bytes.count else { throw Failure(offset: index, reason: "unexpected end of text; expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        default: return try scalar()
        }
    }

    /// A string, number or literal at `index`.
    private mutating func scalar() throws(Failure) -> JSONValue {
        switch bytes[index] {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default:
            throw Failure(offset: index, reason: "expected a value, found \(describe(index))")
        }
    }

    func checkDepth(_ depth: Int) throws(Failure) {
        if depth > maxDepth {
            throw Failure(offset: index, reason: "nesting is deeper than \(maxDepth) levels")
        }
    }

    /// After `{` and the spaces after it: `true` when the object is empty (its `}` consumed).
    mutating func objectIsEmpty() -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "}") else { return false }
        index += 1
        return true
    }

    /// An object key and its `:`, with the spaces around them.
    private mutating func memberKey() throws(Failure) -> String {
        skipWhitespace()
        guard index < bytes.count else { throw Failure(offset: index, reason: "unexpected end of text inside an object; expected '\"' to start a key") }
        guard bytes[index] == UInt8(ascii: "\"") else {
            throw Failure(offset: index, reason: "expected '\"' to start an object key, found \(describe(index))")
        }
        let key = try string()
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
            throw Failure(offset: index, reason: "expected ':' after an object key, found \(describe(index))")
        }
        index += 1
        skipWhitespace()
        return key
    }

    /// After `[` and the spaces after it: `true` when the array is empty (its `]` consumed).
    private mutating func arrayIsEmpty() -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "]") else { return false }
        index += 1
        return true
    }

    /// After a member of an object (`close` is `}`) or an element of an array (`]`): `true` at
    /// `close` (consumed), `false` after a `,`.
    ///
    /// Inlined for compact text, where the `,` or `close` comes straight after the value: a
    /// call per member was about 800 instructions of a traffic frame (issue 30); anything else
    /// (spaces, an error) is ``endsAfterSpace(_:)``'s.
    @inline(__always)
    mutating func ends(_ close: UInt8) throws(Failure) -> Bool {
        if index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ",") {
                index += 1
                return false
            }
            if byte == close {
                index += 1
                return true
            }
        }
        return try endsAfterSpace(close)
    }

    /// ``ends(_:)`` where the next byte is neither `,` nor `close`: after spaces, or an error.
    @inline(never)
    mutating func endsAfterSpace(_ close: UInt8) throws(Failure) -> Bool {
        skipWhitespace()
        if index < bytes.count {
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                return false
            }
            if bytes[index] == close {
                index += 1
                return true
            }
        }
        // Named only here: made on every call, the words cost a string release per member.
        let container = close == UInt8(ascii: "}") ? "an object" : "an array"
        guard index < bytes.count else {
            throw Failure(offset: index, reason: "unexpected end of text inside \(container); expected ',' or '\(Character(Unicode.Scalar(close)))'")
        }
        throw Failure(offset: index, reason: "expected ',' or '\(Character(Unicode.Scalar(close)))' in \(container), found \(describe(index))")
    }

    private mutating func object(depth: Int) throws(Failure) -> JSONValue {
        try checkDepth(depth)
        index += 1
        skipWhitespace()
        guard builds else {
            if objectIsEmpty() { return .null }
            repeat {
                _ = try memberKey()
                _ = try value(depth: depth)
            } while try !ends(UInt8(ascii: "}"))
            return .null
        }
        if objectIsEmpty() { return .object([:]) }
        // One allocation for the members of a usual object, rather than growing 1, 2, 4, 8.
        if members.capacity == 0 { members.reserveCapacity(16) }
        let first = members.count
        repeat {
            let key = try memberKey()
            members.append((key, try value(depth: depth)))
        } while try !ends(UInt8(ascii: "}"))
        return .object(dictionary(from: first))
    }

    /// The members from `first` on, as a dictionary (and off the stack of members). The last of
    /// duplicate keys wins, as in the journey's `JSON.parse`.
    private mutating func dictionary(from first: Int) -> [String: JSONValue] {
        var object = [String: JSONValue](minimumCapacity: members.count - first)
        for index in first..<members.count { object[members[index].key] = members[index].value }
        members.removeSubrange(first...)
        return object
    }

    private mutating func array(depth: Int) throws(Failure) -> JSONValue {
        try checkDepth(depth)
        index += 1
        skipWhitespace()
        guard builds else {
            if arrayIsEmpty() { return .null }
            repeat {
                skipWhitespace()
                _ = try value(depth: depth)
            } while try !ends(UInt8(ascii: "]"))
            return .null
        }
        var elements: [JSONValue] = []
        if arrayIsEmpty() { return .array(elements) }
        repeat {
            skipWhitespace()
            elements.append(try value(depth: depth))
        } while try !ends(UInt8(ascii: "]"))
        return .array(elements)
    }

    // MARK: Values on a path to capture (always building)

    /// One value at `index`; `mask` holds the paths to capture that lead here, `step` deep.
    private mutating func value(depth: Int, mask: UInt32, step: Int) throws(Failure) -> JSONValue {
        guard mask != 0 else { return try value(depth: depth) }
        guard index < bytes.count else { throw Failure(offset: index, reason: "unexpected end of text; expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1, mask: mask, step: step)
        case UInt8(ascii: "["): return try array(depth: depth + 1, mask: mask, step: step)
        default: return try scalar()
        }
    }

    private mutating func object(depth: Int, mask: UInt32, step: Int) throws(Failure) -> JSONValue {
        try checkDepth(depth)
        index += 1
        skipWhitespace()
        if objectIsEmpty() { return .object([:]) }
        let first = members.count
        // Keys that led to a path to capture, and how many ranges each such path had before
        // it: a later duplicate drops what the earlier one captured (the last key wins).
        var capturedKeys: [(key: String, counts: [(path: Int, count: Int)])] = []
        repeat {
            let key = try memberKey()
            members.append((key, try capturingMember(key: key, depth: depth, mask: mask, step: step, capturedKeys: &capturedKeys)))
        } while try !ends(UInt8(ascii: "}"))
        return .object(dictionary(from: first))
    }

    /// The value of member `key` of an object on a path to capture.
    private mutating func capturingMember(
        key: String, depth: Int, mask: UInt32, step: Int, capturedKeys: inout [(key: String, counts: [(path: Int, count: Int)])]
    ) throws(Failure) -> JSONValue {
        let next = following(mask, step: step, key: key)
        guard next != 0 else { return try value(depth: depth, mask: 0, step: 0) }
        if let earlier = capturedKeys.first(where: { $0.key == key }) {
            for (path, count) in earlier.counts { ranges[path].removeSubrange(count...) }
        } else {
            var counts: [(path: Int, count: Int)] = []
            var rest = next
            while rest != 0 {
                let path = rest.trailingZeroBitCount
                rest &= rest - 1
                counts.append((path, ranges[path].count))
            }
            capturedKeys.append((key, counts))
        }
        let whole = matched(next, step: step + 1)
        let start = index
        let member = try value(depth: depth, mask: next & ~whole, step: step + 1)
        record(whole, start..<index)
        return member
    }

    private mutating func array(depth: Int, mask: UInt32, step: Int) throws(Failure) -> JSONValue {
        try checkDepth(depth)
        index += 1
        skipWhitespace()
        var elements: [JSONValue] = []
        if arrayIsEmpty() { return .array(elements) }
        let next = following(mask, step: step, key: nil)
        let whole = matched(next, step: step + 1)
        repeat {
            skipWhitespace()
            let start = index
            elements.append(try value(depth: depth, mask: next & ~whole, step: step + 1))
            record(whole, start..<index)
        } while try !ends(UInt8(ascii: "]"))
        return .array(elements)
    }

    mutating func literal(_ word: StaticString, _ result: JSONValue) throws(Failure) -> JSONValue {
        let start = index
        let count = word.utf8CodeUnitCount
        let matches = word.withUTF8Buffer { expected -> Bool in
            guard bytes.count - index >= count else { return false }
            for offset in 0..<count where bytes[index + offset] != expected[offset] { return false }
            return true
        }
        guard matches else { throw Failure(offset: start, reason: "expected a value, found \(describe(start)) (did you mean \(word)?)") }
        index += count
        return result
    }

    // MARK: Numbers

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isHex(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
    }

    /// The number at `index` (its `-` or first digit), as `Double(text)` reads it; refused when
    /// its grammar is not JSON's or it is too large for a `Double`.
    ///
    /// Its digits are passed over the raw bytes, a whole number's eight at a time (a short
    /// integer, the usual number, was about 150 instructions through `bytes[index]`, issue 30);
    /// a whole number of up to 15 digits is made as it is passed, anything else is read from
    /// its text.
    mutating func number() throws(Failure) -> Double {
        let start = index
        let end = bytes.count
        guard start < end, let base = bytes.baseAddress else {
            throw Failure(offset: start, reason: "expected a digit in a number, found \(describe(start))")
        }
        var at = start
        let negative = base[at] == UInt8(ascii: "-")
        if negative { at += 1 }
        guard at < end, base[at] &- UInt8(ascii: "0") < 10 else {
            index = at
            throw Failure(offset: at, reason: "expected a digit in a number, found \(describe(at))")
        }
        let digitsStart = at
        // The integer part's value, made while its digits are passed (used only when it is the
        // whole number and short enough to be exact; wraps harmlessly otherwise).
        var integerValue: UInt64 = 0
        if base[at] == UInt8(ascii: "0") {
            at += 1
            if at < end, base[at] &- UInt8(ascii: "0") < 10 {
                index = at
                throw Failure(offset: start, reason: "numbers must not have leading zeros")
            }
        } else {
            // Eight bytes at a time while the text has them (a timestamp's 13 digits in two
            // looks), then one at a time.
            while end &- at >= 8 {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self))
                let count = Self.leadingDigits(word)
                if count == 0 { break }
                integerValue = integerValue &* Self.powerOfTen(count) &+ Self.value(ofLeadingDigits: count, in: word)
                at &+= count
                if count < 8 { break }
            }
            while at < end, base[at] &- UInt8(ascii: "0") < 10 {
                integerValue = integerValue &* 10 &+ UInt64(base[at] &- UInt8(ascii: "0"))
                at &+= 1
            }
        }
        // Nearly every number ends here: a whole number of up to 15 digits is exact as a Double
        // (and cannot overflow); made without a string.
        if at - digitsStart <= 15, at == end || (base[at] != UInt8(ascii: ".") && base[at] | 0x20 != UInt8(ascii: "e")) {
            index = at
            guard builds else { return 0 }
            // Below 10^15, so as a signed number it converts in one instruction.
            let magnitude = Double(Int64(bitPattern: integerValue))
            return negative ? -magnitude : magnitude
        }
        if at < end, base[at] == UInt8(ascii: ".") {
            at += 1
            guard at < end, base[at] &- UInt8(ascii: "0") < 10 else {
                index = at
                throw Failure(offset: at, reason: "expected a digit after '.', found \(describe(at))")
            }
            repeat { at += 1 } while at < end && base[at] &- UInt8(ascii: "0") < 10
        }
        if at < end, base[at] | 0x20 == UInt8(ascii: "e") {
            at += 1
            if at < end, base[at] == UInt8(ascii: "+") || base[at] == UInt8(ascii: "-") { at += 1 }
            guard at < end, base[at] &- UInt8(ascii: "0") < 10 else {
                index = at
                throw Failure(offset: at, reason: "expected a digit in an exponent, found \(describe(at))")
            }
            repeat { at += 1 } while at < end && base[at] &- UInt8(ascii: "0") < 10
        }
        index = at
        // A number too large for a Double (1e400) is valid JSON text but no decoder can hold it.
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: at - start), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw Failure(offset: start, reason: "the number \(text) is too large to represent")
        }
        return value
    }

    /// How many of the eight bytes of `word` (the first in its lowest bits) are ASCII digits
    /// before the first that is not one. A byte below `0` borrows in the subtraction, one above
    /// `9` carries into its top bit in the addition, one from 0x80 up has it already; a borrow or
    /// carry only runs upwards, past the first such byte, so the lowest flag is exact.
    @inline(__always)
    static func leadingDigits(_ word: UInt64) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let flags = ((word &- ones &* 0x30) | (word &+ ones &* 0x46) | word) & (ones &* 0x80)
        return flags == 0 ? 8 : flags.trailingZeroBitCount &>> 3
    }

    /// The number the first `count` (1 to 8) bytes of `word` spell, ASCII digits with the first
    /// in the lowest bits: moved up to the top, below them zeros that count as leading `0`s,
    /// and then combined in pairs, fours and eights (three multiplications, not eight).
    @inline(__always)
    static func value(ofLeadingDigits count: Int, in word: UInt64) -> UInt64 {
        var digits = (word &<< UInt64(64 &- 8 &* count)) & 0x0F0F_0F0F_0F0F_0F0F
        digits = (digits &* (1 + (10 << 8))) &>> 8
        digits = ((digits & 0x00FF_00FF_00FF_00FF) &* (1 + (100 << 16))) &>> 16
        return ((digits & 0x0000_FFFF_0000_FFFF) &* (1 + (10_000 << 32))) &>> 32
    }

    /// 10 to the power `count` (1 to 8).
    @inline(__always)
    static func powerOfTen(_ count: Int) -> UInt64 {
        switch count {
        case 1: 10
        case 2: 100
        case 3: 1000
        case 4: 10000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        default: 100_000_000
        }
    }

    // MARK: Strings

    /// A string, starting at its opening quote (`""` when not building).
    ///
    /// The usual string, plain bytes up to its closing quote, is found eight bytes at a time
    /// and taken whole here; anything else (an escape, UTF-8, a control byte, the last bytes of
    /// the text) is ``stringWithAnyBytes()``'s, from the start.
    mutating func string() throws(Failure) -> String {
        if let base = bytes.baseAddress {
            var at = index &+ 1
            while bytes.count &- at >= 8 {
                let special = Self.specialBytes(UInt64(littleEndian: UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self)))
                if special == 0 {
                    at &+= 8
                    continue
                }
                at &+= special.trailingZeroBitCount &>> 3
                guard base[at] == UInt8(ascii: "\"") else { break }
                let segment = UnsafeBufferPointer(start: base + index + 1, count: at &- index &- 1)
                index = at &+ 1
                return builds ? Self.text(segment) : ""
            }
        }
        return try stringWithAnyBytes()
    }

    /// ``string()`` for any string: escapes, UTF-8 and the end of the text, checked byte by byte
    /// where they are. (Internal, for the tests that compare ``string()``'s shortcut with it.)
    mutating func stringWithAnyBytes() throws(Failure) -> String {
        let start = index
        index += 1
        var segmentStart = index
        // Only a string with escapes is copied byte by byte; most are taken whole.
        var escaped = false
        var utf8: [UInt8] = []
        while index < bytes.count {
            // Eight bytes at a time, up to the first that ends the string or needs a look.
            if bytes.count - index >= 8, let base = bytes.baseAddress {
                let special = Self.specialBytes(UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)))
                if special == 0 {
                    index += 8
                    continue
                }
                index += special.trailingZeroBitCount / 8
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let segment = UnsafeBufferPointer(rebasing: bytes[segmentStart..<index])
                index += 1
                guard builds else { return "" }
                guard escaped else { return Self.text(segment) }
                utf8.append(contentsOf: segment)
                return String(decoding: utf8, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                if builds { utf8.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[segmentStart..<index])) }
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                let unescaped: UInt8
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): unescaped = escape
                case UInt8(ascii: "b"): unescaped = 0x08
                case UInt8(ascii: "f"): unescaped = 0x0C
                case UInt8(ascii: "n"): unescaped = 0x0A
                case UInt8(ascii: "r"): unescaped = 0x0D
                case UInt8(ascii: "t"): unescaped = 0x09
                case UInt8(ascii: "u"):
                    index += 1
                    let scalar = try surrogateAwareEscape(escapeStart: index - 2)
                    if builds { UTF8.encode(scalar) { utf8.append($0) } }
                    segmentStart = index
                    continue
                default:
                    throw Failure(offset: index, reason: "invalid escape '\\\(describe(index).trimmingQuotes)' in a string")
                }
                if builds { utf8.append(unescaped) }
                index += 1
                segmentStart = index
                continue
            }
            if byte < 0x20 {
                throw Failure(offset: index, reason: "control character \(describe(index)) inside a string must be escaped")
            }
            if byte < 0x80 {
                index += 1
                continue
            }
            try utf8Sequence()
        }
        throw Failure(offset: start, reason: "unterminated string (no closing '\"')")
    }

    /// `utf8` as a `String`, the one `String(decoding:as:)` makes. A string of up to 15 bytes
    /// (the most a `String` holds in itself) is written straight into its storage, by an
    /// initializer that still checks (and repairs) the UTF-8 but is cheaper on the usual short
    /// ASCII string than `String(decoding:as:)`, which spent some 240 instructions on one (issue 30).
    @inline(__always)
    static func text(_ utf8: UnsafeBufferPointer<UInt8>) -> String {
        guard utf8.count <= 15, let source = utf8.baseAddress else { return String(decoding: utf8, as: UTF8.self) }
        return String(unsafeUninitializedCapacity: utf8.count) { buffer in
            guard let destination = buffer.baseAddress else { return 0 }
            copy(utf8.count, from: source, to: destination)
            return utf8.count
        }
    }

    /// Copies `count` (at most 16) bytes as two words, or two halves, that overlap: a call to
    /// `memcpy` cost more than the copy of a short string.
    @inline(__always)
    private static func copy(_ count: Int, from source: UnsafePointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>) {
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(destination)
        if count >= 8 {
            let first = from.loadUnaligned(as: UInt64.self)
            let last = from.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            to.storeBytes(of: first, as: UInt64.self)
            to.storeBytes(of: last, toByteOffset: count &- 8, as: UInt64.self)
        } else if count >= 4 {
            let first = from.loadUnaligned(as: UInt32.self)
            let last = from.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
            to.storeBytes(of: first, as: UInt32.self)
            to.storeBytes(of: last, toByteOffset: count &- 4, as: UInt32.self)
        } else if count > 0 {
            destination[0] = source[0]
            destination[count &- 1] = source[count &- 1]
            destination[count &>> 1] = source[count &>> 1]
        }
    }

    /// The eight bytes of `word` (the first in its lowest bits) that a string's bytes cannot be
    /// taken whole past: `"`, `\\`, a control character (below 0x20) or part of a multi-byte
    /// UTF-8 sequence (0x80 and above), flagged by their top bit; `0` when there is none. The
    /// lowest flag is exact (the classic "has a byte less than n" bit trick: a borrow only runs
    /// upwards from a flagged byte), so it says where the first such byte is; flags above it may
    /// be false, and are not used.
    @inline(__always)
    static func specialBytes(_ word: UInt64) -> UInt64 {
        escapedBytes(word) | (word & 0x8080_8080_8080_8080)
    }

    /// The eight bytes of `word` (the first in its lowest bits) that JSON must escape in a
    /// string: `"`, `\\` or a control character (below 0x20), flagged by their top bit, exact for
    /// the lowest flag as ``specialBytes(_:)`` is; bytes from 0x80 up are never flagged. The
    /// parser's scan and `JSONByteOutput`'s share it.
    @inline(__always)
    static func escapedBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let control = (word &- ones &* 0x20) & ~word
        let quotes = (quote &- ones) & ~quote
        let backslashes = (backslash &- ones) & ~backslash
        return (control | quotes | backslashes) & (ones &* 0x80)
    }

    /// The 4 hex digits of a `\\u` escape at `index`, as a number.
    private mutating func hex4() throws(Failure) -> UInt32 {
        var code: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, Self.isHex(bytes[index]) else {
                throw Failure(offset: index, reason: "expected 4 hex digits after '\\u' in a string")
            }
            let byte = bytes[index]
            let digit = Self.isDigit(byte) ? byte - UInt8(ascii: "0") : (byte | 0x20) - UInt8(ascii: "a") + 10
            code = code << 4 | UInt32(digit)
            index += 1
        }
        return code
    }

    /// The rest of a `\\u` escape (after `\\u`), and the low half that must follow a high
    /// surrogate: a string must be valid Unicode, and a lone surrogate is not.
    private mutating func surrogateAwareEscape(escapeStart: Int) throws(Failure) -> Unicode.Scalar {
        let code = try hex4()
        let spelled = "'\\u" + String(code, radix: 16, uppercase: false).leftPadded(to: 4) + "'"
        if (0xDC00...0xDFFF).contains(code) {
            throw Failure(
                offset: escapeStart,
                reason: "lone UTF-16 surrogate \(spelled) in a string: a low surrogate is only valid right after a high one (\\ud800-\\udbff)")
        }
        guard (0xD800...0xDBFF).contains(code) else {
            // Below 0xD800 or above 0xDFFF: always a scalar.
            return Unicode.Scalar(code) ?? "\u{FFFD}"
        }
        let lowStart = index
        if bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
            index += 2
            let low = try hex4()
            if (0xDC00...0xDFFF).contains(low) {
                return Unicode.Scalar(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}"
            }
        }
        index = lowStart
        throw Failure(
            offset: escapeStart,
            reason: "lone UTF-16 surrogate \(spelled) in a string: a high surrogate must be followed by a low one (\\udc00-\\udfff)")
    }

    /// Validates one multi-byte UTF-8 sequence starting at `index`.
    private mutating func utf8Sequence() throws(Failure) {
        let lead = bytes[index]
        let length: Int
        var minimum: UInt32
        var scalar: UInt32
        switch lead {
        case 0xC2...0xDF: length = 2; scalar = UInt32(lead & 0x1F); minimum = 0x80
        case 0xE0...0xEF: length = 3; scalar = UInt32(lead & 0x0F); minimum = 0x800
        case 0xF0...0xF4: length = 4; scalar = UInt32(lead & 0x07); minimum = 0x10000
        default: throw Failure(offset: index, reason: "invalid UTF-8 (\(describe(index)))")
        }
        guard bytes.count - index >= length else { throw Failure(offset: index, reason: "truncated UTF-8 sequence") }
        for offset in 1..<length {
            let next = bytes[index + offset]
            guard next & 0xC0 == 0x80 else { throw Failure(offset: index + offset, reason: "invalid UTF-8 (\(describe(index + offset)))") }
            scalar = scalar << 6 | UInt32(next & 0x3F)
        }
        if scalar < minimum || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) {
            throw Failure(offset: index, reason: "invalid UTF-8 sequence")
        }
        index += length
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }

    fileprivate var trimmingQuotes: String {
        count >= 2 && first == "'" && last == "'" ? String(dropFirst().dropLast()) : self
    }
}
