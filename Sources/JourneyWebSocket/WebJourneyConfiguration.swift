import BridgeCore

/// The fixed paths the web-journey server answers besides the served files. Files of the same
/// names in the served directory are shadowed by them.
public enum WebJourneyPaths {
    /// The browser bootstrap script (``BrowserBootstrap/script(bootstrapScript:)``). A page the
    /// server serves gets it injected; a page from its own dev server includes
    /// ``WebJourneyServer/bootstrapScriptURL`` (this path with the run's token) as its first script.
    public static let bootstrapScript = "/__gbgbridge/bootstrap.js"
    /// The WebSocket endpoint the bootstrap connects to: one connection per page context.
    public static let socket = "/__gbgbridge/socket"
    /// The prefix reserved for the paths above.
    public static let reservedPrefix = "/__gbgbridge/"
}

/// How a ``WebJourneyServer`` serves a web journey.
///
/// ```swift
/// var configuration = WebJourneyConfiguration(servedDirectory: "examples/web-journey")
/// configuration.port = 8787
/// configuration.allowedOrigins = ["http://localhost:5173"]   // a journey on its own dev server
/// ```
public struct WebJourneyConfiguration: Sendable {
    /// The directory whose files are served, or `nil` to serve only the bridge endpoints (for a
    /// journey on its own dev server that includes the bootstrap script tag).
    public var servedDirectory: String?
    /// The TCP port on 127.0.0.1; 0 picks a free one (``WebJourneyServer/port`` tells which).
    public var port: Int
    /// Origins besides the served one (`http://127.0.0.1:<port>`, `http://localhost:<port>`)
    /// whose pages may open the bridge WebSocket, such as a dev server's `http://localhost:5173`.
    /// Each is `scheme://host[:port]`; see ``WebJourneyConfiguration/normalizedOrigin(_:)``.
    public var allowedOrigins: [String]
    /// The bootstrap script the page runs after the bridge shim, at document start, top-level frame
    /// only. Default: GBGBridge's documented default, ``BridgeConfiguration/defaultBootstrapScript``.
    public var bootstrapScript: String
    /// The largest message a page may send, in bytes (default 16 MiB); a larger one closes the
    /// page's connection with WebSocket close code 1009.
    public var maximumMessageBytes: Int
    /// How many bytes of deliveries may wait to be written to a page that does not read them
    /// before further deliveries fail (default 64 MiB).
    public var maximumPendingDeliveryBytes: Int
    /// The largest file served, in bytes (default 256 MiB).
    public var maximumFileBytes: Int
    /// How long a connection has to send a whole request, counted from when it opens or from the
    /// end of the previous response (default 10 seconds). A connection that is slower, such as
    /// one sending its header a byte at a time ("slowloris"), or an idle keep-alive one, is
    /// closed. The bridge WebSocket, once open, has no such limit.
    public var requestTimeout: Duration
    /// How long an HTTP connection may go without reading or writing anything before it is
    /// closed (default 60 seconds), such as a download the client stopped reading. The bridge
    /// WebSocket, once open, has no such limit: a journey may wait for its person for long.
    public var idleTimeout: Duration
    /// A page script of an inspector and the handler it reports to, or `nil` (the default) for
    /// none: see ``PageReportChannel``. The bootstrap served to pages of allowed origins has it too.
    public var pageReports: PageReportChannel?

    /// Creates a configuration; everything but the directory has the documented default.
    public init(
        servedDirectory: String?, port: Int = 0, allowedOrigins: [String] = [],
        bootstrapScript: String = BridgeConfiguration.defaultBootstrapScript,
        maximumMessageBytes: Int = 16 * 1024 * 1024, maximumPendingDeliveryBytes: Int = 64 * 1024 * 1024,
        maximumFileBytes: Int = 256 * 1024 * 1024, requestTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(60),
        pageReports: PageReportChannel? = nil
    ) {
        self.servedDirectory = servedDirectory
        self.port = port
        self.allowedOrigins = allowedOrigins
        self.bootstrapScript = bootstrapScript
        self.maximumMessageBytes = maximumMessageBytes
        self.maximumPendingDeliveryBytes = maximumPendingDeliveryBytes
        self.maximumFileBytes = maximumFileBytes
        self.requestTimeout = requestTimeout
        self.idleTimeout = idleTimeout
        self.pageReports = pageReports
    }

