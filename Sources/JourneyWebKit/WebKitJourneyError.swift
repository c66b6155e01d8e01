/// Why a journey in WebKit could not start or go on: each says what to do.
public enum WebKitJourneyError: Error, Sendable, CustomStringConvertible {
    /// No `bridge-inspector-webkit` was found; `looked` lists where.
    case runnerNotFound(looked: [String])
    /// The runner could not be started, or ended before its web view existed.
    case runnerDidNotStart(path: String, reason: String, standardError: String)
    /// The runner wrote no `started` within `seconds`.
    case runnerTimedOut(seconds: Int, standardError: String)
    /// The journey is neither a readable directory or HTML file nor a URL.
    case invalidJourney(String)
    /// The runner's input is closed (it ended, or the journey stopped).
    case runnerGone
    /// A query could not run, or failed in the page.
    case queryFailed(String)

    public var description: String {
        switch self {
        case .runnerNotFound(let looked):
            return """
                the WebKit runner (bridge-inspector-webkit) was not found. Build it from the repository with \
                `swift build --package-path Integrations/WebKitRunner` (it needs `apt-get install libwebkit2gtk-4.1-dev xvfb xauth`), \
                or set BRIDGE_INSPECTOR_WEBKIT_RUNNER to its path. Looked in: \(looked.joined(separator: ", "))
                """
        case .runnerDidNotStart(let path, let reason, let standardError):
            return "the WebKit runner \(path) did not start: \(reason)" + Self.tail(standardError)
        case .runnerTimedOut(let seconds, let standardError):
            return "the WebKit runner did not open its web view within \(seconds) s" + Self.tail(standardError)
        case .invalidJourney(let text):
            return text
        case .runnerGone:
            return "the WebKit runner has ended; restart the host to open the journey again"
        case .queryFailed(let text):
            return text
        }
    }

    private static func tail(_ standardError: String) -> String {
        let lines = standardError.split(separator: "\n").suffix(8)
        return lines.isEmpty ? "" : "; it said:\n  " + lines.joined(separator: "\n  ")
    }
}

/// The error WebKit reported when it evaluated a delivery: what `evaluateJavaScript`'s completion
/// handler reports on iOS when the script throws or cannot run.
public struct WebKitScriptError: Error, Sendable, Equatable, CustomStringConvertible {
    /// WebKit's text, such as `TypeError: … is not a function` (printable, at most 300 characters).
    public let message: String
    /// The page context (counted from 1) the delivery was evaluated in.
    public let page: Int

    /// Creates an error.
    public init(message: String, page: Int) {
        self.message = message
        self.page = page
    }

    /// `TypeError: … (in page 2)`: how it reads in `lastError`.
    public var description: String { "\(message) (in page \(page))" }
}
