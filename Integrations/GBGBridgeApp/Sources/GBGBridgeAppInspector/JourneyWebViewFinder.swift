import UIKit
import WebKit

/// Finds the web views that show a GBGBridge journey, for an app that never holds its
/// `WKWebView` (SwiftUI's `BridgeWebView(url:host:)` keeps it to itself).
///
/// Every ``interval`` it walks the views of the app's windows; each `WKWebView` whose page has
/// `window.GBGBridge` (GBGBridge's bootstrap script defines it at document start in every page of
/// a web view configured for a host) is handed to `found`, once. A web view without it is asked
/// again when its URL changes, and otherwise every ``askAgainAfter`` (it may have been asked
/// while a page was still loading). Debug builds only: it costs a walk of the view tree twice a
/// second. When the app shows several GBGBridge web views at once, each is handed on: pass the
/// web view yourself (`GBGBridgeInspector.start(host:webView:...)`) to choose one.
@MainActor
final class JourneyWebViewFinder {
    /// How often the windows are searched.
    let interval: Duration
    /// How long a web view that answered "no GBGBridge here" is left before it is asked again
    /// (sooner when its URL changes).
    let askAgainAfter: Duration = .seconds(2)
    private let found: @MainActor (WKWebView) -> Void
    private var seen: [Sighting] = []
    private var task: Task<Void, Never>?

    init(interval: Duration = .milliseconds(500), found: @escaping @MainActor (WKWebView) -> Void) {
        self.interval = interval
        self.found = found
    }

    /// Searches now, then every ``interval`` until ``stop()``.
    func start() {
        guard task == nil else { return }
        let interval = self.interval
        task = Task { @MainActor [weak self] in
            while !Task.isCancelled {
                guard let self else { return }
                self.search()
                try? await Task.sleep(for: interval)
            }
        }
    }

    func stop() {
        task?.cancel()
        task = nil
    }

    private func search() {
        seen.removeAll { $0.webView == nil }
        let now = ContinuousClock.now
        for webView in Self.webViews() {
            let url = webView.url
            let sighting: Sighting
            if let known = seen.first(where: { $0.webView === webView }) {
                guard !known.adopted, !known.asking, known.url != url || now - known.asked >= askAgainAfter else { continue }
                sighting = known
            } else {
                sighting = Sighting(webView)
                seen.append(sighting)
            }
            sighting.url = url
            sighting.asked = now
            sighting.asking = true
            webView.evaluateJavaScript("typeof window.GBGBridge") { [weak self, weak webView, weak sighting] result, _ in
                sighting?.asking = false
                guard let self, let webView, (result as? String) == "object" else { return }
                self.adopt(webView)
            }
        }
    }

    private func adopt(_ webView: WKWebView) {
        guard let sighting = seen.first(where: { $0.webView === webView }), !sighting.adopted else { return }
        sighting.adopted = true
        found(webView)
    }

    /// Every web view in the app's windows, front to back as UIKit lists them.
    static func webViews() -> [WKWebView] {
        var result: [WKWebView] = []
        var stack: [UIView] = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }.flatMap(\.windows)
        while let view = stack.popLast() {
            if let webView = view as? WKWebView { result.append(webView) }
            stack.append(contentsOf: view.subviews)
        }
        return result
    }
}

/// A web view the finder has looked at: the URL it had and when it was last asked, whether an
/// answer is awaited, and whether it was handed on.
@MainActor
private final class Sighting {
    weak var webView: WKWebView?
    var url: URL?
    var asked = ContinuousClock.now
    var asking = false
    var adopted = false

    init(_ webView: WKWebView) {
        self.webView = webView
    }
}
