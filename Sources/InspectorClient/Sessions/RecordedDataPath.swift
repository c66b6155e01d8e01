import BridgeCore

/// A field of a request's data that may differ between a live request and the recorded one it
/// is matched with (`host --recording FILE --match-ignore PATH`): a journey that puts a
/// timestamp, a nonce or a generated id in its request still gets the recorded answer.
///
/// Written as the field's keys joined by dots, from the request's `data` (the `data.` in front
/// is optional): `data.nonce`, `data.device.clock`; `*` stands for any one key or array element
/// (`data.items.*.addedAt`), a number for that element of an array. A key that contains a dot
/// cannot be named.
public struct RecordedDataPath: Sendable, Hashable, CustomStringConvertible {
    /// The keys from the request's data down to the field.
    public var segments: [String]

    /// Reads `text`; `nil` when it names no field (empty, or an empty segment such as `a..b`).
    public init?(_ text: String) {
        var segments = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if segments.first == "data" { segments.removeFirst() }
        guard !segments.isEmpty, !segments.contains(where: \.isEmpty) else { return nil }
        self.segments = segments
    }

    /// `data.` and the segments, as a person writes it.
    public var description: String { (["data"] + segments).joined(separator: ".") }

    /// `data` without the fields this path names (unchanged when it names none).
    public func removing(from data: [String: JSONValue]) -> [String: JSONValue] {
        guard case .object(let object) = Self.removing(segments[...], from: .object(data)) else { return data }
        return object
    }

    private static func removing(_ path: ArraySlice<String>, from value: JSONValue) -> JSONValue {
        guard let key = path.first else { return value }
        let rest = path.dropFirst()
        switch value {
        case .object(var object):
            if rest.isEmpty {
                if key == "*" { return .object([:]) }
                object.removeValue(forKey: key)
                return .object(object)
            }
            for name in key == "*" ? Array(object.keys) : [key] {
                guard let child = object[name] else { continue }
                object[name] = removing(rest, from: child)
            }
            return .object(object)
        case .array(var elements):
            let indexes = key == "*" ? Array(elements.indices) : Int(key).map { elements.indices.contains($0) ? [$0] : [] } ?? []
            if rest.isEmpty {
                // A removed element leaves a hole of `null`, so later elements keep their places.
                for index in indexes { elements[index] = .null }
                return .array(elements)
            }
            for index in indexes { elements[index] = removing(rest, from: elements[index]) }
            return .array(elements)
        default:
            return value
        }
    }

    /// The paths (as ``description`` writes them) where `a` and `b` differ, in sorted order, at
    /// most `limit` of them: what a person names with `--match-ignore` to match the two anyway.
    public static func differences(_ a: [String: JSONValue]?, _ b: [String: JSONValue]?, limit: Int = 5) -> [String] {
        var found: [String] = []
        collect(.object(a ?? [:]), .object(b ?? [:]), path: ["data"], into: &found, limit: limit)
        return found
    }

    private static func collect(_ a: JSONValue, _ b: JSONValue, path: [String], into found: inout [String], limit: Int) {
        guard found.count < limit, a != b else { return }
        switch (a, b) {
        case (.object(let left), .object(let right)):
            for key in Set(left.keys).union(right.keys).sorted() {
                collect(left[key] ?? .null, right[key] ?? .null, path: path + [key], into: &found, limit: limit)
                // A key present on one side only differs even when the other side's value is null.
                if (left[key] == nil) != (right[key] == nil), !found.contains((path + [key]).joined(separator: ".")), found.count < limit {
                    found.append((path + [key]).joined(separator: "."))
                }
            }
        case (.array(let left), .array(let right)) where left.count == right.count:
            for index in left.indices {
                collect(left[index], right[index], path: path + [String(index)], into: &found, limit: limit)
            }
        default:
            found.append(path.joined(separator: "."))
        }
    }
}
