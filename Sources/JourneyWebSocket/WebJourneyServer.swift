import BridgeCore
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import ThreadSupport

/// Something the server wants the person running the host to know.
public enum WebJourneyNotice: Sendable {
    /// A page connected and is now the host's journey (send `host.ready` now).
    case attached(WebPage)
    /// A newer page took over from `page` (a second tab, or a reload racing the old page's close);
    /// `page` was sent WebSocket close code ``BrowserBootstrap/supersededCloseCode``.
    case superseded(WebPage, by: WebPage)
    /// The page went (reload, navigation, closed tab). `stillPending` are the requests it sent that
    /// still wait in `pendingRequests`: they stay there, and an answer to one goes to whichever page
    /// is attached then (which never sent it), or fails with `WebView not attached`.
    case detached(WebPage, stillPending: [BridgeMessage])
    /// A request or WebSocket was refused (foreign origin, wrong `Host`, a path out of the served
    /// directory); the text says which and why.
    case refused(String)
    /// A page sent something that is not part of the bridge's wire format (ignored).
    case protocolError(WebPage, String)
}

/// Serves a web journey to a desktop browser on 127.0.0.1 and carries its bridge messages to a
/// ``BridgeHost`` over a WebSocket: the browser stands in for the WKWebView.
///
/// - Files of ``WebJourneyConfiguration/servedDirectory`` are served; every top-level HTML page
///   gets the bridge bootstrap injected at document start, before its own scripts (see
///   ``BrowserBootstrap``). Paths cannot leave the directory (`..`, encoded or not, and symbolic
///   links that point out are refused; hidden files are never served).
/// - Each page that connects to ``WebJourneyPaths/socket`` is one page context, attached to the
///   host with a ``WebSocketJourneyTransport``; the newest page is the journey. When it goes, the
///   host is detached and its pending requests stay pending.
/// - Only loopback is bound; requests must name the server as `Host`, and WebSockets are accepted
///   only from pages of the served origin or of ``WebJourneyConfiguration/allowedOrigins``.
/// - Every request, the WebSocket included, must carry this run's secret token (see
///   ``journeyURL``): opening that URL gives the browser an `HttpOnly`, `SameSite=Strict` cookie
///   with it. Anything else gets a 403 that says to open the URL the host printed; a refused
///   WebSocket is never opened, so it receives nothing and the attached page stays attached.
/// - A connection has ``WebJourneyConfiguration/requestTimeout`` to send a request and is closed
///   after ``WebJourneyConfiguration/idleTimeout`` without traffic (the open bridge WebSocket has
///   neither). When the process runs out of file descriptors, accepting pauses for a second
///   (``AcceptPauseHandler``) instead of spinning, and resumes once some are free.
///
/// ```swift
/// let server = try await WebJourneyServer.start(
///     host: host, configuration: WebJourneyConfiguration(servedDirectory: "examples/web-journey")
/// ) { notice in
///     if case .attached = notice { host.sendReadyEvent() }
/// }
/// print("serving: \(server.journeyURL)")
/// // ...
/// await server.stop()
/// ```
///
/// HTTP and WebSocket are SwiftNIO's (NIOHTTP1, NIOWebSocket); this type adds only the policy.
public final class WebJourneyServer: Sendable {
    /// The port the server listens on (the one picked when the configuration said 0).
    public let port: Int
    /// The configuration it was started with.
    public let configuration: WebJourneyConfiguration

    /// `http://127.0.0.1:<port>/`: the journey's address, without the token (for messages; a
    /// browser that has not opened ``journeyURL`` is refused there).
    public var url: String { "http://\(WebJourneyConfiguration.bindAddress):\(port)/" }

    /// `http://127.0.0.1:<port>/?token=<token>`: the address to open in the browser. It holds
    /// this run's secret: show it only to the person running the host, never write it to a log.
    public var journeyURL: String { url + "?\(AccessToken.queryParameter)=\(token.value)" }

