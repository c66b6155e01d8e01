import BridgeCore
import Foundation

/// A journey transport that does what the page script does in a WKWebView: every message the
/// host delivers is handed on unchanged, and an exact copy (its JSON, as delivered) is reported to
/// the adapter, as `window.GBGBridge.receive` wrapped by the script would report it.
///
/// It lets `bridge-inspector host --inspect-via public-api` show an app the way a real GBGBridge
/// app is seen, with any of this project's transports (the simulated journey, a browser page):
///
/// ```swift
/// let tap = PageTapTransport(wrapping: journey) { json in adapter.reportSent(json: json) }
/// host.attach(tap)        // the host holds transports weakly: keep `tap`
/// ```
@MainActor
public final class PageTapTransport: JourneyTransport {
    private let inner: any JourneyTransport
    private let report: @MainActor (String) -> Void

    /// Wraps `inner` (held strongly), reporting each delivered message's JSON to `report`.
    public init(wrapping inner: any JourneyTransport, report: @escaping @MainActor (String) -> Void) {
        self.inner = inner
        self.report = report
    }

    public func deliver(_ delivery: JourneyDelivery) throws {
        // The page reports what `receive` was called with: a delivery that fails never reaches it.
        try inner.deliver(delivery)
        report(String(decoding: delivery.json, as: UTF8.self))
    }
}
