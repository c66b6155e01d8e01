import BridgeCore
import GBGBridgeInspector
import InspectorAgent
import JourneyWebSocket
import TerminalUI

/// `bridge-inspector host --serve DIR` (or `--allow-origin`): the journey is a real page in a
/// browser, connected over a WebSocket, instead of a simulated one. Every page that attaches gets
/// `host.ready`, as an app sends it once its journey is attached.
@MainActor
final class WebHostJourney: HostJourney {
    private let options: HostOptions
    private var server: WebJourneyServer?
    /// Through the public API, the page runs the real page script, as in an app's WKWebView,
    /// and its reports are all the inspector sees of what the host sends (no stand-in here).
    private let pageReports = PageReportRelay()
    private var connected = false
    /// Where `inject` posts as the journey would, through the attached page's own handler.
    private let page = ServedJourneyPage()
    var journeyPage: (any JourneyPage)? { page }
    var journeyAttached: @MainActor (BridgeHost) -> Void = { $0.sendReadyEvent() }

    init(options: HostOptions) {
        self.options = options
    }

    var activity: String {
        guard let directory = options.serveDirectory, let server else {
            return "waiting for pages of \(options.allowedOrigins.joined(separator: ", "))"
        }
        return "serving the web journey in \(directory) at \(server.url)"
    }

    /// Serves the journey: this checks the directory, the origins and the port.
    func prepare(host: BridgeHost) async throws {
        var configuration = WebJourneyConfiguration(
            servedDirectory: options.serveDirectory, port: options.port ?? 0, allowedOrigins: options.allowedOrigins,
            bootstrapScript: host.configuration?.bootstrapScript ?? BridgeConfiguration.defaultBootstrapScript)
        if options.inspectionPath == .publicAPI {
            let pageReports = pageReports
            var channel = PageReportChannel(
                script: OutgoingTapScript.source + "\n" + PageInterceptScript.source, handlerName: OutgoingTapScript.handlerName
            ) { body in
                pageReports.received(body)
            }
            channel.holdingEntryPoint = PageInterceptScript.entryPoint
            configuration.pageReports = channel
        }
        let journeyAttached = journeyAttached
        server = try await WebJourneyServer.start(host: host, configuration: configuration) { notice in
            Self.report(notice, host: host, journeyAttached: journeyAttached)
        }
        page.server = server
    }

    func connect(host: BridgeHost, to served: inout ServedInspector) throws {
        pageReports.inspector = served
        connected = true
    }

    var outputLines: [String] {
        // The journey's address holds the run's token: it goes to the person running the host
        // (standard output) and nowhere else; notices and logs never repeat it.
        server.map { ["serving: \($0.journeyURL)"] } ?? []
    }

    var notices: (beforeAttachHint: [String], afterAttachHint: [String]) {
        var before: [String] = []
        var after: [String] = []
        if options.serveDirectory != nil {
            before.append(
                "bridge-inspector host: open the \"serving:\" URL above, with its token, in a browser; only a page opened from it can be the journey, and other local programs are refused.")
        }
        if !options.allowedOrigins.isEmpty, let server {
            after.append(
                "bridge-inspector host: pages of \(options.allowedOrigins.joined(separator: ", ")) include, as their first script, <script src=\"\(server.bootstrapScriptURL)\"></script> (it carries this run's token; do not commit it).")
        }
        return (before, after)
    }

    /// Nothing to start: every page that connects gets host.ready (see ``report(_:host:)``).
    func start(host: BridgeHost, agent: InspectorAgent, finished: @escaping @Sendable () -> Void) {}

    /// Reloads the attached page by a control frame (`location.reload()` in the page); the page
    /// that loads again attaches and gets `host.ready` (``report(_:host:journeyAttached:)``).
    func reloadPage() throws(JourneyControlRefusal) -> String {
        guard let server else { throw JourneyControlRefusal("the web journey is not served yet") }
        guard let page = server.connectedPages.last else {
            throw JourneyControlRefusal("no page of the journey is open: open the \"serving:\" URL in a browser, then try again")
        }
        do {
            try server.reloadPage()
        } catch {
            throw JourneyControlRefusal("could not reload \(page): \(error)")
        }
        return "asked \(page) to reload: it attaches again as a new page and gets host.ready"
    }

    /// A browser journey never finishes by itself.
    func finished() -> Bool { false }

    /// Pages first (no more traffic); then what the inspector did not take from them, if it was served.
    func stop() async {
        guard let server else { return }
        await server.stop()
        if connected { pageReports.summarize(server.pageReportCounts) }
    }

    /// Tells the person running the host what happened to the browser journey; sends `host.ready`
    /// to every page that attaches (through `journeyAttached`), as an app does once its journey is attached.
    private static func report(_ notice: WebJourneyNotice, host: BridgeHost, journeyAttached: @MainActor (BridgeHost) -> Void) {
        // Actions, ids and origins come from the browser page: untrusted text.
        let printError = { (line: String) in StandardStreams.printError(Sanitizer.sanitize(line)) }
        switch notice {
        case .attached(let page):
            journeyAttached(host)
            printError("bridge-inspector host: \(page) attached (origin \(page.origin)); sent host.ready.")
        case .superseded(let page, let newer):
            printError("bridge-inspector host: \(newer) took over from \(page), which was disconnected: one page at a time is the journey.")
        case .detached(let page, let stillPending):
            printError(Self.pageWent("\(page)", how: "reload, navigation or closed tab", stillPending: stillPending))
        case .refused(let text):
            printError("bridge-inspector host: refused: \(text)")
        case .protocolError(let page, let text):
            printError("bridge-inspector host: \(page): \(text)")
        }
    }

    /// `page 1 (/) went (reload, …); its bridge context ended.`, and the requests it left
    /// pending, which stay there: the line both kinds of real journey print when a page goes.
    static func pageWent(_ page: String, how: String, stillPending: [BridgeMessage]) -> String {
        var line = "bridge-inspector host: \(page) went (\(how)); its bridge context ended."
        if !stillPending.isEmpty {
            let list = stillPending.map { "\($0.payload.action) (\($0.correlationId))" }.joined(separator: ", ")
            line += " \(stillPending.count) request(s) it sent are still pending: \(list). They stay in pendingRequests; an answer now reaches the next page, which never sent them."
        }
        return line
    }
}

/// The page attached to `host --serve` now, for the GBGBridge adapter's `inject`, `replay` and breakpoints:
/// a control frame makes the page post the message through its own
/// `window.webkit.messageHandlers.gbgBridge.postMessage`, as the journey's code does.
@MainActor
final class ServedJourneyPage: JourneyPage {
    var server: WebJourneyServer?

    var unavailableReason: String? {
        guard let server else { return "the web journey is not served yet" }
        return server.connectedPages.isEmpty ? "no page of the journey is open: open the \"serving:\" URL in a browser, then try again" : nil
    }

    func post(asJourney post: JourneyPost) {
        do {
            try server?.postAsJourney(post.text, asObject: post.isObject)
        } catch {
            StandardStreams.printError(Sanitizer.sanitize("bridge-inspector host: could not post the inspector's message in the page: \(error)"))
        }
    }

    /// The page runs the holding script after the page script; its posts are handed over by the shim.
    var canHold: Bool { true }

    func send(_ command: PageInterceptCommand) {
        // No page attached: nothing waits for a verdict there.
        try? server?.callHolder(command.function, arguments: command.arguments)
    }
}
