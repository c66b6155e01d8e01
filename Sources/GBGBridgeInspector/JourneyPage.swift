import BridgeCore
import Foundation

/// The journey's page, as the inspector can reach it: where a message can be posted exactly as
/// the journey's own code posts it, through the page's
/// `window.webkit.messageHandlers.gbgBridge.postMessage(message)`, so that GBGBridge receives it
/// the way it receives every journey message. This is how `inject` and `replay` work for an app
/// that embeds GBGBridge, whose public API cannot be handed a message.
///
/// The app integration makes one from the app's `WKWebView` (evaluating ``JourneyPost/script``);
/// `bridge-inspector host` makes one for a page in WebKit or in a browser. Give it to
/// ``GBGBridgeInspector/start(api:hostVersion:name:socketPath:limits:tcp:journeyPage:)``:
///
/// ```swift
/// final class WebViewPage: JourneyPage {
///     weak var webView: WKWebView?
///     var unavailableReason: String? { webView == nil ? "the journey's web view is gone" : nil }
///     func post(asJourney post: JourneyPost) { webView?.evaluateJavaScript(post.script) }
///     var canHold: Bool { true }
///     func send(_ command: PageInterceptCommand) { webView?.evaluateJavaScript(command.script) }
/// }
/// ```
@MainActor
public protocol JourneyPage: AnyObject {
    /// Why nothing can be posted now (no page is loaded, the web view is gone), for a person;
    /// `nil` when ``post(asJourney:)`` can post.
    var unavailableReason: String? { get }
    /// Posts `post` in the page as the journey would.
    func post(asJourney post: JourneyPost)
    /// Whether the page runs ``PageInterceptScript``, so breakpoints can hold messages there;
    /// `false` by default.
    var canHold: Bool { get }
    /// Hands ``PageInterceptScript`` a command, without waiting (a web view evaluates its
    /// ``PageInterceptCommand/script``).
    func send(_ command: PageInterceptCommand)
}

extension JourneyPage {
    public var canHold: Bool { false }
}

/// One message to post in the journey's page as the journey would (see ``JourneyPage``).
///
/// A text that is a JSON object is posted as that object, as the web SDK posts its messages;
/// any other text (a malformed message, to see how GBGBridge takes it) is posted as a string.
public struct JourneyPost: Sendable, Equatable {
    /// The message's text (bytes that are not UTF-8 are replaced with U+FFFD).
    public let text: String
    /// Whether ``text`` is a JSON object, posted as the object rather than as a string.
    public let isObject: Bool

    /// A post of `bytes`, as an inspector's `inject` hands them over.
    public init(bytes: Data) {
        text = String(decoding: bytes, as: UTF8.self)
        isObject = bytes.first(where: { !Self.isJSONSpace($0) }) == UInt8(ascii: "{")
            && (try? JSONSerialization.jsonObject(with: Data(text.utf8))) is [String: Any]
    }

    /// The script that posts it, for a web view's `evaluateJavaScript`: the message as an
    /// object-literal expression (or a string literal), never spliced into quotes, escaped as the
    /// bridge's own deliveries are (BridgeCore's `JavaScriptDelivery.escapedExpression(_:)`). It ends in
    /// `void 0`: WebKit's `postMessage` returns a promise, which `evaluateJavaScript` cannot
    /// hand back and would report as an error.
    public var script: String {
        let literal = isObject ? Data(text.utf8) : ((try? JSONEncoding.encode(text)) ?? Data("\"\"".utf8))
        return "window.webkit.messageHandlers.gbgBridge.postMessage(" + JavaScriptDelivery.escapedExpression(literal) + "); void 0;"
    }

    private static func isJSONSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
