import BridgeCore
import Foundation
import InspectorProtocol

/// How a ``Redactor`` redacts one string: a `data:` URL, JSON held in a string, base64 runs in
/// text, and named fields in text that is not JSON.
extension Redactor {
    private static let dataPrefix = Array("data:".utf8)
    private static let base64Marker = Array(";base64,".utf8)
    /// How far into a `data:` URL its `;base64,` may lie (the media type and its parameters).
    private static let maxDataURLHeader = 256

    /// `text` redacted; `stringNesting` counts the strings of JSON it was found in.
    mutating func redactString(_ text: String, stringNesting: Int) -> String {
        let bytes = Array(text.utf8)
        if let header = Self.dataURLHeader(bytes[...]), header.payloadStart < bytes.count {
            return describe(run: bytes[header.payloadStart...], declaredType: header.type)
        }
        if stringNesting < Self.maxStringNesting,
            let first = bytes.first(where: { !Self.isJSONWhitespace($0) }), first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
            let value = JSONParser.parse(bytes)
        {
            let before = report
            let redacted = walk(value, stringNesting: stringNesting + 1, looseMessage: true)
            guard report != before else { return text }
            var writer = JSONWriter(capacity: bytes.count)
            writer.value(redacted)
            return String(decoding: writer.bytes, as: UTF8.self)
        }
        var result = bytes
        if result.count >= options.minBase64Length { result = replaceBase64Runs(in: result) }
        if !options.fields.isEmpty, result.contains(UInt8(ascii: "\"")) { result = replaceNamedFields(inText: result) }
        return result == bytes ? text : String(decoding: result, as: UTF8.self)
    }

    // MARK: - data: URLs and base64

