import BridgeCore
import Foundation

/// A web journey in a real WebKit web view (WebKitGTK, JavaScriptCore), attached to a
/// ``BridgeHost`` the way a WKWebView is attached to GBGBridge on iOS:
///
/// - the host's `gbgBridge` script message handler receives what the page posts with
///   `window.webkit.messageHandlers.gbgBridge.postMessage(message)` (a string as is, anything
///   else as its JSON), in order;
/// - the bootstrap is a user script injected at document start in the top frame only, before
///   the page's own scripts, on every page load;
/// - every message the host sends is evaluated in the page as `window.GBGBridge.receive(<json>);`,
///   and an evaluation error reaches `lastError` as `evaluateJavaScript failed: …`;
/// - when the web view is destroyed the host is detached, and sends fail with `WebView not attached`.
///
/// WebKitGTK must stay on the thread that initialised it, and on Linux the main actor's jobs do not
/// run on the main thread under `swift test` or async `main`. So the web view lives in a process of
/// its own, `bridge-inspector-webkit` (Integrations/WebKitRunner), whose synchronous `main` runs
/// GLib's main loop, and this type talks to it over a pipe (docs/web-journeys.md has the protocol).
///
/// ```swift
/// var configuration = try WebKitJourneyConfiguration(journey: "examples/web-journey")
/// configuration.headless = true
/// let journey = try await WebKitJourney.start(host: host, configuration: configuration) { notice in
///     if case .loaded = notice { host.sendReadyEvent() }
/// }
/// // … later
/// await journey.stop()
/// ```
@MainActor
public final class WebKitJourney {
    /// WebKit's version, as the runner reported it (`2.50.6`).
    public private(set) var webkitVersion = ""
    /// The X display the web view is on (`:12`).
    public private(set) var display = ""
    /// The page now in the web view (the last one committed), if any.
    public var page: WebKitPage? { transport.page }
    /// Deliveries that reached GBGBridge's no-op `receive` (lost to the journey).
    public private(set) var lostDeliveries = 0
    /// Whether the web view was destroyed.
    public private(set) var isViewDestroyed = false
    /// Whether the runner has ended.
    public private(set) var hasEnded = false
    /// The runner's process id.
    public var runnerProcessIdentifier: Int32 { process.processIdentifier }

    private weak var host: BridgeHost?
    private let process: WebKitRunnerProcess
    let transport: WebKitJourneyTransport
    private let configuration: WebKitJourneyConfiguration
    private let notify: @MainActor (WebKitJourneyNotice) -> Void
    private let codec = BridgeMessageCodec()
    private var pageCount = 0
    private var sentRequestIds: [String] = []
    private var queries: [Int: CheckedContinuation<String, any Error>] = [:]
    private var nextQuery = 0
    private var waitingToStart: CheckedContinuation<Void, any Error>?
    private var started = false
    private var stopping = false
    private var eventTask: Task<Void, Never>?

    /// Request ids remembered for the page now in the view.
    static let rememberedRequests = 4096

    private init(host: BridgeHost, process: WebKitRunnerProcess, configuration: WebKitJourneyConfiguration, notify: @escaping @MainActor (WebKitJourneyNotice) -> Void) {
        self.host = host
        self.process = process
        self.configuration = configuration
        self.notify = notify
        transport = WebKitJourneyTransport(process: process, maximumPendingBytes: configuration.maximumPendingBytes)
    }

    /// Starts the runner and loads the journey; returns once its web view exists and is
    /// attached to `host`. `notices` hears what happens to pages, on the main actor. Throws
    /// ``WebKitJourneyError`` (each says what to do) when the runner cannot be found or started.
    public static func start(
        host: BridgeHost, configuration: WebKitJourneyConfiguration,
        notices: @escaping @MainActor (WebKitJourneyNotice) -> Void = { _ in }
    ) async throws -> WebKitJourney {
        let path = try configuration.runnerPath ?? WebKitRunnerLocator.locate()
        let process = try WebKitRunnerProcess(executable: path, arguments: configuration.headless ? ["--headless"] : [])
        let journey = WebKitJourney(host: host, process: process, configuration: configuration, notify: notices)
        journey.eventTask = Task { @MainActor [weak journey] in
            for await event in process.events {
                guard let journey else { return }
                journey.handle(event)
            }
            journey?.ended()
        }
        process.send(.start(
            handler: JourneyHandler.name, extraHandlers: configuration.reportHandlers.keys.sorted(),
            userScripts: [configuration.bootstrapScript] + configuration.userScripts, uri: configuration.uri))
        do {
            try await journey.waitUntilStarted(path: path)
        } catch {
            await process.stop()
            throw error
        }
        return journey
    }

