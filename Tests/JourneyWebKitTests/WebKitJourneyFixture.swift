import BridgeCore
import Foundation
import GBGBridgeInspector
import JourneySimulation
import Testing
import TestSupport

@testable import JourneyWebKit

/// A host with a journey in a real, headless WebKit web view, and what happened to it: the
/// notices in order, `host.ready` sent on every loaded page as an app does.
@MainActor
final class WebKitJourneyFixture {
    let host: BridgeHost
    let journey: WebKitJourney
    private(set) var notices: [WebKitJourneyNotice] = []
    let directory: String

    /// Starts `host` (default: the example journey's profile) with the page `page` of `directory`.
    /// `pageScript` runs at document start as well, after the bootstrap or (`pageScriptFirst`)
    /// before it, and its posts to `gbgBridgeInspector` are kept in ``reports``.
    static func start(
        directory: String, ownsDirectory: Bool = false, page: String = "index.html", host: BridgeHost? = nil, pageScript: String? = nil,
        pageScriptFirst: Bool = false
    ) async throws -> WebKitJourneyFixture {
        let host = try host ?? HostProfile.load(path: packageRoot.appendingPathComponent("examples/web-journey/host-profile.json").path).makeHost()
        var configuration = WebKitJourneyConfiguration(uri: URL(fileURLWithPath: directory).appendingPathComponent(page).absoluteString)
        configuration.headless = true
        configuration.runnerPath = try requireWebKitRunner()
        let box = NoticeBox()
        if let pageScript {
            if pageScriptFirst {
                configuration.userScripts = [pageScript, configuration.bootstrapScript]
                configuration.bootstrapScript = "/* GBGBridge's bootstrap is added after the page script */"
            } else {
                configuration.userScripts = [pageScript]
            }
            configuration.reportHandlers = [OutgoingTapScript.handlerName: { box.reports.append($0) }]
        }
        let journey = try await WebKitJourney.start(host: host, configuration: configuration) { notice in
            if case .loaded = notice { host.sendReadyEvent() }
            box.notices.append(notice)
        }
        return WebKitJourneyFixture(host: host, journey: journey, directory: directory, ownsDirectory: ownsDirectory, box: box)
    }

    private let box: NoticeBox

    private let ownsDirectory: Bool

    private init(host: BridgeHost, journey: WebKitJourney, directory: String, ownsDirectory: Bool, box: NoticeBox) {
        self.host = host
        self.journey = journey
        self.directory = directory
        self.ownsDirectory = ownsDirectory
        self.box = box
    }

    /// The notices so far.
    var seen: [WebKitJourneyNotice] { box.notices }

    /// What the page script reported, decoded, in order.
    var reports: [OutgoingTapReport] { box.reports.map { OutgoingTapReport(body: $0) } }

    /// Pages that finished loading, in order.
    var loadedPages: [WebKitPage] {
        seen.compactMap { if case .loaded(let page) = $0 { return page } else { return nil } }
    }

    /// Waits (bounded) until `condition` holds.
    func wait(_ what: String, timeout: Duration = .seconds(120), _ condition: @MainActor () -> Bool) async throws {
        guard await eventually(timeout: timeout, condition) else {
            throw TestSetupError(description: "timed out waiting for \(what); notices: \(seen); lastError: \(host.lastError ?? "nil"); runner said: \(journey.runnerStandardError.suffix(2000))")
        }
    }

    /// Waits (bounded) until `script`'s JSON result in the page satisfies `accept`; returns it.
    func waitForPage(_ what: String, _ script: String, timeout: Duration = .seconds(120), accept: (String) -> Bool) async throws -> String {
        var last = "nothing"
        let found = await waitUntil(timeout: timeout, every: .milliseconds(20)) { () async -> String? in
            guard let result = try? await journey.query(script) else { return nil }
            last = result
            return accept(result) ? result : nil
        }
        guard let found else { throw TestSetupError(description: "timed out waiting for \(what): the page last said \(last)") }
        return found
    }

    /// The events the journey posted with `action`, as the host received them.
    func received(_ action: String) -> [BridgeMessage] {
        host.receivedMessages.filter { $0.payload.action == action }
    }

    /// Ends the runner (and removes the journey's directory when the fixture made it).
    func stop() async {
        await journey.stop()
        if ownsDirectory { removeDirectory(directory) }
    }
}

@MainActor
private final class NoticeBox {
    var notices: [WebKitJourneyNotice] = []
    var reports: [String] = []
}

/// A page's script that posts one bridge event, as a journey does.
let postEventFunction = #"""
    function postEvent(action, data) {
      window.webkit.messageHandlers.gbgBridge.postMessage({
        version: "1.0", correlationId: "fixture-" + action + "-" + Math.random().toString(36).slice(2),
        type: "event", timestamp: Date.now(), payload: { action: action, data: data || {} }
      });
    }
    """#
