import Foundation

/// The seam where a WKWebView sits on iOS: whatever carries messages to and from the web journey.
///
/// The host hands the transport each outgoing message, in order; the transport hands the host
/// every incoming message's text with ``BridgeHost/receive(_:)``. A simulated journey, a
/// WebSocket to a browser and a test double are all transports.
///
/// ```swift
/// final class MyTransport: JourneyTransport {
///     func deliver(_ delivery: JourneyDelivery) throws {
///         try socket.send(delivery.json)           // or evaluate delivery.javaScript
///     }
/// }
/// host.attach(myTransport)   // the host keeps a weak reference, like GBGBridge's WebView
/// ```
@MainActor
public protocol JourneyTransport: AnyObject {
    /// Delivers one message to the journey. Throw to report a failure synchronously; the host
    /// records it in `lastError` as `evaluateJavaScript failed: <error>`. A transport that learns
    /// of a failure later calls ``BridgeHost/journeyDeliveryFailed(_:error:)``.
    func deliver(_ delivery: JourneyDelivery) throws
}

/// One outgoing message as the transport receives it: the message, its exact JSON bytes, and the
/// JavaScript that delivers it to `window.GBGBridge.receive(...)`.
public struct JourneyDelivery: Sendable {
    /// The message being delivered.
    public let message: BridgeMessage
    /// The message's compact JSON, exactly as observers and inspectors see it.
    public let json: Data

    /// The script a WebView evaluates to deliver the message (made on first use).
    public var javaScript: String { JavaScriptDelivery.script(forMessageJSON: json) }

    /// Creates a delivery.
    public init(message: BridgeMessage, json: Data) {
        self.message = message
        self.json = json
    }
}

/// A transport that keeps every delivery in memory: for tests, examples and tools.
///
/// ```swift
/// let journey = RecordingJourneyTransport()
/// host.attach(journey)
/// host.send(event: "host.ping", data: [:])
/// journey.deliveries.last?.message.payload.action   // "host.ping"
/// ```
@MainActor
public final class RecordingJourneyTransport: JourneyTransport {
    /// Everything delivered so far, oldest first.
    public private(set) var deliveries: [JourneyDelivery] = []
    /// When set, the next deliveries throw this error instead of being recorded.
    public var failure: (any Error)?
    /// Called after each successful delivery.
    public var onDeliver: ((JourneyDelivery) -> Void)?

    /// Creates an empty recorder.
    public init() {}

    public func deliver(_ delivery: JourneyDelivery) throws {
        if let failure { throw failure }
        deliveries.append(delivery)
        onDeliver?(delivery)
    }

    /// The delivered messages, oldest first.
    public var messages: [BridgeMessage] { deliveries.map(\.message) }

    /// Forgets what was delivered.
    public func removeAll() { deliveries.removeAll() }
}