    /// The name the bridge's script message handler has in the page, as GBGBridge registers it.
    public enum JourneyHandler {
        /// `gbgBridge`: `window.webkit.messageHandlers.gbgBridge.postMessage(message)`.
        public static let name = "gbgBridge"
    }

    // MARK: Driving the web view

    /// Reloads the page: a new page context, with the bootstrap run again.
    public func reload() { process.send(.reload) }

    /// Navigates to `uri`.
    public func load(_ uri: String) { process.send(.load(uri: uri)) }

    /// Destroys the web view, as an app that lets its WKWebView go: the host is detached once the
    /// runner confirms it, and later sends fail with `WebView not attached`.
    public func destroyView() { process.send(.destroyView) }

    /// Kills the web content process (as iOS does to a web view under memory pressure).
    public func terminateWebProcess() { process.send(.terminateWebProcess) }

    /// Evaluates `script` in the page (for diagnostics and tests) and returns its result as JSON
    /// text, `undefined` when it has none. Throws ``WebKitJourneyError/queryFailed(_:)`` with
    /// WebKit's error when the script throws.
    public func query(_ script: String) async throws -> String {
        guard !hasEnded else { throw WebKitJourneyError.runnerGone }
        nextQuery += 1
        let id = nextQuery
        return try await withCheckedThrowingContinuation { continuation in
            queries[id] = continuation
            if !process.send(.query(id: id, script: script)) {
                queries[id] = nil
                continuation.resume(throwing: WebKitJourneyError.runnerGone)
            }
        }
    }

    /// Evaluates `script` in the page without waiting for it (the inspector's `inject`: a post as
    /// the journey would); an error is told as a ``WebKitJourneyNotice/runnerProblem(_:)``.
    public func evaluate(_ script: String) {
        Task { @MainActor [weak self] in
            do {
                _ = try await self?.query(script)
            } catch {
                self?.notify(.runnerProblem("a script evaluated for the inspector failed: \(error)"))
            }
        }
    }

    /// Detaches the host (if it is still this journey's) and ends the runner and its display.
    public func stop() async {
        stopping = true
        if let host, host.isJourneyAttached, !hasEnded { host.detach() }
        await process.stop()
        await eventTask?.value
    }

    /// What the runner wrote to standard error (its last 16 KiB): WebKit's own warnings.
    public var runnerStandardError: String { process.standardError }

    // MARK: Events

