import Foundation

/// Finds where a value lies inside JSON text, without parsing it: a light scan that only
/// matches quotes and brackets, for keeping a message's bytes exactly as they arrived.
///
/// A client decodes a frame into ``BridgeCore/JSONValue``, whose numbers are `Double`s: shown
/// from that, `9007199254740993` would read `9007199254740992` and `1.0` would read `1`. The
/// agent splices every message's bytes into its frames verbatim, so the exact text is in the
/// frame line; this finds it:
///
/// ```swift
/// let line = Data(#"{"kind":"event","event":{"record":{"message":{"id":9007199254740993}}}}"#.utf8)
/// let range = JSONExtent.value(at: ["event", "record", "message"], in: line)  // the message's bytes
/// ```
///
/// Only for text already known to be valid JSON (the frame parsed): it checks bounds, never
/// syntax. The last of duplicate keys is found, as ``BridgeCore/JSONParser`` keeps the last; a
/// key written with an escape (`"m\u0065ssage"`) is not compared, so an object holding one gives
/// `nil` rather than a value the parser did not take.
public enum JSONExtent {
    /// The byte range (indices of `json`) of the value at `path`, a list of object keys from the
    /// top-level value; `nil` when a step is missing or not an object.
    public static func value(at path: [String], in json: Data) -> Range<Int>? {
        json.withUnsafeBytes { raw in
            let scanner = Scanner(bytes: raw)
            guard let range = scanner.value(at: path[...], from: scanner.skipWhitespace(0)) else { return nil }
            return (json.startIndex + range.lowerBound)..<(json.startIndex + range.upperBound)
        }
    }

    /// The byte ranges (indices of `json`) of the elements of the array at `path`; `nil` when
    /// there is no array there.
    public static func elements(at path: [String], in json: Data) -> [Range<Int>]? {
        json.withUnsafeBytes { raw in
            let scanner = Scanner(bytes: raw)
            guard let array = scanner.value(at: path[...], from: scanner.skipWhitespace(0)),
                let elements = scanner.elements(ofArrayAt: array.lowerBound)
            else { return nil }
            return elements.map { (json.startIndex + $0.lowerBound)..<(json.startIndex + $0.upperBound) }
        }
    }

    /// `json` with the value at `path` replaced by `replacement` (JSON text the caller vouches
    /// for); `json` unchanged when there is no value there.
    public static func replacingValue(at path: [String], in json: Data, with replacement: Data) -> Data {
        guard let range = value(at: path, in: json) else { return json }
        var result = json
        result.replaceSubrange(range, with: replacement)
        return result
    }

    private struct Scanner {
        let bytes: UnsafeRawBufferPointer

        func skipWhitespace(_ start: Int) -> Int {
            var index = start
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
                index += 1
            }
            return index
        }

        /// The index after the string that opens at `start`.
        func endOfString(_ start: Int) -> Int {
            var index = start + 1
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\\"): index += 2
                case UInt8(ascii: "\""): return index + 1
                default: index += 1
                }
            }
            return bytes.count
        }

        /// The index after the value that starts at `start`.
        func endOfValue(_ start: Int) -> Int {
            guard start < bytes.count else { return start }
            switch bytes[start] {
            case UInt8(ascii: "\""):
                return endOfString(start)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                var index = start
                while index < bytes.count {
                    switch bytes[index] {
                    case UInt8(ascii: "\""):
                        index = endOfString(index)
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["):
                        depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 { return index + 1 }
                    default:
                        break
                    }
                    index += 1
                }
                return bytes.count
            default:
                // A number or a literal: up to the next separator.
                var index = start
                while index < bytes.count {
                    switch bytes[index] {
                    case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09: return index
                    default: index += 1
                    }
                }
                return index
            }
        }

        /// Whether the key between `start` and `end` (quotes excluded) is `name`, byte for byte.
        func key(_ start: Int, _ end: Int, is name: String) -> Bool {
            var utf8 = name.utf8.makeIterator()
            var index = start
            while index < end {
                guard let expected = utf8.next(), bytes[index] == expected else { return false }
                index += 1
            }
            return utf8.next() == nil
        }

        /// The range of the value at `path` below the value that starts at `start`.
        func value(at path: ArraySlice<String>, from start: Int) -> Range<Int>? {
            scan(start, path: path)?.found
        }

        /// Scans the value that starts at `start` once, finding the value at `path` inside it on
        /// the way: where the value ends, and the range found (`nil` when there is none). `nil`
        /// when an object on the path has a key written with an escape.
        func scan(_ start: Int, path: ArraySlice<String>) -> (end: Int, found: Range<Int>?)? {
            guard let name = path.first else {
                let end = endOfValue(start)
                return (end, start..<end)
            }
            guard start < bytes.count, bytes[start] == UInt8(ascii: "{") else { return (endOfValue(start), nil) }
            var found: Range<Int>?
            var index = skipWhitespace(start + 1)
            while index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                let keyEnd = endOfString(index)
                let keyBytes = (index + 1)..<max(index + 1, keyEnd - 1)
                // An escaped key may spell `name` another way: do not guess which value counts.
                if keyBytes.contains(where: { bytes[$0] == UInt8(ascii: "\\") }) { return nil }
                index = skipWhitespace(keyEnd)
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                let valueStart = skipWhitespace(index + 1)
                let valueEnd: Int
                if key(keyBytes.lowerBound, keyBytes.upperBound, is: name) {
                    // The last of duplicate keys counts, as for JSONParser.
                    guard let inner = scan(valueStart, path: path.dropFirst()) else { return nil }
                    (valueEnd, found) = inner
                } else {
                    valueEnd = endOfValue(valueStart)
                }
                index = skipWhitespace(valueEnd)
                guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { break }
                index = skipWhitespace(index + 1)
            }
            // Past the closing brace.
            return (min(index + 1, bytes.count), found)
        }

        /// The ranges of the elements of the array at `start`.
        func elements(ofArrayAt start: Int) -> [Range<Int>]? {
            guard start < bytes.count, bytes[start] == UInt8(ascii: "[") else { return nil }
            var ranges: [Range<Int>] = []
            var index = skipWhitespace(start + 1)
            while index < bytes.count, bytes[index] != UInt8(ascii: "]") {
                let end = endOfValue(index)
                guard end > index else { return nil }
                ranges.append(index..<end)
                index = skipWhitespace(end)
                guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { break }
                index = skipWhitespace(index + 1)
            }
            return ranges
        }
    }
}