    /// The declared media type of a `data:` URL at the start of `bytes` and where its base64
    /// begins, or `nil` when `bytes` does not start with one.
    private static func dataURLHeader(_ bytes: ArraySlice<UInt8>) -> (type: String, payloadStart: Int)? {
        guard bytes.count > dataPrefix.count, zip(bytes.prefix(dataPrefix.count), dataPrefix).allSatisfy({ lowercase($0) == $1 }) else { return nil }
        let limit = min(bytes.endIndex, bytes.startIndex + maxDataURLHeader)
        var index = bytes.startIndex + dataPrefix.count
        while index + base64Marker.count <= limit {
            if bytes[index..<(index + base64Marker.count)].elementsEqual(base64Marker) {
                let typeBytes = bytes[(bytes.startIndex + dataPrefix.count)...].prefix { $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: ",") }
                return (mediaType(typeBytes), index + base64Marker.count)
            }
            index += 1
        }
        return nil
    }

    /// A declared media type fit to write in a descriptor (letters, digits and `.+-/`, at most
    /// 80 characters; anything else is `data`).
    private static func mediaType(_ bytes: some Collection<UInt8>) -> String {
        let allowed = bytes.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "/") }
        guard allowed, !bytes.isEmpty, bytes.count <= 80 else { return "data" }
        return String(decoding: bytes.map(lowercase), as: UTF8.self)
    }

    /// `bytes` with every run of base64 characters of at least the minimum length replaced by
    /// its descriptor (with the `data:` URL header before it, when there is one).
    private mutating func replaceBase64Runs(in bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            guard Self.isBase64(bytes[index]) else {
                result.append(bytes[index])
                index += 1
                continue
            }
            let start = index
            while index < bytes.count {
                if Self.isBase64(bytes[index]) {
                    index += 1
                } else if bytes[index] == 0x0A || bytes[index] == 0x0D, index + 1 < bytes.count, Self.isBase64(bytes[index + 1]) || bytes[index + 1] == 0x0A {
                    index += 1
                } else {
                    break
                }
            }
            while index < bytes.count, bytes[index] == UInt8(ascii: "=") { index += 1 }
            let run = bytes[start..<index]
            guard run.count >= options.minBase64Length else {
                result.append(contentsOf: run)
                continue
            }
            var declared: String?
            if result.count >= Self.base64Marker.count, result.suffix(Self.base64Marker.count).elementsEqual(Self.base64Marker) {
                let window = result.suffix(Self.maxDataURLHeader)
                if let dataStart = Self.lastRange(of: Self.dataPrefix, in: window),
                    let header = Self.dataURLHeader(window[dataStart...]), header.payloadStart == window.endIndex
                {
                    declared = header.type
                    result.removeSubrange(dataStart...)
                }
            }
            result.append(contentsOf: describe(run: run, declaredType: declared).utf8)
        }
        return result
    }

    /// The descriptor that replaces base64 `run` (counted in the report).
    private mutating func describe(run: ArraySlice<UInt8>, declaredType: String?) -> String {
        guard let decoded = Self.decodeBase64(run) else {
            report.otherBase64 += 1
            return "[redacted \(declaredType ?? "text") \(run.count) characters sha256:\(Self.fingerprint(run))]"
        }
        let hash = Self.fingerprint(decoded)
        if case .success(let image) = ImageHeader.read(decoded) {
            report.images += 1
            return "[redacted \(image.mimeType) \(image.width)x\(image.height) \(decoded.count) bytes sha256:\(hash)]"
        }
        if declaredType?.hasPrefix("image/") == true { report.images += 1 } else { report.otherBase64 += 1 }
        return "[redacted \(declaredType ?? "base64") \(decoded.count) bytes sha256:\(hash)]"
    }

    /// The first 16 hex digits of the SHA-256 of `bytes` (see ``Redactor``).
    static func fingerprint(_ bytes: some Collection<UInt8>) -> String {
        String(SHA256.hex(bytes).prefix(16))
    }

    /// The bytes base64 `run` holds (standard or URL-safe alphabet, padded or not, with line
    /// breaks), or `nil` when it is not base64.
    private static func decodeBase64(_ run: ArraySlice<UInt8>) -> Data? {
        var clean: [UInt8] = []
        clean.reserveCapacity(run.count + 3)
        for byte in run where byte != 0x0A && byte != 0x0D && byte != UInt8(ascii: "=") {
            switch byte {
            case UInt8(ascii: "-"): clean.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): clean.append(UInt8(ascii: "/"))
            default: clean.append(byte)
            }
        }
        guard clean.count % 4 != 1 else { return nil }
        while clean.count % 4 != 0 { clean.append(UInt8(ascii: "=")) }
        return Data(base64Encoded: Data(clean))
    }

    private static func lastRange(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var index = haystack.endIndex - needle.count
        while index >= haystack.startIndex {
            if zip(haystack[index..<(index + needle.count)], needle).allSatisfy({ lowercase($0) == $1 }) { return index }
            index -= 1
        }
        return nil
    }

    private static func isBase64(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    private static func lowercase(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    private static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    // MARK: - Named fields in text

    /// `bytes` (text that is not JSON) with the value after each `"key":`, for the last key of
    /// each named field, replaced by its token.
    private mutating func replaceNamedFields(inText bytes: [UInt8]) -> [UInt8] {
        let keys = Set(options.fields.compactMap { path -> [UInt8]? in
            guard case .key(let name)? = path.steps.last else { return nil }
            return Array("\"\(name)\"".utf8)
        })
        guard !keys.isEmpty else { return bytes }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        scan: while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "\"") else {
                result.append(bytes[index])
                index += 1
                continue
            }
            for key in keys where index + key.count <= bytes.count && bytes[index..<(index + key.count)].elementsEqual(key) {
                var cursor = index + key.count
                while cursor < bytes.count, Self.isJSONWhitespace(bytes[cursor]) { cursor += 1 }
                guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: ":") else { continue }
                cursor += 1
                while cursor < bytes.count, Self.isJSONWhitespace(bytes[cursor]) { cursor += 1 }
                let valueStart = cursor
                let valueEnd = Self.endOfTextValue(bytes, from: valueStart)
                guard valueEnd > valueStart else { continue }
                let raw = bytes[valueStart..<valueEnd]
                let value = JSONParser.parse(Array(raw)) ?? .string(String(decoding: raw, as: UTF8.self))
                result.append(contentsOf: bytes[index..<valueStart])
                var writer = JSONWriter()
                writer.value(token(for: value))
                result.append(contentsOf: writer.bytes)
                index = valueEnd
                continue scan
            }
            result.append(bytes[index])
            index += 1
        }
        return result
    }

    /// Where a value that starts at `start` in text ends: a quoted string at its closing quote
    /// (or the end of the text), anything else at `,`, `}`, `]` or whitespace.
    private static func endOfTextValue(_ bytes: [UInt8], from start: Int) -> Int {
        guard start < bytes.count else { return start }
        var index = start
        if bytes[index] == UInt8(ascii: "\"") {
            index += 1
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "\\") {
                    index += 2
                } else if bytes[index] == UInt8(ascii: "\"") {
                    return index + 1
                } else {
                    index += 1
                }
            }
            return bytes.count
        }
        while index < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]")].contains(bytes[index]), !isJSONWhitespace(bytes[index]) { index += 1 }
        return index
    }
}
