import BridgeCore
import Foundation

/// A JavaScript line that reproduces one logged message when pasted into Safari Web Inspector's
/// console on the journey's page, as GBGBridge's troubleshooting guide suggests ("use the console
/// to inspect window.GBGBridge and test message sending").
///
/// - A message the journey sent (received by the host) is sent again the way the journey sends:
///   `window.webkit.messageHandlers.gbgBridge.postMessage(JSON.parse("<message>"));`.
/// - A message the host sent is delivered again to the function the host delivers to:
///   `window.GBGBridge.receive(JSON.parse("<message>"));`.
///
/// The message is its JSON exactly as it crossed the bridge, inside a JavaScript string literal
/// that `JSON.parse` reads, not an object literal: in an object literal a `"__proto__"` key sets
/// the object's prototype instead of making a key, so the message would lose it, while
/// `JSON.parse` keeps every key as the journey's own `JSON.parse` does. The literal
/// (``stringLiteral(_:)``) escapes quotes, backslashes, control characters, `<` (so no
/// `</script>` or `<!--` appears) and U+2028/U+2029, so the line is one line, safe to paste as a
/// script. Malformed input is not a message: there is no line for it.
public enum SafariConsoleLine {
    /// What the journey calls to send a message to the host.
    public static let postMessageFunction = "window.webkit.messageHandlers.gbgBridge.postMessage"

    /// The line for `entry`, or `nil` when it is not a message (malformed input or a marker).
    public static func line(for entry: LogEntry) -> String? {
        guard entry.kind == .message, let direction = entry.direction, !entry.json.isEmpty else { return nil }
        let function = direction == .received ? postMessageFunction : JavaScriptDelivery.receiveFunction
        return function + "(JSON.parse(" + stringLiteral(String(decoding: entry.json, as: UTF8.self)) + "));"
    }

    /// `text` as a double-quoted JavaScript string literal that holds exactly `text`, on one
    /// line and safe inside a `<script>` element: `"` and `\` escaped, control characters,
    /// DEL, `<`, `>`, U+2028 and U+2029 as `\uXXXX`; everything else as it is.
    public static func stringLiteral(_ text: String) -> String {
        var literal = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": literal += "\\\""
            case "\\": literal += "\\\\"
            case "<", ">", "\u{2028}", "\u{2029}", "\u{7F}":
                literal += unicodeEscape(scalar)
            default:
                if scalar.value < 0x20 {
                    literal += unicodeEscape(scalar)
                } else {
                    literal.unicodeScalars.append(scalar)
                }
            }
        }
        return literal + "\""
    }

    private static func unicodeEscape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
