import BridgeCore
import Foundation

/// A JavaScript line that reproduces one logged message when pasted into Safari Web Inspector's
/// console on the journey's page, as GBGBridge's troubleshooting guide suggests ("use the console
/// to inspect window.GBGBridge and test message sending").
///
/// - A message the journey sent (received by the host) is sent again the way the journey sends:
///   `window.webkit.messageHandlers.gbgBridge.postMessage(<message>);`. The docs' examples pass
///   the message as an object (`postMessage(message)` with `message` an object literal), so
///   the line does too.
/// - A message the host sent is delivered again the way the host delivers it:
///   `window.GBGBridge.receive(<message>);`, the very script ``JavaScriptDelivery`` produces.
///
/// The message is its JSON exactly as it crossed the bridge, made safe to paste as a script by
/// ``JavaScriptDelivery/escapedExpression(_:)`` (`<` and U+2028/U+2029 escaped). Malformed input
/// is not a message: there is no line for it.
public enum SafariConsoleLine {
    /// What the journey calls to send a message to the host.
    public static let postMessageFunction = "window.webkit.messageHandlers.gbgBridge.postMessage"

    /// The line for `entry`, or `nil` when it is not a message (malformed input or a marker).
    public static func line(for entry: LogEntry) -> String? {
        guard entry.kind == .message, let direction = entry.direction, !entry.json.isEmpty else { return nil }
        switch direction {
        case .received:
            return postMessageFunction + "(" + JavaScriptDelivery.escapedExpression(entry.json) + ");"
        case .sent:
            return JavaScriptDelivery.script(forMessageJSON: entry.json)
        }
    }
}
