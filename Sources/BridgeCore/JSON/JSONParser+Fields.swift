import Foundation

/// Reading the fields of a known shape straight from the text, under the same rules as the rest
/// of ``JSONParser`` (the same grammar, nesting limit, numbers, strings and UTF-8 checks), without
/// building a dictionary for each object: how a frame or message read on every line is decoded
/// without hashing every key (issue 30).
///
/// A reader refuses (throws ``JSONParser/Refusal``) whatever it does not take: invalid text, a
/// field of an unexpected type, a key it knows given twice. The caller then decodes the text the
/// full way (``JSONParser/read(_:maxDepth:)`` and `Decodable`), which accepts or says why not; so
/// a reader never has to explain anything, and must only never accept what the full way refuses
/// nor read a value differently.
///
/// ```swift
/// let message = JSONParser.reading(bytes, maxDepth: 100) { parser throws(JSONParser.Refusal) in
///     try BridgeMessageReader.message(from: &parser, depth: 1)
/// }   // nil: decode the full way
/// ```
extension JSONParser {
    /// The reader gives up on this text; the full decoding says whether and why it is wrong.
    package struct Refusal: Error, Sendable {
        /// Creates a refusal.
        package init() {}
    }

    /// Runs `body` on a parser at the first value of `data` (after any whitespace) and then
    /// requires the end of the text; `nil` when anything refuses.
    ///
    /// Inlinable, so that it is specialised for its caller's result (a reader in another module
    /// otherwise looked up `Optional<Result>`'s metadata and called `Data` through a witness
    /// table on every line).
    ///
    /// `followingWriterOrder: false` looks every key up (``JSONKeySet``): only for tests that
    /// compare the two ways.
    @inlinable
    package static func reading<Result>(
        _ data: some ContiguousBytes, maxDepth: Int, followingWriterOrder: Bool = true, _ body: (inout JSONParser) throws(Refusal) -> Result
    ) -> Result? {
        data.withUnsafeBytes { raw in reading(raw, maxDepth: maxDepth, followingWriterOrder: followingWriterOrder, body) }
    }

    /// The same, for bytes a caller already holds: not through
    /// `ContiguousBytes.withUnsafeBytes`, which Foundation does not inline, so that even inlined
    /// it was called generically, looking up `Optional<Result>`'s metadata on every traffic
    /// frame (about 650 instructions of 15,500, issue 30). A caller in another module may still
    /// get its generic copy, unspecialised; a reader of a hot path there uses
    /// ``init(lending:maxDepth:followingWriterOrder:)``.
    @inlinable
    package static func reading<Result>(
        _ raw: UnsafeRawBufferPointer, maxDepth: Int, followingWriterOrder: Bool = true, _ body: (inout JSONParser) throws(Refusal) -> Result
    ) -> Result? {
        raw.withMemoryRebound(to: UInt8.self) { buffer -> Result? in
            var parser = JSONParser(bytes: buffer, maxDepth: maxDepth, builds: true, paths: [])
            parser.followsWriterOrder = followingWriterOrder
            parser.skipWhitespace()
            guard let result = try? body(&parser) else { return nil }
            parser.skipWhitespace()
            return parser.index == buffer.count ? result : nil
        }
    }

