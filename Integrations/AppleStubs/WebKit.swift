// Interface stub of Apple's WebKit, written from its headers (WKWebView.h,
// WKWebViewConfiguration.h, WKUserContentController.h, WKUserScript.h, WKScriptMessage.h,
// WKScriptMessageHandler.h, WKFrameInfo.h). Each class and protocol there is WK_SWIFT_UI_ACTOR,
// so @MainActor here; completion handlers are WK_SWIFT_UI_ACTOR blocks. Never shipped; see
// README.md.
@_exported import Foundation
@_exported import UIKit

/// `WKUserScriptInjectionTime`.
public enum WKUserScriptInjectionTime: Int, Sendable {
    case atDocumentStart = 0
    case atDocumentEnd = 1
}

@MainActor
open class WKUserScript: NSObject {
    public init(source: String, injectionTime: WKUserScriptInjectionTime, forMainFrameOnly: Bool) { fatalError("stub") }
    open var source: String { fatalError("stub") }
    open var injectionTime: WKUserScriptInjectionTime { fatalError("stub") }
    open var isForMainFrameOnly: Bool { fatalError("stub") }
}

@MainActor
open class WKFrameInfo: NSObject {
    open var isMainFrame: Bool { fatalError("stub") }
}

@MainActor
open class WKScriptMessage: NSObject {
    /// `@property (nonatomic, readonly, copy) id body;`
    open var body: Any { fatalError("stub") }
    open var frameInfo: WKFrameInfo { fatalError("stub") }
    open var name: String { fatalError("stub") }
    open var webView: WKWebView? { fatalError("stub") }
}

@MainActor
public protocol WKScriptMessageHandler: NSObjectProtocol {
    func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage)
}

@MainActor
open class WKUserContentController: NSObject {
    public override init() { fatalError("stub") }
    open var userScripts: [WKUserScript] { fatalError("stub") }
    open func addUserScript(_ userScript: WKUserScript) { fatalError("stub") }
    open func removeAllUserScripts() { fatalError("stub") }
    open func add(_ scriptMessageHandler: any WKScriptMessageHandler, name: String) { fatalError("stub") }
    open func removeScriptMessageHandler(forName name: String) { fatalError("stub") }
}

@MainActor
open class WKWebViewConfiguration: NSObject {
    public override init() { fatalError("stub") }
    open var userContentController: WKUserContentController {
        get { fatalError("stub") }
        set { fatalError("stub") }
    }
}

@MainActor
open class WKWebView: UIView {
    public init(frame: CGRect, configuration: WKWebViewConfiguration) { fatalError("stub") }
    /// `@property (nonatomic, readonly, copy) WKWebViewConfiguration *configuration;`
    open var configuration: WKWebViewConfiguration { fatalError("stub") }
    open var url: URL? { fatalError("stub") }
    open func evaluateJavaScript(_ javaScriptString: String, completionHandler: (@MainActor @Sendable (Any?, (any Error)?) -> Void)? = nil) {
        fatalError("stub")
    }
    /// The async form Swift gives the same method (`WK_SWIFT_ASYNC_NAME`); present so that a
    /// call that means the completion-handler form must say so.
    open func evaluateJavaScript(_ javaScriptString: String) async throws -> Any { fatalError("stub") }
}
