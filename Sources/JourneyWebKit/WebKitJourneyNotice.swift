import BridgeCore

/// One page context in the web view: a top-level document the web view committed to. A reload or
/// a navigation makes a new one, with the bootstrap run again at its document start.
public struct WebKitPage: Sendable, Hashable, CustomStringConvertible {
    /// The page's number, counted from 1 in the order the web view committed them.
    public let id: Int
    /// The page's address (printable, at most 300 characters).
    public let uri: String

    /// Creates a page description.
    public init(id: Int, uri: String) {
        self.id = id
        self.uri = uri
    }

    /// `page 2 (file:///…/index.html)`.
    public var description: String { "page \(id) (\(uri))" }
}

/// What happened to a journey in WebKit that the person running the host should know. Texts in
/// it come from the page or WebKit: untrusted, to be made safe before a terminal shows them.
public enum WebKitJourneyNotice: Sendable {
    /// A page finished loading: it is the journey now (send `host.ready`, as an app does once its
    /// web view finished loading).
    case loaded(WebKitPage)
    /// A page went (reload or navigation); `stillPending` are the requests it sent that still wait
    /// in `pendingRequests`.
    case went(WebKitPage, stillPending: [BridgeMessage])
    /// A navigation failed.
    case loadFailed(uri: String, error: String)
    /// A delivery reached GBGBridge's no-op `receive`: the journey had not set its own yet, so the
    /// message was lost.
    case lostDelivery(BridgeMessage, page: WebKitPage)
    /// The web content process ended; deliveries fail until a page loads again.
    case webProcessTerminated(reason: String)
    /// The web view is gone; the host is detached, and sends fail with `WebView not attached`.
    case viewDestroyed
    /// The runner said something that is not part of the protocol, or could not use a command.
    case runnerProblem(String)
    /// The runner ended (`how`: its exit status); the host is detached.
    case runnerEnded(how: String, standardError: String)
}
