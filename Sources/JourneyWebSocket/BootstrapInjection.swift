/// Puts the bridge bootstrap's `<script>` element at document start of an HTML page, before any of
/// the page's own scripts: what `WKUserScript(injectionTime: .atDocumentStart)` achieves on iOS.
///
/// The element goes after a byte-order mark, leading comments, the doctype and the opening
/// `<html>` and `<head>` tags when they come first, and before anything else. It is a classic
/// (parser-blocking) script, so it has run before the parser reaches the page's first script.
enum BootstrapInjection {
    /// The element inserted into every top-level HTML page.
    static let element = #"<script src="\#(WebJourneyPaths.bootstrapScript)"></script>"#

    /// `html` with ``element`` inserted at document start.
    static func inject(into html: [UInt8]) -> [UInt8] {
        let index = insertionIndex(in: html)
        var output = [UInt8]()
        output.reserveCapacity(html.count + element.utf8.count)
        output.append(contentsOf: html[..<index])
        output.append(contentsOf: element.utf8)
        output.append(contentsOf: html[index...])
        return output
    }

    /// Where the element goes.
    static func insertionIndex(in html: [UInt8]) -> Int {
        var index = 0
        if html.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        // Comments, the doctype and an XML declaration may come first.
        while true {
            index = skipWhitespace(html, from: index)
            if matches(html, at: index, "<!--") {
                guard let end = find(html, "-->", from: index + 4) else { return index }
                index = end + 3
            } else if matches(html, at: index, "<!doctype") || matches(html, at: index, "<?") {
                guard let end = tagEnd(html, from: index) else { return index }
                index = end + 1
            } else {
                break
            }
        }
        if isTag(html, at: index, named: "html") {
            guard let end = tagEnd(html, from: index) else { return index }
            index = end + 1
            while true {
                let next = skipWhitespace(html, from: index)
                guard matches(html, at: next, "<!--"), let end = find(html, "-->", from: next + 4) else { break }
                index = end + 3
            }
        }
        let next = skipWhitespace(html, from: index)
        if isTag(html, at: next, named: "head") {
            guard let end = tagEnd(html, from: next) else { return index }
            index = end + 1
        }
        return index
    }

    private static func skipWhitespace(_ html: [UInt8], from start: Int) -> Int {
        var index = start
        while index < html.count, [0x20, 0x09, 0x0A, 0x0C, 0x0D].contains(html[index]) { index += 1 }
        return index
    }

    /// Whether `html` has `text` at `index`, ignoring ASCII case.
    private static func matches(_ html: [UInt8], at index: Int, _ text: String) -> Bool {
        let pattern = Array(text.utf8)
        guard index + pattern.count <= html.count else { return false }
        for (offset, byte) in pattern.enumerated() where lowercased(html[index + offset]) != byte {
            return false
        }
        return true
    }

    /// Whether a start tag `<name` (followed by whitespace, `>` or `/`) is at `index`.
    private static func isTag(_ html: [UInt8], at index: Int, named name: String) -> Bool {
        guard matches(html, at: index, "<" + name) else { return false }
        let after = index + 1 + name.utf8.count
        guard after < html.count else { return false }
        return [0x20, 0x09, 0x0A, 0x0C, 0x0D, UInt8(ascii: ">"), UInt8(ascii: "/")].contains(html[after])
    }

    /// The index of the `>` that ends the tag starting at `start`, skipping quoted attribute values.
    private static func tagEnd(_ html: [UInt8], from start: Int) -> Int? {
        var quote: UInt8?
        var index = start
        while index < html.count {
            let byte = html[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return index
            }
            index += 1
        }
        return nil
    }

    private static func find(_ html: [UInt8], _ text: String, from start: Int) -> Int? {
        let pattern = Array(text.utf8)
        guard pattern.count <= html.count else { return nil }
        var index = start
        while index + pattern.count <= html.count {
            if html[index..<index + pattern.count].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
