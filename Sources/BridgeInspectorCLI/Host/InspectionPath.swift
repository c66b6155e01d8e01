import ArgumentParser
import BridgeCore
import GBGBridgeInspector
import InspectorAgent

/// `host --inspect-via`: how the agent sees the host.
enum InspectionPath: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// BridgeCore's own change stream: everything, exactly.
    case native
    /// Only GBGBridge's documented public API, with the page script's reports: the host is seen
    /// as an app embedding GBG's GBGBridge is.
    case publicAPI = "public-api"
}

/// The agent a `bridge-inspector host` serves, by either path.
@MainActor
struct ServedInspector {
    let agent: InspectorAgent
    /// The public-API adapter and its stand-in for the page script, when that path is used.
    private let inspector: GBGBridgeInspector<BridgeHost>?
    private var pageTap: PageTapTransport?

    /// Starts the agent for `host` by `path`.
    /// `journeyPage` is where the adapter's `inject` posts as the journey would (public-API path only);
    /// `journeyControl` does lifecycle steps (native path only: GBGBridge's API has none).
    init(
        host: BridgeHost, path: InspectionPath, hostVersion: String, name: String, socketPath: String?, tcp: InspectorTCPOptions?,
        journeyPage: (any JourneyPage)? = nil, journeyControl: (any JourneyControl)? = nil
    ) throws {
        switch path {
        case .native:
            agent = try host.startInspector(name: name, socketPath: socketPath, tcp: tcp, journeyControl: journeyControl)
            inspector = nil
        case .publicAPI:
            let inspector = try GBGBridgeInspector.start(
                api: host, hostVersion: hostVersion, name: name, socketPath: socketPath, tcp: tcp, journeyPage: journeyPage)
            agent = inspector.agent
            self.inspector = inspector
        }
    }

    /// On the public-API path, puts a stand-in for the page script between `host` and the
    /// journey transport it just attached, so what the host sends is seen as in an app.
    mutating func tapJourney(of host: BridgeHost, transport: any JourneyTransport) {
        guard let adapter = inspector?.adapter else { return }
        let tap = PageTapTransport(wrapping: transport) { [weak adapter] json in adapter?.reportSent(json: json) }
        host.attach(tap)
        adapter.reportPageLoaded()
        pageTap = tap
    }

    /// On the public-API path, hands one report of the real page script, running in the
    /// browser's page (`--serve`), to the adapter, as an app's script message handler does.
    /// Returns the decoded report (`nil` on the native path) so the caller can tell the person
    /// about the ones that are not traffic.
    @discardableResult
    func pageReported(_ body: String) -> OutgoingTapReport? {
        guard let adapter = inspector?.adapter else { return nil }
        let report = OutgoingTapReport(body: body)
        adapter.handle(report)
        return report
    }

    /// Stops the agent (and gives the host's delegate slot back).
    func stop() {
        if let inspector { inspector.stop() } else { agent.stop() }
    }
}
