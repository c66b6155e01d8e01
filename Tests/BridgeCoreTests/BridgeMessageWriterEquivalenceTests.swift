@testable import BridgeCore
import Foundation
import Testing
import TestSupport

/// The fast `BridgeMessageWriter` (issue 30) writes the same bytes as the byte-at-a-time writer it
/// replaced (`BridgeMessageWriterReference`), and refuses exactly the messages it refused, on
/// seeded random and hostile messages.
@Suite("BridgeMessageWriter equivalence")
struct BridgeMessageWriterEquivalenceTests {
    /// Seeded random messages made of the pieces that matter to a JSON writer.
    struct Messages {
        var random: SeededRandom

        mutating func below(_ bound: Int) -> Int { Int(random.next() % UInt64(max(bound, 1))) }
        mutating func chance(_ probability: Double) -> Bool { random.nextUnit() < probability }
        mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }

        /// Text pieces: plain runs of every length around a word of eight, escapes, control
        /// characters, DEL, slashes and UTF-8 of every length.
        static let pieces: [String] = [
            "", "a", "ab", "abcdefg", "abcdefgh", "abcdefghi", "0123456789abcdef", "hello world, plain text ", "\"", "\\", "/",
            "\n", "\r", "\t", "\u{8}", "\u{C}", "\u{0}", "\u{1}", "\u{1F}", "\u{7F}", "é", "ü", "日本", "😀", "\u{2028}", "\u{2029}",
            "<script>", "\\u0041", "e\u{301}", "\u{FEFF}", " ", "~", "\u{80}", "\u{7FF}", "\u{FFFF}", "\u{10FFFF}",
        ]

        mutating func text() -> String {
            var text = ""
            for _ in 0..<below(7) { text += pick(Self.pieces) }
            if chance(0.05) { text += String(repeating: pick(Self.pieces), count: below(300)) }
            return text
        }

        /// Keys: plain ones, ones differing only in case, with digits, with the bytes between
        /// `Z` and `a`, not ASCII, with escapes.
        static let keys: [String] = [
            "a", "b", "z", "A", "B", "Z", "ab", "aB", "Ab", "AB", "abc", "abC", "a_b", "a-b", "aZ", "a[", "a]", "a^", "a`", "a\\",
            "_", "-", "`", "^", "[", "sessionId", "sessionid", "SessionId", "elapsedMs", "ok", "locale", "model", "os", "screen",
            "a1", "a9", "a10", "1", "é", "E", "e", "key with space", "key.dot", "", "q\"uote", "ctl\u{1}", "tab\t", "/slash", "a/b",
            "\u{7F}", "x", "xx", "xxx", "X", "XX",
        ]

        mutating func key() -> String {
            chance(0.9) ? pick(Self.keys) : text()
        }

        /// Numbers at the edges of what the writer takes: whole and not, around 10^15, -0,
        /// huge, tiny, not finite.
        mutating func number() -> Double {
            switch below(10) {
            case 0:
                return pick([
                    0, -0.0, 1, -1, 999_999_999_999_999, -999_999_999_999_999, 1e15, -1e15, 1e15 - 1, 1e15 + 1, 999_999_999_999_999.5,
                    0.5, -0.5, 1e-7, -1e-300, 1e300, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude,
                    .nan, .infinity, -.infinity, 9_007_199_254_740_994, 1_732_240_000_123, 1_732_240_000_123.5, 10, 100, 9, 99,
                ])
            case 1: return Double(Int64.random(in: -999_999_999_999_999...999_999_999_999_999, using: &random))
            case 2: return Double.random(in: -1e6...1e6, using: &random)
            case 3: return Double(below(20)) - 10
            case 4: return Double(bitPattern: random.next())
            default: return Double(below(100_000))
            }
        }

        mutating func value(depth: Int) -> JSONValue {
            switch below(depth <= 0 ? 4 : 7) {
            case 0: return .string(text())
            case 1: return .number(number())
            case 2: return .bool(chance(0.5))
            case 3: return .null
            case 4, 5: return .object(object(depth: depth - 1))
            default: return .array((0..<below(5)).map { _ in value(depth: depth - 1) })
            }
        }

        mutating func object(depth: Int) -> [String: JSONValue] {
            var fields: [String: JSONValue] = [:]
            let count = chance(0.05) ? below(80) : below(6)
            for _ in 0..<count { fields[key()] = value(depth: depth) }
            return fields
        }

