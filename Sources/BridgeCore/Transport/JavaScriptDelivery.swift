import Foundation

/// Produces the JavaScript that hands one message to the web journey, the way GBGBridge's
/// `evaluateJavaScript` call does: `window.GBGBridge.receive(<message>);`.
///
/// The message's JSON is passed as an object-literal expression, never spliced into a quoted
/// string, so `receive` gets exactly the object that was encoded. JSON is already a valid
/// JavaScript expression; on top of that, `<` becomes `\u003c` (so `</script>` or `<!--` cannot
/// end an enclosing script element) and U+2028/U+2029 become `\u2028`/`\u2029` (line terminators
/// in older JavaScript engines). These characters only ever occur inside JSON strings, where the
/// escapes mean the same characters.
///
/// ```swift
/// let script = JavaScriptDelivery.script(forMessageJSON: json)
/// webView.evaluateJavaScript(script)
/// ```
public enum JavaScriptDelivery {
    /// The function every delivery calls.
    public static let receiveFunction = "window.GBGBridge.receive"

    /// The script that delivers the message whose compact JSON is `json`.
    public static func script(forMessageJSON json: Data) -> String {
        receiveFunction + "(" + escapedExpression(json) + ");"
    }

    /// `json` made safe to embed in JavaScript source as an expression (see the type's notes).
    public static func escapedExpression(_ json: Data) -> String {
        var output = [UInt8]()
        output.reserveCapacity(json.count + 16)
        json.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "<") {
                    output.append(contentsOf: Array("\\u003c".utf8))
                } else if byte == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80,
                    bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9
                {
                    output.append(contentsOf: Array((bytes[index + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8))
                    index += 2
                } else {
                    output.append(byte)
                }
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Recovers the message JSON from a script made by ``script(forMessageJSON:)``.
    ///
    /// A simulated journey uses this to receive through the very same delivery path: the
    /// expression between the parentheses is JSON, because every escape used is also a JSON escape.
    public static func messageJSON(fromScript script: String) -> Data? {
        let prefix = receiveFunction + "("
        let suffix = ");"
        guard script.hasPrefix(prefix), script.hasSuffix(suffix), script.count >= prefix.count + suffix.count else { return nil }
        let utf8 = script.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: prefix.utf8.count)
        let end = utf8.index(utf8.endIndex, offsetBy: -suffix.utf8.count)
        guard start <= end else { return nil }
        return Data(utf8[start..<end])
    }
}