    /// The bootstrap script's address with the token, for a page of an allowed origin to include
    /// as `<script src="...">` (its bridge WebSocket then carries the token too). Like
    /// ``journeyURL``, it holds the secret.
    public var bootstrapScriptURL: String {
        "http://\(WebJourneyConfiguration.bindAddress):\(port)\(WebJourneyPaths.bootstrapScript)?\(AccessToken.queryParameter)=\(token.value)"
    }

    /// This run's secret.
    let token: AccessToken

    private let group: MultiThreadedEventLoopGroup
    private let context: ServerContext
    private let listener: any Channel
    private let pages: PageCoordinator

    private init(port: Int, configuration: WebJourneyConfiguration, group: MultiThreadedEventLoopGroup, context: ServerContext, listener: any Channel, pages: PageCoordinator) {
        self.port = port
        self.token = context.policy.token
        self.configuration = configuration
        self.group = group
        self.context = context
        self.listener = listener
        self.pages = pages
    }

    /// Validates `configuration`, binds 127.0.0.1 and starts serving for `host`.
    ///
    /// `onNotice` is called on the main actor with everything worth telling (pages attached and
    /// gone, refusals). Throws ``WebJourneyError`` when the directory, an origin or the port is
    /// unusable, a timeout is not positive, or the port is taken.
    @MainActor
    public static func start(
        host: BridgeHost, configuration: WebJourneyConfiguration,
        onNotice: @escaping @MainActor (WebJourneyNotice) -> Void = { _ in }
    ) async throws(WebJourneyError) -> WebJourneyServer {
        guard (0...65535).contains(configuration.port) else { throw .invalidPort(configuration.port) }
        guard configuration.requestTimeout > .zero else { throw .invalidTimeout(name: "requestTimeout", configuration.requestTimeout) }
        guard configuration.idleTimeout > .zero else { throw .invalidTimeout(name: "idleTimeout", configuration.idleTimeout) }
        var origins = Set<String>()
        for origin in configuration.allowedOrigins {
            guard let normalized = WebJourneyConfiguration.normalizedOrigin(origin) else { throw .invalidOrigin(origin) }
            origins.insert(normalized)
        }
        let directory = try configuration.servedDirectory.map { path throws(WebJourneyError) in try ServedDirectory(path: path) }

        let pages = PageCoordinator(
            host: host, maximumPendingBytes: configuration.maximumPendingDeliveryBytes, pageReports: configuration.pageReports, onNotice: onNotice)
        let threadPool = NIOThreadPool(numberOfThreads: 1)
        threadPool.start()
        let context = ServerContext(
            configuration: configuration, directory: directory, extraOrigins: origins, threadPool: threadPool, pages: pages)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { channel in
                // Out of file descriptors, accepting pauses instead of spinning a core.
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(AcceptPauseHandler())
                }
            }
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try context.configure(channel) }
            }
        let listener: any Channel
        do {
            listener = try await bootstrap.bind(host: WebJourneyConfiguration.bindAddress, port: configuration.port).get()
        } catch {
            try? await threadPool.shutdownGracefully()
            try? await group.shutdownGracefully()
            throw .cannotListen(port: configuration.port, detail: "\(error)")
        }
        let port = listener.localAddress?.port ?? configuration.port
        context.setPort(port)
        return WebJourneyServer(port: port, configuration: configuration, group: group, context: context, listener: listener, pages: pages)
    }

    /// Stops serving: no new connections, every page is sent WebSocket close code 1001 ("going
    /// away") and the host is detached. Waits at most about two seconds for pages to answer.
    @MainActor
    public func stop() async {
        try? await listener.close()
        await pages.closeAll()
        try? await context.threadPool.shutdownGracefully()
        try? await group.shutdownGracefully()
    }

    /// Makes the attached page post `text` as the journey would, for an inspector's `inject` and
    /// `replay` on a host seen through GBGBridge's public API.
    ///
    /// The page's bootstrap calls the page's own `window.webkit.messageHandlers.gbgBridge.postMessage`
    /// (looked up at the time of the call) with `text`, or with `JSON.parse(text)` when `asObject`
    /// (as a journey that posts an object), so the message takes exactly the path of the
    /// journey's own posts and reaches the host as a post of the page, in order with them. It is
    /// not a delivery: nothing is counted for `evaluateFailed` reports. A failure in the page (the
    /// text is not JSON, the handler throws) is a console error there and posts nothing.
    ///
    /// ```swift
    /// try server.postAsJourney(#"{"version":"1.0",...}"#, asObject: true)
    /// ```
    ///
    /// Throws ``WebJourneyError/noPageAttached`` when no page is attached (open the journey's
    /// page first), and ``WebJourneyError/pageClosed(page:)`` or
    /// ``WebJourneyError/pageNotReading(page:pendingBytes:)`` as a delivery would.
    @MainActor
    public func postAsJourney(_ text: String, asObject: Bool) throws(WebJourneyError) {
        try pages.postAsJourney(text, asObject: asObject)
    }

    /// Calls the attached page's holding script (``PageReportChannel/holdingEntryPoint``) by a
    /// control frame: `function` (`set` or `decide`) with `arguments`, the text of a JSON array.
    /// Throws ``WebJourneyError/noPageAttached`` when no page is attached.
    @MainActor
    public func callHolder(_ function: String, arguments: String) throws(WebJourneyError) {
        try pages.callHolder(function, arguments: arguments)
    }

    /// Reloads the attached page (a control frame: the page runs `location.reload()`), as an
    /// app's web view reloads: the page's bridge context ends (a `detached` notice), and the
    /// page that loads again attaches as a new page (an `attached` notice, where the host sends
    /// `host.ready`). Nothing the host holds is cleared: pending requests stay pending.
    /// Throws ``WebJourneyError/noPageAttached`` when no page is attached.
    @MainActor
    public func reloadPage() throws(WebJourneyError) {
        try pages.reloadPage()
    }

    /// The pages connected now, oldest first (for tests and diagnostics).
    @MainActor
    public var connectedPages: [WebPage] { pages.connectedPages }

    /// What became of the reports of ``WebJourneyConfiguration/pageReports`` so far.
    @MainActor
    public var pageReportCounts: PageReportCounts { pages.reportCounts }
}