        /// A chain of objects and arrays `levels` deep, around the writer's depth limit.
        mutating func nested(levels: Int) -> JSONValue {
            var value: JSONValue = chance(0.5) ? .null : .object([:])
            for _ in 0..<levels {
                value = chance(0.5) ? .array([value]) : .object([pick(["a", "b", "inner"]): value])
            }
            return value
        }

        mutating func message() -> BridgeMessage {
            var data: [String: JSONValue]?
            if chance(0.85) {
                data = object(depth: 3)
                if chance(0.15) { data?[pick(["deep", "a", "z"])] = nested(levels: 58 + below(10)) }
            }
            let status: BridgeResponseStatus? = chance(0.3) ? nil : pick(BridgeResponseStatus.allCases)
            let error = chance(0.05) ? BridgeErrorPayload(code: text(), message: text(), recoverable: chance(0.5)) : nil
            return BridgeMessage(
                version: chance(0.9) ? BridgeMessage.protocolVersion : text(), correlationId: chance(0.5) ? "req-\(below(1000))" : text(),
                type: pick(MessageType.allCases), timestamp: chance(0.7) ? 1_732_240_000_000 + Double(below(100_000)) : number(),
                payload: .init(action: chance(0.5) ? "device.info" : text(), data: data, status: status, error: error))
        }
    }

    @Test("random and hostile messages: the same bytes, and nil for the same ones", arguments: [1, 2, 3, 30, 2026] as [UInt64])
    func sameAsTheReference(seed: UInt64) {
        var messages = Messages(random: SeededRandom(seed: seed))
        var written = 0
        var refused = 0
        for index in 0..<3000 {
            let message = messages.message()
            let fast = BridgeMessageWriter.json(message)
            let reference = BridgeMessageWriterReference.json(message)
            #expect(fast == reference, "seed \(seed), message \(index): \(String(decoding: reference ?? Data(), as: UTF8.self))")
            if fast == nil { refused += 1 } else { written += 1 }
        }
        // Both sides of the fast path were met often.
        #expect(written > 500)
        #expect(refused > 500)
    }

    @Test("long strings with escapes at every place around a word of eight bytes, and large messages")
    func longStrings() {
        let fillers = ["abcdefghijklmnopqrstuvwxyz", "é日本😀", "\u{7F}\u{80}~"]
        for filler in fillers {
            for length in 0..<40 {
                for escape in ["\"", "\\", "\n", "\u{0}", "\u{1F}", "\u{1B}"] {
                    let plain = String(String(repeating: filler, count: 4).unicodeScalars.prefix(length))
                    for text in [plain + escape, escape + plain, plain + escape + plain, plain + escape + escape + plain] {
                        let message = BridgeMessage(
                            correlationId: text, type: .event, timestamp: 1, payload: .init(action: "a", data: ["text": .string(text)]))
                        #expect(BridgeMessageWriter.json(message) == BridgeMessageWriterReference.json(message), "\(text.debugDescription)")
                    }
                }
            }
        }
        // Larger than any first estimate of the buffer, with and without escapes, in one
        // string and in many fields.
        var random = SeededRandom(seed: 9)
        let big = String((0..<300_000).map { _ in Character(UnicodeScalar(UInt8(random.next() % 128))) })
        let manyFields = Dictionary(uniqueKeysWithValues: (0..<2000).map { index in
            (String(repeating: "k", count: 1 + index % 40) + String(repeating: "q", count: index / 40), JSONValue.string("v\(index % 7)"))
        })
        for data: [String: JSONValue] in [
            ["big": .string(big)], ["big": .string(String(repeating: "plain", count: 200_000))], manyFields,
            ["list": .array(Array(repeating: .string(String(repeating: "é\"", count: 500)), count: 200))],
        ] {
            let message = BridgeMessage(correlationId: "big", type: .response, timestamp: 7, payload: .init(action: "x", data: data, status: .success))
            let fast = BridgeMessageWriter.json(message)
            #expect(fast != nil)
            #expect(fast == BridgeMessageWriterReference.json(message))
        }
    }

    @Test("keys that sort one way by bytes and another ignoring case are refused, as before")
    func keyOrders() {
        let keys = Messages.keys
        for left in keys {
            for right in keys where right != left {
                for third in ["", "m", "Zz", "_"] {
                    var data: [String: JSONValue] = [left: 1, right: 2]
                    if !third.isEmpty { data[third] = 3 }
                    let message = BridgeMessage(correlationId: "k", type: .event, timestamp: 1, payload: .init(action: "a", data: data))
                    #expect(
                        BridgeMessageWriter.json(message) == BridgeMessageWriterReference.json(message),
                        "\(left.debugDescription) \(right.debugDescription) \(third.debugDescription)")
                }
            }
        }
    }
}