    /// The address the server binds: loopback only, never anything reachable from another machine.
    public static let bindAddress = "127.0.0.1"

    /// `origin` in the form browsers send in the `Origin` header (lowercase scheme and host, no
    /// default port, no trailing slash), or `nil` when it is not an `http`/`https` origin with
    /// nothing after the host and port.
    ///
    /// ```swift
    /// WebJourneyConfiguration.normalizedOrigin("HTTP://LocalHost:5173/")   // "http://localhost:5173"
    /// WebJourneyConfiguration.normalizedOrigin("http://localhost:5173/app") // nil
    /// ```
    public static func normalizedOrigin(_ origin: String) -> String? {
        var text = origin.trimmingCharacters(in: .whitespaces)
        if text.hasSuffix("/") { text.removeLast() }
        let lower = text.lowercased()
        let scheme: String
        if lower.hasPrefix("http://") {
            scheme = "http"
        } else if lower.hasPrefix("https://") {
            scheme = "https"
        } else {
            return nil
        }
        let rest = lower.dropFirst(scheme.count + 3)
        guard !rest.isEmpty,
            rest.allSatisfy({ $0.isLetter || $0.isNumber || "-.:[]".contains($0) }),
            rest.unicodeScalars.allSatisfy({ $0.isASCII })
        else { return nil }
        var hostPart = String(rest)
        if let colon = hostPart.lastIndex(of: ":"), !hostPart.hasSuffix("]") {
            let port = hostPart[hostPart.index(after: colon)...]
            guard let number = Int(port), (1...65535).contains(number) else { return nil }
            hostPart = String(hostPart[..<colon])
            guard !hostPart.isEmpty else { return nil }
            if (scheme == "http" && number == 80) || (scheme == "https" && number == 443) {
                return "\(scheme)://\(hostPart)"
            }
            return "\(scheme)://\(hostPart):\(number)"
        }
        return "\(scheme)://\(hostPart)"
    }
}

/// Why the web-journey server could not start or a delivery failed.
public enum WebJourneyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The served directory cannot be used.
    case servedDirectory(path: String, problem: String)
    /// An allowed origin is not of the form `scheme://host[:port]`.
    case invalidOrigin(String)
    /// The port is outside 0...65535.
    case invalidPort(Int)
    /// A timeout (named by its configuration property) is not positive.
    case invalidTimeout(name: String, Duration)
    /// Binding 127.0.0.1 failed (the port is taken, for example).
    case cannotListen(port: Int, detail: String)
    /// The page's connection is closed: the page reloaded, navigated away or was closed.
    case pageClosed(page: Int)
    /// The page has not read what was already sent to it (its tab is frozen or gone).
    case pageNotReading(page: Int, pendingBytes: Int)
    /// No page is attached, so none can post as the journey (see
    /// ``WebJourneyServer/postAsJourney(_:asObject:)``).
    case noPageAttached

    /// A sentence that says what went wrong and, where it helps, what to do.
    public var description: String {
        switch self {
        case .servedDirectory(let path, let problem):
            return "cannot serve \(path): \(problem)"
        case .invalidOrigin(let origin):
            return "\"\(origin)\" is not an origin: write it as scheme://host[:port], such as http://localhost:5173"
        case .invalidPort(let port):
            return "\(port) is not a TCP port: use 1 to 65535, or 0 to pick a free one"
        case .invalidTimeout(let name, let duration):
            return "\(name) is \(duration): a timeout must be longer than zero"
        case .cannotListen(let port, let detail):
            return "cannot listen on \(WebJourneyConfiguration.bindAddress):\(port): \(detail)"
        case .pageClosed(let page):
            return "the WebSocket of page \(page) is closed (it reloaded, navigated away or was closed)"
        case .pageNotReading(let page, let bytes):
            return "page \(page) has not read the last \(bytes) bytes sent to it; is its tab frozen?"
        case .noPageAttached:
            return "no page of the journey is attached: open the journey's page (the URL the host printed) in the browser, and try again once it has attached"
        }
    }
}
