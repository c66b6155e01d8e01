import Foundation
import GBGBridgeInspector
import GBGBridgeNames
import InspectorAgent
import WebKit

extension GBGBridgeInspector where API == GBGBridgeHostMirror {
    /// Serves an app's GBGBridge host to `bridge-inspector` (debug builds only), for an app that
    /// holds its web view (UIKit): takes the delegate slot (forwarding every call to the app's
    /// delegate) and installs the page script in `webView`, in the page it shows now and in every
    /// later one. Keep the result; ``stop()`` undoes both.
    ///
    /// ```swift
    /// #if DEBUG
    /// inspector = try GBGBridgeInspector.start(host: host, webView: webView, hostVersion: "1.0.0", name: "MyApp")
    /// #endif
    /// ```
    ///
    /// In the Simulator the Mac's `bridge-inspector` finds it on its own; on a device pass
    /// `tcp: InspectorTCPOptions(port: 9123)` and follow the line it logs (docs/real-apps.md).
    public static func start(
        host: GBGBridgeHost, webView: WKWebView, hostVersion: String, name: String, socketPath: String? = nil,
        tcp: InspectorTCPOptions? = nil
    ) throws -> GBGBridgeInspector {
        let inspector = try serve(host, hostVersion: hostVersion, name: name, socketPath: socketPath, tcp: tcp)
        inspector.tap(webView)
        return inspector
    }

    /// The same for an app that never holds the `WKWebView` (SwiftUI's `BridgeWebView`): the
    /// inspector finds the web view that shows the journey in the app's windows (the one whose
    /// page has `window.GBGBridge`), as soon as it is on screen, and installs the page script
    /// there. In SwiftUI, the ``SwiftUI/View/gbgBridgeInspector(host:hostVersion:name:tcp:)``
    /// modifier calls this when the view appears and stops it when it goes.
    public static func start(
        host: GBGBridgeHost, hostVersion: String, name: String, socketPath: String? = nil, tcp: InspectorTCPOptions? = nil
    ) throws -> GBGBridgeInspector {
        let inspector = try serve(host, hostVersion: hostVersion, name: name, socketPath: socketPath, tcp: tcp)
        let finder = JourneyWebViewFinder { [weak inspector] webView in inspector?.tap(webView) }
        finder.start()
        inspector.keepAlive(finder)
        inspector.onStop { finder.stop() }
        return inspector
    }

    private static func serve(
        _ host: GBGBridgeHost, hostVersion: String, name: String, socketPath: String?, tcp: InspectorTCPOptions?
    ) throws -> GBGBridgeInspector {
        let mirror = GBGBridgeHostMirror(host)
        let page = WebViewJourneyPage()
        let inspector = try start(api: mirror, hostVersion: hostVersion, name: name, socketPath: socketPath, tcp: tcp, journeyPage: page)
        inspector.keepAlive(mirror)
        inspector.keepAlive(page)
        return inspector
    }

    /// Installs the page script in `webView`, reporting to the adapter, and makes it the page
    /// `inject` and `replay` post in.
    func tap(_ webView: WKWebView) {
        let adapter = self.adapter
        (adapter.journeyPage as? WebViewJourneyPage)?.webView = webView
        let tap = OutgoingTap(installingIn: webView) { [weak adapter] report in adapter?.handle(report) }
        keepAlive(tap)
        onStop { tap.remove() }
    }
}