    private func waitUntilStarted(path: String) async throws {
        let timeout = configuration.startTimeout
        let timer = Task { @MainActor [weak self] in
            try? await Task.sleep(for: timeout)
            guard let self, !Task.isCancelled else { return }
            self.failStart(WebKitJourneyError.runnerTimedOut(seconds: Int(timeout.components.seconds), standardError: self.process.standardError))
        }
        defer { timer.cancel() }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            if started {
                continuation.resume()
            } else if hasEnded {
                continuation.resume(throwing: WebKitJourneyError.runnerDidNotStart(path: path, reason: process.exitDescription, standardError: process.standardError))
            } else {
                waitingToStart = continuation
            }
        }
    }

    private func failStart(_ error: any Error) {
        waitingToStart?.resume(throwing: error)
        waitingToStart = nil
    }

    private func handle(_ result: Result<WebKitRunnerEvent, WebKitRunnerEvent.LineError>) {
        let event: WebKitRunnerEvent
        switch result {
        case .success(let decoded): event = decoded
        case .failure(let problem):
            notify(.runnerProblem(problem.text))
            return
        }
        switch event {
        case .started(let version, let display):
            webkitVersion = version
            self.display = display
            started = true
            // Attached here, before any later event is handled: the page's first post may be
            // handled before `start` resumes, and the host's answer to it must find the view.
            host?.attach(transport)
            waitingToStart?.resume()
            waitingToStart = nil
        case .post(let handler, let text):
            received(text, handler: handler)
        case .postFailed(let handler, let error):
            notify(.runnerProblem("the page posted to \(handler) something with no JSON form: \(error)"))
        case .evaluated(let seq, let probe):
            guard let outstanding = transport.finish(seq) else { return }
            switch probe {
            case "\"set\"":
                if outstanding.page == transport.page { transport.probing = false }
            case "\"noOp\"":
                lostDeliveries += 1
                if let page = outstanding.page { notify(.lostDelivery(outstanding.delivery.message, page: page)) }
            default:
                break
            }
        case .evaluateFailed(let seq, let error):
            guard let outstanding = transport.finish(seq) else { return }
            host?.journeyDeliveryFailed(outstanding.delivery, error: WebKitScriptError(message: Self.printable(error), page: outstanding.page?.id ?? 0))
        case .queryResult(let id, let json):
            queries.removeValue(forKey: id)?.resume(returning: json)
        case .queryFailed(let id, let error):
            queries.removeValue(forKey: id)?.resume(throwing: WebKitJourneyError.queryFailed(error))
        case .load(let stage, let uri):
            loadChanged(stage, uri: uri)
        case .loadFailed(let uri, let error):
            notify(.loadFailed(uri: Self.printable(uri), error: Self.printable(error)))
        case .webProcessTerminated(let reason):
            notify(.webProcessTerminated(reason: Self.printable(reason)))
        case .viewDestroyed:
            isViewDestroyed = true
            if let host, host.isJourneyAttached { host.detach() }
            notify(.viewDestroyed)
        case .error(let text):
            notify(.runnerProblem(text))
        case .fatal(let text):
            if started {
                notify(.runnerProblem(text))
            } else {
                failStart(WebKitJourneyError.runnerDidNotStart(path: configuration.runnerPath ?? WebKitRunnerLocator.executableName, reason: text, standardError: process.standardError))
            }
        }
    }

    private func received(_ text: String, handler: String) {
        guard handler == JourneyHandler.name else {
            configuration.reportHandlers[handler]?(text)
            return
        }
        guard let host else { return }
        let data = Data(text.utf8)
        if case .success(let message) = codec.decode(data), message.type == .request {
            sentRequestIds.append(message.correlationId)
            if sentRequestIds.count > Self.rememberedRequests { sentRequestIds.removeFirst(sentRequestIds.count - Self.rememberedRequests) }
        }
        host.receive(data)
    }

    private func loadChanged(_ stage: String, uri: String) {
        switch stage {
        case "committed":
            if let previous = transport.page {
                let mine = Set(sentRequestIds)
                let stillPending = host?.pendingRequests.filter { mine.contains($0.correlationId) } ?? []
                notify(.went(previous, stillPending: stillPending))
            }
            pageCount += 1
            transport.page = WebKitPage(id: pageCount, uri: Self.printable(uri))
            transport.probing = true
            sentRequestIds = []
        case "finished":
            if let page = transport.page { notify(.loaded(page)) }
        default:
            break
        }
    }

    private func ended() {
        hasEnded = true
        failStart(WebKitJourneyError.runnerDidNotStart(
            path: configuration.runnerPath ?? WebKitRunnerLocator.executableName, reason: "it ended (\(process.exitDescription))", standardError: process.standardError))
        for (_, continuation) in queries { continuation.resume(throwing: WebKitJourneyError.runnerGone) }
        queries = [:]
        guard started, !stopping else { return }
        if let host, host.isJourneyAttached, !isViewDestroyed { host.detach() }
        notify(.runnerEnded(how: process.exitDescription, standardError: process.standardError))
    }

    /// Text from the page or WebKit, kept printable and short for `lastError` and notices.
    static func printable(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars.prefix(300) {
            output.unicodeScalars.append(scalar.properties.generalCategory == .control ? "?" : scalar)
        }
        return text.unicodeScalars.count > 300 ? output + "…" : output
    }
}