/// What every connection's handlers share; safe to use from any thread.
final class ServerContext: Sendable {
    let configuration: WebJourneyConfiguration
    let directory: ServedDirectory?
    let threadPool: NIOThreadPool
    let bootstrapScript: [UInt8]
    let pages: PageCoordinator
    private let policyBox: Locked<RequestPolicy>

    init(configuration: WebJourneyConfiguration, directory: ServedDirectory?, extraOrigins: Set<String>, threadPool: NIOThreadPool, pages: PageCoordinator) {
        self.configuration = configuration
        self.directory = directory
        self.threadPool = threadPool
        self.pages = pages
        self.bootstrapScript = Array(
            BrowserBootstrap.script(
                bootstrapScript: configuration.bootstrapScript, pageReports: configuration.pageReports,
                maximumFrameBytes: configuration.maximumMessageBytes
            ).utf8)
        // Until the port is known (port 0), no Host matches and every request is refused.
        self.policyBox = Locked(RequestPolicy(port: -1, extraOrigins: extraOrigins, token: AccessToken.random()))
    }

    /// The current policy.
    var policy: RequestPolicy { policyBox.withLock { $0 } }

    func setPort(_ port: Int) {
        policyBox.withLock { $0 = RequestPolicy(port: port, extraOrigins: $0.extraOrigins, token: $0.token) }
    }

    /// Tells the host about a refusal.
    func refused(_ text: String) {
        let pages = pages
        Task { @MainActor in pages.notify(.refused(text)) }
    }

