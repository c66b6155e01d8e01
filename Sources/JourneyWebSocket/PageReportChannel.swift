/// A second message handler for the served pages, besides `gbgBridge`, whose posts reach the
/// host process instead of the bridge: how `bridge-inspector host --inspect-via public-api`
/// runs an inspector's page script (such as GBGBridgeInspector's `OutgoingTapScript`) in the
/// browser exactly as an app runs it in its WKWebView.
///
/// With a channel in ``WebJourneyConfiguration/pageReports``, the bootstrap script also defines
/// `window.webkit.messageHandlers.<handlerName>.postMessage(body)` and then runs ``script``,
/// both at document start in the top-level frame, after the bridge bootstrap and before the
/// page's own scripts. Each post travels over the page's bridge WebSocket as a frame of its own
/// kind, `{"kind":"report","text":"<body as posted>"}`; the bridge messages are untouched. The
/// server hands the body of each report to ``receive`` on the main actor, but only a report of
/// the page that is the attached journey, of at most ``maximumReportBytes`` UTF-8 bytes; the
/// others are counted in ``WebJourneyServer/pageReportCounts`` and dropped. The body is the
/// page's: untrusted text.
///
/// ```swift
/// configuration.pageReports = PageReportChannel(script: tapSource, handlerName: "gbgBridgeInspector") { body in
///     adapter.handle(body)
/// }
/// ```
public struct PageReportChannel: Sendable {
    /// The JavaScript the page runs after the bridge bootstrap, at document start.
    public var script: String
    /// The message handler the script posts to (`window.webkit.messageHandlers.<handlerName>`).
    public var handlerName: String
    /// The largest report body handed to ``receive``, in UTF-8 bytes (default 16 MiB). A page
    /// cannot send a frame larger than ``WebJourneyConfiguration/maximumMessageBytes``: the
    /// bootstrap replaces a larger report with a note of its size, counted as oversized.
    public var maximumReportBytes: Int
    /// Called on the main actor with the body of each report of the attached journey page.
    public var receive: @MainActor @Sendable (String) -> Void
    /// The page property of a script among ``script`` that can hold messages for breakpoints
    /// (GBGBridgeInspector's `PageInterceptScript`), or `nil`. With it, the bridge's
    /// `postMessage` hands each post to that object's `askReceived(message, post)` first, and the
    /// host's `intercept` control frames (``WebJourneyServer/callHolder(_:arguments:)``) call its
    /// `set` and `decide`.
    public var holdingEntryPoint: String?

    /// Creates a channel.
    public init(
        script: String, handlerName: String, maximumReportBytes: Int = 16 * 1024 * 1024,
        receive: @escaping @MainActor @Sendable (String) -> Void
    ) {
        self.script = script
        self.handlerName = handlerName
        self.maximumReportBytes = maximumReportBytes
        self.receive = receive
    }
}

/// What became of the reports pages sent over a ``PageReportChannel``.
public struct PageReportCounts: Sendable, Equatable {
    /// Reports handed to ``PageReportChannel/receive``.
    public var delivered = 0
    /// Reports of a page that was not the attached journey (superseded by a newer page).
    public var notFromJourneyPage = 0
    /// Reports over ``PageReportChannel/maximumReportBytes``, or too large to send at all.
    public var oversized = 0
    /// `report` frames without a string `text`.
    public var malformed = 0

    /// Creates counts (all zero by default).
    public init(delivered: Int = 0, notFromJourneyPage: Int = 0, oversized: Int = 0, malformed: Int = 0) {
        self.delivered = delivered
        self.notFromJourneyPage = notFromJourneyPage
        self.oversized = oversized
        self.malformed = malformed
    }

    /// How many reports were dropped.
    public var ignored: Int { notFromJourneyPage + oversized + malformed }
}
