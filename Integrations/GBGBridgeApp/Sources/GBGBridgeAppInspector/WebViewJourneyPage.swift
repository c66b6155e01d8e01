import GBGBridgeInspector
import WebKit

/// The journey's page in the app's `WKWebView`, for `inject`, `replay` and breakpoints: a message is posted
/// by evaluating `window.webkit.messageHandlers.gbgBridge.postMessage(...)` in the page, so
/// GBGBridge receives it through its own script message handler, as every journey message.
///
/// Held weakly, as GBGBridge holds the web view; found later for an app that never holds it
/// (SwiftUI), when ``GBGBridgeInspector/tap(_:)`` installs the page script.
@MainActor
final class WebViewJourneyPage: JourneyPage {
    weak var webView: WKWebView?

    var unavailableReason: String? {
        webView == nil
            ? "the journey's web view is not known yet (it is found once the journey is on screen) or is gone: inject once the journey shows"
            : nil
    }

    func post(asJourney post: JourneyPost) {
        webView?.evaluateJavaScript(post.script, completionHandler: nil)
    }

    /// The page runs ``PageInterceptScript`` (installed with the page script by ``OutgoingTap``).
    var canHold: Bool { true }

    func send(_ command: PageInterceptCommand) {
        webView?.evaluateJavaScript(command.script, completionHandler: nil)
    }
}
