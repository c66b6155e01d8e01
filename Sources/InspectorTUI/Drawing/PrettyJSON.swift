import Foundation
import InspectorClient
import TerminalUI

/// A piece of text with a style: one coloured token of a line.
public struct Span: Sendable, Equatable {
    /// The text (sanitised when drawn).
    public var text: String
    /// How it looks.
    public var style: Style

    init(_ text: String, _ style: Style) {
        self.text = text
        self.style = style
    }
}

/// Pretty-prints JSON text into coloured lines, straight from its bytes, in its original key order.
///
/// Built for payloads of any size: it stops after `maxLines` lines and shows only the start of
/// very long strings (a 10 MB base64 image becomes one line with its size), so opening a huge
/// message costs one pass over its bytes at most and never freezes the screen.
public enum PrettyJSON {
    /// The result: lines, and whether anything was left out.
    public struct Output: Sendable, Equatable {
        /// The lines, each a list of spans.
        public var lines: [[Span]]
        /// Whether lines or string contents were cut.
        public var truncated: Bool
    }

    /// Formats `json`. Invalid JSON is shown as plain text lines.
    public static func format(_ json: Data, maxLines: Int = 500, maxStringLength: Int = 400) -> Output {
        var printer = Printer(maxLines: maxLines, maxStringLength: maxStringLength)
        json.withUnsafeBytes { raw in printer.run(raw.bindMemory(to: UInt8.self)) }
        return Output(lines: printer.lines, truncated: printer.truncated)
    }

    private struct Printer {
        let maxLines: Int
        let maxStringLength: Int
        var lines: [[Span]] = [[]]
        var truncated = false
        var depth = 0
        var done = false

        init(maxLines: Int, maxStringLength: Int) {
            self.maxLines = maxLines
            self.maxStringLength = maxStringLength
        }

        mutating func emit(_ text: String, _ style: Style) {
            guard !done else { return }
            lines[lines.count - 1].append(Span(text, style))
        }

        mutating func newline() {
            guard !done else { return }
            if lines.count >= maxLines {
                truncated = true
                done = true
                return
            }
            lines.append([Span(String(repeating: "  ", count: depth), .plain)])
        }

        mutating func run(_ bytes: UnsafeBufferPointer<UInt8>) {
            var index = 0
            var afterKey = false
            var containers: [UInt8] = []
            var expectKey = false
            while index < bytes.count, !done {
                let byte = bytes[index]
                switch byte {
                case 0x20, 0x0A, 0x0D, 0x09:
                    index += 1
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    emit(byte == UInt8(ascii: "{") ? "{" : "[", Theme.jsonPunctuation)
                    containers.append(byte)
                    depth += 1
                    index += 1
                    // Empty containers stay on one line.
                    var look = index
                    while look < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[look]) { look += 1 }
                    if look < bytes.count, bytes[look] == (byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        depth -= 1
                        containers.removeLast()
                        emit(byte == UInt8(ascii: "{") ? "}" : "]", Theme.jsonPunctuation)
                        index = look + 1
                    } else {
                        newline()
                        expectKey = byte == UInt8(ascii: "{")
                    }
                    afterKey = false
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth = max(0, depth - 1)
                    if !containers.isEmpty { containers.removeLast() }
                    newline()
                    emit(byte == UInt8(ascii: "}") ? "}" : "]", Theme.jsonPunctuation)
                    index += 1
                    afterKey = false
                case UInt8(ascii: ","):
                    emit(",", Theme.jsonPunctuation)
                    newline()
                    expectKey = containers.last == UInt8(ascii: "{")
                    index += 1
                case UInt8(ascii: ":"):
                    emit(": ", Theme.jsonPunctuation)
                    afterKey = true
                    index += 1
                case UInt8(ascii: "\""):
                    let (text, end, total) = readString(bytes, from: index)
                    if expectKey && !afterKey {
                        emit(text, Theme.jsonKey)
                        expectKey = false
                    } else {
                        emit(text, Theme.jsonString)
                        if total > maxStringLength {
                            emit("  … \(TimeFormat.bytes(total)) string, \(total - maxStringLength) characters not shown", Theme.dim)
                            truncated = true
                        }
                    }
                    afterKey = false
                    index = end
                default:
                    var end = index
                    while end < bytes.count, !",}] \n\r\t".utf8.contains(bytes[end]) { end += 1 }
                    if end == index { end += 1 }
                    let token = String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self)
                    let isLiteral = token == "true" || token == "false" || token == "null"
                    emit(token, isLiteral ? Theme.jsonLiteral : Theme.jsonNumber)
                    afterKey = false
                    index = end
                }
            }
        }

        /// Reads a string token starting at the quote: its shown text (cut to the limit, quotes
        /// included), where it ends, and its length in bytes.
        func readString(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (String, Int, Int) {
            var index = start + 1
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "\\") {
                    index += 2
                    continue
                }
                if bytes[index] == UInt8(ascii: "\"") { break }
                index += 1
            }
            let end = min(index + 1, bytes.count)
            let length = max(0, end - start - 2)
            let shownEnd = min(end, start + 1 + maxStringLength)
            var text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<shownEnd]), as: UTF8.self)
            if shownEnd < end { text += "…\"" }
            // Written as JSON escapes (`\u202e`, a surrogate pair above U+FFFF), not as the
            // terminal's visible escapes: safe to show, and a copy is still valid JSON.
            return (Sanitizer.sanitize(json: text), end, length)
        }
    }
}
