import BridgeCore
import Foundation
import InspectorAgent
import InspectorProtocol

/// The inspector for an app that embeds GBG's GBGBridge: one call in a debug build serves the
/// app's bridge host to `bridge-inspector`, seen through GBGBridge's public API.
///
/// In an iOS app (debug builds only; see docs/real-apps.md):
///
/// ```swift
/// #if DEBUG
/// import GBGBridgeInspector
/// inspector = try GBGBridgeInspector.start(host: host, webView: webView, hostVersion: "1.0.0", name: "MyApp")
/// #endif
/// ```
///
/// The adapter takes the host's delegate slot and forwards every call to the app's delegate, so
/// the app behaves as before (its `.unsupported` answers from `unhandledRequest` still go out).
/// Keep the returned inspector; ``stop()`` gives the delegate back and removes the socket (so
/// does releasing it, with Swift 6.2 or later; with older compilers call ``stop()``).
@MainActor
public final class GBGBridgeInspector<API: GBGBridgeHostAPI> {
    /// The adapter the agent serves.
    public let adapter: PublicAPIHost<API>
    /// The agent: its socket path and clients.
    public let agent: InspectorAgent

    /// Starts serving `api` (GBGBridge's `BridgeHost`, or anything with its public API) as `name`,
    /// on the per-user Unix socket and, with `tcp`, on a loopback TCP port for a device over USB.
    ///
    /// Without a page script nothing the host sends is seen: in an app, use the overload that
    /// takes the WKWebView, which installs it; elsewhere report deliveries with
    /// ``PublicAPIHost/reportSent(json:)`` (see ``PageTapTransport``).
    public static func start(
        api: API, hostVersion: String, name: String, socketPath: String? = nil, limits: AgentLimits = AgentLimits(),
        tcp: InspectorTCPOptions? = nil
    ) throws -> GBGBridgeInspector {
        let adapter = PublicAPIHost(api: api, hostVersion: hostVersion)
        let agent = try InspectorAgent(serving: adapter, name: name, socketPath: socketPath, limits: limits, tcp: tcp)
        adapter.start()
        return GBGBridgeInspector(adapter: adapter, agent: agent)
    }

    /// What must live as long as the inspector: a mirror wrapping GBGBridge's host (the adapter
    /// holds its API weakly) and the page script's handler.
    var retained: [AnyObject] = []
    /// Run once by ``stop()``, such as removing the page script from the web view.
    var cleanups: [@MainActor () -> Void] = []

    private init(adapter: PublicAPIHost<API>, agent: InspectorAgent) {
        self.adapter = adapter
        self.agent = agent
    }

    /// Stops serving and gives the delegate slot back to the app's delegate.
    public func stop() {
        agent.stop()
        adapter.stop()
        let pending = cleanups
        cleanups.removeAll()
        for cleanup in pending { cleanup() }
    }

    #if compiler(>=6.2)
    /// Released without ``stop()``: stops, so the app's delegate gets its slot back (the proxy in
    /// it goes with the adapter, and GBGBridge holds its delegate weakly).
    isolated deinit {
        stop()
    }
    #endif
}
