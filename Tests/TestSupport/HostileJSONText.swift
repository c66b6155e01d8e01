import Foundation
import InspectorProtocol

/// Seeded random JSON text shaped like bridge messages and agent frames, right and wrong: fields
/// in any order, missing, `null`, of the wrong type, given twice, spelled with escapes, unknown
/// fields, odd numbers and strings, then sometimes a few bytes mutated. For the tests that compare
/// a one-pass reader with the full decoding (issue 30): both must accept the same texts and read
/// them to the same values.
///
/// ```swift
/// var text = HostileJSONText(seed: 7)
/// let message = text.mutated(text.message())
/// ```
package struct HostileJSONText {
    private var random: SplitMix64

    /// A generator whose texts are fixed by `seed`.
    package init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    /// `true` with probability `probability`.
    package mutating func chance(_ probability: Double) -> Bool { random.nextUnit() < probability }

    /// One of `choices`.
    package mutating func pick<T>(_ choices: [T]) -> T { choices[Int(random.next() % UInt64(choices.count))] }

    /// A whole number below `bound`.
    package mutating func below(_ bound: Int) -> Int { Int(random.next() % UInt64(max(bound, 1))) }

    /// Whitespace, usually none.
    package mutating func space() -> String { chance(0.85) ? "" : pick([" ", "\n", "\t ", "\r\n  "]) }

    /// Any string literal, valid or not.
    package mutating func string() -> String {
        pick([
            #""x""#, #""""#, #""a\u0041b""#, #""\ud83d\ude00""#, #""\ud800""#, #""é""#, #""tab\there""#, #""q\"uote""#,
            "\"raw\u{01}control\"", #""\/""#, #""\x""#, #""unterminated"#, "\"\u{1F600}\"", #""ctl\u0000""#,
        ])
    }

    /// Any number, valid or not.
    package mutating func number() -> String {
        pick([
            "0", "-0", "7", "-3", "1.5", "1e3", "1E-2", "1.0", "9007199254740993", "9007199254740992", "1e400", "-1e400", "1e-400",
            "01", "1.", ".5", "-", "+1", "2e", "1795541427124", "12345678901234567890", "0.1e1",
        ])
    }

    /// Any value, valid or not, nested at most `depth` more levels.
    package mutating func value(depth: Int = 2) -> String {
        switch below(depth > 0 ? 9 : 6) {
        case 0: return string()
        case 1: return number()
        case 2: return pick(["true", "false", "null", "nul", "tru", "nulll"])
        case 3, 4: return string()
        case 5: return number()
        case 6: return "[" + (0..<below(3)).map { _ in value(depth: depth - 1) }.joined(separator: ",") + space() + "]"
        default:
            return object((0..<below(4)).map { index in (pick(["a", "b", "v", "a", "payload", "data"]) + String(index), value(depth: depth - 1)) })
        }
    }

    /// A key spelled as a JSON string: usually plainly, sometimes with an escape.
    package mutating func key(_ name: String) -> String {
        guard chance(0.02), let first = name.unicodeScalars.first else { return "\"" + name + "\"" }
        return "\"\\u" + String(format: "%04x", first.value) + name.unicodeScalars.dropFirst().map(String.init).joined() + "\""
    }

    /// An object with `members` (name, value text), shuffled, some dropped, some given twice,
    /// sometimes an unknown one, with whitespace around.
    package mutating func object(_ members: [(String, String)]) -> String {
        var chosen = members.filter { _ in !chance(0.01) }
        if chance(0.02), let twice = chosen.first { chosen.append((twice.0, chance(0.5) ? twice.1 : value(depth: 1))) }
        if chance(0.15) { chosen.append((pick(["future", "extra", "seq2", ""]), value(depth: 2))) }
        if chance(0.5) { chosen.shuffle(using: &random) }
        var members: [String] = []
        for (name, text) in chosen { members.append(space() + key(name) + space() + ":" + space() + text + space()) }
        return "{" + members.joined(separator: ",") + space() + "}"
    }

    /// `text` most often, otherwise `text` with one of `alternatives` or a random value instead.
    package mutating func usually(_ text: String, _ alternatives: [String] = []) -> String {
        if chance(0.97) { return text }
        return alternatives.isEmpty || chance(0.4) ? value(depth: 1) : pick(alternatives)
    }

    /// A bridge message, usually valid.
    package mutating func message() -> String {
        let data = usually(object([("step", string()), ("n", number()), ("deep", value(depth: 3))]), ["null", "[]", "{}"])
        var payload: [(String, String)] = [("action", usually(#""journey.step""#, [#""""#, "null"]))]
        if chance(0.7) { payload.append(("data", data)) }
        if chance(0.3) { payload.append(("status", usually(pick([#""success""#, #""error""#, "null"]), [#""failed""#, #""Success""#]))) }
        if chance(0.2) {
            let error = object([("code", usually(#""BUSY""#)), ("message", usually(#""busy""#)), ("recoverable", usually("true", ["1", "null"]))])
            payload.append(("error", usually(error, ["null", #""error""#])))
        }
        return object([
            ("version", usually(#""1.0""#, [#""""#, "1", "null"])),
            ("correlationId", usually(#""c-1""#, [#""""#, "7"])),
            ("type", usually(pick([#""request""#, #""response""#, #""event""#]), [#""Request""#, #""notice""#])),
            ("timestamp", usually(pick(["1795541427124", "1.5", "0", "-0"]), [#""1""#, "1e400"])),
            ("payload", usually(object(payload), ["null", "[]"])),
        ])
    }

    /// The fields of a traffic record, usually valid: each optional field (and mark) present with
    /// probability `extras`. Made into an object by the caller (`object(_:)`), which may spoil it.
    package mutating func trafficRecordFields(extras: Double) -> [(String, String)] {
        var record: [(String, String)] = [
            ("seq", usually("7", ["1.5", "-1", "1e300", #""7""#])),
            ("direction", usually(pick([#""received""#, #""sent""#]), [#""sideways""#, "null"])),
            ("time", usually(pick(["1795541427124.5", "2", "1e3"]), ["null", #""now""#])),
            ("origin", usually(pick([#""journey""#, #""host""#, #""inspector""#]), [#""martian""#])),
            ("bytes", usually("154", ["1.5", "null"])),
            ("message", usually(message(), ["null"])),
        ]
        for name in ["command", "rule", "deliveryError", "reported", "lost"] where chance(extras) {
            record.append((name, usually(pick([#""c1""#, "null", string()]), ["7", "true"])))
        }
        if chance(extras) { record.append(("truncated", usually(pick(["true", "false", "null"]), ["1", #""yes""#]))) }
        if chance(extras) {
            let mark = object([("id", usually(#""h1""#)), ("outcome", usually(pick([#""edited""#, #""dropped""#, #""released""#]), [#""gone""#]))])
            record.append(("hold", usually(pick([mark, "null"]), ["7"])))
        }
        if chance(extras) {
            let mark = object([
                ("rule", usually(#""r""#)), ("effect", usually(pick([#""dropped""#, #""delayed""#, #""corrupted""#]), [#""zapped""#])),
                ("detail", usually(pick([#""d""#, "null"]), ["3"])),
            ])
            record.append(("fault", usually(pick([mark, "null"]), [#""f""#])))
        }
        for name in ["delivered", "original"] where chance(extras) { record.append((name, usually(pick([message(), "null"])))) }
        return record
    }

    /// A `traffic` event frame, usually valid, sometimes another kind of frame.
    package mutating func trafficFrame() -> String {
        let record = trafficRecordFields(extras: 0.15)
        let event = object([("type", usually(#""traffic""#, [#""pendingAdded""#, #""Traffic""#])), ("record", usually(object(record)))])
        return space() + object([
            ("kind", usually(#""event""#, [#""snapshot""#, #""gap""#, "1"])), ("seq", usually("12", ["1.5", "null"])), ("event", usually(event)),
        ]) + space()
    }

    /// `text`, or (sometimes) `text` with one to three bytes deleted, inserted or replaced.
    package mutating func mutated(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8)
        guard chance(0.25) else { return bytes }
        let interesting: [UInt8] = Array(#"{}[],:"\ 0123456789.eE+-ntfu"#.utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xC0, 0xE2, 0xED, 0xF4, 0xF5, 0xFF]
        for _ in 0...below(3) {
            guard !bytes.isEmpty else { break }
            let at = below(bytes.count)
            switch below(3) {
            case 0: bytes.remove(at: at)
            case 1: bytes.insert(pick(interesting), at: at)
            default: bytes[at] = pick(interesting)
            }
        }
        return bytes
    }
}
