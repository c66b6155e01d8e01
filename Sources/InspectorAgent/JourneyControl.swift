import BridgeCore
import InspectorProtocol

/// What the process embedding the agent gives it so that inspectors can do lifecycle steps to the
/// journey's web view (`JourneyStep` in InspectorProtocol: detach, attach, reload), through the
/// `journey` command.
///
/// The host alone cannot reload a page or keep a detached web view: the embedding process owns
/// both. Hand one to ``InspectorAgent/init(serving:name:socketPath:limits:tcp:journeyControl:)``
/// (or `BridgeHost.startInspector(…journeyControl:)`). ``BridgeHostJourneyControl`` is the one
/// for a `BridgeHost`: it detaches and re-attaches by itself and reloads through a closure you
/// give it (a `BridgeHost` served without one gets one that cannot reload); any other host served
/// without one lists `HostFeature.journeyControl` as unsupported.
@MainActor
public protocol JourneyControl: AnyObject {
    /// Does `step` now and returns one sentence saying what was done, or throws why it cannot be done.
    func perform(_ step: JourneyStep) throws(JourneyControlRefusal) -> String
}

/// Why a journey control cannot do a step (a page that cannot be reloaded, say): a sentence for
/// a person, which the agent sends as an `unsupported` error.
public struct JourneyControlRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// What stops the step, and what would make it possible.
    public var reason: String

    /// Creates a refusal.
    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}

/// The journey control of a `BridgeHost`: `detach` calls the host's `detach()` and keeps the
/// transport it had, `attach` gives that same transport back with `attach(_:)`, and `reload`
/// calls the closure the embedding process gives (the one thing only it can do).
///
/// ```swift
/// let control = BridgeHostJourneyControl(host: host) { webView.reload(); return "the page is loading again" }
/// let agent = try host.startInspector(name: "my-app", journeyControl: control)
/// ```
@MainActor
public final class BridgeHostJourneyControl: JourneyControl {
    private weak var host: BridgeHost?
    private let reload: (@MainActor () throws(JourneyControlRefusal) -> String)?
    /// The transport taken away by `detach`, held until `attach` gives it back (the host holds
    /// its transport weakly, as it holds a WebView).
    private var detached: (any JourneyTransport)?

    /// Creates the control for `host` (held weakly). Without `reload`, a `reload` step is refused.
    public init(host: BridgeHost, reload: (@MainActor () throws(JourneyControlRefusal) -> String)? = nil) {
        self.host = host
        self.reload = reload
    }

    public func perform(_ step: JourneyStep) throws(JourneyControlRefusal) -> String {
        guard let host else { throw JourneyControlRefusal("the host has stopped") }
        switch step {
        case .detach:
            guard let transport = host.detach() else {
                return "the web view was already detached; nothing changed"
            }
            detached = transport
            return "detached the web view: what the host sends fails with \"WebView not attached\" until attach"
        case .attach:
            if host.isJourneyAttached {
                detached = nil
                return "a web view is already attached; nothing changed"
            }
            guard let transport = detached else {
                throw JourneyControlRefusal("there is no web view to attach: the inspector did not detach one (or its page has gone)")
            }
            detached = nil
            host.attach(transport)
            return "attached the same web view again: what the host sends is delivered"
        case .reload:
            guard let reload else {
                throw JourneyControlRefusal(
                    "this host cannot reload its journey's page: the app gave the inspector no way to (BridgeHostJourneyControl's reload)")
            }
            // A reload brings a page of its own: a web view kept from `detach` is no longer it.
            detached = nil
            return try reload()
        }
    }
}
