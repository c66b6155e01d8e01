import Foundation
import GBGBridgeInspector
import GBGBridgeNames
import InspectorAgent
import SwiftUI

extension View {
    /// Serves the GBGBridge host of a SwiftUI journey view to `bridge-inspector` while the view
    /// is on screen (debug builds only). For apps that show the journey with
    /// `BridgeWebView(url:host:)` and never hold its `WKWebView`: the inspector finds the web
    /// view itself (``GBGBridgeInspector/start(host:hostVersion:name:socketPath:tcp:)``).
    ///
    /// ```swift
    /// BridgeWebView(url: journeyURL, host: host)
    ///     #if DEBUG
    ///     .gbgBridgeInspector(host: host, hostVersion: "1.0.0", name: "MyApp")
    ///     #endif
    /// ```
    ///
    /// On a device add `tcp: InspectorTCPOptions(port: 9123)` (docs/real-apps.md).
    public func gbgBridgeInspector(host: GBGBridgeHost, hostVersion: String, name: String, tcp: InspectorTCPOptions? = nil) -> some View {
        modifier(GBGBridgeInspectorModifier(host: host, hostVersion: hostVersion, name: name, tcp: tcp))
    }
}

/// Starts the inspector when the view appears and stops it when the view goes.
struct GBGBridgeInspectorModifier: ViewModifier {
    let host: GBGBridgeHost
    let hostVersion: String
    let name: String
    let tcp: InspectorTCPOptions?
    @State private var session = InspectorSession()

    func body(content: Content) -> some View {
        content
            .onAppear { session.start(host: host, hostVersion: hostVersion, name: name, tcp: tcp) }
            .onDisappear { session.stop() }
    }
}

/// The inspector a ``GBGBridgeInspectorModifier`` runs, kept across the view's updates.
@MainActor
final class InspectorSession {
    private var inspector: GBGBridgeInspector<GBGBridgeHostMirror>?

    nonisolated init() {}

    func start(host: GBGBridgeHost, hostVersion: String, name: String, tcp: InspectorTCPOptions?) {
        guard inspector == nil else { return }
        do {
            inspector = try GBGBridgeInspector.start(host: host, hostVersion: hostVersion, name: name, tcp: tcp)
        } catch {
            // The app goes on without the inspector; the console says why.
            print("bridge-inspector: the inspector did not start: \(error)")
        }
    }

    func stop() {
        inspector?.stop()
        inspector = nil
    }
}
