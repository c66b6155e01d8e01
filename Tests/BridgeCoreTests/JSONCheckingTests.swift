@testable import BridgeCore
import Foundation
import TestSupport
import Testing

/// `JSONParser.checkedEnd(ofValueAt:depth:)`, the iterative check a reader runs on a message's
/// `payload.data` (`checkObject(depth:)`), must accept exactly the texts the general pass
/// (`value(depth:)` building nothing) accepts, and end at the same byte: on the JSONTestSuite
/// corpus, on thousands of random values (nested, escaped, UTF-8, numbers of every shape,
/// whitespace anywhere) and random damage of them, at and past the nesting limit, and at the
/// edge of what a `Double` holds. Issue 30.
@Suite("The iterative JSON check accepts what the parser accepts")
struct JSONCheckingTests {
    /// The general pass's end and the iterative check's, for the value at the start of `bytes`
    /// inside a container `depth` levels deep (`nil`: refused); and `checkObject(depth:)`'s when
    /// the value is an object.
    static func both(_ bytes: [UInt8], depth: Int = 1, maxDepth: Int = 100) -> (general: Int?, checked: Int?, object: Int??) {
        bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: buffer, maxDepth: maxDepth, builds: false, paths: [])
            let general: Int?
            do throws(JSONParser.Failure) {
                _ = try parser.value(depth: depth)
                general = parser.index
            } catch {
                general = nil
            }
            let fresh = JSONParser(bytes: buffer, maxDepth: maxDepth, builds: true, paths: [])
            let checked = fresh.checkedEnd(ofValueAt: 0, depth: depth)
            var reader = fresh
            let object: Int??
            do throws(JSONParser.Refusal) {
                object = try reader.checkObject(depth: depth).map { range in
                    // The range it gives is where it left the parser.
                    range.lowerBound == 0 && range.upperBound == reader.index ? range.upperBound : -1
                }
            } catch {
                object = .some(nil)
            }
            return (general, checked, object)
        }
    }

    /// What differs between the two passes on `bytes`, or `nil`.
    static func difference(_ bytes: [UInt8], depth: Int = 1, maxDepth: Int = 100) -> String? {
        let (general, checked, object) = both(bytes, depth: depth, maxDepth: maxDepth)
        let text = "\(String(decoding: bytes, as: UTF8.self)) \(bytes.prefix(40)) (depth \(depth) of \(maxDepth))"
        if general != checked { return "\(text): general \(String(describing: general)), checked \(String(describing: checked))" }
        // `checkObject` reads only objects: `nil` (not an object) elsewhere, and the same end there.
        let isObject = bytes.first == UInt8(ascii: "{")
        if isObject ? object != .some(general) : object != .none {
            return "\(text): checkObject \(String(describing: object)), general \(String(describing: general))"
        }
        return nil
    }

    // MARK: Corpus

    @Test("the JSONTestSuite corpus, alone and after leading bytes, at every depth limit near its nesting",
          .enabled(if: JSONTestSuiteCorpus.shouldRun(), JSONTestSuiteCorpus.skipNote))
    func corpus() throws {
        let names = JSONTestSuiteCorpus.fileNames()
        guard names.count > 300 else {
            Issue.record("the JSONTestSuite corpus is missing at \(JSONTestSuiteCorpus.location.path), and \(JSONTestSuiteCorpus.requiredVariable)=1 requires it")
            return
        }
        var differences: [String] = []
        var accepted = 0
        var refused = 0
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: JSONTestSuiteCorpus.location.appendingPathComponent(name)))
            // The files have whitespace before their value at times; the passes start at a value.
            let trimmed = Array(bytes.drop { [0x20, 0x0A, 0x0D, 0x09].contains($0) })
            for (depth, maxDepth) in [(0, 100), (1, 100), (3, 5), (0, 256), (2, 2)] {
                if let difference = Self.difference(trimmed, depth: depth, maxDepth: maxDepth) { differences.append("\(name): \(difference)") }
            }
            // Inside an object, with text after it: the end byte, not the end of the text, stops it.
            let wrapped = Array(#"{"v":"#.utf8) + trimmed + Array(#","w":1} tail"#.utf8)
            if let difference = Self.difference(wrapped) { differences.append("\(name) wrapped: \(difference)") }
            if Self.both(trimmed, depth: 0, maxDepth: 100).checked != nil { accepted += 1 } else { refused += 1 }
        }
        #expect(differences.prefix(5) == [])
        // Both verdicts were met, many times.
        #expect(accepted > 100)
        #expect(refused > 100)
    }

    // MARK: Random values

    @Test("thousands of random values, whole and with random damage", arguments: [1, 2, 3, 42, 2026] as [UInt64])
    func randomValues(seed: UInt64) {
        var maker = RandomJSON(seed: seed)
        var differences: [String] = []
        var accepted = 0
        var refused = 0
        var damagedAccepted = 0
        for round in 0..<2000 {
            var bytes = maker.value(depth: 5)
            if maker.chance(0.3) { bytes += maker.pick([Array(" ".utf8), Array(",1]".utf8), Array("}".utf8), Array("\n ,".utf8), [0xFF]]) }
            let (depth, maxDepth) = maker.pick([(1, 100), (0, 6), (2, 5), (1, 3), (0, 256)])
            if let difference = Self.difference(bytes, depth: depth, maxDepth: maxDepth) { differences.append("round \(round): \(difference)") }
            if Self.both(bytes, depth: depth, maxDepth: maxDepth).checked != nil { accepted += 1 } else { refused += 1 }
            var damaged = bytes
            maker.damage(&damaged)
            if let difference = Self.difference(damaged, depth: depth, maxDepth: maxDepth) { differences.append("round \(round) damaged: \(difference)") }
            if Self.both(damaged, depth: depth, maxDepth: maxDepth).checked != nil { damagedAccepted += 1 }
        }
        #expect(differences.prefix(5) == [], "seed \(seed)")
        // Both verdicts were met, whole and damaged.
        #expect(accepted > 200)
        #expect(refused > 200)
        #expect(damagedAccepted > 50)
    }

    // MARK: Nesting

    @Test("nesting right at the limit is accepted and one past it refused, for objects, arrays and both")
    func nestingLimit() {
        var differences: [String] = []
        var verdicts: [Bool] = []
        for maxDepth in [1, 2, 3, 63, 64, 65, 100, 128, 255, 256, 300] {
            for depth in [-3, 0, 1, 5] {
                for levels in [maxDepth - depth - 1, maxDepth - depth, maxDepth - depth + 1] where levels > 0 {
                    for shape in 0..<3 {
                        var open: [UInt8] = []
                        var close: [UInt8] = []
                        for level in 0..<levels {
                            let object = shape == 0 || (shape == 2 && level % 3 == 0)
                            open += object ? Array(#"{"k" : "#.utf8) : Array("[ 1,".utf8)
                            close.insert(contentsOf: object ? Array("}".utf8) : Array("]".utf8), at: 0)
                        }
                        let bytes = open + Array("null".utf8) + close
                        if let difference = Self.difference(bytes, depth: depth, maxDepth: maxDepth) { differences.append(difference) }
                        let limit = JSONSyntaxCheck.clampedDepth(maxDepth)
                        let checked = Self.both(bytes, depth: depth, maxDepth: maxDepth).checked
                        verdicts.append(checked != nil)
                        #expect((checked != nil) == (depth + levels <= limit), "\(levels) levels from \(depth) of \(maxDepth)")
                    }
                }
            }
        }
        #expect(differences.prefix(3) == [])
        #expect(verdicts.contains(true) && verdicts.contains(false))
    }

    @Test("empty containers count a level too, and 100,000 opening brackets are refused without recursion")
    func emptyAndDeep() {
        for text in ["{}", "[]", "[{}]", "{\"a\":[]}", "[[[]]]", "[ ]", "{ }", "{\t\n}"] {
            for maxDepth in 1...4 {
                #expect(Self.difference(Array(text.utf8), depth: 0, maxDepth: maxDepth) == nil, "\(text) \(maxDepth)")
            }
        }
        let deep = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
        #expect(Self.both(deep, depth: 0, maxDepth: 256).checked == nil)
        let deepObjects = Array(String(repeating: #"{"a":"#, count: 20_000).utf8)
        #expect(Self.both(deepObjects, depth: 0, maxDepth: 256).checked == nil)
    }

    // MARK: Numbers

    /// Numbers at the edge of what a Double holds, and of the grammar.
    static let edgeNumbers: [String] = [
        "1.7976931348623157e308", "1.7976931348623159e308", "1.7976931348623158e308", "-1.7976931348623159e308", "1e308", "1e309",
        "-1e309", "10e307", "100e306", "0.1e310", "0.1e309", "1E+308", "1e+309", "-0", "0", "-0.0", "0e400", "0e-400", "1e-400",
        "-1e-400", "0.0000e99999", "1e99999999999999999999", "1e-99999999999999999999", "123e-99999999999999999999",
        String(repeating: "9", count: 308), String(repeating: "9", count: 309), "-" + String(repeating: "9", count: 309),
        "1" + String(repeating: "0", count: 308), String(repeating: "1", count: 308) + ".999", String(repeating: "9", count: 309) + "e-1",
        String(repeating: "9", count: 310) + "e-2", String(repeating: "9", count: 311) + "e-2", String(repeating: "9", count: 400) + "e-91",
        String(repeating: "9", count: 400) + "e-92", "0." + String(repeating: "0", count: 5000) + "1", "1." + String(repeating: "7", count: 20_000),
        "4.9e-324", "2.4e-324", "2.5e-324", "2.2250738585072011e-308", "9007199254740993", "123456789012345", "1234567890123456",
        "-123456789012345", "-1234567890123456", "01", "-01", "00", "1.", "1.e5", ".5", "-", "--1", "+1", "1e", "1e+", "1E-", "1ee5",
        "1.5.5", "0x10", "1e5.5", "-a", "0.0e0", "5E-0", "99999999999999999999999", "1e30800", "1e308000",
    ]

    @Test("numbers at the Double boundary and the grammar's edges, alone and in containers")
    func numbers() {
        var differences: [String] = []
        var accepted = 0
        for number in Self.edgeNumbers {
            for text in [number, "[" + number + "]", "{\"n\":" + number + " }", "[" + number + ",2]", "[" + number] {
                if let difference = Self.difference(Array(text.utf8), depth: 0) { differences.append(difference) }
            }
            if Self.both(Array(number.utf8), depth: 0).checked != nil { accepted += 1 }
        }
        #expect(differences.prefix(5) == [])
        #expect(accepted > 20 && accepted < Self.edgeNumbers.count)
        // The boundary itself, pinned: the largest Double is taken, the next decimal past it is not.
        #expect(Self.both(Array("1.7976931348623157e308".utf8), depth: 0).checked != nil)
        #expect(Self.both(Array("1e309".utf8), depth: 0).checked == nil)
        #expect(Self.both(Array(String(repeating: "9", count: 309).utf8), depth: 0).checked == nil)
        #expect(Self.both(Array(String(repeating: "9", count: 308).utf8), depth: 0).checked != nil)
    }
}

/// Seeded random JSON bytes, valid most of the time: nested containers, strings with every escape
/// and surrogate pairs (and lone halves), raw UTF-8 of every length (and broken), control bytes,
/// numbers of every shape, literals, whitespace in every place JSON allows it; and damage.
struct RandomJSON {
    private var random: SeededRandom

    init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    mutating func chance(_ probability: Double) -> Bool { random.nextUnit() < probability }

    mutating func below(_ bound: Int) -> Int { Int(random.next() % UInt64(max(bound, 1))) }

    mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }

    /// Whitespace, usually none.
    mutating func space() -> [UInt8] {
        chance(0.8) ? [] : pick([Array(" ".utf8), Array("\n".utf8), Array("\t".utf8), Array("\r\n  ".utf8), Array("   ".utf8)])
    }

    mutating func value(depth: Int) -> [UInt8] {
        switch below(depth > 0 ? 10 : 6) {
        case 0, 1: return string()
        case 2, 3: return number()
        case 4: return Array(pick(["true", "false", "null", "nul", "tru", "fals", "nulL", "t", "falsee"]).utf8)
        case 5: return chance(0.5) ? string() : number()
        case 6, 7:
            var bytes = Array("[".utf8) + space()
            let count = below(5)
            for element in 0..<count {
                if element > 0 { bytes += space() + Array(",".utf8) + space() }
                bytes += value(depth: depth - 1)
            }
            return bytes + space() + Array("]".utf8)
        default:
            var bytes = Array("{".utf8) + space()
            let count = below(6)
            for member in 0..<count {
                if member > 0 { bytes += space() + Array(",".utf8) + space() }
                bytes += string() + space() + Array(":".utf8) + space() + value(depth: depth - 1)
            }
            return bytes + space() + Array("}".utf8)
        }
    }

    /// A string literal of 0 to about 40 bytes, so that what needs a look falls anywhere in a word.
    mutating func string() -> [UInt8] {
        var bytes = Array("\"".utf8)
        for _ in 0..<below(12) {
            switch below(20) {
            case 0: bytes += Array(pick([#"\""#, #"\\"#, #"\/"#, #"\b"#, #"\f"#, #"\n"#, #"\r"#, #"\t"#]).utf8)
            case 1: bytes += Array(pick([#"\u00e9"#, #"\u0041"#, #"\uFFFF"#, #"\u0000"#, #"\uD7FF"#, #"\uE000"#]).utf8)
            case 2: bytes += Array(pick([#"\ud83d\ude00"#, #"\uDBFF\uDFFF"#, #"\uD800\uDC00"#]).utf8)
            case 3 where chance(0.3):
                bytes += Array(pick([#"\ud800"#, #"\udc00"#, #"\ud800\u0041"#, #"\ud800\\"#, #"\ud800\udbff"#, #"\u12"#, #"\uzzzz"#, #"\x"#, #"\ud83d\ude0"#]).utf8)
            case 4: bytes += Array(pick(["é", "€", "😀", "\u{10FFFF}", "\u{7F}", "\u{80}", "\u{7FF}", "\u{800}", "\u{FFFF}", "\u{10000}"]).utf8)
            case 5 where chance(0.3):
                bytes += pick([[0xC0, 0x80], [0xC3], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],
                               [0x80], [0xFF], [0xC3, 0x28], [0xE2, 0x82], [0xF0, 0x9F, 0x98]])
            case 6 where chance(0.3): bytes.append(pick([0x00, 0x01, 0x0A, 0x09, 0x1F]))
            default: bytes += Array(pick(["a", "bc", "hello", "0123456789", " ", "~", "key", "x y z"]).utf8)
            }
        }
        return bytes + (chance(0.98) ? Array("\"".utf8) : [])
    }

    /// A number of any shape, valid most of the time.
    mutating func number() -> [UInt8] {
        if chance(0.1) { return Array(pick(JSONCheckingTests.edgeNumbers).utf8) }
        var text = chance(0.3) ? "-" : ""
        text += chance(0.2) ? "0" : String(1 + below(9)) + digits(below(chance(0.1) ? 25 : 8))
        if chance(0.3) { text += "." + digits(1 + below(chance(0.1) ? 30 : 6)) }
        if chance(0.2) { text += pick(["e", "E"]) + pick(["", "+", "-"]) + digits(1 + below(3)) }
        if chance(0.03) { text += pick(["0", ".", "e", "-", "x"]) }
        return Array(text.utf8)
    }

    mutating func digits(_ count: Int) -> String {
        String((0..<count).map { _ in Character(String(below(10))) })
    }

    /// One to three random changes: a byte replaced, a run cut, a run doubled, or a byte inserted.
    mutating func damage(_ bytes: inout [UInt8]) {
        let alphabet = Array(#"{}[]":,\ 0123456789.eE+-truefalsnul"u"#.utf8) + [0, 0x80, 0xC3, 0xA9, 0xED, 0xF4, 0xFF, 0x0A, 0x09]
        for _ in 0...below(3) {
            guard !bytes.isEmpty else { break }
            let at = below(bytes.count)
            switch below(4) {
            case 0: bytes[at] = pick(alphabet)
            case 1: bytes.removeSubrange(at..<min(bytes.count, at + 1 + below(8)))
            case 2: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + below(12))], at: at)
            default: bytes.insert(pick(alphabet), at: at)
            }
        }
    }
}