    /// A parser at the first value of `raw` (after any whitespace), for a reader that reads a
    /// whole text itself and then asks ``isAtEnd()``: what `reading(_:maxDepth:_:)` does for
    /// lent bytes, without its generic closure, which a reader in another module called
    /// unspecialised: it looked up `Optional<Result>`'s metadata on every traffic frame (some
    /// 400 instructions of 14,000, issue 30). `raw` must stay valid while the parser is used
    /// (keep the parser local to the call that lent it), and is read only as bytes (`UInt8`, which
    /// any memory may be read as).
    ///
    /// ```swift
    /// var parser = JSONParser(lending: line, maxDepth: 100)
    /// let frame = try read(&parser)
    /// guard parser.isAtEnd() else { ... }   // more than one value
    /// ```
    package init(lending raw: UnsafeRawBufferPointer, maxDepth: Int, followingWriterOrder: Bool = true) {
        let buffer = UnsafeBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: raw.count)
        self.init(bytes: buffer, maxDepth: maxDepth, builds: true, paths: [])
        followsWriterOrder = followingWriterOrder
        skipWhitespace()
    }

    /// Whether nothing but whitespace follows what was read: the text held exactly the value
    /// read (skips that whitespace).
    package mutating func isAtEnd() -> Bool {
        skipWhitespace()
        return index == bytes.count
    }

    /// Reads `literal` (a fixed run of JSON text, such as `{"kind":"event","seq":`) at the
    /// current byte, or refuses without moving: for a reader that first tries a frame as its
    /// writer lays it out. Where the text is exactly that run, reading it is the same as reading
    /// its keys and structure one by one; an object it opens is counted against the nesting
    /// limit as ``readObject(depth:keys:member:)`` counts one (`openingObjectAt`: its level).
    package mutating func readLiteral(_ literal: [UInt8], openingObjectAt depth: Int? = nil) throws(Refusal) {
        if let depth, depth > maxDepth { throw Refusal() }
        guard readLiteralIfPresent(literal) else { throw Refusal() }
    }

    /// Reads `literal` when it is at the current byte (`true`), or reads nothing (`false`): as
    /// ``readLiteral(_:openingObjectAt:)``, for a choice between layouts a writer uses.
    package mutating func readLiteralIfPresent(_ literal: [UInt8]) -> Bool {
        guard bytes.count - index >= literal.count, let base = bytes.baseAddress else { return false }
        let same = literal.withUnsafeBufferPointer { expected in
            guard let start = expected.baseAddress else { return true }
            return Self.sameBytes(UnsafeRawPointer(base + index), UnsafeRawPointer(start), count: expected.count)
        }
        if same { index += literal.count }
        return same
    }

    /// Whether the `count` bytes at `text` and at `expected` are the same: compared 16 bytes at
    /// a time in line, the last ones overlapping the ones before (a literal is a few words; a
    /// call to `memcmp` for each cost more than the comparing, issue 30).
    @inline(__always)
    private static func sameBytes(_ text: UnsafeRawPointer, _ expected: UnsafeRawPointer, count: Int) -> Bool {
        @inline(__always) func differ(_ offset: Int) -> UInt64 {
            text.loadUnaligned(fromByteOffset: offset, as: UInt64.self) ^ expected.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        }
        if count >= 16 {
            var offset = 0
            while count - offset > 16 {
                if differ(offset) | differ(offset + 8) != 0 { return false }
                offset += 16
            }
            return differ(count - 16) | differ(count - 8) == 0
        }
        if count >= 8 { return differ(0) | differ(count - 8) == 0 }
        for offset in 0..<count where text.load(fromByteOffset: offset, as: UInt8.self) != expected.load(fromByteOffset: offset, as: UInt8.self) {
            return false
        }
        return true
    }

    /// Goes back to `offset`, where this parser was before a reader refused: for a reader that
    /// tries the text as its writer lays it out and, when it is not, reads the same bytes the
    /// general way: the position and the building of values are as they were there.
    package mutating func rewind(to offset: Int) {
        index = min(max(offset, 0), bytes.count)
        builds = true
    }

    /// The offset of the next byte from the start of the text: where a value about to be read
    /// starts, or where one just read ends.
    package var offset: Int { index }

    /// Reads the object at the current byte, `depth` levels deep (the whole text is level 1),
    /// calling `member` with the parser at the value of each key of `keys` (and its position in
    /// `keys`); `member` must read that value. Other keys' values are checked and skipped, as
    /// the full decoding ignores them. A key of `keys` given twice, or a key with escapes that
    /// could spell one, is refused (the full decoding keeps the last one).
    ///
    /// The key a writer of such objects puts next (`keys`' writer orders) is compared as bytes
    /// first (``ExpectedJSONKey``); any other key is read and looked up. Either way a key is the
    /// same key, so the order the keys come in changes only the speed.
    package mutating func readObject(
        depth: Int, keys: JSONKeySet, member: (inout JSONParser, Int) throws(Refusal) -> Void
    ) throws(Refusal) {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { throw Refusal() }
        try refusing { parser throws(Failure) in
            try parser.checkDepth(depth)
            parser.index += 1
            parser.skipWhitespace()
        }
        if objectIsEmpty() { return }
        var seen: UInt64 = 0
        // Where the key expected next is in `keys.script`; -1 before the first key (the order
        // is then chosen by it) or when following no order.
        var cursor = -1
        var order = 0
        var first = followsWriterOrder && !keys.orderStarts.isEmpty
        repeat {
            skipWhitespace()
            var position = -1
            if cursor >= 0 {
                // The next key of the order that is here: a writer leaves out the keys it has no
                // value for (a traffic record's rare fields, a payload's `data`).
                var next = cursor
                while true {
                    let expected = keys.script[next]
                    if expected < 0 { break }
                    if isAt(keys.expected[expected]) {
                        position = expected
                        cursor = next + 1
                        break
                    }
                    next += 1
                }
            } else if first {
                for (candidate, start) in keys.orderStarts.enumerated() {
                    let expected = keys.script[start]
                    if expected >= 0, isAt(keys.expected[expected]) {
                        position = expected
                        order = candidate
                        cursor = start + 1
                        break
                    }
                }
            }
            if position >= 0 {
                skipWhitespace()
            } else {
                let key = try refusing { parser throws(Failure) in try parser.memberKeyBytes() }
                if let known = keys.position(of: key) {
                    position = known
                    if first || cursor >= 0 { cursor = keys.resumptions[order * keys.names.count + known] }
                } else {
                    // An escaped key may spell a known one: left to the full decoding.
                    if key.contains(UInt8(ascii: "\\")) { throw Refusal() }
                    try refusing { parser throws(Failure) in
                        parser.builds = false
                        _ = try parser.value(depth: depth)
                        parser.builds = true
                    }
                }
            }
            first = false
            if position >= 0 {
                let bit: UInt64 = 1 << UInt64(position)
                guard seen & bit == 0 else { throw Refusal() }
                seen |= bit
                try member(&self, position)
            }
        } while try refusing({ parser throws(Failure) in try parser.ends(UInt8(ascii: "}")) }) == false
    }

    /// Whether `key` (`"name":`) is at the current byte, and if so moves past it.
    @inline(__always)
    private mutating func isAt(_ key: ExpectedJSONKey?) -> Bool {
        guard let key, bytes.count - index >= 16, let base = bytes.baseAddress, key.isAt(base + index) else { return false }
        index += key.length
        return true
    }

    /// Runs `body`, a step of the full parser, turning its failure into a refusal.
    private mutating func refusing<Result>(_ body: (inout JSONParser) throws(Failure) -> Result) throws(Refusal) -> Result {
        do throws(Failure) { return try body(&self) } catch { throw Refusal() }
    }

    /// An object key (checked, not built) and its `:`, with the spaces around them, as
    /// `memberKey()` reads one: the key's bytes as they stand in the text, escapes and all.
    private mutating func memberKeyBytes() throws(Failure) -> UnsafeBufferPointer<UInt8> {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw Failure(offset: index, reason: "") }
        let start = index + 1
        // Most keys are plain ASCII: found whole here; anything else is read by `string()`.
        if let end = plainStringEnd(from: start) {
            index = end + 1
        } else {
            builds = false
            _ = try string()
            builds = true
        }
        let key = UnsafeBufferPointer(rebasing: bytes[start..<(index - 1)])
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw Failure(offset: index, reason: "") }
        index += 1
        skipWhitespace()
        return key
    }

    /// Where the string whose first byte (after its opening quote) is at `start` ends (its
    /// closing quote), when it holds only printable ASCII without escapes, which `string()` takes
    /// as it is; `nil` when it holds anything else, or does not end.
    private func plainStringEnd(from start: Int) -> Int? {
        var end = start
        if let base = bytes.baseAddress {
            while bytes.count - end >= 8 {
                let special = Self.specialBytes(UInt64(littleEndian: UnsafeRawPointer(base + end).loadUnaligned(as: UInt64.self)))
                if special != 0 {
                    end += special.trailingZeroBitCount / 8
                    return bytes[end] == UInt8(ascii: "\"") ? end : nil
                }
                end += 8
            }
        }
        while end < bytes.count, bytes[end] >= 0x20, bytes[end] < 0x80, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\") {
            end += 1
        }
        return end < bytes.count && bytes[end] == UInt8(ascii: "\"") ? end : nil
    }

    /// Reads the string at the current byte (a plain one, nearly every one a reader makes, is
    /// found eight bytes at a time and taken whole by `string()`).
    package mutating func readString() throws(Refusal) -> String {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw Refusal() }
        do throws(Failure) { return try string() } catch { throw Refusal() }
    }

    /// Reads the string at the current byte without making it a `String`: its position in
    /// `names` (an enumeration's raw values, say), or `nil` when it is none of them. A string
    /// with escapes or other than printable ASCII is refused.
    package mutating func readString(among names: JSONKeySet) throws(Refusal) -> Int? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw Refusal() }
        // A name, quoted, compared as a whole: the same name a search finds (issue 30).
        if followsWriterOrder, bytes.count - index >= 16, let base = bytes.baseAddress {
            for (position, name) in names.quoted.enumerated() {
                if let name, name.isAt(base + index) {
                    index += name.length
                    return position
                }
            }
        }
        // Only a plain string can be a name; anything else is left to the full decoding.
        guard let end = plainStringEnd(from: index + 1) else { throw Refusal() }
        let text = UnsafeBufferPointer(rebasing: bytes[(index + 1)..<end])
        index = end + 1
        return names.position(of: text)
    }

    /// Reads the string at the current byte, giving `usual` itself (no new `String` made) when
    /// the string is exactly that (`"1.0"`, say: a message's version nearly always is).
    package mutating func readString(usually usual: ExpectedJSONString) throws(Refusal) -> String {
        if followsWriterOrder, let text = usual.text, bytes.count - index >= 16, let base = bytes.baseAddress, text.isAt(base + index) {
            index += text.length
            return usual.value
        }
        return try readString()
    }

    /// Reads the number at the current byte.
    package mutating func readNumber() throws(Refusal) -> Double {
        // `number()` reads a short whole number's digits eight at a time itself.
        guard index < bytes.count, bytes[index] == UInt8(ascii: "-") || (bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9")) else {
            throw Refusal()
        }
        do throws(Failure) { return try number() } catch { throw Refusal() }
    }

    /// Reads the number at the current byte when it is written as a plain integer of 1 to 15
    /// digits (no sign, fraction or exponent), as nearly every sequence number, size and
    /// timestamp is: its value, which ``readNumber()`` gives exactly (as a `Double`), found
    /// without the general number reader (some 150 instructions a number, several a traffic
    /// frame, issue 30). `nil`, with nothing read, for any other text: the caller then reads it
    /// with ``readNumber()``, which takes or refuses it as before (a leading zero included).
    package mutating func readPlainInteger() -> Int? {
        guard followsWriterOrder else { return nil }
        var end = index
        var value = 0
        while end < bytes.count, end - index <= 15 {
            let digit = bytes[end] &- UInt8(ascii: "0")
            if digit > 9 { break }
            value = value &* 10 &+ Int(digit)
            end += 1
        }
        let count = end - index
        guard count > 0, count <= 15, count == 1 || bytes[index] != UInt8(ascii: "0") else { return nil }
        // A fraction or an exponent: for the general reader.
        if end < bytes.count, bytes[end] == UInt8(ascii: ".") || bytes[end] == UInt8(ascii: "e") || bytes[end] == UInt8(ascii: "E") {
            return nil
        }
        index = end
        return value
    }

    /// Reads `true` or `false` at the current byte.
    package mutating func readBool() throws(Refusal) -> Bool {
        guard index < bytes.count else { throw Refusal() }
        do throws(Failure) {
            switch bytes[index] {
            case UInt8(ascii: "t"): _ = try literal("true", .null); return true
            case UInt8(ascii: "f"): _ = try literal("false", .null); return false
            default: throw Failure(offset: index, reason: "")
            }
        } catch {
            throw Refusal()
        }
    }

    /// Reads `null` when it is at the current byte (`true`), or reads nothing (`false`).
    package mutating func readNull() throws(Refusal) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "n") else { return false }
        do throws(Failure) { _ = try literal("null", .null) } catch { throw Refusal() }
        return true
    }

    /// Checks the object at the current byte, inside a container `depth` levels deep, exactly as
    /// ``readValue(depth:)`` would read it, without building it: where its text stands, to be
    /// built later under what is left of the nesting limit (``depthLeft(below:)``). `nil`
    /// (nothing read) when the value there is not an object.
    ///
    /// The check is ``checkedEnd(ofValueAt:depth:)``'s single iterative pass, which accepts what
    /// `value(depth:)` accepts at about a third of its cost (issue 30).
    mutating func checkObject(depth: Int) throws(Refusal) -> Range<Int>? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        let start = index
        guard let end = checkedEnd(ofValueAt: start, depth: depth) else { throw Refusal() }
        index = end
        return start..<end
    }

    /// The levels a value inside a container `depth` levels deep may still nest to, counting
    /// itself: the limit a value checked there is built under later.
    func depthLeft(below depth: Int) -> Int { maxDepth - depth }

    /// The bytes at `range` (offsets from the start of the text), in storage of their own.
    func copy(_ range: Range<Int>) -> Data {
        guard let base = bytes.baseAddress, !range.isEmpty else { return Data() }
        return Data(bytes: base + range.lowerBound, count: range.count)
    }

    /// Reads the value at the current byte as ``JSONValue``, inside a container `depth` levels
    /// deep (the whole text is level 1), exactly as ``JSONParser/read(_:maxDepth:)`` builds it.
    package mutating func readValue(depth: Int) throws(Refusal) -> JSONValue {
        do throws(Failure) { return try value(depth: depth) } catch { throw Refusal() }
    }
}
