import BridgeCore
import Foundation
import InspectorAgent
import InspectorProtocol

/// The inspector for an app that embeds GBG's GBGBridge: one call in a debug build serves the
/// app's bridge host to `bridge-inspector`, seen through GBGBridge's public API.
///
/// An app calls it through the app integration package (`Integrations/GBGBridgeApp`, library
/// `GBGBridgeAppInspector`), which adds the overloads that take GBGBridge's `BridgeHost` and the
/// web view, and a SwiftUI modifier (docs/real-apps.md):
///
/// ```swift
/// #if DEBUG
/// import GBGBridgeAppInspector
/// inspector = try GBGBridgeInspector.start(host: host, webView: webView, hostVersion: "1.0.0", name: "MyApp")
/// #endif
/// ```
///
/// The adapter takes the host's delegate slot and forwards every call to the app's delegate, so
/// the app behaves as before (its `.unsupported` answers from `unhandledRequest` still go out).
/// Keep the returned inspector; ``stop()`` gives the delegate back and removes the socket.
/// Releasing it without ``stop()`` does the same a moment later, on the main actor, on every
/// compiler this package supports (Swift 6.0 and later): until then the adapter's delegate
/// proxy stays alive and keeps forwarding, so the app's delegate never misses a call.
@MainActor
public final class GBGBridgeInspector<API: GBGBridgeHostAPI> {
    /// The adapter the agent serves.
    public let adapter: PublicAPIHost<API>
    /// The agent: its socket path and clients.
    public let agent: InspectorAgent
    private let lifetime = Lifetime()

    /// Starts serving `api` (GBGBridge's `BridgeHost`, or anything with its public API) as `name`,
    /// on the per-user Unix socket and, with `tcp`, on a loopback TCP port for a device over USB.
    ///
    /// Without a page script nothing the host sends is seen: in an app, use the app
    /// integration's overloads, which install it; elsewhere report deliveries with
    /// ``PublicAPIHost/reportSent(json:)`` (see ``PageTapTransport``). With `journeyPage`,
    /// `inject` and `replay` post their message in that page as the journey would (``JourneyPage``);
    /// without it they are refused.
    public static func start(
        api: API, hostVersion: String, name: String, socketPath: String? = nil, limits: AgentLimits = AgentLimits(),
        tcp: InspectorTCPOptions? = nil, journeyPage: (any JourneyPage)? = nil
    ) throws -> GBGBridgeInspector {
        let adapter = PublicAPIHost(api: api, hostVersion: hostVersion)
        adapter.journeyPage = journeyPage
        let agent = try InspectorAgent(serving: adapter, name: name, socketPath: socketPath, limits: limits, tcp: tcp)
        adapter.start()
        return GBGBridgeInspector(adapter: adapter, agent: agent)
    }

    private init(adapter: PublicAPIHost<API>, agent: InspectorAgent) {
        self.adapter = adapter
        self.agent = agent
    }

    /// Keeps `object` alive as long as the inspector: for an integration's parts that nothing
    /// else holds (the adapter holds its API weakly), such as a mirror of GBGBridge's host.
    public func keepAlive(_ object: AnyObject) {
        lifetime.retained.append(object)
    }

    /// Runs `cleanup` once when the inspector stops (``stop()``, or its release), after the
    /// delegate slot is given back: for an integration's undoing, such as removing the page
    /// script from the web view.
    public func onStop(_ cleanup: @escaping @MainActor () -> Void) {
        lifetime.cleanups.append(cleanup)
    }

    /// Stops serving, gives the delegate slot back to the app's delegate and runs the
    /// ``onStop(_:)`` cleanups. Calling it again does nothing.
    public func stop() {
        Self.shutDown(adapter: adapter, agent: agent, lifetime: lifetime)
    }

    private static func shutDown(adapter: PublicAPIHost<API>, agent: InspectorAgent, lifetime: Lifetime) {
        agent.stop()
        adapter.stop()
        let pending = lifetime.cleanups
        lifetime.cleanups.removeAll()
        for cleanup in pending { cleanup() }
        lifetime.retained.removeAll()
    }

    /// Released without ``stop()``: stops on the main actor. The task holds the adapter, and so
    /// its delegate proxy, until then: GBGBridge holds its delegate weakly, and releasing the
    /// proxy first would leave the app's delegate out of the slot. One path for every compiler
    /// (an `isolated deinit` needs Swift 6.2).
    deinit {
        let adapter = self.adapter
        let agent = self.agent
        let lifetime = self.lifetime
        Task { @MainActor in
            Self.shutDown(adapter: adapter, agent: agent, lifetime: lifetime)
        }
    }
}

/// What an inspector keeps for its integration until it stops.
@MainActor
private final class Lifetime {
    var retained: [AnyObject] = []
    var cleanups: [@MainActor () -> Void] = []
}