    /// Sets up a new connection's pipeline: HTTP with a WebSocket upgrade for the bridge socket,
    /// and the request and idle timeouts until the upgrade.
    func configure(_ channel: any Channel) throws {
        try channel.pipeline.syncOperations.addHandler(
            IdleStateHandler(allTimeout: TimeAmount(configuration.idleTimeout)), name: RequestTimeoutHandler.idleHandlerName)
        let maximumMessageBytes = configuration.maximumMessageBytes
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: max(1, min(maximumMessageBytes, Int(UInt32.max))),
            automaticErrorHandling: true,
            shouldUpgrade: { [self] channel, head in
                let path = head.uri.prefix { $0 != "?" && $0 != "#" }
                guard path == WebJourneyPaths.socket, policy.webSocketRefusal(head) == nil else {
                    // Refused: the request goes on to HTTPRequestHandler, which answers 403 and says why.
                    return channel.eventLoop.makeSucceededFuture(nil)
                }
                return channel.eventLoop.makeSucceededFuture(HTTPHeaders())
            },
            upgradePipelineHandler: { [self] channel, head in
                channel.eventLoop.makeCompletedFuture {
                    let (inputs, continuation) = AsyncStream.makeStream(of: PageInput.self)
                    try channel.pipeline.syncOperations.addHandler(
                        NIOWebSocketFrameAggregator(
                            minNonFinalFragmentSize: 1, maxAccumulatedFrameCount: 4096, maxAccumulatedFrameSize: maximumMessageBytes))
                    try channel.pipeline.syncOperations.addHandler(WebSocketPageHandler(inputs: continuation))
                    let origin = RequestPolicy.printable(head.headers["Origin"].first ?? "")
                    let path = RequestPolicy.printable(Self.pagePath(fromSocketURI: head.uri))
                    let pages = pages
                    Task { @MainActor in await pages.run(channel: channel, origin: origin, path: path, inputs: inputs) }
                }
            })
        try channel.pipeline.syncOperations.configureHTTPServerPipeline(
            withServerUpgrade: (
                upgraders: [upgrader],
                completionHandler: { context in
                    context.pipeline.syncOperations.removeHandler(name: HTTPRequestHandler.name, promise: nil)
                    context.pipeline.syncOperations.removeHandler(name: RequestTimeoutHandler.name, promise: nil)
                    context.pipeline.syncOperations.removeHandler(name: RequestTimeoutHandler.idleHandlerName, promise: nil)
                }
            ),
            withErrorHandling: true)
        try channel.pipeline.syncOperations.addHandler(
            RequestTimeoutHandler(timeout: TimeAmount(configuration.requestTimeout)), name: RequestTimeoutHandler.name)
        try channel.pipeline.syncOperations.addHandler(HTTPRequestHandler(server: self), name: HTTPRequestHandler.name)
    }

    /// The `page` query parameter the bootstrap puts on the socket URL (`/` when missing).
    static func pagePath(fromSocketURI uri: String) -> String {
        guard let query = uri.split(separator: "?", maxSplits: 1).dropFirst().first else { return "/" }
        for pair in query.split(separator: "&") where pair.hasPrefix("page=") {
            let value = pair.dropFirst(5).replacingOccurrences(of: "+", with: " ")
            if let bytes = ServedDirectory.percentDecode(value), let text = String(validating: bytes, as: UTF8.self) {
                return text
            }
        }
        return "/"
    }
}

/// The page contexts of one host, on the main actor: attaches the newest page, detaches a page
/// that goes, and feeds each page's messages to the host in order.
@MainActor
final class PageCoordinator {
    private let host: BridgeHost
    private let maximumPendingBytes: Int
    private let onNotice: @MainActor (WebJourneyNotice) -> Void
    private let pageReports: PageReportChannel?
    private(set) var reportCounts = PageReportCounts()
    private var current: WebSocketJourneyTransport?
    private var open: [Int: WebSocketJourneyTransport] = [:]
    private var nextId = 1
    private var stopped = false

