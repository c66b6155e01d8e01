import BridgeCore
import Foundation
import GBGBridgeInspector
import InspectorAgent
import JourneyWebKit
import TerminalUI

/// `bridge-inspector host --webkit JOURNEY`: the journey is a real page in a real WebKit web view
/// (WebKitGTK, run by `bridge-inspector-webkit`), with the bridge's script message handler and
/// bootstrap user script as a WKWebView has them. Every page that finishes loading gets
/// `host.ready`, as an app sends it once its web view has loaded the journey.
@MainActor
final class WebKitHostJourney: HostJourney {
    private let options: HostOptions
    private let address: String
    private let runnerPath: String
    private let headless: Bool
    private var journey: WebKitJourney?
    /// Through the public API, the page runs the real page script, as in an app's WKWebView.
    private let pageReports = PageReportRelay()
    /// Why the web view could not be opened, when it could not.
    private(set) var failure: String?
    /// Where `inject` posts as the journey would, once the web view is open.
    private let page = WebKitJourneyPage()
    var journeyPage: (any JourneyPage)? { page }
    var journeyAttached: @MainActor (BridgeHost) -> Void = { $0.sendReadyEvent() }

    /// Checks the journey's address and finds the runner: nothing is started yet.
    init(options: HostOptions) throws {
        self.options = options
        address = try WebKitJourneyConfiguration.address(of: options.webKitJourney ?? "")
        runnerPath = try WebKitRunnerLocator.locate(executablePath: ExecutablePath.current() ?? CommandLine.arguments.first ?? "")
        headless = options.headless || (ProcessInfo.processInfo.environment["DISPLAY"] ?? "").isEmpty
    }

    var activity: String {
        "running the web journey \(address) in WebKit" + (headless ? " (headless)" : "")
    }

    func prepare(host: BridgeHost) async throws {}

    func connect(host: BridgeHost, to served: inout ServedInspector) throws {
        pageReports.inspector = served
    }

    var outputLines: [String] { [] }

    var notices: (beforeAttachHint: [String], afterAttachHint: [String]) {
        var before: [String] = []
        if headless && !options.headless {
            before.append("bridge-inspector host: $DISPLAY is not set, so the web view runs headless on a virtual display of its own.")
        }
        return (before, [])
    }

    /// Opens the web view now that the inspector serves, so it sees the journey's first message.
    func start(host: BridgeHost, agent: InspectorAgent, finished: @escaping @Sendable () -> Void) {
        var configuration = WebKitJourneyConfiguration(uri: address)
        configuration.bootstrapScript = host.configuration?.bootstrapScript ?? BridgeConfiguration.defaultBootstrapScript
        configuration.headless = headless
        configuration.runnerPath = runnerPath
        if options.inspectionPath == .publicAPI {
            configuration.userScripts = [OutgoingTapScript.source, PageInterceptScript.source]
            let pageReports = pageReports
            configuration.reportHandlers = [OutgoingTapScript.handlerName: { body in pageReports.received(body) }]
        }
        Task { @MainActor in
            do {
                let journey = try await WebKitJourney.start(host: host, configuration: configuration) { [weak self] notice in
                    self?.report(notice, host: host, finished: finished)
                }
                self.journey = journey
                page.journey = journey
                StandardStreams.printError("bridge-inspector host: WebKit \(journey.webkitVersion) opened its web view\(journey.display.isEmpty ? "" : " on display \(journey.display)").")
            } catch {
                failure = "\(error)"
                finished()
            }
        }
    }

    /// Ends the host only when the web view could not be opened (or the runner ended).
    func finished() -> Bool { failure != nil }

    /// Reloads the web view's page (the runner's `reload`); the page that loads again gets
    /// `host.ready` (``report(_:host:finished:)``).
    func reloadPage() throws(JourneyControlRefusal) -> String {
        if let reason = page.unavailableReason { throw JourneyControlRefusal(reason) }
        guard let journey else { throw JourneyControlRefusal("the WebKit web view is not open yet") }
        journey.reload()
        return "reloading the page in the WebKit web view: it gets host.ready once it has loaded"
    }

    func stop() async {
        await journey?.stop()
        if let failure { StandardStreams.printFailure(failure) }
    }

    /// Tells the person running the host what happened in the web view.
    private func report(_ notice: WebKitJourneyNotice, host: BridgeHost, finished: @Sendable () -> Void) {
        // URLs, actions and error texts come from the page or WebKit: untrusted text.
        let printError = { (line: String) in StandardStreams.printError(Sanitizer.sanitize(line)) }
        switch notice {
        case .loaded(let page):
            journeyAttached(host)
            printError("bridge-inspector host: \(page) loaded; sent host.ready.")
        case .went(let page, let stillPending):
            printError(WebHostJourney.pageWent("\(page)", how: "reload or navigation", stillPending: stillPending))
        case .loadFailed(let uri, let error):
            printError("bridge-inspector host: loading \(uri) failed: \(error)")
        case .lostDelivery(let message, let page):
            printError(
                "bridge-inspector host: \(message.type.rawValue) '\(message.payload.action)' (\(message.correlationId)) reached GBGBridge's no-op receive in \(page): the journey had not set window.GBGBridge.receive yet, so it never got it.")
        case .webProcessTerminated(let reason):
            printError("bridge-inspector host: the web content process ended (\(reason)); deliveries fail until a page loads again.")
        case .viewDestroyed:
            printError("bridge-inspector host: the web view was destroyed; the host is detached, and what it sends fails with \"WebView not attached\".")
        case .runnerProblem(let text):
            printError("bridge-inspector host: WebKit runner: \(text)")
        case .runnerEnded(let how, let standardError):
            let said = standardError.split(separator: "\n").suffix(5).joined(separator: "\n  ")
            failure = "the WebKit runner ended (\(how))" + (said.isEmpty ? "" : "; it said:\n  \(said)")
            finished()
        }
    }
}

/// The page in the WebKit runner's web view, for the GBGBridge adapter's `inject` and `replay`:
/// the post is evaluated in the page, so it goes through the real `gbgBridge` handler.
@MainActor
final class WebKitJourneyPage: JourneyPage {
    weak var journey: WebKitJourney?

    var unavailableReason: String? {
        guard let journey else { return "the WebKit web view is not open yet" }
        if journey.isViewDestroyed { return "the WebKit web view was destroyed" }
        if journey.hasEnded { return "the WebKit runner has ended" }
        return journey.page == nil ? "no page has loaded in the WebKit web view yet" : nil
    }

    func post(asJourney post: JourneyPost) {
        journey?.evaluate(post.script)
    }

    /// The web view runs ``PageInterceptScript`` on the public-API path.
    var canHold: Bool { true }

    func send(_ command: PageInterceptCommand) {
        journey?.evaluate(command.script)
    }
}
