import BridgeCore
import Foundation

/// The ``JourneyTransport`` for a journey in a real WebKit web view: each delivery is the exact
/// script a WKWebView evaluates, `window.GBGBridge.receive(<json>);`, evaluated in the page by
/// the runner with `webkit_web_view_evaluate_javascript`, in order. An evaluation error comes
/// back later and reaches `lastError` through ``BridgeHost/journeyDeliveryFailed(_:error:)``.
///
/// Until a page is seen to have set its own `window.GBGBridge.receive`, each delivery is
/// preceded by a probe that only reads it: a delivery that reaches GBGBridge's no-op `receive`
/// is lost to the journey, and ``WebKitJourney`` reports it.
@MainActor
final class WebKitJourneyTransport: JourneyTransport {
    /// One delivery the runner has not answered yet.
    struct Outstanding {
        var delivery: JourneyDelivery
        var page: WebKitPage?
    }

    private let process: WebKitRunnerProcess
    private let maximumPendingBytes: Int
    private var nextSeq = 0
    private(set) var outstanding: [Int: Outstanding] = [:]
    /// The page deliveries now go to.
    var page: WebKitPage?
    /// Whether deliveries are still probed (the page has not been seen to set its own `receive`).
    var probing = true
    /// How many deliveries were handed to the runner.
    private(set) var deliveryCount = 0

    /// Reads, without changing anything, whether `window.GBGBridge.receive` is missing, still the
    /// bootstrap's empty no-op, or set by the journey.
    static let receiveProbe = #"""
        (function () { var g = window.GBGBridge, r = g && g.receive; if (typeof r !== "function") { return "missing"; } return /^function\s*\(\s*\)\s*\{\s*\}$/.test(Function.prototype.toString.call(r)) ? "noOp" : "set"; })()
        """#

    init(process: WebKitRunnerProcess, maximumPendingBytes: Int) {
        self.process = process
        self.maximumPendingBytes = maximumPendingBytes
    }

    func deliver(_ delivery: JourneyDelivery) throws {
        let script = delivery.javaScript
        let waiting = process.pendingBytes
        guard waiting + script.utf8.count <= maximumPendingBytes else {
            throw DeliveryError(text: "the web view has not evaluated \(waiting) bytes of earlier deliveries; it may be stuck")
        }
        nextSeq += 1
        outstanding[nextSeq] = Outstanding(delivery: delivery, page: page)
        guard process.send(.evaluate(seq: nextSeq, script: script, probe: probing ? Self.receiveProbe : nil)) else {
            outstanding[nextSeq] = nil
            throw DeliveryError(text: "the WebKit runner has ended")
        }
        deliveryCount += 1
    }

    /// The delivery `seq`, forgotten now that the runner answered it.
    func finish(_ seq: Int) -> Outstanding? {
        outstanding.removeValue(forKey: seq)
    }

    /// A delivery the transport could not hand to the runner.
    struct DeliveryError: Error, CustomStringConvertible {
        var text: String
        var description: String { text }
    }
}