    init(
        host: BridgeHost, maximumPendingBytes: Int, pageReports: PageReportChannel? = nil,
        onNotice: @escaping @MainActor (WebJourneyNotice) -> Void
    ) {
        self.host = host
        self.maximumPendingBytes = maximumPendingBytes
        self.pageReports = pageReports
        self.onNotice = onNotice
    }

    var connectedPages: [WebPage] { open.values.map(\.page).sorted { $0.id < $1.id } }

    /// Calls the holding script of the page attached now.
    func callHolder(_ function: String, arguments: String) throws(WebJourneyError) {
        guard let current else { throw .noPageAttached }
        try current.callHolder(function, arguments: arguments)
    }

    /// Reloads the page attached now.
    func reloadPage() throws(WebJourneyError) {
        guard let current else { throw .noPageAttached }
        try current.reloadPage()
    }

    /// Hands a post as the journey to the page attached now.
    func postAsJourney(_ text: String, asObject: Bool) throws(WebJourneyError) {
        guard let current else { throw .noPageAttached }
        try current.post(asJourney: text, asObject: asObject)
    }

    func notify(_ notice: WebJourneyNotice) {
        onNotice(notice)
    }

    /// Runs one page context from its connection to its end.
    func run(channel: any Channel, origin: String, path: String, inputs: AsyncStream<PageInput>) async {
        let page = WebPage(id: nextId, origin: origin, path: path)
        nextId += 1
        let transport = WebSocketJourneyTransport(page: page, channel: channel, host: host, maximumPendingBytes: maximumPendingBytes)
        if stopped {
            transport.close(code: .goingAway, reason: "the host is shutting down")
            return
        }
        open[page.id] = transport
        if let previous = current {
            previous.close(code: .unknown(UInt16(BrowserBootstrap.supersededCloseCode)), reason: "another page attached to this host")
            onNotice(.superseded(previous.page, by: page))
        }
        current = transport
        host.attach(transport)
        onNotice(.attached(page))

        for await input in inputs {
            switch input {
            case .post(let data):
                transport.received(data)
            case .evaluateFailed(let seq, let error):
                if !transport.evaluationFailed(seq: seq, error: error) {
                    onNotice(.protocolError(page, "the page reported a failure of delivery \(seq), which this host does not remember: \(RequestPolicy.printable(error))"))
                }
            case .invalid(let what):
                onNotice(.protocolError(page, "the page sent \(what); it was ignored"))
            case .report, .reportTooLarge, .malformedReport:
                pageReported(input, by: transport)
            }
        }

        transport.markClosed()
        open[page.id] = nil
        if current === transport {
            current = nil
            host.detach()
        }
        onNotice(.detached(page, stillPending: transport.stillPending()))
    }

    /// Hands a report of the attached journey page to the report channel; counts and drops the
    /// others (another page's, oversized, malformed). Without a channel it is an unknown kind.
    private func pageReported(_ input: PageInput, by transport: WebSocketJourneyTransport) {
        guard let pageReports else {
            onNotice(.protocolError(transport.page, "the page sent a report, but no page script reports to this host; it was ignored"))
            return
        }
        guard current === transport else {
            reportCounts.notFromJourneyPage += 1
            return
        }
        switch input {
        case .report(let body) where body.utf8.count <= pageReports.maximumReportBytes:
            reportCounts.delivered += 1
            pageReports.receive(body)
        case .report, .reportTooLarge:
            reportCounts.oversized += 1
        default:
            reportCounts.malformed += 1
        }
    }

    /// Closes every page with 1001 "going away", detaches the host, and waits (bounded) for the pages to go.
    func closeAll() async {
        stopped = true
        for transport in open.values {
            transport.close(code: .goingAway, reason: "the host is shutting down")
        }
        let deadline = ContinuousClock.now + .seconds(2)
        while !open.isEmpty, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        if current != nil {
            current = nil
            host.detach()
        }
    }
}
