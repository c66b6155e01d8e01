import BridgeCore
import Foundation

/// How ``SessionDiff`` compares the values of two messages: the options' ignores applied, long
/// base64 replaced by the descriptor `redact` writes (type, size and a SHA-256 prefix), host
/// event ids made equal, values `redact --field` replaced left out, then a walk that names every
/// value that differs by its path.
struct SessionValueComparison: Sendable {
    /// What is ignored.
    let options: SessionDiffOptions

    /// A string at least this long made of base64 only is image-like data: compared and shown
    /// by its type, size and hash (``Redactor``'s threshold).
    static let base64Threshold = 256

    /// The longest value a report shows before it is shortened with `…`.
    static let displayLimit = 80

    /// One value that differs.
    struct Change: Sendable, Hashable {
        var path: SessionFieldPath
        var old: JSONValue?
        var new: JSONValue?
    }

    /// `value` (at `path`) as compared: ignored members dropped (ignored array elements become
    /// `null`, so the positions after them stay), base64 as `<base64 …>` and host event ids as
    /// one placeholder.
    func normalized(_ value: JSONValue, at path: SessionFieldPath) -> JSONValue {
        switch value {
        case .object(let fields):
            var kept: [String: JSONValue] = [:]
            for (key, member) in fields {
                let memberPath = path.appending(.key(key))
                guard !options.ignores(memberPath) else { continue }
                kept[key] = normalized(member, at: memberPath)
            }
            return .object(kept)
        case .array(let elements):
            return .array(elements.enumerated().map { index, element in
                let elementPath = path.appending(.index(index))
                return options.ignores(elementPath) ? .null : normalized(element, at: elementPath)
            })
        case .string(let text):
            if let summary = Self.base64Summary(text) { return .string(summary) }
            if options.useDefaultIgnores, Self.isHostEventId(text) { return .string("<host event id>") }
            return value
        case .number, .bool, .null:
            return value
        }
    }

    /// The values that differ between `left` and `right` (both already ``normalized(_:at:)``),
    /// in path order; a member on one side only is a change with `nil` on the other.
    func changes(_ left: JSONValue?, _ right: JSONValue?, at path: SessionFieldPath, into found: inout [Change]) {
        switch (left, right) {
        case (.object(let l)?, .object(let r)?):
            for key in Set(l.keys).union(r.keys).sorted() {
                changes(l[key], r[key], at: path.appending(.key(key)), into: &found)
            }
        case (.array(let l)?, .array(let r)?):
            for index in 0..<max(l.count, r.count) {
                // Written out: a bare `nil` here would be read as JSON's `null`, not "absent".
                let leftElement: JSONValue? = index < l.count ? .some(l[index]) : .none
                let rightElement: JSONValue? = index < r.count ? .some(r[index]) : .none
                changes(leftElement, rightElement, at: path.appending(.index(index)), into: &found)
            }
        case (.string(let text)?, _) where Redactor.isToken(text), (_, .string(let text)?) where Redactor.isToken(text):
            // A value `redact --field` replaced cannot be compared with anything: it is left out.
            return
        default:
            if left != right { found.append(Change(path: path, old: left, new: right)) }
        }
    }

    /// What `redact` writes for a long base64 string (or a `data:` URL of one), such as
    /// `[redacted image/png 1280x808 36419 bytes sha256:c60bdff2b725f558]`, else `nil`: the
    /// same descriptor as ``Redactor``'s, so a redacted recording compares equal to a session
    /// whose images were the same.
    static func base64Summary(_ text: String) -> String? {
        let utf8 = text.utf8
        guard utf8.count >= base64Threshold else { return nil }
        var body = Substring(text)
        if text.hasPrefix("data:"), let comma = text.firstIndex(of: ",") {
            guard text[..<comma].hasSuffix(";base64") else { return nil }
            body = text[text.index(after: comma)...]
        }
        for byte in body.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="), UInt8(ascii: "-"), UInt8(ascii: "_"), 0x0A, 0x0D:
                continue
            default:
                return nil
            }
        }
        var redactor = Redactor(options: .init(minBase64Length: base64Threshold))
        return redactor.redact(text: text)
    }

    /// Whether `text` is a host event id, `<environment>-event-<uuid>`.
    static func isHostEventId(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        let marker = Array("-event-".utf8)
        guard utf8.count > 36 + marker.count else { return false }
        let uuid = utf8[(utf8.count - 36)...]
        let before = utf8[(utf8.count - 36 - marker.count)..<(utf8.count - 36)]
        guard before.elementsEqual(marker), utf8.count > 36 + marker.count else { return false }
        for (offset, byte) in uuid.enumerated() {
            if [8, 13, 18, 23].contains(offset) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
                else { return false }
            }
        }
        return true
    }

    /// A value as a report shows it: compact JSON, sorted keys, at most ``displayLimit``
    /// characters; `nil` (absent) stays `nil`. Untrusted: make it safe before printing.
    static func display(_ value: JSONValue?) -> String? {
        guard let value else { return nil }
        let text: String
        if case .string(let string) = value, string.hasPrefix("[redacted ") || string == "<host event id>" {
            text = string
        } else {
            text = (try? JSONEncoding.compact.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
        }
        return shortened(text)
    }

    /// A string value as its text (a status, an error code), anything else as ``display(_:)``.
    static func plain(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value { return shortened(text) }
        return display(value)
    }

    /// `text` cut to ``displayLimit`` characters with `…`.
    static func shortened(_ text: String, limit: Int = displayLimit) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }
}
