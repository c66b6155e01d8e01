import GBGBridgeInspector
import WebKit

/// The page script (``OutgoingTapScript``) installed in one web view: a user script at document
/// start in the main frame, for every later page load, a run of the same script in the page
/// already loaded, and a script message handler named ``OutgoingTapScript/handlerName`` whose
/// reports go to a closure. The breakpoint script (``PageInterceptScript``) is installed the same
/// way, after it.
///
/// Reports from frames other than the main frame are passed on as
/// ``OutgoingTapReport/invalid(_:)``. One tap per web view: a second one takes the handler name
/// over from the first (remove the first before adding another; the script itself runs once per
/// page however often it is added or run).
///
/// ```swift
/// let tap = OutgoingTap(installingIn: webView) { report in adapter.handle(report) }
/// // ...
/// tap.remove()
/// ```
@MainActor
public final class OutgoingTap {
    private let controller: WKUserContentController
    private let script: WKUserScript
    private let interceptScript: WKUserScript
    private let onReport: @MainActor (OutgoingTapReport) -> Void
    private var installed = true

    /// Adds the script and the handler to `webView`'s user content controller and runs the
    /// script in the page it shows now; `onReport` gets every report, on the main actor.
    public init(installingIn webView: WKWebView, onReport: @escaping @MainActor (OutgoingTapReport) -> Void) {
        controller = webView.configuration.userContentController
        self.onReport = onReport
        script = WKUserScript(source: OutgoingTapScript.source, injectionTime: .atDocumentStart, forMainFrameOnly: true)
        interceptScript = WKUserScript(source: PageInterceptScript.source, injectionTime: .atDocumentStart, forMainFrameOnly: true)
        controller.addUserScript(script)
        controller.addUserScript(interceptScript)
        // WebKit raises an Objective-C exception (a crash) when a handler name is added twice:
        // a later tap in the same controller takes the name over instead.
        controller.removeScriptMessageHandler(forName: OutgoingTapScript.handlerName)
        // WebKit keeps its handlers strongly; the proxy keeps this object weakly, so the
        // controller never keeps the tap (and whatever `onReport` holds) alive.
        controller.add(WeakScriptMessageHandler(self), name: OutgoingTapScript.handlerName)
        // A user script applies from the next page load; the page already shown (a journey
        // that has set its receive already) gets the same script now. A message handler added
        // now is reachable from that page at once.
        webView.evaluateJavaScript(OutgoingTapScript.source, completionHandler: nil)
        webView.evaluateJavaScript(PageInterceptScript.source, completionHandler: nil)
    }

    /// Removes the handler and the script (other user scripts stay, in their order). Pages
    /// already loaded keep their copy of the script, whose posts then go nowhere.
    public func remove() {
        guard installed else { return }
        installed = false
        controller.removeScriptMessageHandler(forName: OutgoingTapScript.handlerName)
        let others = controller.userScripts.filter { $0 !== script && $0 !== interceptScript }
        controller.removeAllUserScripts()
        others.forEach { controller.addUserScript($0) }
    }

    fileprivate func receive(_ message: WKScriptMessage) {
        guard installed else { return }
        onReport(message.frameInfo.isMainFrame ? OutgoingTapReport(body: message.body) : .invalid("a post from a frame other than the main frame"))
    }
}

/// The handler WebKit keeps: forwards to the tap while it exists.
@MainActor
private final class WeakScriptMessageHandler: NSObject, WKScriptMessageHandler {
    private weak var tap: OutgoingTap?

    init(_ tap: OutgoingTap) {
        self.tap = tap
    }

    func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage) {
        tap?.receive(message)
    }
}
